/* SPDX-License-Identifier: MIT */
/*
 * The clear and copy tables over the plan's passes: Jan Beulich's 2021 Xen
 * clear_page experiment step for step (docs/method.md), and Ma Ling's 2011
 * copy-hot/copy-cold. A clear is a copy without a source: one code path
 * serves both, and src == NULL is the only difference.
 */
#include "harness/bench.h"
#include "harness/host.h"
#include "cpu/insn.h"
#include "lib/out.h"
#include "harness/progress.h"
#include "lib/run.h"
#include "harness/sample.h"
#include "harness/suites/scrub.h"
#include "harness/suites/strings.h"
#include "harness/suites/suite.h"
#include "harness/summary.h"

#define PAGE PAGE_SIZE
/* Work units for progress: a page touched by an iteration. */
#define COLD_PAGES (COPY_COLD_BYTES / PAGE)

struct suite_run {
	const struct plan *p;
	const struct buffers *b;
	struct summary *sum;		/* may be NULL */
	struct bench_env env;
	variant_set runs;		/* the plan's, less what faulted */
	struct progress_clock clock;	/* in pages touched */
};

/*
 * Where a pass's data lives in the work area: guard, src, guard, dst,
 * guard for a copy; guard, dst, guard for a clear (src is NULL).
 */
struct layout {
	uint8_t *src, *dst;
	size_t bytes;
};

static struct layout layout(const struct buffers *b, enum op op, size_t bytes)
{
	struct layout l = { NULL, b->work + PAGE, bytes };

	if (op == OP_COPY) {
		l.src = l.dst;
		l.dst = l.src + bytes + PAGE;
	}
	return l;
}

struct call {
	const struct variant *v;
	const struct layout *l;
};

/* The timed region, or one window of it. */
static void call_variant(void *arg, size_t off, size_t len)
{
	const struct call *c = arg;

	variant_call_hosted(c->v, c->l->dst + off,
			    c->l->src ? c->l->src + off : NULL, len);
}

/* The whole call untimed, in one guarded call: copy-hot's warm-up, one page. */
static void call_whole(void *arg)
{
	const struct call *c = arg;

	call_variant(arg, 0, c->l->bytes);
}

static bool variant_runs(const struct suite_run *s, unsigned int i, enum op op)
{
	return variants[i].op == op && ((s->runs >> i) & 1);
}

static unsigned int count_runs(const struct suite_run *s, enum op op)
{
	unsigned int i, n = 0;

	for (i = 0; i < variant_count; i++)
		n += variant_runs(s, i, op);
	return n;
}

/* Pages one iteration of pass id touches: its fill, or one page each way. */
static uint64_t iteration_pages(const struct plan *p, enum pass_id id)
{
	switch (passes[id].kind) {
	case KIND_TIMED:
		return p->nr[id];
	case KIND_HOT:
		return 2;
	case KIND_COLD:
		return 2 + 2 * COLD_PAGES;
	}
	return 1;
}

static uint64_t iterations(const struct suite_run *s, enum pass_id id,
			   enum op op)
{
	uint64_t per_variant = passes[id].kind == KIND_HOT ? COPY_HOT_N :
			       passes[id].kind == KIND_COLD ? COPY_COLD_N :
			       s->p->reps;

	return per_variant * count_runs(s, op);
}

/* The plan has the pass, it serves op, and some variant of op still runs. */
static bool pass_runs(const struct suite_run *s, enum pass_id id, enum op op)
{
	return (s->p->passes & (1u << id)) && ((passes[id].ops >> op) & 1) &&
	       count_runs(s, op);
}

static void fault(struct suite_run *s, enum op op, const char *pass,
		  unsigned int i, const struct fault *f)
{
	out_line("fault: suite=%s pass=%s variant=%s %s rip=0x%lx",
		 op_name(op), pass, variants[i].name, f->what,
		 (unsigned long)f->rip);
	run_fail();
	s->runs &= ~(1ull << i);
}

static void verify(const char *pass, const struct variant *v,
		   const struct layout *l)
{
	size_t off = l->src ? find_mismatch(l->dst, l->src, l->bytes) :
			      find_nonzero(l->dst, l->bytes);

	if (off != NOT_FOUND && l->src) {
		out_line("verify FAILED: suite=copy pass=%s variant=%s offset=0x%lx dst 0x%x != src 0x%x",
			 pass, v->name, (unsigned long)off, l->dst[off], l->src[off]);
		run_fail();
	} else if (off != NOT_FOUND) {
		out_line("verify FAILED: suite=clear pass=%s variant=%s offset=0x%lx byte 0x%x is not zero",
			 pass, v->name, (unsigned long)off, l->dst[off]);
		run_fail();
	}
	verify_guards(op_name(v->op), pass, v->name, l->dst, l->bytes);
}

/*
 * What dst (and src) hold before a call: a dst that already held the
 * result would hide a routine that did nothing.
 */
static void prepare(const struct layout *l, unsigned int rep, unsigned int i)
{
	if (l->src)
		fill_words(l->src, l->bytes, rep * 64 + i);
	fill_bytes(l->dst, (uint8_t)(0x11 * (rep % 15 + 1)), l->bytes);
}

/*
 * Each variant's samples, for the summary and the verdict; failed: the
 * variants that printed a verify FAILED or fault line in this pass.
 */
static void summarise(struct suite_run *s, enum op op, enum pass_id id,
		      size_t bytes, uint64_t (*t)[REPS_MAX], const unsigned int *n,
		      variant_set failed)
{
	unsigned int i;

	if (!s->sum)
		return;
	summary_begin(s->sum, op, id, bytes);
	for (i = 0; i < variant_count; i++)
		if (variants[i].op == op && n[i])
			summary_add_samples(s->sum, &variants[i], t[i], n[i],
					    (failed >> i) & 1);
	summary_end(s->sum);
}

/* verify() counts a failure for every line it prints. */
static bool verified(const char *pass, const struct variant *v,
		     const struct layout *l)
{
	unsigned int before = run_failures();

	verify(pass, v, l);
	return run_failures() == before;
}

static void timed_pass(struct suite_run *s, enum op op, enum pass_id id)
{
	/* Storage for one pass at a time, too large for a stack. */
	static uint64_t ticks[VARIANTS_MAX][REPS_MAX];
	unsigned int samples[VARIANTS_MAX] = { 0 };
	variant_set failed = 0;
	const struct plan *p = s->p;
	const char *header = passes[id].header;
	size_t nr = p->nr[id];
	struct layout l = layout(s->b, op, pass_bytes(p, id, op));
	unsigned int rep, i;

	/* The copy table's headers say "copy ", so one log has both tables. */
	out_line("%s%s:", pass_prefix(op, id), header);
	if (window_count(&s->env, l.bytes) > 1)
		out_line("note: %s %s: each call's %zu bytes run in %u windows of at most %zu bytes, interrupts on between them (one call per window for a whole-region variant); its figure is their sum",
			 op_name(op), header, l.bytes,
			 window_count(&s->env, l.bytes), s->env.window_bytes);
	run_step("%s %s: first flush", op_name(op), header);
	flush_range(&s->env, s->b->fill, nr * PAGE);
	flush_range(&s->env, s->b->work, (l.dst - s->b->work) + l.bytes + PAGE);
	guards_set(l.dst, l.bytes);
	sample_pass_begin();

	for (rep = 0; rep < p->reps; rep++) {
		for (i = 0; i < variant_count; i++) {
			const struct variant *v = &variants[i];
			struct call c = { v, &l };
			struct sample_tries tries = { 0 };
			struct timing t;
			struct fault f;
			bool ok;

			if (!variant_runs(s, i, op))
				continue;
			run_step("%s %s rep %u variant %s", op_name(op), header,
				 rep, v->name);
			progress_next(&s->clock, op_name(op), header, v->name, rep,
				      p->reps, nr);
			do {
				prepare(&l, rep, i);
				if (l.src)
					evict_or_fence(&s->env, passes[id].flush, l.src, l.bytes);
				evict_or_fence(&s->env, passes[id].flush, l.dst, l.bytes);
				ok = time_between_probes(&s->env, s->b->fill, nr, rep,
							 call_variant, &c, l.bytes, &t, &f);
			} while (ok && sample_again(&tries, t.ticks, &t.host, v->name));
			if (!ok) {
				fault(s, op, header, i, &f);
				failed |= 1ull << i;
				continue;
			}
			out_line(" pre=%lx %s=%lx post=%lx", (unsigned long)t.pre,
				 v->name, (unsigned long)t.ticks,
				 (unsigned long)t.post);
			ticks[i][samples[i]++] = t.ticks;
			if (!verified(header, v, &l))
				failed |= 1ull << i;
		}
	}
	sample_pass_end(op_name(op), passes[id].id);
	summarise(s, op, id, l.bytes, ticks, samples, failed);
}

/*
 * copy-hot: the same page copied COPY_HOT_N times, each timed alone.
 * copy-cold: before each timed copy, COPY_COLD_BYTES of other data are
 * copied, pushing src and dst out of L1 and (on his Sandy Bridge) L2.
 * Both print decimal ticks per 4 KiB copy, as Ma Ling's tables did.
 */
static void hot_cold_pass(struct suite_run *s, enum op op, enum pass_id id)
{
	const char *pass = passes[id].header;
	bool cold = passes[id].kind == KIND_COLD;
	unsigned int n = cold ? COPY_COLD_N : COPY_HOT_N;
	uint64_t t[COPY_HOT_N > COPY_COLD_N ? COPY_HOT_N : COPY_COLD_N];
	struct layout l = layout(s->b, op, pass_bytes(s->p, id, op));
	unsigned int i, k;

	guards_set(l.dst, l.bytes);
	sample_pass_begin();
	if (s->sum)
		summary_begin(s->sum, op, id, l.bytes);
	for (i = 0; i < variant_count; i++) {
		const struct variant *v = &variants[i];
		struct call c = { v, &l };
		uint64_t median;
		struct fault f;
		bool all_verified = true;

		if (!variant_runs(s, i, op))
			continue;
		run_step("%s variant %s", pass, v->name);
		prepare(&l, 0, i);
		if (!host_call_guarded(call_whole, &c, &f)) {	/* warm: both pages in cache */
			fault(s, op, pass, i, &f);
			continue;
		}
		for (k = 0; k < n; k++) {
			struct sample_tries tries = { 0 };
			struct host_sample h;
			bool ok;

			progress_next(&s->clock, op_name(op), pass, v->name, k, n,
				      iteration_pages(s->p, id));
			do {
				prepare(&l, k, i);
				if (cold)
					__builtin_memcpy(s->b->cold + COPY_COLD_BYTES,
							 s->b->cold, COPY_COLD_BYTES);
				mfence();
				ok = time_windows(&s->env, call_variant, &c, l.bytes, &t[k],
						  &h, &f);
			} while (ok && sample_again(&tries, t[k], &h, v->name));
			if (!ok)
				break;
			all_verified = verified(pass, v, &l) && all_verified;
		}
		if (k < n) {
			fault(s, op, pass, i, &f);
			continue;
		}
		median = summary_median2(t, n) / 2;
		out_line("%s variant=%s n=%u min=%lu median=%lu max=%lu", pass,
			 v->name, n, (unsigned long)t[0], (unsigned long)median,
			 (unsigned long)t[n - 1]);
		/* The summary takes the median as printed, as a reader of the log does. */
		if (s->sum)
			summary_add_aggregate(s->sum, v, median, n, !all_verified);
	}
	sample_pass_end(op_name(op), passes[id].id);
	if (s->sum)
		summary_end(s->sum);
}

void suite_run(const struct plan *p, const struct cpu_desc *d,
	       const struct buffers *b, uint64_t tsc_khz, struct summary *sum)
{
	struct suite_run s = { .p = p, .b = b, .sum = sum, .runs = p->runs };
	uint64_t total = 0;
	unsigned int id, op;

	sample_start(p, tsc_khz);
	if (suites[p->suite].how == HOW_STRINGS) {	/* harness/suites/strings.c */
		strings_run(p, d, b, tsc_khz);
		return;
	}
	if (suites[p->suite].how == HOW_SCRUB) {
		scrub_run(p, d, b, tsc_khz, sum);
		return;
	}
	bench_env_init(&s.env, d);
	out_line("flush: %s", flush_method_name(&s.env));
	for (id = 0; id < PASS_COUNT; id++)
		for (op = 0; op < OP_COUNT; op++)
			if (pass_runs(&s, id, op))
				total += iterations(&s, id, op) * iteration_pages(p, id);
	progress_start(&s.clock, tsc_khz, total);

	/* All of a table's passes before the next table's, as in 2021. */
	for (op = 0; op < OP_COUNT; op++)
		for (id = 0; id < PASS_COUNT; id++)
			if (pass_runs(&s, id, op) && passes[id].kind == KIND_TIMED)
				timed_pass(&s, op, id);
	for (id = 0; id < PASS_COUNT; id++)
		for (op = 0; op < OP_COUNT; op++)
			if (pass_runs(&s, id, op) && passes[id].kind != KIND_TIMED)
				hot_cold_pass(&s, op, id);
}
