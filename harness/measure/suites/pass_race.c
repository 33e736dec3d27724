/* SPDX-License-Identifier: MIT */
/*
 * time='s race in a pass (harness/decide/race.h, docs/method.md, "One time
 * budget"): for each function of the run's question list that the pass's
 * op measures, each variant a kernel picks against its candidates, the
 * variants of the function's shape a kernel could take as they are.
 */
#include "harness/measure/budget.h"
#include "harness/measure/suites/suite_internal.h"

static bool race_ratio(void *ctx, unsigned int cand, unsigned int pick,
		       struct interval *iv)
{
	return figures_ratio(ctx, cand, pick, iv);
}

unsigned int pass_floor(enum pass_id id)
{
	return passes[id].size == SIZE_L3 || passes[id].size == SIZE_MEM ?
	       BUDGET_FLOOR_DEEP : BUDGET_FLOOR;
}

void pass_race(struct suite_run *s, struct pass_state *ps)
{
	variant_set runs = op_runs(s, ps->op) & ~ps->failed, keep;
	struct race r = { .worth_bp = s->p->worth_bp };
	struct race_outcome rc;
	unsigned int fn, i;

	if (ps->epoch < INTERVAL_EPOCHS_MIN || !(ps->epoch & 1))
		return;
	for (fn = 0; s->q && fn < s->q->n; fn++) {
		const struct race_fn *f = &s->q->fn[fn];
		variant_set cands = 0;

		if (f->op != ps->op)
			continue;
		for (i = 0; i < variant_count; i++)
			if (((runs >> i) & 1) && variants[i].shape == f->shape &&
			    store_done_at_return(variants[i].store))
				cands |= 1ull << i;
		for (i = 0; i < variant_count; i++)
			if ((((f->picks & cands) >> i) & 1))
				race_add(&r, i, cands);
	}
	if (!r.n) {
		/* No pick runs here: nothing to race, every variant shares the time. */
		ps->open = true;
		ps->need = INTERVAL_EPOCHS_MAX;
		return;
	}
	race_judge(&r, race_ratio, &ps->figs, ps->epoch, &rc);
	ps->open = rc.open > 0;
	ps->need = rc.need;
	keep = race_keep(&rc, ps->active, ps->epoch, pass_floor(ps->id));
	ps->figs.out |= ps->active & ~keep;
	ps->active = keep;
}
