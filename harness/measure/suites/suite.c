/* SPDX-License-Identifier: MIT */
/*
 * The clear and copy tables over the plan's passes: Jan Beulich's 2021 Xen
 * clear_page experiment step for step (docs/method.md), and Ma Ling's 2011
 * copy-hot/copy-cold. A clear is a copy without a source: one code path
 * serves both, and src == NULL is the only difference.
 *
 * The driver: which passes run, and in what turns (run_passes); one pass's
 * epochs are harness/measure/suites/pass.c's.
 */
#include "cpu/insn.h"
#include "harness/measure/bench.h"
#include "harness/measure/budget.h"
#include "harness/measure/epochs.h"
#include "harness/measure/host.h"
#include "lib/out.h"
#include "harness/measure/progress.h"
#include "harness/measure/sample.h"
#include "harness/measure/suites/figures.h"
#include "harness/measure/suites/scrub.h"
#include "harness/measure/suites/strings.h"
#include "harness/measure/suites/suite.h"
#include "harness/measure/suites/copy_hot_cold.h"
#include "harness/measure/suites/hot_buffer.h"
#include "harness/measure/suites/layout.h"
#include "harness/measure/suites/pass.h"
#include "harness/measure/timer.h"

static unsigned int count_runs(const struct page_run *s, enum op op)
{
	variant_set set = op_runs(s, op);
	unsigned int n = 0;

	for (; set; set &= set - 1)
		n++;
	return n;
}

/* Reps a pass takes, for progress: the least an interval needs when not fixed. */
static unsigned int expected_reps(const struct plan *p)
{
	return p->reps ? p->reps : INTERVAL_EPOCHS_MIN;
}

static uint64_t iterations(const struct page_run *s, enum pass_id id,
			   enum op op)
{
	uint64_t per_variant = passes[id].kind == KIND_HOT ? COPY_HOT_N :
			       passes[id].kind == KIND_COLD ? COPY_COLD_N :
			       expected_reps(s->p);

	return per_variant * count_runs(s, op);
}

/* The plan has the pass, it serves op, and some variant of op still runs. */
static bool pass_runs(const struct page_run *s, enum pass_id id, enum op op)
{
	return (s->p->passes & (1u << id)) && ((passes[id].ops >> op) & 1) &&
	       count_runs(s, op);
}

/* suite=xen: a pass after another, as in 2021, its disturbance its own. */
static void timed_pass(struct page_run *s, enum op op, enum pass_id id)
{
	struct pass_state ps;
	variant_set ran;
	unsigned int i;

	pass_begin(s, &ps, op, id, 0);
	ps.rec = record_add_pass(s->rec, op, id, pass_bytes(s->p, id, op));
	sample_pass_begin();
	pass_epoch(s, &ps);
	sample_pass_end(op_name(op), passes[id].id);
	/* Its variants that ran, without epochs: the answer says it has no interval. */
	ran = op_runs(s, op);
	for (i = 0; i < variant_count; i++)
		if ((ran >> i) & 1)
			record_add_input(ps.rec, &variants[i], (ps.failed >> i) & 1,
					 (struct epoch_series){ 0 });
}

/* The epochs a pass is expected to take: what its budget affords, or reps= says. */
static unsigned int expected_epochs(const struct page_run *s,
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
 * each pass's expected epochs (expect) spread evenly over the span, the
 * passes a fraction of a step apart in table order, so that none runs
 * all its epochs within a few seconds of each other.
 */
static uint64_t due(const struct pass_state *ps, unsigned int expect, uint64_t span,
		    unsigned int npasses)
{
	uint64_t steps = (uint64_t)(expect > 1 ? expect - 1 : 1) * npasses;

	return span / steps * ((uint64_t)(ps->epoch - 1) * npasses + ps->slot);
}

/*
 * What time= bought: where passes stopped at INTERVAL_EPOCHS_MAX epochs
 * with questions still open and the run ended before its budget, a longer
 * time= would buy nothing more; a note says so, and what would decide
 * them (docs/running.md, "time=").
 */
static void capped_note(const struct page_run *s, const struct budget_pass *bp,
			unsigned int n, uint64_t elapsed, uint64_t budget)
{
	unsigned int k, capped = 0;

	for (k = 0; k < n; k++)
		capped += bp[k].stop == EPOCH_STOP_EPOCHS && bp[k].open;
	if (capped && elapsed < budget)
		out_line("note: time=%lums: the run ended after %lu ms, %u passes at %u epochs with questions still open: a longer time= buys them nothing; narrow the run (variants=PICK,ROUTINE) to decide them",
			 (unsigned long)s->p->time_ms, (unsigned long)(elapsed / s->ticks_per_ms),
			 capped, INTERVAL_EPOCHS_MAX);
}

/*
 * time=: the passes take turns as the run's time budget says
 * (harness/measure/budget.h), from the start of the suite: first round, pairs of
 * epochs, the passes furthest from what their open questions need first;
 * a pass prints its lines when it stops.
 */
static void spend_time(struct page_run *s, struct pass_state *ps, unsigned int n)
{
	static struct budget_pass bp[FIGURES_PASSES_MAX];
	uint64_t budget = s->p->time_ms * s->ticks_per_ms, elapsed;
	bool first_round = true;
	unsigned int k;

	for (k = 0; k < n; k++)
		bp[k] = (struct budget_pass){ .floor = pass_floor(ps[k].id), .open = true,
					      .stop = op_runs(s, ps[k].op) ?
						      EPOCH_GO_ON : EPOCH_STOP_REPS };
	for (;;) {
		unsigned int next;

		elapsed = rdtsc_ordered() - s->clock.t_start;
		next = budget_next(bp, n, elapsed, budget);
		if (first_round && (next == n || ps[next].epoch >= INTERVAL_EPOCHS_MIN)) {
			first_round = false;
			if (elapsed > budget)
				out_line("note: time=%lums: the first round, %u epochs of every pass and variant, took %lu ms: the passes stop there",
					 (unsigned long)s->p->time_ms, INTERVAL_EPOCHS_MIN,
					 (unsigned long)(elapsed / s->ticks_per_ms));
		}

		for (k = 0; k < n; k++)
			if (bp[k].stop != EPOCH_GO_ON)
				pass_stop(s, &ps[k], bp[k].stop);
		if (next == n)
			break;
		sample_pass_select(next);
		if (!ps[next].epoch && ma_ling_pass(ps[next].id))
			ma_ling(s, &ps[next]);
		pass_epoch(s, &ps[next]);
		bp[next].epochs = ps[next].epoch;
		bp[next].last = ps[next].last;
		bp[next].open = ps[next].race.open;
		bp[next].need = ps[next].race.need;
		/* A pass whose variants all faulted has nothing left to measure. */
		if (!op_runs(s, ps[next].op))
			bp[next].stop = EPOCH_STOP_REPS;
	}
	capped_note(s, bp, n, elapsed, budget);
}

/*
 * The page suites with stats: every pass takes turns, an epoch at a time,
 * so that each one's epochs spread over the whole run and sample what
 * changes on a shared machine over it (docs/method.md, "Epochs"). First
 * every pass's first epoch, in the 2021 order; then always the epoch
 * that is due first, until every pass has stopped. Each pass counts its
 * samples and cycles in a slot of its own (harness/measure/sample.h), and has its
 * cycles lines; one disturbance line covers them all. The record keeps
 * the table order.
 */
static void run_passes(struct page_run *s)
{
	static struct pass_state ps[FIGURES_PASSES_MAX];
	struct sample_tally tally = { 0 };
	unsigned int n = 0, k, id, op;
	uint64_t span = 0;
	bool running[FIGURES_PASSES_MAX];
	unsigned int expect[FIGURES_PASSES_MAX];	/* epochs each pass is expected to take */

	for (op = 0; op < OP_COUNT; op++)
		for (id = 0; id < PASS_COUNT; id++)
			if (pass_runs(s, id, op) && passes[id].kind == KIND_TIMED)
				pass_begin(s, &ps[n], op, id, n), n++;
	for (id = 0; id < PASS_COUNT; id++)
		for (op = 0; op < OP_COUNT; op++)
			if (pass_runs(s, id, op) && passes[id].kind != KIND_TIMED) {
				pass_begin(s, &ps[n], op, id, n);
				ps[n++].rep_fn = passes[id].kind == KIND_HOTBUF ?
						 hot_buffer_reps : hot_cold_reps;
			}
	for (k = 0; k < n; k++) {
		sample_pass_select(k);
		sample_pass_reset();
	}
	host_pass_begin();
	if (s->p->time_ms) {
		spend_time(s, ps, n);
		goto end;
	}
	for (k = 0; k < n; k++) {
		sample_pass_select(k);
		if (ma_ling_pass(ps[k].id))
			ma_ling(s, &ps[k]);
		running[k] = op_runs(s, ps[k].op) && pass_epoch(s, &ps[k]) == EPOCH_GO_ON;
		expect[k] = expected_epochs(s, &ps[k]);
		span += (uint64_t)(expect[k] - 1) * ps[k].last;
	}
	for (;;) {
		unsigned int next = n;

		for (k = 0; k < n; k++)
			if (running[k] && (next == n ||
			    due(&ps[k], expect[k], span, n) <
			    due(&ps[next], expect[next], span, n)))
				next = k;
		if (next == n)
			break;
		sample_pass_select(next);
		running[next] = pass_epoch(s, &ps[next]) == EPOCH_GO_ON;
	}
end:
	/* Cycles per pass; one disturbance line, for passes that shared their time. */
	for (k = 0; k < n; k++) {
		sample_pass_select(k);
		sample_cycles_lines(op_name(ps[k].op), passes[ps[k].id].id);
		sample_tally_add(&tally);
	}
	sample_pass_select(0);
	host_pass_end("all", "all", &tally);
	/* What each pass measured, for the decision and the summary after the run. */
	for (k = 0; s->rec && k < n; k++)
		figures_record(&ps[k].figs, ps[k].printed, ps[k].failed,
			       record_add_pass(s->rec, ps[k].op, ps[k].id,
					       pass_bytes(s->p, ps[k].id, ps[k].op)));
}

void suite_run(const struct plan *p, const struct cpu_desc *d,
	       const struct buffers *b, uint64_t tsc_khz,
	       const struct race_questions *q, struct run_record *rec)
{
	struct page_run s = { .p = p, .b = b, .rec = rec, .q = q, .runs = p->runs };
	uint64_t total = 0;
	unsigned int id, op;

	sample_start(p, tsc_khz);
	if (suites[p->suite].how == HOW_STRINGS) {	/* harness/measure/suites/strings.c */
		strings_run(p, d, b, tsc_khz, rec);
		return;
	}
	if (suites[p->suite].how == HOW_SCRUB) {
		scrub_run(p, d, b, tsc_khz, rec);
		return;
	}
	plan_buffer_sizes(p, &s.sizes);
	bench_env_init(&s.env, d);
	out_line("flush: %s", flush_method_name(&s.env));
	s.ticks_per_ms = tsc_khz ? tsc_khz : TIMER_TICKS_PER_MS_UNKNOWN;
	s.rule = (struct epoch_rule){ p->reps, p->precision_bp,
				      p->budget_ms * s.ticks_per_ms };
	if (p->time_ms) {
		/* Each pass's even share sizes its reps an epoch (epoch_reps_for()). */
		unsigned int npasses = 0;

		for (id = 0; id < PASS_COUNT; id++)
			for (op = 0; op < OP_COUNT; op++)
				npasses += pass_runs(&s, id, op);
		s.rule.budget_ticks = p->time_ms * s.ticks_per_ms / (npasses ? npasses : 1);
	}
	if (p->stats) {
		timer_measure(&s.timer);
		out_line("tsc step=%lu region=%lu reads=%u", (unsigned long)s.timer.step,
			 (unsigned long)s.timer.region, s.timer.reads);
		if (!tsc_khz && !p->reps)
			out_line(p->time_ms ? "note: no TSC rate: time= counts %lu ticks a millisecond" :
				 "note: no TSC rate: budget= counts %lu ticks a millisecond",
				 (unsigned long)s.ticks_per_ms);
	}
	for (id = 0; id < PASS_COUNT; id++)
		for (op = 0; op < OP_COUNT; op++)
			if (pass_runs(&s, id, op))
				total += iterations(&s, id, op) * iteration_pages(p, id);
	progress_start(&s.clock, tsc_khz, total, p->time_ms);

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
