/* SPDX-License-Identifier: MIT */
/*
 * The questions time= races in a pass (harness/race.h, docs/method.md,
 * "One time budget"): for each function of the pass's table, each
 * variant some kernel rule picks on this CPU against its candidates, the
 * variants of the function's shape a kernel could take as they are.
 */
#include "lib/str.h"
#include "harness/budget.h"
#include "harness/rules.h"
#include "harness/suites/suite_internal.h"

/* The functions time= races, by the variants that measure each. */
static const struct {
	const char *name;	/* a rule's measured function */
	enum op op;
	enum variant_shape shape;
} race_fns[RACE_FNS] = {
	[RACE_CLEAR_PAGE] = { "clear_page", OP_CLEAR, SHAPE_PAGE },
	[RACE_CLEAR_PAGES] = { "clear_pages", OP_CLEAR, SHAPE_RANGE },
	[RACE_COPY_PAGE] = { "copy_page", OP_COPY, SHAPE_PAGE },
};

static int variant_named(enum op op, const char *name)
{
	unsigned int i;

	for (i = 0; name && i < variant_count; i++)
		if (variants[i].op == op && str_eq(variants[i].name, name))
			return (int)i;
	return -1;
}

/*
 * Every variant some era of Linux or Xen picks for the function on this
 * CPU, for each value of an MSR bit the run cannot read: the picks the
 * answer judges are among them.
 */
void race_find_picks(struct suite_run *s, const struct cpu_desc *d)
{
	static struct rule_pick picks[RULE_ENTRIES_MAX * 8];
	struct rule_facts f;
	unsigned int fn, k, e, i, j;

	rule_facts_init(&f, d, FACT_UNKNOWN);
	for (fn = 0; fn < RACE_FNS; fn++) {
		for (k = 0; k < RULE_KERNELS; k++) {
			const char *entries[RULE_ENTRIES_MAX];
			unsigned int ne = rule_entries(k, race_fns[fn].name, entries,
						       RULE_ENTRIES_MAX);

			for (e = 0; e < ne; e++) {
				unsigned int n = rule_picks(k, entries[e], &f, picks,
							    sizeof(picks) / sizeof(picks[0]));

				for (i = 0; i < n; i++) {
					int v = variant_named(race_fns[fn].op,
							      rule_pick_variant(&picks[i]));

					if (v >= 0)
						s->picks[fn] |= 1ull << v;
					for (j = 0; j < picks[i].nalts; j++) {
						v = variant_named(race_fns[fn].op,
								  picks[i].alt[j].rule->variant);
						if (v >= 0)
							s->picks[fn] |= 1ull << v;
					}
				}
			}
		}
	}
}

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
	for (fn = 0; fn < RACE_FNS; fn++) {
		variant_set cands = 0;

		if (race_fns[fn].op != ps->op)
			continue;
		for (i = 0; i < variant_count; i++)
			if (((runs >> i) & 1) && variants[i].shape == race_fns[fn].shape &&
			    store_done_at_return(variants[i].store))
				cands |= 1ull << i;
		for (i = 0; i < variant_count; i++)
			if ((((s->picks[fn] & cands) >> i) & 1))
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
