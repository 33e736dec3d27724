/* SPDX-License-Identifier: MIT */
/*
 * time='s race in a pass (harness/decide/race.h, docs/method.md, "One time
 * budget"): for each function of the run's question list that the pass's
 * op measures, each variant a kernel picks against its candidates, the
 * variants of the function's shape a kernel could take as they are.
 */
#include "harness/measure/budget.h"
#include "harness/measure/suites/pass_race.h"

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

void pass_race(struct pass_race *r, const struct race_questions *q, unsigned int worth_bp,
	       enum pass_id id, variant_set runs, unsigned int epoch,
	       struct pass_figures *figs)
{
	struct race race = { .worth_bp = worth_bp };
	struct race_outcome rc;
	variant_set keep;
	unsigned int fn, i;

	if (epoch < INTERVAL_EPOCHS_MIN || !(epoch & 1))
		return;
	for (fn = 0; q && fn < q->n; fn++) {
		const struct race_fn *f = &q->fn[fn];
		variant_set cands = 0;

		if (f->op != figs->op)
			continue;
		for (i = 0; i < variant_count; i++)
			if (((runs >> i) & 1) && variants[i].shape == f->shape &&
			    store_done_at_return(variants[i].store))
				cands |= 1ull << i;
		for (i = 0; i < variant_count; i++)
			if ((((f->picks & cands) >> i) & 1))
				race_add(&race, i, cands);
	}
	if (!race.n) {
		/* No pick runs here: nothing to race, every variant shares the time. */
		r->open = true;
		r->need = INTERVAL_EPOCHS_MAX;
		return;
	}
	race_judge(&race, race_ratio, figs, epoch, &rc);
	r->open = rc.open > 0;
	r->need = rc.need;
	keep = race_keep(&rc, r->active, epoch, pass_floor(id));
	figs->out |= r->active & ~keep;
	r->active = keep;
}
