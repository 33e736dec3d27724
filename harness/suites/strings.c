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
 */
#include <stddef.h>
#include "harness/bench.h"
#include "lib/fmt.h"
#include "harness/host.h"
#include "cpu/insn.h"
#include "lib/out.h"
#include "harness/progress.h"
#include "lib/run.h"
#include "harness/suites/strings.h"
#include "variants/strings.h"

_Static_assert(offsetof(struct strings_batch, fn) == 0 &&
	       offsetof(struct strings_batch, dst) == 8 &&
	       offsetof(struct strings_batch, arg2) == 16 &&
	       offsetof(struct strings_batch, ns) == 24 &&
	       offsetof(struct strings_batch, calls) == 32,
	       "harness/suites/strings_loop.asm has these offsets");

/* Rows of strings.def, counted at compile time to size the result arrays. */
enum {
#define STRING_VARIANT(op, name, fn, need, regs, what) STRING_ROW_##op##_##name,
#include "variants/strings.def"
#undef STRING_VARIANT
	STRING_ROWS
};
/* A block's slots: the empty routine, then the op's variants. */
#define SLOT_EMPTY	0
#define SLOTS_MAX	(1 + STRING_ROWS)

#define GUARD		64	/* bytes checked on each side of a range */
#define SRC_GUARD_BYTE	0x3c	/* around src, unlike dst's: an over-long copy shows */
#define FILL_BASE	0xa0	/* memset fills with FILL_BASE + rep % FILL_KINDS */
#define FILL_KINDS	16
#define CENTI		100	/* figures are printed in hundredths of a tick */
#define TSC_READS	1000	/* for the TSC's granularity */
#define TSC_SPIN_MAX	1000000	/* reads that may return one value */
#define FIGURE_MAX	24	/* "-9223372036854775808.00" and a NUL */
/* Any nonzero start for xorshift64; this one is 2^64 over the golden ratio. */
#define SHUFFLE_SEED	0x9e3779b97f4a7c15ull

enum mode { MODE_TPUT, MODE_LAT, MODE_COUNT };
static const char *const mode_names[MODE_COUNT] = { "tput", "lat" };

/* Zero-length section: the call sizes of its batches. */
enum pattern { PAT_ZERO, PAT_ALT, PAT_RANDOM, PAT_MIX_ONLY, PAT_COUNT };
static const char *const pattern_names[PAT_COUNT] = {
	"zero", "alt", "random", "mix_only",
};
#define ZERO_HALF	(STRINGS_ZERO_CALLS / 2)

struct strings_state {
	const struct plan *p;
	variant_set runs;		/* the plan's, less what faulted */
	uint8_t *dwin, *swin;		/* dst's and src's windows, page-aligned */
	struct progress_clock clock;	/* in batches */
};

/* One block: what runs, on which bytes. */
struct block {
	enum string_op op;
	enum mode mode;
	uint8_t *dst, *src;		/* src NULL for memset */
	char name[40];			/* "tput dst=1 src=7", for failures */
	unsigned int nslots;
	int variant[SLOTS_MAX];		/* index in string_variants; -1: empty */
	unsigned int sizes_ok[SLOTS_MAX]; /* sizes measured before a fault */
};

static size_t ns[PAT_COUNT][STRINGS_ZERO_CALLS];
/* Batch ticks of a block: [size][slot][rep]. */
static uint64_t raw[STRINGS_SIZES_MAX][SLOTS_MAX][STRINGS_REPS_MAX];
static uint64_t zraw[SLOTS_MAX][PAT_COUNT][STRINGS_REPS_MAX];
static uint64_t scratch[STRINGS_SIZES_MAX * STRINGS_REPS_MAX];
static int64_t figures[STRINGS_REPS_MAX];

static inline uint64_t rdtsc_plain(void)
{
	uint32_t lo, hi;

	asm volatile("rdtsc" : "=a"(lo), "=d"(hi));
	return ((uint64_t)hi << 32) | lo;
}

/*
 * step: the usual advance between two consecutive RDTSCs that differ (the
 * median of TSC_READS), the finest time a region shows: the counter's own
 * step (26 ticks on this project's VM, whose TSC is scaled; there a step
 * is now and then a tick longer or shorter, so no smallest one or common
 * divisor says it), or the time one RDTSC takes where that is longer.
 * region: the narrowest LFENCE;RDTSC pair, the floor of every timed
 * region. A batch of calls resolves a call to about step / calls.
 */
static void print_tsc(void)
{
	static uint64_t steps[TSC_READS];
	uint64_t region = UINT64_MAX;
	unsigned int i;

	for (i = 0; i < TSC_READS; i++) {
		uint64_t a = rdtsc_plain(), b = rdtsc_plain();
		unsigned int spins = 0;

		/* A counter that stands still gives up, and a step of 0. */
		while (b == a && ++spins < TSC_SPIN_MAX)
			b = rdtsc_plain();
		steps[i] = b - a;
		a = rdtsc_ordered();
		b = rdtsc_ordered();
		if (b - a < region)
			region = b - a;
	}
	sort_u64(steps, TSC_READS);
	out_line("strings tsc step=%lu region=%lu reads=%u",
		 (unsigned long)steps[TSC_READS / 2], (unsigned long)region,
		 TSC_READS);
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

static const char *slot_name(const struct block *k, unsigned int slot)
{
	return k->variant[slot] < 0 ? "empty" : string_variants[k->variant[slot]].name;
}

static uint8_t fill_byte(unsigned int rep)
{
	return (uint8_t)(FILL_BASE + rep % FILL_KINDS);
}

static uintptr_t arg2(const struct block *k, unsigned int rep)
{
	return k->src ? (uintptr_t)k->src : fill_byte(rep);
}

/* What dst[i] must hold once a call of more than i bytes has run. */
static uint8_t want_byte(const struct block *k, size_t i, unsigned int rep)
{
	return k->src ? k->src[i] : fill_byte(rep);
}

/* src: a pattern of this rep, other guard bytes than dst's around it. */
static void prepare_src(const struct block *k, size_t n, unsigned int rep)
{
	size_t i;

	if (!k->src)
		return;
	for (i = 0; i < GUARD; i++) {
		k->src[-1 - (ptrdiff_t)i] = SRC_GUARD_BYTE;
		k->src[n + i] = SRC_GUARD_BYTE;
	}
	for (i = 0; i < n; i++)
		k->src[i] = (uint8_t)(i * 13 + rep * 7 + 0x21);
}

/*
 * dst: guard bytes around [dst, dst + n), and in it the complement of the
 * result, so a routine that did nothing fails. This also brings every line
 * the batch touches into the cache: the suite measures warm buffers.
 */
static void prepare_dst(const struct block *k, size_t n, unsigned int rep)
{
	size_t i;

	for (i = 0; i < GUARD; i++) {
		k->dst[-1 - (ptrdiff_t)i] = GUARD_BYTE;
		k->dst[n + i] = GUARD_BYTE;
	}
	for (i = 0; i < n; i++)
		k->dst[i] = (uint8_t)~want_byte(k, i, rep);
}

/*
 * After a batch whose calls wrote [dst, dst + written), inside a prepared
 * range of n bytes: the result there, the rest of the range untouched, the
 * guards intact. A failure prints one line and counts.
 */
static void verify(const struct block *k, unsigned int slot, size_t written,
		   size_t n, unsigned int rep, const char *batch)
{
	const char *what = NULL;
	ptrdiff_t off = 0;
	uint8_t got = 0, want = 0;
	size_t i;

	for (i = 0; i < GUARD && !what; i++) {
		got = k->dst[-1 - (ptrdiff_t)i];
		want = GUARD_BYTE;
		if (got != want) {
			off = -1 - (ptrdiff_t)i;
			what = "guard byte before dst written (offset counts back)";
		}
	}
	for (i = 0; i < n + GUARD && !what; i++) {
		got = k->dst[i];
		want = i >= n ? GUARD_BYTE : i < written ? want_byte(k, i, rep) :
		       (uint8_t)~want_byte(k, i, rep);
		if (got != want) {
			off = (ptrdiff_t)i;
			what = i >= n ? "guard byte after dst written" :
			       i < written ? "wrong byte" : "byte past the calls' sizes written";
		}
	}
	if (!what)
		return;
	out_line("verify FAILED: suite=%s pass=strings %s %s variant=%s offset=0x%lx %s: 0x%x, want 0x%x",
		 string_op_name(k->op), k->name, batch, slot_name(k, slot),
		 (unsigned long)(off < 0 ? -off : off), what, got, want);
	run_fail();
}

static void fault(struct strings_state *s, const struct block *k,
		  unsigned int slot, const char *batch, const struct fault *f)
{
	out_line("fault: suite=%s pass=strings %s %s variant=%s %s rip=0x%lx",
		 string_op_name(k->op), k->name, batch, slot_name(k, slot),
		 f->what, (unsigned long)f->rip);
	run_fail();
	if (k->variant[slot] >= 0)
		s->runs &= ~(1ull << k->variant[slot]);
}

static bool slot_uses_vectors(const struct block *k, unsigned int slot)
{
	return k->variant[slot] >= 0 &&
	       string_variants[k->variant[slot]].regs == REGS_VEC;
}

/*
 * One timed batch of the slot's routine over the sizes in sizes[0..calls).
 * A vector routine's host_vector_begin()/_end() lie outside the timed
 * region: once per batch, they would count as a 1/calls share of a call.
 */
static bool batch(const struct block *k, unsigned int slot, unsigned int rep,
		  const size_t *sizes, size_t calls, uint64_t *ticks,
		  struct fault *f)
{
	struct strings_batch b = { slot_fn(k, slot), k->dst, arg2(k, rep),
				   sizes, calls };
	bool vec = slot_uses_vectors(k, slot), ok;

	if (vec)
		host_vector_begin();
	ok = time_guarded(k->mode == MODE_LAT ? call_lat : call_tput, &b,
			  ticks, f);
	if (vec)
		host_vector_end();
	return ok;
}

/* ---- figures ---- */

static void sort_i64(int64_t *v, unsigned int n)
{
	unsigned int i, j;

	for (i = 1; i < n; i++)
		for (j = i; j && v[j - 1] > v[j]; j--) {
			int64_t x = v[j];

			v[j] = v[j - 1];
			v[j - 1] = x;
		}
}

/* Hundredths of a tick per call: ticks over calls, rounded to nearest. */
static int64_t per_call(int64_t ticks, uint64_t calls)
{
	int64_t x = ticks * CENTI, half = (int64_t)(calls / 2);

	return (x >= 0 ? x + half : x - half) / (int64_t)calls;
}

static void centi_text(char *buf, int64_t v)
{
	uint64_t a = v < 0 ? -(uint64_t)v : (uint64_t)v;

	fmt_snprintf(buf, FIGURE_MAX, "%s%lu.%02lu", v < 0 ? "-" : "",
		     (unsigned long)(a / CENTI), (unsigned long)(a % CENTI));
}

/*
 * " NAME KEY min=M median=D all=A,B,...": per-call figures of n reps, in
 * rep order; min and median over them (an even count's median is the
 * mean of the middle two, truncated to a hundredth).
 */
static void print_figures(const char *name, const char *key,
			  const int64_t *v, unsigned int n)
{
	char all[OUT_LINE_MAX], fig[FIGURE_MAX], mn[FIGURE_MAX], md[FIGURE_MAX];
	int64_t sorted[STRINGS_REPS_MAX];
	size_t len = 0;
	unsigned int i;

	for (i = 0; i < n; i++) {
		sorted[i] = v[i];
		centi_text(fig, v[i]);
		len += fmt_snprintf(all + len, len < sizeof(all) ? sizeof(all) - len : 0,
				    "%s%s", i ? "," : "", fig);
	}
	sort_i64(sorted, n);
	centi_text(mn, sorted[0]);
	centi_text(md, (sorted[(n - 1) / 2] + sorted[n / 2]) / 2);
	out_line(" %s %s min=%s median=%s all=%s", name, key, mn, md, all);
}

static void sort_and_print_overhead(uint64_t *t, unsigned int n, size_t calls)
{
	sort_u64(t, n);
	out_line("strings overhead calls=%zu min=%lu median=%lu n=%u", calls,
		 (unsigned long)t[0],
		 (unsigned long)((t[(n - 1) / 2] + t[n / 2]) / 2), n);
}

/* ---- the blocks: every size, one op, mode and alignment ---- */

static void block_init(struct strings_state *s, struct block *k,
		       enum string_op op, enum mode mode, unsigned int dmis,
		       unsigned int smis)
{
	unsigned int i;

	*k = (struct block){ .op = op, .mode = mode };
	k->dst = s->dwin + dmis;
	k->src = op == STRING_MEMCPY ? s->swin + smis : NULL;
	if (k->src)
		fmt_snprintf(k->name, sizeof(k->name), "%s dst=%u src=%u",
			     mode_names[mode], dmis, smis);
	else
		fmt_snprintf(k->name, sizeof(k->name), "%s dst=%u",
			     mode_names[mode], dmis);
	k->variant[k->nslots++] = -1;
	for (i = 0; i < string_variant_count && k->nslots < SLOTS_MAX; i++)
		if (string_variants[i].op == op && ((s->runs >> i) & 1))
			k->variant[k->nslots++] = (int)i;
	for (i = 0; i < k->nslots; i++)
		k->sizes_ok[i] = s->p->nsizes;
}

static bool slot_runs(const struct strings_state *s, const struct block *k,
		      unsigned int slot)
{
	return k->variant[slot] < 0 || ((s->runs >> k->variant[slot]) & 1);
}

static void measure_block(struct strings_state *s, struct block *k)
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
			prepare_src(k, n, rep);
			for (slot = 0; slot < k->nslots; slot++) {
				if (!slot_runs(s, k, slot) || k->sizes_ok[slot] < p->nsizes)
					continue;
				run_step("strings %s %s n=%zu rep %u variant %s",
					 string_op_name(k->op), k->name, n, rep,
					 slot_name(k, slot));
				progress_next(&s->clock, string_op_name(k->op), k->name,
					      slot_name(k, slot), rep, s->p->reps, 1);
				prepare_dst(k, n, rep);
				if (!batch(k, slot, rep, ns[PAT_ZERO],
					   STRINGS_CALLS, &raw[si][slot][rep], &f)) {
					fault(s, k, slot, batch_name, &f);
					k->sizes_ok[slot] = si;
					continue;
				}
				if (slot != SLOT_EMPTY)
					verify(k, slot, n, n, rep, batch_name);
			}
		}
	}
}

static void print_block(const struct strings_state *s, const struct block *k)
{
	const struct plan *p = s->p;
	unsigned int si, rep, slot, n = 0;
	uint64_t overhead;
	char key[24];

	if (!k->sizes_ok[SLOT_EMPTY])
		return;		/* nothing to subtract: the fault line says why */
	for (si = 0; si < k->sizes_ok[SLOT_EMPTY]; si++)
		for (rep = 0; rep < p->reps; rep++)
			scratch[n++] = raw[si][SLOT_EMPTY][rep];
	sort_and_print_overhead(scratch, n, STRINGS_CALLS);
	overhead = scratch[0];
	for (si = 0; si < k->sizes_ok[SLOT_EMPTY]; si++) {
		fmt_snprintf(key, sizeof(key), "n=%u", p->sizes[si]);
		for (slot = SLOT_EMPTY + 1; slot < k->nslots; slot++) {
			if (si >= k->sizes_ok[slot])
				continue;
			for (rep = 0; rep < p->reps; rep++)
				figures[rep] = per_call((int64_t)(raw[si][slot][rep] - overhead),
							STRINGS_CALLS);
			print_figures(slot_name(k, slot), key, figures, p->reps);
		}
	}
}

static void run_block(struct strings_state *s, enum string_op op,
		      enum mode mode, unsigned int dmis, unsigned int smis)
{
	struct block k;

	block_init(s, &k, op, mode, dmis, smis);
	if (k.nslots == 1)
		return;
	out_line("strings %s %s:", string_op_name(op), k.name);
	host_pass_begin();
	measure_block(s, &k);
	host_pass_end(string_op_name(op), "strings");
	print_block(s, &k);
}

/* ---- zero length: REP with rcx = 0 against a branch around it ---- */

/* xorshift64: a fixed sequence per seed, the same for every variant. */
static uint64_t next_random(uint64_t *x)
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
		unsigned int j = (unsigned int)(next_random(&x) % (i + 1));
		size_t t = ns[PAT_RANDOM][i];

		ns[PAT_RANDOM][i] = ns[PAT_RANDOM][j];
		ns[PAT_RANDOM][j] = t;
	}
}

static size_t pattern_calls(enum pattern pat)
{
	return pat == PAT_MIX_ONLY ? ZERO_HALF : STRINGS_ZERO_CALLS;
}

static void measure_zero(struct strings_state *s, struct block *k,
			 uint64_t empty[2][STRINGS_REPS_MAX])
{
	const size_t m = STRINGS_ZERO_MIX_N;
	unsigned int rep, slot, pat;
	struct fault f;

	for (rep = 0; rep < s->p->reps; rep++) {
		zero_patterns(rep);
		prepare_src(k, m, rep);
		for (slot = 0; slot < k->nslots; slot++) {
			if (!slot_runs(s, k, slot) || !k->sizes_ok[slot])
				continue;
			for (pat = 0; pat < PAT_COUNT; pat++) {
				uint64_t *t = slot == SLOT_EMPTY ?
					      (pat == PAT_ZERO ? &empty[0][rep] :
					       pat == PAT_MIX_ONLY ? &empty[1][rep] : NULL) :
					      &zraw[slot][pat][rep];

				if (!t)
					continue;
				run_step("strings zero %s pattern=%s rep %u variant %s",
					 string_op_name(k->op), pattern_names[pat],
					 rep, slot_name(k, slot));
				progress_next(&s->clock, string_op_name(k->op), k->name,
					      slot_name(k, slot), rep, s->p->reps, 1);
				prepare_dst(k, m, rep);
				if (!batch(k, slot, rep, ns[pat],
					   pattern_calls(pat), t, &f)) {
					fault(s, k, slot, pattern_names[pat], &f);
					k->sizes_ok[slot] = 0;
					break;
				}
				if (slot != SLOT_EMPTY)
					verify(k, slot, pat == PAT_ZERO ? 0 : m, m,
					       rep, pattern_names[pat]);
			}
		}
	}
}

/*
 * Per zero-length call, in hundredths of a tick: "zero", the batch of
 * zero-length calls less the empty batch, over its calls; "alt" and
 * "random", the mixed batch less the batch of its ZERO_MIX_N calls alone
 * (each less its empty batch), over the zero-length calls: what the
 * zero-length calls add to a stream, mispredicted branches included.
 */
static void print_zero(const struct strings_state *s, const struct block *k,
		       uint64_t empty[2][STRINGS_REPS_MAX])
{
	static const enum pattern shown[] = { PAT_ZERO, PAT_ALT, PAT_RANDOM };
	unsigned int reps = s->p->reps, rep, slot, i;
	uint64_t e_all, e_half;

	if (!k->sizes_ok[SLOT_EMPTY])
		return;
	for (rep = 0; rep < reps; rep++)
		scratch[rep] = empty[0][rep];
	sort_and_print_overhead(scratch, reps, STRINGS_ZERO_CALLS);
	e_all = scratch[0];
	for (rep = 0; rep < reps; rep++)
		scratch[rep] = empty[1][rep];
	sort_and_print_overhead(scratch, reps, ZERO_HALF);
	e_half = scratch[0];

	for (slot = SLOT_EMPTY + 1; slot < k->nslots; slot++) {
		if (!k->sizes_ok[slot])
			continue;
		for (i = 0; i < sizeof(shown) / sizeof(shown[0]); i++) {
			char key[24];

			for (rep = 0; rep < reps; rep++) {
				int64_t t = (int64_t)(zraw[slot][shown[i]][rep] - e_all);

				if (shown[i] == PAT_ZERO) {
					figures[rep] = per_call(t, STRINGS_ZERO_CALLS);
					continue;
				}
				t -= (int64_t)(zraw[slot][PAT_MIX_ONLY][rep] - e_half);
				figures[rep] = per_call(t, STRINGS_ZERO_CALLS - ZERO_HALF);
			}
			fmt_snprintf(key, sizeof(key), "pattern=%s", pattern_names[shown[i]]);
			print_figures(slot_name(k, slot), key, figures, reps);
		}
	}
}

static void run_zero(struct strings_state *s, enum string_op op)
{
	static uint64_t empty[2][STRINGS_REPS_MAX];	/* all calls, half the calls */
	struct block k;

	block_init(s, &k, op, MODE_TPUT, 0, 0);
	if (k.nslots == 1)
		return;
	for (unsigned int i = 0; i < k.nslots; i++)
		k.sizes_ok[i] = 1;
	fmt_snprintf(k.name, sizeof(k.name), "zero");
	out_line("strings zero %s calls=%u n=%u:", string_op_name(op),
		 STRINGS_ZERO_CALLS, STRINGS_ZERO_MIX_N);
	host_pass_begin();
	measure_zero(s, &k, empty);
	host_pass_end(string_op_name(op), "zero");
	print_zero(s, &k, empty);
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
		 const struct buffers *b, uint64_t tsc_khz)
{
	static const unsigned int misaligns[STRINGS_NMISALIGN] = STRINGS_MISALIGNS;
	struct strings_state s = { .p = p, .runs = p->str_runs };
	unsigned int mode, di, si;
	enum string_op op;

	(void)d;
	if (!p->str_runs)
		return;
	/* Guard page, dst's window, guard page, src's window, guard page. */
	s.dwin = b->strings + PAGE_SIZE;
	s.swin = s.dwin + (STRINGS_WINDOW_PAGES + 1) * PAGE_SIZE;
	progress_start(&s.clock, tsc_khz, count_batches(&s));
	print_tsc();
	for (op = STRING_MEMSET; op <= STRING_MEMCPY; op++) {
		for (mode = 0; mode < MODE_COUNT; mode++)
			for (di = 0; di < STRINGS_NMISALIGN; di++)
				for (si = 0; si < (op == STRING_MEMCPY ? STRINGS_NMISALIGN : 1); si++)
					run_block(&s, op, mode, misaligns[di], misaligns[si]);
		run_zero(&s, op);
	}
}
