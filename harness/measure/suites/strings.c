/* SPDX-License-Identifier: MIT */
/*
 * suite=strings (issue 12): the memset and memcpy routines of
 * variants/strings.def over sizes, alignments and two modes, and the cost
 * of a zero-length call against a branch around it.
 *
 * A call lasts a few to tens of ticks, less than one timed region resolves,
 * so each figure is a batch of calls between two LFENCE;RDTSC, less the same
 * batch of an empty routine, divided by the calls. Per block (op, mode,
 * alignment), for each size, each rep runs the empty routine and every
 * variant once in table order, so that drift and interrupts fall on all of
 * them alike; the block's lines are printed once it is measured: the
 * overhead of the empty batch, then per size a line per variant with the
 * minimum, the median and every rep's figure, in hundredths of a tick per
 * call. docs/method.md says what this can and cannot resolve.
 *
 * This file walks the blocks and the zero-length section; the batches,
 * the checks of their bytes and the lines are files of their own
 * (strings_block.h says which calls which).
 */
#include "harness/measure/host.h"
#include "lib/fmt.h"
#include "lib/out.h"
#include "harness/measure/sample.h"
#include "harness/measure/suites/strings.h"
#include "harness/measure/suites/strings_block.h"

/* Too large for a kernel stack; one block or section is measured at a time. */
static struct block_ticks block_ticks;
static struct zero_ticks zero_ticks;

/* ---- the blocks: every size, one op, mode and alignment ---- */

static void block_init(struct strings_state *s, struct block *k,
		       enum string_op op, enum strings_mode mode, unsigned int dmis,
		       unsigned int smis)
{
	unsigned int i;

	*k = (struct block){ .op = op, .mode = mode };
	k->dst = s->dwin + dmis;
	k->src = op == STRING_MEMCPY ? s->swin + smis : NULL;
	if (k->src)
		fmt_snprintf(k->name, sizeof(k->name), "%s dst=%u src=%u",
			     strings_mode_name(mode), dmis, smis);
	else
		fmt_snprintf(k->name, sizeof(k->name), "%s dst=%u",
			     strings_mode_name(mode), dmis);
	k->variant[k->nslots++] = -1;
	for (i = 0; i < string_variant_count && k->nslots < SLOTS_MAX; i++)
		if (string_variants[i].op == op && ((s->runs >> i) & 1))
			k->variant[k->nslots++] = (int)i;
	for (i = 0; i < k->nslots; i++)
		k->sizes_ok[i] = s->p->nsizes;
}

static void run_block(struct strings_state *s, enum string_op op,
		      enum strings_mode mode, unsigned int dmis, unsigned int smis)
{
	struct block k;

	block_init(s, &k, op, mode, dmis, smis);
	if (k.nslots == 1)
		return;
	out_line("strings %s %s:", string_op_name(op), k.name);
	sample_pass_begin();
	strings_measure_block(s, &k, &block_ticks);
	sample_pass_end(string_op_name(op), "strings");
	strings_print_block(s, &k, &block_ticks);
}

/* ---- zero length: REP with rcx = 0 against a branch around it ---- */

static void run_zero(struct strings_state *s, enum string_op op)
{
	struct block k;

	block_init(s, &k, op, MODE_TPUT, 0, 0);
	if (k.nslots == 1)
		return;
	for (unsigned int i = 0; i < k.nslots; i++)
		k.sizes_ok[i] = 1;
	fmt_snprintf(k.name, sizeof(k.name), "zero");
	out_line("strings zero %s calls=%u n=%u:", string_op_name(op),
		 STRINGS_ZERO_CALLS, STRINGS_ZERO_MIX_N);
	sample_pass_begin();
	strings_measure_zero(s, &k, &zero_ticks);
	sample_pass_end(string_op_name(op), "zero");
	strings_print_zero(s, &k, &zero_ticks);
}

/* ---- the suite ---- */

static unsigned int op_variants(const struct strings_state *s, enum string_op op)
{
	unsigned int i, n = 0;

	for (i = 0; i < string_variant_count; i++)
		n += string_variants[i].op == op && ((s->runs >> i) & 1);
	return n;
}

static uint64_t count_batches(const struct strings_state *s)
{
	uint64_t total = 0;
	enum string_op op;

	for (op = STRING_MEMSET; op <= STRING_MEMCPY; op++) {
		unsigned int nv = op_variants(s, op);
		unsigned int aligns = op == STRING_MEMCPY ?
				      STRINGS_NMISALIGN * STRINGS_NMISALIGN :
				      STRINGS_NMISALIGN;

		if (!nv)
			continue;
		total += (uint64_t)MODE_COUNT * aligns * s->p->nsizes *
			 s->p->reps * (1 + nv);
		total += (uint64_t)s->p->reps * (2 + PAT_COUNT * nv);
	}
	return total;
}

void strings_run(const struct plan *p, const struct cpu_desc *d,
		 const struct buffers *b, uint64_t tsc_khz, struct run_record *rec)
{
	static const unsigned int misaligns[STRINGS_NMISALIGN] = STRINGS_MISALIGNS;
	struct strings_state s = { .p = p, .runs = p->str_runs,
				   .figs = rec ? &rec->strings_figs : NULL };
	struct tsc_grain grain;
	unsigned int mode, di, si;
	enum string_op op;

	(void)d;
	if (!p->str_runs)
		return;
	/* Guard page, dst's window, guard page, src's window, guard page. */
	s.dwin = b->strings + PAGE_SIZE;
	s.swin = s.dwin + (STRINGS_WINDOW_PAGES + 1) * PAGE_SIZE;
	progress_start(&s.clock, tsc_khz, count_batches(&s), 0);
	if (s.figs)
		strings_figures_begin(s.figs);
	strings_tsc_grain(&grain);
	strings_print_tsc(&grain);
	for (op = STRING_MEMSET; op <= STRING_MEMCPY; op++) {
		for (mode = 0; mode < MODE_COUNT; mode++)
			for (di = 0; di < STRINGS_NMISALIGN; di++)
				for (si = 0; si < (op == STRING_MEMCPY ? STRINGS_NMISALIGN : 1); si++)
					run_block(&s, op, mode, misaligns[di], misaligns[si]);
		run_zero(&s, op);
	}
	/* A figure's step: the TSC's over a batch's calls, in hundredths of a tick. */
	if (rec) {
		rec->strings = true;
		rec->strings_quantum = grain.step * 100 / STRINGS_CALLS;
	}
}
