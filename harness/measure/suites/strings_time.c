/* SPDX-License-Identifier: MIT */
/*
 * suite=strings: the timed batches. Each batch of calls lies between two
 * LFENCE;RDTSC (time_guarded), on bytes strings_verify.c prepares before
 * and checks after it; the ticks are left in the caller's arrays, for
 * strings_lines.c to turn into figures.
 */
#include <stddef.h>
#include "harness/measure/bench.h"
#include "lib/fmt.h"
#include "cpu/insn.h"
#include "lib/run.h"
#include "harness/measure/sample.h"
#include "harness/measure/suites/strings_block.h"
#include "harness/measure/suites/strings_loop.h"
#include "harness/measure/timer.h"

_Static_assert(offsetof(struct strings_batch, fn) == 0 &&
	       offsetof(struct strings_batch, dst) == 8 &&
	       offsetof(struct strings_batch, arg2) == 16 &&
	       offsetof(struct strings_batch, ns) == 24 &&
	       offsetof(struct strings_batch, calls) == 32,
	       "harness/measure/suites/strings_loop.asm has these offsets");

/* Any nonzero start for xorshift64; this one is 2^64 over the golden ratio. */
#define SHUFFLE_SEED	0x9e3779b97f4a7c15ull

/*
 * Each call's size, per pattern of the zero-length section; a block's
 * batches, whose calls are all of one size, borrow ns[PAT_ZERO].
 */
static size_t ns[PAT_COUNT][STRINGS_ZERO_CALLS];

/* The TSC's granularity, as harness/measure/timer.h measures it for every suite. */
void strings_tsc_grain(struct tsc_grain *g)
{
	struct timer_res t;

	timer_measure(&t);
	g->step = t.step;
	g->region = t.region;
	g->reads = t.reads;
}

static void call_tput(void *ctx)
{
	strings_loop_tput(ctx);
}

static void call_lat(void *ctx)
{
	strings_loop_lat(ctx);
}

static void *slot_fn(const struct block *k, unsigned int slot)
{
	const struct string_variant *v;

	if (k->variant[slot] < 0)
		return (void *)strings_empty;
	v = &string_variants[k->variant[slot]];
	return v->op == STRING_MEMSET ? (void *)v->set : (void *)v->copy;
}

static bool slot_runs(const struct strings_state *s, const struct block *k,
		      unsigned int slot)
{
	return k->variant[slot] < 0 || ((s->runs >> k->variant[slot]) & 1);
}

static bool slot_uses_vectors(const struct block *k, unsigned int slot)
{
	return k->variant[slot] >= 0 &&
	       string_variants[k->variant[slot]].regs == REGS_VEC;
}

/*
 * One timed batch of a slot's routine over the sizes in sizes[0..calls),
 * timed again while disturbed: what a batch writes does not depend on what
 * dst held, and its buffers are as warm the second time. A vector
 * routine's host_vector_begin()/_end() lie outside the timed region: once
 * per batch, they would count as a 1/calls share of a call.
 */
static bool batch(const struct block *k, unsigned int slot, unsigned int rep,
		  const size_t *sizes, size_t calls, uint64_t *ticks,
		  struct fault *f)
{
	struct strings_batch b = { slot_fn(k, slot), k->dst, strings_arg2(k, rep),
				   sizes, calls };
	bool vec = slot_uses_vectors(k, slot), ok;
	struct sample_tries tries = { 0 };
	struct host_sample h;

	if (vec)
		host_vector_begin();
	do
		ok = time_guarded(k->mode == MODE_LAT ? call_lat : call_tput, &b,
				  ticks, &h, f);
	while (ok && sample_again(&tries, *ticks, &h, slot_name(k, slot)));
	if (vec)
		host_vector_end();
	return ok;
}

/* ---- the blocks: every size, one op, mode and alignment ---- */

void strings_measure_block(struct strings_state *s, struct block *k,
			   struct block_ticks *t)
{
	const struct plan *p = s->p;
	unsigned int si, rep, slot, i;
	char batch_name[24];
	struct fault f;

	for (si = 0; si < p->nsizes; si++) {
		size_t n = p->sizes[si];

		fmt_snprintf(batch_name, sizeof(batch_name), "n=%zu", n);
		for (i = 0; i < STRINGS_CALLS; i++)
			ns[PAT_ZERO][i] = n;
		for (rep = 0; rep < p->reps; rep++) {
			strings_prepare_src(k, n, rep);
			for (slot = 0; slot < k->nslots; slot++) {
				if (!slot_runs(s, k, slot) || k->sizes_ok[slot] < p->nsizes)
					continue;
				host_may_yield();
				run_step("strings %s %s n=%zu rep %u variant %s",
					 string_op_name(k->op), k->name, n, rep,
					 slot_name(k, slot));
				progress_next(&s->clock, string_op_name(k->op), k->name,
					      slot_name(k, slot), rep, s->p->reps, 1);
				strings_prepare_dst(k, n, rep);
				if (!batch(k, slot, rep, ns[PAT_ZERO],
					   STRINGS_CALLS, &t->t[si][slot][rep], &f)) {
					strings_fault(s, k, slot, batch_name, &f);
					k->sizes_ok[slot] = si;
					continue;
				}
				if (slot != SLOT_EMPTY)
					strings_verify(s, k, slot, n, n, rep, batch_name);
			}
		}
	}
}

/* ---- zero length: REP with rcx = 0 against a branch around it ---- */

/* xorshift64: a fixed sequence per seed, the same for every variant. */
static uint64_t xorshift64(uint64_t *x)
{
	*x ^= *x << 13;
	*x ^= *x >> 7;
	*x ^= *x << 17;
	return *x;
}

/*
 * The batches' sizes: all 0 (the branch always goes one way); 0 and
 * ZERO_MIX_N alternating (a pattern any history-based predictor learns);
 * the same half and half in an order shuffled afresh each rep (which it
 * cannot); and the ZERO_MIX_N calls alone, to take out of the mixed ones.
 */
static void zero_patterns(unsigned int rep)
{
	uint64_t x = SHUFFLE_SEED ^ ((uint64_t)(rep + 1) << 32);
	unsigned int i;

	for (i = 0; i < STRINGS_ZERO_CALLS; i++) {
		ns[PAT_ZERO][i] = 0;
		ns[PAT_ALT][i] = i & 1 ? STRINGS_ZERO_MIX_N : 0;
		ns[PAT_RANDOM][i] = ns[PAT_ALT][i];
		ns[PAT_MIX_ONLY][i] = STRINGS_ZERO_MIX_N;
	}
	for (i = STRINGS_ZERO_CALLS - 1; i; i--) {
		unsigned int j = (unsigned int)(xorshift64(&x) % (i + 1));
		size_t t = ns[PAT_RANDOM][i];

		ns[PAT_RANDOM][i] = ns[PAT_RANDOM][j];
		ns[PAT_RANDOM][j] = t;
	}
}

static size_t pattern_calls(enum pattern pat)
{
	return pat == PAT_MIX_ONLY ? ZERO_HALF : STRINGS_ZERO_CALLS;
}

void strings_measure_zero(struct strings_state *s, struct block *k,
			  struct zero_ticks *z)
{
	const size_t m = STRINGS_ZERO_MIX_N;
	unsigned int rep, slot, pat;
	struct fault f;

	for (rep = 0; rep < s->p->reps; rep++) {
		zero_patterns(rep);
		strings_prepare_src(k, m, rep);
		for (slot = 0; slot < k->nslots; slot++) {
			if (!slot_runs(s, k, slot) || !k->sizes_ok[slot])
				continue;
			for (pat = 0; pat < PAT_COUNT; pat++) {
				uint64_t *t = slot == SLOT_EMPTY ?
					      (pat == PAT_ZERO ? &z->empty[0][rep] :
					       pat == PAT_MIX_ONLY ? &z->empty[1][rep] : NULL) :
					      &z->t[slot][pat][rep];

				if (!t)
					continue;
				host_may_yield();
				run_step("strings zero %s pattern=%s rep %u variant %s",
					 string_op_name(k->op), pattern_name(pat),
					 rep, slot_name(k, slot));
				progress_next(&s->clock, string_op_name(k->op), k->name,
					      slot_name(k, slot), rep, s->p->reps, 1);
				strings_prepare_dst(k, m, rep);
				if (!batch(k, slot, rep, ns[pat],
					   pattern_calls(pat), t, &f)) {
					strings_fault(s, k, slot, pattern_name(pat), &f);
					k->sizes_ok[slot] = 0;
					break;
				}
				if (slot != SLOT_EMPTY)
					strings_verify(s, k, slot, pat == PAT_ZERO ? 0 : m, m,
						       rep, pattern_name(pat));
			}
		}
	}
}
