/* SPDX-License-Identifier: MIT */
/*
 * The verdict (harness/verdict.h): the passes handed over, and the lines
 * at the end. No floating point here: that is harness/judge.c, which this
 * calls through the verdict, where the host attached it.
 */
#include "harness/judge.h"
#include "harness/rules.h"
#include "harness/verdict.h"
#include "lib/out.h"

/* Picks of one function: every entry of both kernels, every era. */
#define FN_PICKS_MAX	(RULE_KERNELS * RULE_ENTRIES_MAX * 4)

void verdict_off(struct verdict *vd, const char *why)
{
	vd->off = why;
}

void verdict_begin_pass(struct verdict *vd, enum op op, enum pass_id pass)
{
	vd->open = true;
	vd->op = op;
	vd->pass = pass;
	vd->npending = 0;
	vd->ratio_ref = NULL;
}

static void add(struct verdict *vd, const struct verdict_pending *p)
{
	if (vd->open && vd->npending < VARIANTS_MAX && p->n)
		vd->pending[vd->npending++] = *p;
}

void verdict_add(struct verdict *vd, const struct variant *v, uint64_t *t,
		 unsigned int n, bool failed)
{
	add(vd, &(struct verdict_pending){ .v = v, .t = t, .n = n, .failed = failed });
}

void verdict_add_aggregate(struct verdict *vd, const struct variant *v,
			   uint64_t median, unsigned int n, bool failed)
{
	add(vd, &(struct verdict_pending){ .v = v, .n = n, .median = median,
					   .failed = failed });
}

void verdict_add_figure(struct verdict *vd, const struct variant *v,
			const struct verdict_figure *fig, bool failed)
{
	add(vd, &(struct verdict_pending){ .v = v, .n = fig->n, .failed = failed,
					   .has_figure = true, .fig = *fig });
}

void verdict_add_ratio(struct verdict *vd, const struct variant *v,
		       const struct variant *ref, const struct verdict_ratio *r)
{
	unsigned int i;

	if (!vd->open)
		return;
	vd->ratio_ref = ref;
	for (i = 0; i < vd->npending; i++)
		if (vd->pending[i].v == v) {
			vd->pending[i].has_ratio = true;
			vd->pending[i].ratio = *r;
		}
}

/* The functions a pass of op measures. */
static unsigned int functions(enum op op, enum verdict_fn *out)
{
	if (op == OP_CLEAR) {
		out[0] = VERDICT_CLEAR_PAGE;
		out[1] = VERDICT_CLEAR_PAGES;
		return 2;
	}
	out[0] = VERDICT_COPY_PAGE;
	return 1;
}

void verdict_end_pass(struct verdict *vd)
{
	enum verdict_fn fns[2];
	unsigned int i, n;

	if (!vd->open)
		return;
	n = functions(vd->op, fns);
	for (i = 0; i < n && vd->decide && !vd->off; i++)
		vd->decide(vd, fns[i]);
	vd->open = false;
	vd->npending = 0;
	vd->ratio_ref = NULL;
}

void verdict_report(struct verdict *vd, const struct rule_facts *f)
{
	static struct rule_pick picks[VERDICT_FNS][FN_PICKS_MAX];
	unsigned int npicks[VERDICT_FNS] = { 0 };
	unsigned int fn, k, e, i;

	if (vd->reported)
		return;
	vd->reported = true;
	if (vd->off) {
		out_line("note: verdict: not made: %s", vd->off);
		return;
	}
	if (!vd->print)
		return;		/* a host that makes no verdict */
	/* The picks depend on the CPU alone: once per function. */
	for (fn = 0; fn < VERDICT_FNS; fn++) {
		for (k = 0; k < RULE_KERNELS; k++) {
			const char *entries[RULE_ENTRIES_MAX];
			unsigned int ne = rule_entries(k, verdict_fn_name(fn), entries,
						       RULE_ENTRIES_MAX);

			for (e = 0; e < ne; e++)
				npicks[fn] += rule_picks(k, entries[e], f,
							 picks[fn] + npicks[fn],
							 FN_PICKS_MAX - npicks[fn]);
		}
	}
	/* In the report's order: by function, then by pass. */
	for (fn = 0; fn < VERDICT_FNS; fn++) {
		for (i = 0; i < vd->ndecisions; i++) {
			struct verdict_decision *dec = &vd->decision[i];

			if (dec->fn == fn)
				vd->print(dec, picks[fn], npicks[fn]);
		}
	}
}
