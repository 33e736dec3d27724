/* SPDX-License-Identifier: MIT */
/* time='s question list from the kernel rules (harness/decide/questions.h). */
#include "harness/decide/answer.h"
#include "harness/decide/questions.h"
#include "harness/decide/rules.h"
#include "lib/str.h"

static int variant_named(enum op op, const char *name)
{
	unsigned int i;

	for (i = 0; name && i < variant_count; i++)
		if (variants[i].op == op && str_eq(variants[i].name, name))
			return (int)i;
	return -1;
}

/* Every variant some kernel picks for fn, of every entry and era, and their alternatives. */
static variant_set picks_of(enum answer_fn fn, const struct rule_facts *f)
{
	static struct rule_pick picks[RULE_ENTRIES_MAX * 8];
	enum op op = answer_fn_op(fn);
	variant_set set = 0;
	unsigned int k, e, i, j;
	int v;

	for (k = 0; k < RULE_KERNELS; k++) {
		const char *entries[RULE_ENTRIES_MAX];
		unsigned int ne = rule_entries(k, answer_fn_name(fn), entries, RULE_ENTRIES_MAX);

		for (e = 0; e < ne; e++) {
			unsigned int n = rule_picks(k, entries[e], f, picks,
						    sizeof(picks) / sizeof(picks[0]));

			for (i = 0; i < n; i++) {
				v = variant_named(op, rule_pick_variant(&picks[i]));
				if (v >= 0)
					set |= 1ull << v;
				for (j = 0; j < picks[i].nalts; j++) {
					v = variant_named(op, picks[i].alt[j].rule->variant);
					if (v >= 0)
						set |= 1ull << v;
				}
			}
		}
	}
	return set;
}

void race_questions_of(struct race_questions *q, const struct cpu_desc *d)
{
	struct rule_facts f;
	unsigned int fn;

	rule_facts_init(&f, d, FACT_UNKNOWN);
	q->n = 0;
	for (fn = 0; fn < ANSWER_FNS && q->n < RACE_FNS_MAX; fn++)
		q->fn[q->n++] = (struct race_fn){ answer_fn_op(fn), answer_fn_shape(fn),
						  picks_of(fn, &f) };
}
