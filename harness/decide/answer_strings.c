/* SPDX-License-Identifier: MIT */
/* The answer's other questions (harness/decide/answer_strings.h): integers only. */
#include "harness/decide/answer_strings.h"
#include "harness/decide/prefer.h"
#include "lib/fmt.h"
#include "lib/str.h"
#include "variants/store.h"

static enum string_op op_of(enum answer_xfn fn)
{
	return fn == ANSWER_MEMCPY ? STRING_MEMCPY : STRING_MEMSET;
}

static int string_variant_named(enum string_op op, const char *name)
{
	unsigned int i;

	for (i = 0; name && i < string_variant_count; i++)
		if (string_variants[i].op == op && str_eq(string_variants[i].name, name))
			return (int)i;
	return -1;
}

/* The next record, or NULL where there is no room. */
static struct answer_x *new_x(struct answers *a, enum answer_xfn fn, const char *pass,
			      unsigned int pick)
{
	struct answer_x *x;

	if (a->nx == ANSWERS_X_MAX)
		return NULL;
	x = &a->xrec[a->nx++];
	*x = (struct answer_x){ .fn = fn, .pick = pick };
	x->a.action = ANSWER_NONE;
	fmt_snprintf(x->pass, sizeof(x->pass), "%s", pass);
	return x;
}

/*
 * One mode and class of fn: a record per pick. have: the variants with
 * every figure; calls: the calls each figure of the class sums (one at
 * each size and alignment), each of which a VEC routine pays the vector
 * price for (outside the timed batch: added here).
 */
static void decide_class(struct answers *a, enum answer_xfn fn, enum strings_mode mode,
			 unsigned int c, const struct epoch_series *s, const bool *have,
			 unsigned int calls)
{
	const struct epoch_series *cand[STRINGS_FIGURES_ROWS];
	struct answer_price add[STRINGS_FIGURES_ROWS];
	unsigned int from[STRINGS_FIGURES_ROWS], unpriced[STRINGS_FIGURES_ROWS];
	enum string_op op = op_of(fn);
	unsigned int key[STRINGS_FIGURES_ROWS];
	unsigned int i, v, nc, nu;

	for (i = 0; i < a->nxpicks[fn]; i++) {
		const struct answer_pick *pk = &a->xpick[fn][i];
		struct answer_x *x = new_x(a, fn, strings_mode_name(mode), i);
		struct answer_weighed w;
		int p;

		if (!x)
			return;
		x->sized = true;
		x->lo = strings_classes[c].lo;
		x->hi = strings_classes[c].hi;
		if (pk->why != WHY_NONE) {
			x->a.why = pk->why;
			continue;
		}
		p = string_variant_named(op, pk->variant);
		if (p >= 0 && !have[p])
			p = -1;
		for (v = 0, nc = 0, nu = 0; p >= 0 && v < string_variant_count; v++) {
			if (!have[v] || (int)v == p || !store_done_at_return(string_variants[v].store))
				continue;
			/* Without its price a VEC routine is shown beside, never named. */
			if (string_variants[v].regs == REGS_VEC && !a->run.price.measured) {
				unpriced[nu++] = v;
				continue;
			}
			key[nc] = prefer_rank(string_variants[v].regs, v);
			from[nc++] = v;
		}
		/* In the order of preference, for answer_weigh(). */
		prefer_sort(from, key, nc);
		for (v = 0; v < nc; v++) {
			cand[v] = &s[from[v]];
			add[v] = string_variants[from[v]].regs == REGS_VEC ?
				 answer_price_calls(&a->run.price, calls) :
				 (struct answer_price){ 0 };
		}
		answer_weigh(&a->run, p >= 0 ? &s[p] : NULL, cand, add, nc, &w);
		answer_take(&x->a, &w);
		if (w.named < 0)
			continue;
		x->routine = string_variants[from[w.named]].name;
		x->vec = string_variants[from[w.named]].regs == REGS_VEC;
		if (w.alike >= 0)
			x->alike = string_variants[from[w.alike]].name;
		if (a->run.tsc_khz) {
			x->a.has_ns = true;
			x->a.pick_ns10 = answer_ns10(s[p].median, a->run.tsc_khz, 1);
			x->a.routine_ns10 = answer_ns10(s[from[w.named]].median + add[w.named].centi,
							a->run.tsc_khz, 1);
			x->a.has_price = x->vec;
			x->a.price_ns10 = answer_ns10(add[w.named].centi, a->run.tsc_khz, 1);
		}
		for (v = 0; v < nu && x->a.action != ANSWER_NONE; v++) {
			struct interval iv;

			if (!interval_of_ratio(&s[unpriced[v]], &s[p], &iv) ||
			    iv.median >= (x->a.has_ratio ? x->a.ratio.median : RATIO_ONE) ||
			    (x->unpriced && iv.median >= x->a.unpriced_ratio))
				continue;
			x->unpriced = string_variants[unpriced[v]].name;
			x->a.unpriced_ratio = iv.median;
		}
	}
}

void answers_strings(struct answers *a, const struct strings_figures *f, uint64_t quantum)
{
	static uint64_t med[STRINGS_FIGURES_ROWS][STRINGS_REPS_MAX];
	static struct epoch_series s[STRINGS_FIGURES_ROWS];
	bool have[STRINGS_FIGURES_ROWS];
	unsigned int fn, mode, c, v, r;

	if (!a->on || !f->reps)
		return;
	for (fn = ANSWER_MEMSET; fn <= ANSWER_MEMCPY; fn++)
		for (mode = 0; mode < MODE_COUNT; mode++)
			for (c = 0; c < STRINGS_CLASSES; c++) {
				unsigned int full = 0;

				/* A variant with fewer figures than the most (a fault cut it short) is left out. */
				for (v = 0; v < string_variant_count; v++)
					if (string_variants[v].op == op_of(fn) &&
					    f->count[mode][c][v] > full)
						full = f->count[mode][c][v];
				if (!full)
					continue;
				for (v = 0; v < string_variant_count; v++) {
					uint64_t sorted[STRINGS_REPS_MAX];
					unsigned int e;

					have[v] = string_variants[v].op == op_of(fn) &&
						  f->count[mode][c][v] == full &&
						  !((f->failed >> v) & 1);
					if (!have[v])
						continue;
					for (r = 0; r < f->reps; r++)
						med[v][r] = (uint64_t)f->sum[mode][c][v][r];
					e = interval_odd_epochs(med[v], f->reps);
					for (r = 0; r < e; r++)
						sorted[r] = med[v][r];
					s[v] = (struct epoch_series){ med[v], e,
								      median_u64(sorted, e),
								      quantum ? quantum : 1 };
				}
				decide_class(a, fn, mode, c, s, have, full);
			}
}

void answers_scrub(struct answers *a, const char *step, size_t bytes,
		   const struct answer_input *in, unsigned int n)
{
	unsigned int i;

	if (!a->on)
		return;
	for (i = 0; i < a->nxpicks[ANSWER_SCRUB]; i++) {
		struct answer_x *x;
		struct answer d;

		/* As a MEM pass: the region lies beyond the caches. */
		if (!answer_decide(&a->run, &a->xpick[ANSWER_SCRUB][i], ANSWER_CLEAR_PAGE,
				   PASS_MEM, bytes, in, n, &d))
			continue;
		x = new_x(a, ANSWER_SCRUB, step, i);
		if (!x)
			return;
		x->a = d;
		x->routine = d.routine ? d.routine->name : NULL;
		x->vec = d.routine && d.routine->regs == REGS_VEC;
		x->alike = d.alike ? d.alike->name : NULL;
		x->unpriced = d.unpriced ? d.unpriced->name : NULL;
	}
}
