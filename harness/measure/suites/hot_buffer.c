/* SPDX-License-Identifier: MIT */
/*
 * The hot-buffer passes (l1h, l2h, l3h, memh): the work likwid-bench and
 * perf bench mem time, one buffer of the pass's bytes cleared or copied
 * call after call, so that each call finds what the one before it left
 * (docs/method.md, "The peers' state"). The same bytes, variants, epochs
 * and stat and ratio lines as the other passes; no fill, no probe, no
 * flush between calls.
 */
#include "lib/out.h"
#include "lib/run.h"
#include "harness/measure/sample.h"
#include "harness/measure/suites/timed_call.h"
#include "harness/measure/suites/hot_buffer.h"
#include "harness/measure/suites/verify.h"

/*
 * One sample of variant i on the pass's one buffer: a pattern written
 * (so that a routine that does nothing fails its check), one untimed call
 * that leaves the buffer where the peers' first call leaves theirs, then
 * calls timed calls on the same buffer. A call too long to batch is timed
 * in windows, as a timed pass's is, so that the module keeps its yield
 * points.
 */
static bool hot_sample(struct page_run *s, struct pass_state *ps,
		       unsigned int i, unsigned int calls, uint64_t *ticks)
{
	struct layout one = layout_slot(&ps->l, 0);
	struct call c = { &variants[i], &one, calls, true };
	struct sample_tries tries = { 0 };
	struct host_sample h;
	struct fault f;
	uint64_t warm;
	bool ok;

	do {
		host_may_yield();
		prepare_slot(&one, ps->rep, i);
		ok = time_windows(&s->env, call_variant, &c, one.bytes, &warm, &h, &f);
		host_may_yield();
		if (ok && calls == 1)
			ok = time_windows(&s->env, call_variant, &c, one.bytes, ticks,
					  &h, &f);
		else if (ok)
			ok = time_guarded(call_batch, &c, ticks, &h, &f);
	} while (ok && sample_again(&tries, *ticks, &h, variants[i].name));
	if (!ok) {
		variant_fault(ps->op, ps->header, i, &f, &s->runs, &ps->failed);
		return false;
	}
	verify_slots(ps->header, i, &one, 1, &ps->failed);
	return true;
}

/*
 * A rep: a sample of each variant still measured. The pass's first rep
 * first times one call of each, and the quickest sets the batch for the
 * whole pass, as a timed pass's first rep does (harness/stats/interval.h): every
 * sample at least BATCH_TIMER_STEPS timer steps long.
 */
void hot_buffer_reps(struct page_run *s, struct pass_state *ps,
		     unsigned int reps)
{
	uint64_t ticks, shortest = UINT64_MAX;
	unsigned int i;

	if (!ps->rep) {
		for (i = 0; i < variant_count; i++)
			if (variant_measured(s, ps, i) && hot_sample(s, ps, i, 1, &ticks) &&
			    ticks < shortest)
				shortest = ticks;
		if (shortest != UINT64_MAX)
			ps->batch = pass_batch(shortest * CENTI, s->timer.step, BATCH_MAX);
		for (i = 0; i < variant_count; i++)
			figures_set_batch(&ps->figs, i, ps->batch);
	}
	for (i = 0; i < variant_count; i++) {
		if (!variant_measured(s, ps, i))
			continue;
		run_step("%s %s rep %u variant %s", op_name(ps->op), ps->header,
			 ps->rep, variants[i].name);
		progress_next(&s->clock, op_name(ps->op), ps->header, variants[i].name,
			      ps->rep, reps, iteration_pages(s->p, ps->id));
		if (hot_sample(s, ps, i, ps->batch, &ticks))
			figures_add(&ps->figs, i, ticks);
	}
}
