/* SPDX-License-Identifier: MIT */
/*
 * The clear and copy tables over the plan's passes: Jan Beulich's 2021 Xen
 * clear_page experiment step for step (docs/method.md), and Ma Ling's 2011
 * copy-hot/copy-cold. A clear is a copy without a source: one code path
 * serves both, and src == NULL is the only difference.
 *
 * With the plan's stats (every page suite but suite=xen) a pass runs in
 * epochs (harness/epochs.h): each moves the buffers, flushes them and
 * pauses; a call shorter than BATCH_TIMER_STEPS timer steps is also timed
 * in batches of calls on buffers of their own; each epoch ends with a
 * use probe per variant; the pass ends with its stat lines
 * (harness/suites/figures.h).
 */
#include "harness/bench.h"
#include "harness/epochs.h"
#include "harness/host.h"
#include "cpu/insn.h"
#include "lib/out.h"
#include "harness/progress.h"
#include "lib/run.h"
#include "harness/sample.h"
#include "harness/suites/figures.h"
#include "harness/suites/scrub.h"
#include "harness/suites/strings.h"
#include "harness/suites/suite.h"
#include "harness/suites/suite_internal.h"
#include "harness/summary.h"
#include "harness/timer.h"

static unsigned int count_runs(const struct suite_run *s, enum op op)
{
	unsigned int i, n = 0;

	for (i = 0; i < variant_count; i++)
		n += variant_runs(s, i, op);
	return n;
}

/* Reps a pass takes, for progress: the least an interval needs when not fixed. */
static unsigned int expected_reps(const struct plan *p)
{
	return p->reps ? p->reps : INTERVAL_EPOCHS_MIN;
}

static uint64_t iterations(const struct suite_run *s, enum pass_id id,
			   enum op op)
{
	uint64_t per_variant = passes[id].kind == KIND_HOT ? COPY_HOT_N :
			       passes[id].kind == KIND_COLD ? COPY_COLD_N :
			       expected_reps(s->p);

	return per_variant * count_runs(s, op);
}

/* The plan has the pass, it serves op, and some variant of op still runs. */
static bool pass_runs(const struct suite_run *s, enum pass_id id, enum op op)
{
	return (s->p->passes & (1u << id)) && ((passes[id].ops >> op) & 1) &&
	       count_runs(s, op);
}

/*
 * Each variant's samples, for the summary and the verdict (suite=xen);
 * failed: the variants that printed a verify FAILED or fault line in this
 * pass.
 */
static void summarise(struct suite_run *s, enum op op, uint64_t (*t)[REPS_MAX],
		      const unsigned int *n, variant_set failed)
{
	unsigned int i;

	for (i = 0; i < variant_count; i++)
		if (variants[i].op == op && n[i])
			summary_add_samples(s->sum, &variants[i], t[i], n[i],
					    (failed >> i) & 1);
}

/* One pass of a table: where its buffers are this epoch, and its figures. */
struct pass_state {
	enum op op;
	enum pass_id id;
	const char *header;
	size_t nr;		/* fill's pages */
	uint8_t *fill;
	uint8_t *base;		/* of the work area's layout */
	struct layout l;
	struct pass_figures figs;
	unsigned int rep;	/* reps so far, over the epochs */
	unsigned int batch;	/* calls per sample, for every variant (stats) */
	unsigned int slot;	/* its place among the passes of the run */
	unsigned int epoch;	/* epochs run */
	unsigned int reps;	/* in each epoch; 0 until the first rep's time says */
	unsigned int expect;	/* epochs it is expected to take */
	uint64_t own, last;	/* ticks of its epochs, and of the last */
	bool use;		/* a use probe each epoch */
	variant_set failed;	/* printed a verify FAILED or fault line */
	variant_set printed;	/* have stat lines: the variants at its stop */
	unsigned int aggregate_n; /* copy-hot, copy-cold: Ma Ling's copies */
	void (*rep_fn)(struct suite_run *s, struct pass_state *ps, unsigned int reps);
};

static variant_set op_runs(const struct suite_run *s, enum op op)
{
	variant_set set = 0;
	unsigned int i;

	for (i = 0; i < variant_count; i++)
		if (variant_runs(s, i, op))
			set |= 1ull << i;
	return set;
}

/*
 * The start of epoch e: fill and the work area at this epoch's offsets,
 * both flushed as at a pass's start, the guard pages set, and a pause.
 * Without stats there is one epoch, where the buffers start.
 */
static void place(struct suite_run *s, struct pass_state *ps, unsigned int e)
{
	struct layout at0 = layout_of(s->p, s->b->work, ps->op,
				   pass_bytes(s->p, ps->id, ps->op));
	size_t fill_pages = 0, work_pages = 0, fill_room = 0, work_room = 0;
	unsigned int j;

	/* Pages to spare beyond this pass's, anywhere in the buffers. */
	if (passes[ps->id].kind == KIND_TIMED && s->sizes.fill / PAGE > ps->nr)
		fill_room = s->sizes.fill / PAGE - ps->nr;
	if (s->sizes.work > layout_span(&at0, s->b->work))
		work_room = (s->sizes.work - layout_span(&at0, s->b->work)) / PAGE;
	if (s->p->stats)
		epoch_place((uint64_t)ps->op << 8 | ps->id, e, fill_room, work_room,
			    &fill_pages, &work_pages);
	ps->fill = s->b->fill + fill_pages * PAGE;
	ps->base = s->b->work + work_pages * PAGE;
	ps->l = layout_of(s->p, ps->base, ps->op, pass_bytes(s->p, ps->id, ps->op));
	if (s->p->stats)
		out_line("epoch suite=%s pass=%s n=%u fill=+%lu work=+%lu",
			 op_name(ps->op), passes[ps->id].id, e,
			 (unsigned long)(fill_pages * PAGE),
			 (unsigned long)(work_pages * PAGE));
	if (passes[ps->id].kind == KIND_TIMED) {
		run_step("%s %s epoch %u: first flush", op_name(ps->op), ps->header, e);
		flush_range(&s->env, ps->fill, ps->nr * PAGE);
	}
	flush_range(&s->env, ps->base, layout_span(&ps->l, ps->base));
	for (j = 0; j < ps->l.slots; j++)
		guards_set(ps->l.dst + j * ps->l.stride, ps->l.bytes);
	if (s->p->stats && e)
		host_pause(rdtsc_ordered() + EPOCH_PAUSE_US * s->ticks_per_ms / 1000);
}

/* The state before a timed call, for the first calls slots of the layout. */
static void prepare_slots(struct suite_run *s, const struct pass_state *ps,
			  unsigned int calls, unsigned int rep, unsigned int i)
{
	unsigned int j;

	for (j = 0; j < calls; j++) {
		struct layout one = layout_slot(&ps->l, j);

		prepare_slot(&one, rep, i);
		if (one.src)
			evict_or_fence(&s->env, passes[ps->id].flush, one.src, one.bytes);
		evict_or_fence(&s->env, passes[ps->id].flush, one.dst, one.bytes);
	}
}

/*
 * A batched sample of a timed pass: calls slots prepared as for one call,
 * fill written and probed, the batch timed; no post probe, which would be
 * the damage of the whole batch.
 */
static bool batch_sample(struct suite_run *s, struct pass_state *ps,
			 unsigned int i, unsigned int calls, unsigned int rep,
			 uint64_t *ticks)
{
	struct call c = { &variants[i], &ps->l, calls, false };
	struct sample_tries tries = { 0 };
	struct host_sample h;
	struct fault f;
	bool ok;

	do {
		prepare_slots(s, ps, calls, rep, i);
		ok = time_after_probe(&s->env, ps->fill, ps->nr, rep, call_batch, &c,
				      ticks, &h, &f);
	} while (ok && sample_again(&tries, *ticks, &h, variants[i].name));
	if (!ok) {
		variant_fault(s, ps->op, ps->header, i, &f);
		ps->failed |= 1ull << i;
		return false;
	}
	if (!verified_slots(ps->header, &variants[i], &ps->l, calls))
		ps->failed |= 1ull << i;
	return true;
}

/* Rep rep of variant i: the 2021 iteration, its value line and its check. */
static bool timed_rep(struct suite_run *s, struct pass_state *ps,
		      unsigned int i, unsigned int reps, uint64_t (*legacy)[REPS_MAX],
		      unsigned int *nlegacy, uint64_t *ticks)
{
	const struct variant *v = &variants[i];
	struct layout one = layout_slot(&ps->l, 0);
	struct call c = { v, &one, 1, false };
	struct sample_tries tries = { 0 };
	struct timing t;
	struct fault f;
	bool ok;

	run_step("%s %s rep %u variant %s", op_name(ps->op), ps->header,
		 ps->rep, v->name);
	progress_next(&s->clock, op_name(ps->op), ps->header, v->name, ps->rep,
		      reps, ps->nr);
	do {
		prepare_slots(s, ps, 1, ps->rep, i);
		ok = time_between_probes(&s->env, ps->fill, ps->nr, ps->rep,
					 call_variant, &c, one.bytes, &t, &f);
	} while (ok && sample_again(&tries, t.ticks, &t.host, v->name));
	if (!ok) {
		variant_fault(s, ps->op, ps->header, i, &f);
		ps->failed |= 1ull << i;
		return false;
	}
	out_line(" pre=%lx %s=%lx post=%lx", (unsigned long)t.pre, v->name,
		 (unsigned long)t.ticks, (unsigned long)t.post);
	if (!s->p->stats)
		legacy[i][nlegacy[i]++] = t.ticks;
	if (!verified(ps->header, v, &one))
		ps->failed |= 1ull << i;
	*ticks = t.ticks;
	return true;
}

/* The use probe of variant i, once an epoch: a line, and a figure. */
static void use_rep(struct suite_run *s, struct pass_state *ps, unsigned int i)
{
	const struct variant *v = &variants[i];
	struct layout one = layout_slot(&ps->l, 0);
	struct call c = { v, &one, 1, false };
	struct sample_tries tries = { 0 };
	struct host_sample h;
	uint64_t ticks, use;
	struct fault f;
	bool ok;

	run_step("%s %s use variant %s", op_name(ps->op), ps->header, v->name);
	/* A call the host saw disturbed is done again, its use probe with it. */
	do {
		prepare_slots(s, ps, 1, ps->rep, i);
		ok = time_then_use(&s->env, ps->fill, ps->nr, ps->rep, call_variant,
				   &c, one.bytes, one.dst, one.bytes / PAGE, &ticks,
				   &use, &h, &f);
	} while (ok && sample_again(&tries, ticks, &h, v->name));
	if (!ok) {
		variant_fault(s, ps->op, ps->header, i, &f);
		ps->failed |= 1ull << i;
		return;
	}
	out_line(" use %s=%lx", v->name, (unsigned long)use);
	figures_add_use(&ps->figs, i, use);
	if (!verified(ps->header, v, &one))
		ps->failed |= 1ull << i;
}

/* The reps progress shows as the pass's: so far, at least what an interval needs. */
static unsigned int shown_reps(const struct plan *p, unsigned int e,
			       unsigned int per_epoch)
{
	unsigned int epochs = e + 1 < INTERVAL_EPOCHS_MIN ? INTERVAL_EPOCHS_MIN : e + 1;

	return p->reps ? p->reps : epochs * (per_epoch ? per_epoch : 1);
}

/*
 * The next epoch of a pass: its header (timed passes), its place, its
 * reps (the first rep's time sets how many when the plan fixes none),
 * its use probes; then whether the pass stops, and if so its stat lines.
 * Without stats the one epoch is all its reps.
 */
static enum epoch_stop run_epoch(struct suite_run *s, struct pass_state *ps)
{
	uint64_t t0 = rdtsc_ordered();
	enum epoch_stop stop;
	unsigned int e = ps->epoch, r, i;
	bool precise;

	/* The copy table's headers say "copy ", so one log has both tables. */
	if (passes[ps->id].kind == KIND_TIMED)
		out_line("%s%s:", pass_prefix(ps->op, ps->id), ps->header);
	place(s, ps, e);
	if (!e && window_count(&s->env, ps->l.bytes) > 1)
		out_line("note: %s %s: each call's %zu bytes run in %u windows of at most %zu bytes, interrupts on between them (one call per window for a whole-region variant); its figure is their sum",
			 op_name(ps->op), ps->header, ps->l.bytes,
			 window_count(&s->env, ps->l.bytes), s->env.window_bytes);
	if (s->p->reps)
		ps->reps = s->p->stats ? epoch_reps_fixed(s->p->reps, e) : s->p->reps;
	for (r = 0; r < (ps->reps ? ps->reps : 1); r++, ps->rep++) {
		uint64_t r0 = rdtsc_ordered();

		ps->rep_fn(s, ps, shown_reps(s->p, e, ps->reps));
		if (!ps->reps)
			ps->reps = epoch_reps_adaptive(&s->rule, rdtsc_ordered() - r0);
	}
	ps->epoch++;
	if (!s->p->stats)
		return EPOCH_STOP_REPS;
	for (i = 0; ps->use && i < variant_count; i++)
		if (variant_runs(s, i, ps->op))
			use_rep(s, ps, i);
	precise = figures_end_epoch(&ps->figs, op_runs(s, ps->op),
				    s->rule.precision_bp);
	ps->last = rdtsc_ordered() - t0;
	ps->own += ps->last;
	/* A pass whose variants all faulted has nothing left to measure. */
	stop = op_runs(s, ps->op) ? epoch_next(&s->rule, ps->epoch, precise,
					       ps->own, ps->last) : EPOCH_STOP_REPS;
	if (stop != EPOCH_GO_ON) {
		ps->printed = op_runs(s, ps->op);
		figures_print(&ps->figs, ps->printed, stop);
	}
	return stop;
}

static void timed_reps(struct suite_run *s, struct pass_state *ps,
		       unsigned int reps)
{
	/* suite=xen's samples for the summary, too large for a stack. */
	static uint64_t legacy[VARIANTS_MAX][REPS_MAX];
	static unsigned int nlegacy[VARIANTS_MAX];
	uint64_t ticks[VARIANTS_MAX], shortest = UINT64_MAX;
	variant_set timed = 0;
	unsigned int i;

	if (!ps->rep)
		for (i = 0; i < VARIANTS_MAX; i++)
			nlegacy[i] = 0;
	for (i = 0; i < variant_count; i++)
		if (variant_runs(s, i, ps->op) &&
		    timed_rep(s, ps, i, reps, legacy, nlegacy, &ticks[i])) {
			timed |= 1ull << i;
			if (ticks[i] < shortest)
				shortest = ticks[i];
		}
	if (!s->p->stats) {
		if (ps->rep + 1 == s->p->reps && s->sum)
			summarise(s, ps->op, legacy, nlegacy, ps->failed);
		return;
	}
	/* The first rep's calls say whether the pass batches, rep 0 included. */
	if (!ps->rep && shortest != UINT64_MAX) {
		ps->batch = pass_batch(shortest * CENTI, s->timer.step, ps->l.slots);
		for (i = 0; i < variant_count; i++)
			figures_set_batch(&ps->figs, i, ps->batch);
	}
	for (i = 0; i < variant_count; i++) {
		if (!((timed >> i) & 1) || !variant_runs(s, i, ps->op))
			continue;
		if (ps->batch == 1)
			figures_add(&ps->figs, i, ticks[i]);
		else if (batch_sample(s, ps, i, ps->batch, ps->rep, &ticks[i]))
			figures_add(&ps->figs, i, ticks[i]);
	}
}

static void pass_begin(struct suite_run *s, struct pass_state *ps, enum op op,
		       enum pass_id id, unsigned int slot)
{
	*ps = (struct pass_state){ .op = op, .id = id, .header = passes[id].header,
				   .nr = s->p->nr[id], .batch = 1, .slot = slot,
				   .use = passes[id].use, .rep_fn = timed_reps };
	figures_begin(&ps->figs, slot, op_name(op), passes[id].id, s->timer.step,
		      passes[id].use);
}

/* suite=xen: a pass after another, as in 2021, its disturbance its own. */
static void timed_pass(struct suite_run *s, enum op op, enum pass_id id)
{
	struct pass_state ps;

	pass_begin(s, &ps, op, id, 0);
	if (s->sum)
		summary_begin(s->sum, op, id, pass_bytes(s->p, id, op));
	sample_pass_begin();
	run_epoch(s, &ps);
	sample_pass_end(op_name(op), passes[id].id);
	if (s->sum)
		summary_end(s->sum);
}

/*
 * A batched sample of copy-hot (the same page copied calls times, as
 * Ma Ling's copies each follow the one before) or copy-cold (calls pages,
 * all pushed out by the other data first, each copied once).
 */
static void hot_cold_reps(struct suite_run *s, struct pass_state *ps,
			  unsigned int reps)
{
	bool cold = passes[ps->id].kind == KIND_COLD;
	unsigned int i, j;

	for (i = 0; i < variant_count; i++) {
		const struct variant *v = &variants[i];
		unsigned int calls = ps->batch;
		struct call c = { v, &ps->l, calls, !cold };
		struct sample_tries tries = { 0 };
		struct host_sample h;
		uint64_t ticks;
		struct fault f;
		bool ok;

		if (!variant_runs(s, i, ps->op))
			continue;
		run_step("%s variant %s batch rep %u", ps->header, v->name, ps->rep);
		progress_next(&s->clock, op_name(ps->op), ps->header, v->name,
			      ps->rep, reps, iteration_pages(s->p, ps->id));
		do {
			for (j = 0; j < (cold ? calls : 1); j++) {
				struct layout one = layout_slot(&ps->l, j);

				prepare_slot(&one, ps->rep, i);
			}
			if (cold)
				__builtin_memcpy(s->b->cold + COPY_COLD_BYTES, s->b->cold,
						 COPY_COLD_BYTES);
			mfence();
			ok = time_guarded(call_batch, &c, &ticks, &h, &f);
		} while (ok && sample_again(&tries, ticks, &h, v->name));
		if (!ok) {
			variant_fault(s, ps->op, ps->header, i, &f);
			ps->failed |= 1ull << i;
			continue;
		}
		if (!verified_slots(ps->header, v, &ps->l, cold ? calls : 1))
			ps->failed |= 1ull << i;
		figures_add(&ps->figs, i, ticks);
	}
}

/*
 * copy-hot: the same page copied COPY_HOT_N times, each timed alone.
 * copy-cold: before each timed copy, COPY_COLD_BYTES of other data are
 * copied, pushing src and dst out of L1 and (on his Sandy Bridge) L2.
 * Both print decimal ticks per 4 KiB copy, as Ma Ling's tables did; the
 * epochs of batched copies that follow are sized from those.
 */
static void ma_ling(struct suite_run *s, struct pass_state *ps)
{
	enum op op = ps->op;
	const char *pass = ps->header;
	bool cold = passes[ps->id].kind == KIND_COLD;
	unsigned int n = cold ? COPY_COLD_N : COPY_HOT_N;
	uint64_t t[COPY_HOT_N > COPY_COLD_N ? COPY_HOT_N : COPY_COLD_N];
	uint64_t shortest = UINT64_MAX;
	struct layout l;
	unsigned int i, k;

	/* Ma Ling's copies where the work area starts; the epochs move on. */
	l = layout_of(s->p, s->b->work, op, pass_bytes(s->p, ps->id, op));
	guards_set(l.dst, l.bytes);
	for (i = 0; i < variant_count; i++) {
		const struct variant *v = &variants[i];
		struct call c = { v, &l, 1, false };
		uint64_t median;
		struct fault f;

		if (!variant_runs(s, i, op))
			continue;
		run_step("%s variant %s", pass, v->name);
		prepare_slot(&l, 0, i);
		if (!host_call_guarded(call_whole, &c, &f)) {	/* warm: both pages in cache */
			variant_fault(s, op, pass, i, &f);
			ps->failed |= 1ull << i;
			continue;
		}
		for (k = 0; k < n; k++) {
			struct sample_tries tries = { 0 };
			struct host_sample h;
			bool ok;

			progress_next(&s->clock, op_name(op), pass, v->name, k, n,
				      iteration_pages(s->p, ps->id));
			do {
				prepare_slot(&l, k, i);
				if (cold)
					__builtin_memcpy(s->b->cold + COPY_COLD_BYTES,
							 s->b->cold, COPY_COLD_BYTES);
				mfence();
				ok = time_windows(&s->env, call_variant, &c, l.bytes, &t[k],
						  &h, &f);
			} while (ok && sample_again(&tries, t[k], &h, v->name));
			if (!ok)
				break;
			if (!verified(pass, v, &l))
				ps->failed |= 1ull << i;
		}
		if (k < n) {
			variant_fault(s, op, pass, i, &f);
			ps->failed |= 1ull << i;
			continue;
		}
		median = summary_median2(t, n) / 2;
		out_line("%s variant=%s n=%u min=%lu median=%lu max=%lu", pass,
			 v->name, n, (unsigned long)t[0], (unsigned long)median,
			 (unsigned long)t[n - 1]);
		if (median < shortest)
			shortest = median;
	}
	ps->aggregate_n = n;
	/* copy-hot copies one page again and again: no slot limits its batch. */
	ps->batch = pass_batch(shortest * CENTI, s->timer.step, cold ? l.slots : BATCH_MAX);
	for (i = 0; i < variant_count; i++)
		figures_set_batch(&ps->figs, i, ps->batch);
}

/* The epochs a pass is expected to take: what its budget affords, or reps= says. */
static unsigned int expected_epochs(const struct suite_run *s,
				    const struct pass_state *ps)
{
	uint64_t e;

	if (s->p->reps)
		return epochs_of_reps(s->p->reps);
	e = ps->last ? s->rule.budget_ticks / ps->last : INTERVAL_EPOCHS_MAX;
	if (e < INTERVAL_EPOCHS_MIN)
		e = INTERVAL_EPOCHS_MIN;
	return e > INTERVAL_EPOCHS_MAX ? INTERVAL_EPOCHS_MAX : (unsigned int)e;
}

/*
 * When, in ticks of the expected run span, the next epoch of ps is due:
 * each pass's expected epochs spread evenly over the span, the passes a
 * fraction of a step apart in table order, so that none runs all its
 * epochs within a few seconds of each other.
 */
static uint64_t due(const struct pass_state *ps, uint64_t span, unsigned int npasses)
{
	uint64_t steps = (uint64_t)(ps->expect > 1 ? ps->expect - 1 : 1) * npasses;

	return span / steps * ((uint64_t)(ps->epoch - 1) * npasses + ps->slot);
}

/*
 * The page suites with stats: every pass takes turns, an epoch at a time,
 * so that each one's epochs spread over the whole run and sample what
 * changes on a shared machine over it (docs/method.md, "Epochs"). First
 * every pass's first epoch, in the 2021 order; then always the epoch
 * that is due first, until every pass has stopped. Each pass counts its
 * samples and cycles in a slot of its own (harness/sample.h), and has its
 * cycles lines; one disturbance line covers them all. The summary keeps
 * the table order.
 */
static void run_passes(struct suite_run *s)
{
	static struct pass_state ps[FIGURES_PASSES_MAX];
	struct sample_tally tally = { 0 };
	unsigned int n = 0, k, id, op;
	uint64_t span = 0;
	bool running[FIGURES_PASSES_MAX];

	for (op = 0; op < OP_COUNT; op++)
		for (id = 0; id < PASS_COUNT; id++)
			if (pass_runs(s, id, op) && passes[id].kind == KIND_TIMED)
				pass_begin(s, &ps[n], op, id, n), n++;
	for (id = 0; id < PASS_COUNT; id++)
		for (op = 0; op < OP_COUNT; op++)
			if (pass_runs(s, id, op) && passes[id].kind != KIND_TIMED) {
				pass_begin(s, &ps[n], op, id, n);
				ps[n++].rep_fn = hot_cold_reps;
			}
	for (k = 0; k < n; k++) {
		sample_pass_select(k);
		sample_pass_reset();
	}
	host_pass_begin();
	for (k = 0; k < n; k++) {
		sample_pass_select(k);
		if (passes[ps[k].id].kind != KIND_TIMED)
			ma_ling(s, &ps[k]);
		running[k] = op_runs(s, ps[k].op) && run_epoch(s, &ps[k]) == EPOCH_GO_ON;
		ps[k].expect = expected_epochs(s, &ps[k]);
		span += (uint64_t)(ps[k].expect - 1) * ps[k].last;
	}
	for (;;) {
		unsigned int next = n;

		for (k = 0; k < n; k++)
			if (running[k] && (next == n ||
			    due(&ps[k], span, n) < due(&ps[next], span, n)))
				next = k;
		if (next == n)
			break;
		sample_pass_select(next);
		running[next] = run_epoch(s, &ps[next]) == EPOCH_GO_ON;
	}
	/* Cycles per pass; one disturbance line, for passes that shared their time. */
	for (k = 0; k < n; k++) {
		sample_pass_select(k);
		sample_cycles_lines(op_name(ps[k].op), passes[ps[k].id].id);
		sample_tally_add(&tally);
	}
	sample_pass_select(0);
	host_pass_end("all", "all", &tally);
	for (k = 0; s->sum && k < n; k++) {
		summary_begin(s->sum, ps[k].op, ps[k].id, pass_bytes(s->p, ps[k].id, ps[k].op));
		figures_summarise(&ps[k].figs, ps[k].printed, ps[k].failed,
				  ps[k].aggregate_n, s->sum);
		summary_end(s->sum);
	}
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
	plan_buffer_sizes(p, &s.sizes);
	bench_env_init(&s.env, d);
	out_line("flush: %s", flush_method_name(&s.env));
	s.ticks_per_ms = tsc_khz ? tsc_khz : TIMER_TICKS_PER_MS_UNKNOWN;
	s.rule = (struct epoch_rule){ p->reps, p->precision_bp,
				      p->budget_ms * s.ticks_per_ms };
	if (p->stats) {
		timer_measure(&s.timer);
		out_line("tsc step=%lu region=%lu reads=%u", (unsigned long)s.timer.step,
			 (unsigned long)s.timer.region, s.timer.reads);
		if (!tsc_khz && !p->reps)
			out_line("note: no TSC rate: budget= counts %lu ticks a millisecond",
				 (unsigned long)s.ticks_per_ms);
	}
	for (id = 0; id < PASS_COUNT; id++)
		for (op = 0; op < OP_COUNT; op++)
			if (pass_runs(&s, id, op))
				total += iterations(&s, id, op) * iteration_pages(p, id);
	progress_start(&s.clock, tsc_khz, total);

	if (p->stats) {
		run_passes(&s);
		return;
	}
	/* suite=xen: all of a table's passes in turn, as in 2021. */
	for (op = 0; op < OP_COUNT; op++)
		for (id = 0; id < PASS_COUNT; id++)
			if (pass_runs(&s, id, op) && passes[id].kind == KIND_TIMED)
				timed_pass(&s, op, id);
}
