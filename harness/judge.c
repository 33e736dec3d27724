/* SPDX-License-Identifier: MIT */
/* The verdict's decisions, judged picks and lines (harness/judge.h). */
#include "harness/decide.h"
#include "harness/judge.h"
#include "harness/rules.h"
#include "harness/stats.h"
#include "lib/fmt.h"
#include "lib/out.h"
#include "lib/str.h"

/* The page passes' samples are compared as they are: no tie (decide.py). */
#define PAGE_TIE 0.0


static bool contains(const char *s, const char *part)
{
	for (; *s; s++) {
		const char *a = s, *b = part;

		while (*b && *a == *b)
			a++, b++;
		if (!*b)
			return true;
	}
	return false;
}

/* -- numbers as Python prints them ------------------------------------------- */

/*
 * round(x * 10^dec), ties to even, on the exact binary value of x, which
 * is what Python's round(x, dec) and "%.*f" do; 0 <= x < 2^53 / 10^dec.
 */
static int64_t exact_scaled(double x, unsigned int dec)
{
	union { double d; uint64_t u; } f = { .d = x };
	int exp = (int)(f.u >> 52 & 0x7ff), shift;
	uint64_t mant = f.u & ((1ull << 52) - 1), scale = 1, v, q, r, half;
	unsigned int i;

	if (x < 0)
		return -exact_scaled(-x, dec);
	for (i = 0; i < dec; i++)
		scale *= 10;
	if (!exp) {
		if (!mant)
			return 0;
		exp = 1;
	} else {
		mant |= 1ull << 52;
	}
	shift = exp - 1075;			/* x = mant * 2^shift */
	v = mant * scale;			/* below 2^63: scale <= 1000 */
	if (shift >= 0)
		return shift < 10 ? (int64_t)(v << shift) : INT64_MAX;
	shift = -shift;
	if (shift >= 64)
		return 0;			/* v < 2^63 <= half */
	q = v >> shift;
	r = v & ((1ull << shift) - 1);
	half = 1ull << (shift - 1);
	if (r > half || (r == half && (q & 1)))
		q++;
	return (int64_t)q;
}

/* "%.1f" of x. */
static void tenths_text(char *buf, size_t len, int64_t t)
{
	fmt_snprintf(buf, len, "%s%lld.%lld", t < 0 ? "-" : "",
		     (long long)((t < 0 ? -t : t) / 10), (long long)((t < 0 ? -t : t) % 10));
}

/* The cost as the report prints it: "%+.1f" of round(100 * delta, 2). */
static int32_t cost_tenths(double delta)
{
	int64_t hundredths = exact_scaled(100 * delta, 2);

	return (int32_t)exact_scaled((double)hundredths / 100, 1);
}

/* p to two significant digits, as "%.2g" prints it (for reading only). */
static void p_text(char *buf, size_t len, double p)
{
	int e = 0, q;
	double m = p;

	if (!(p > 0)) {
		fmt_snprintf(buf, len, "0");
		return;
	}
	if (p >= 1) {
		fmt_snprintf(buf, len, "1");
		return;
	}
	while (m < 1) {
		m *= 10;
		e--;
	}
	q = (int)(m * 10 + 0.5);		/* 10..100: two digits */
	if (q >= 100) {
		q = 10;
		e++;
	}
	if (e >= -4) {
		char digits[4];
		int zeros = -e - 1, i, at;

		fmt_snprintf(digits, sizeof(digits), "%d", q % 10 ? q : q / 10);
		at = fmt_snprintf(buf, len, "0.");
		for (i = 0; i < zeros; i++)
			at += fmt_snprintf(buf + at, len > (size_t)at ? len - at : 0, "0");
		fmt_snprintf(buf + at, len > (size_t)at ? len - at : 0, "%s", digits);
	} else if (q % 10) {
		fmt_snprintf(buf, len, "%d.%de-%02d", q / 10, q % 10, -e);
	} else {
		fmt_snprintf(buf, len, "%de-%02d", q / 10, -e);
	}
}

/* Whole ticks, a median of an even count (.5), or a stat line's figure (.25, .37). */
static void median_text(char *buf, size_t len, double median)
{
	int64_t t = exact_scaled(median, 2);

	if (t % 10)
		fmt_snprintf(buf, len, "%lld.%02lld", (long long)(t / 100),
			     (long long)(t % 100));
	else if (t % 100)
		tenths_text(buf, len, t / 10);
	else
		fmt_snprintf(buf, len, "%lld", (long long)(t / 100));
}

/* -- the decisions -------------------------------------------------------------- */

/* analysis.py raw_cell() of a stat line: its figure in ticks, its resolution step / batch. */
static struct cell figure_cell(const struct verdict_figure *f)
{
	return (struct cell){
		.n = f->n, .median = f->median / 100.0, .by_epochs = true,
		.has_interval = f->has_interval, .lo = f->lo / 100.0,
		.hi = f->hi / 100.0, .epochs = f->epochs,
		.quantum = f->step ? (double)f->step / (f->batch ? f->batch : 1) : 0,
	};
}

/* The reference's own figure paired against itself: 1 exactly, no spread. */
static const struct verdict_ratio ratio_one = {
	.median = VERDICT_RATIO_ONE, .lo = VERDICT_RATIO_ONE, .hi = VERDICT_RATIO_ONE,
	.has_interval = true,
};

/*
 * paired.py ratio_cell(): a ratio line's figure over the reference's
 * epochs. A ratio's interval already has the timer's step as its floor,
 * so no quantum rule applies (quantum 0).
 */
static struct cell ratio_cell(const struct verdict_ratio *r, unsigned int epochs)
{
	return (struct cell){
		.n = epochs, .median = (double)r->median / VERDICT_RATIO_ONE,
		.by_epochs = true, .has_interval = r->has_interval,
		.lo = (double)r->lo / VERDICT_RATIO_ONE,
		.hi = (double)r->hi / VERDICT_RATIO_ONE, .epochs = epochs,
	};
}

/*
 * paired.py view_json(): where the pass has ratio lines and its reference
 * is one of the times' candidates (pending[at[0..n)]), the reference and
 * each candidate with a ratio interval; the others are left out, as
 * paired.py's without_ratio.
 */
static void decide_paired(const struct verdict *vd, struct verdict_decision *dec,
			  const unsigned int *at, unsigned int n)
{
	static struct cell cells[VARIANTS_MAX];
	const struct verdict_ratio *ratio[VARIANTS_MAX];
	struct verdict_view *view = &dec->paired;
	const struct verdict_pending *ref = NULL;
	unsigned int i, k = 0;

	dec->ref = NULL;
	if (!vd->ratio_ref)
		return;
	for (i = 0; i < n; i++)
		if (vd->pending[at[i]].v == vd->ratio_ref)
			ref = &vd->pending[at[i]];
	if (!ref || !ref->has_figure)
		return;
	for (i = 0; i < n; i++) {
		const struct verdict_pending *p = &vd->pending[at[i]];

		if (p == ref)
			ratio[k] = &ratio_one;
		else if (p->has_ratio && p->ratio.has_interval)
			ratio[k] = &p->ratio;
		else
			continue;
		cells[k] = ratio_cell(ratio[k], ref->fig.epochs);
		view->cand[k] = (struct verdict_cand){ p->v, cells[k].n, cells[k].median };
		k++;
	}
	view->ncand = k;
	view->npicks = 0;
	decide(&view->d, cells, k, DECIDE_ALPHA, PAGE_TIE);
	dec->ref = ref->v;
	dec->paired_winner = *ratio[view->d.rank[0]];
}

/* verdict.py pass_candidates(): what did not fail; ranges for clear_pages only. */
void judge_decide(struct verdict *vd, enum verdict_fn fn)
{
	static struct cell cells[VARIANTS_MAX];
	unsigned int at[VARIANTS_MAX];
	struct verdict_decision *dec;
	struct verdict_view *view;
	unsigned int i, n = 0;

	if (vd->ndecisions == VERDICT_DECISIONS_MAX)
		return;
	dec = &vd->decision[vd->ndecisions];
	view = &dec->times;
	for (i = 0; i < vd->npending; i++) {
		struct verdict_pending *p = &vd->pending[i];
		struct cell *c = &cells[n];

		if (p->failed || (fn != VERDICT_CLEAR_PAGES && p->v->shape == SHAPE_RANGE))
			continue;
		if (p->has_figure) {
			*c = figure_cell(&p->fig);
		} else if (p->t) {
			struct spread sp;

			stats_spread(&sp, p->t, p->n);
			*c = (struct cell){ .n = p->n, .median = sp.median, .q1 = sp.q1,
					    .q3 = sp.q3, .values = p->t };
		} else {
			*c = (struct cell){ .n = p->n, .median = (double)p->median };
		}
		at[n] = i;
		view->cand[n++] = (struct verdict_cand){ p->v, p->n, c->median };
	}
	if (!n)
		return;
	dec->fn = fn;
	dec->op = vd->op;
	dec->pass = vd->pass;
	view->ncand = n;
	view->npicks = 0;
	decide(&view->d, cells, n, DECIDE_ALPHA, PAGE_TIE);
	decide_paired(vd, dec, at, n);
	vd->ndecisions++;
}

/* -- the picks, judged --------------------------------------------------------- */

static const struct verdict_cand *winner(const struct verdict_view *view)
{
	return &view->cand[view->d.rank[0]];
}

static int candidate(const struct verdict_view *view, const char *variant)
{
	unsigned int i;

	for (i = 0; i < view->ncand; i++)
		if (str_eq(view->cand[i].v->name, variant))
			return (int)i;
	return -1;
}

/* decide.py relate()'s reason for figures over epochs not separated. */
static void epochs_rec(char *buf, size_t len, const struct relation *r)
{
	static const char *const why[] = {
		[EPOCHS_BELOW_RESOLUTION] = "below the timer's resolution",
		[EPOCHS_OVERLAP] = "95% intervals overlap",
		[EPOCHS_NO_INTERVAL] = "no 95% interval to compare",
	};
	char of[2][12];
	unsigned int k;

	for (k = 0; k < 2; k++)
		if (r->epochs_of[k])
			fmt_snprintf(of[k], sizeof(of[k]), "%u", r->epochs_of[k]);
		else
			fmt_snprintf(of[k], sizeof(of[k]), "?");
	fmt_snprintf(buf, len, "undecided: %s (%s+%s epochs)", why[r->epochs],
		     of[0], of[1]);
}

/* verdict.py judge(): the pick's variant against the view's winner. */
static void judge(struct verdict_pick *pk, const struct verdict_view *view,
		  enum verdict_fn fn, const char *variant)
{
	const struct verdict_cand *w = winner(view);
	int i = candidate(view, variant);
	const struct relation *r;
	char saves[24];

	pk->variant = variant;
	if (i < 0) {
		pk->status = PICK_NOT_MEASURED;
		fmt_snprintf(pk->rec, sizeof(pk->rec),
			     "not measured: %s has no figures in this pass", variant);
		return;
	}
	r = &view->d.rel[i];
	pk->status = PICK_MEASURED;
	pk->has_cost = r->state != REL_SAME && r->state != REL_TIE && r->has_delta;
	if (pk->has_cost)
		pk->cost_tenths = cost_tenths(r->delta);
	pk->undecided = r->state == REL_UNDECIDED || r->state == REL_UNTESTED;
	switch (r->state) {
	case REL_SAME:
	case REL_TIE:
	case REL_FASTER:
		fmt_snprintf(pk->rec, sizeof(pk->rec), "keep");
		break;
	case REL_SLOWER:
		tenths_text(saves, sizeof(saves), exact_scaled(
			100 * (view->cand[i].median - w->median) / view->cand[i].median, 1));
		if (fn != VERDICT_COPY_PAGE && contains(w->v->what, "no SFENCE"))
			fmt_snprintf(pk->rec, sizeof(pk->rec),
				     "switch to %s (saves %s%%); but %s has no SFENCE: its "
				     "stores are not ordered, and the time leaves their "
				     "completion out", w->v->name, saves, w->v->name);
		else
			fmt_snprintf(pk->rec, sizeof(pk->rec), "switch to %s (saves %s%%)",
				     w->v->name, saves);
		break;
	case REL_UNTESTED:
		if (r->epochs)
			epochs_rec(pk->rec, sizeof(pk->rec), r);
		else
			fmt_snprintf(pk->rec, sizeof(pk->rec),
				     "undecided: aggregated figures, no test");
		break;
	case REL_UNDECIDED:
		if (r->epochs)
			epochs_rec(pk->rec, sizeof(pk->rec), r);
		else if (r->reps_needed)
			fmt_snprintf(pk->rec, sizeof(pk->rec),
				     "undecided: run with reps>=%u", r->reps_needed);
		else
			fmt_snprintf(pk->rec, sizeof(pk->rec),
				     "undecided: no rank difference at these reps");
		break;
	}
}

static void judge_rule(struct verdict_pick *pk, const struct verdict_view *view,
		       enum verdict_fn fn, const struct pick_rule *r)
{
	if (r->needs_variant) {
		pk->status = PICK_NEEDS_VARIANT;
		fmt_snprintf(pk->rec, sizeof(pk->rec), "not measured: needs variant %s",
			     r->needs_variant);
		return;
	}
	judge(pk, view, fn, r->variant);
}

static struct verdict_pick *next_pick(const struct verdict_decision *dec,
				      struct verdict_view *view,
				      const struct rule_pick *p)
{
	struct verdict_pick *pk;

	if (view->npicks == VERDICT_PICKS_MAX) {
		out_line("note: verdict: %s pass=%s has more picks than %u; the rest are "
			 "left out", verdict_fn_name(dec->fn), passes[dec->pass].id,
			 VERDICT_PICKS_MAX);
		return NULL;
	}
	pk = &view->pick[view->npicks++];
	*pk = (struct verdict_pick){ .kernel = p->kernel, .entry = p->entry };
	fmt_snprintf(pk->version, sizeof(pk->version), "%s", p->version);
	return pk;
}

/*
 * Which rows an unknown pick gets: in the times' view its own and one per
 * alternative (verdict.py decision_picks(), the alternatives nested in
 * it); in the paired view, as nextuse.py pick_rows(), its own only where
 * it has no alternative.
 */
enum unknown_rows { UNKNOWN_AND_ALTERNATIVES, ALTERNATIVES_ONLY };

/* Every era's pick judged in one view; an unknown one, and its alternatives. */
static void judge_picks(const struct verdict_decision *dec, struct verdict_view *view,
			const struct rule_pick *picks, unsigned int npicks,
			enum unknown_rows rows)
{
	unsigned int i, a, k, at;

	for (i = 0; i < npicks; i++) {
		const struct rule_pick *p = &picks[i];
		struct verdict_pick *pk;

		if (p->rule) {
			pk = next_pick(dec, view, p);
			if (!pk)
				return;
			judge_rule(pk, view, dec->fn, p->rule);
			continue;
		}
		if (!p->nalts || rows == UNKNOWN_AND_ALTERNATIVES) {
			pk = next_pick(dec, view, p);
			if (!pk)
				return;
			pk->status = PICK_UNKNOWN;
			at = fmt_snprintf(pk->rec, sizeof(pk->rec), "unknown: needs ");
			for (k = 0; k < p->unknown.n; k++)
				at += fmt_snprintf(pk->rec + at, at < sizeof(pk->rec) ?
						   sizeof(pk->rec) - at : 0, "%s%s",
						   k ? ", " : "", p->unknown.name[k]);
		}
		for (a = 0; a < p->nalts; a++) {
			struct verdict_pick *alt = next_pick(dec, view, p);

			if (!alt)
				return;
			fmt_snprintf(alt->assuming, sizeof(alt->assuming), "%s",
				     p->alt[a].assuming);
			judge_rule(alt, view, dec->fn, p->alt[a].rule);
		}
	}
}

/* -- the lines --------------------------------------------------------------- */

/* After pass=, what names the paired view's lines; the times' have nothing there. */
#define PAIRED_WORD	" paired"

/* The winner and the variants as good as it, by median: "a,b,c". */
static void best_text(char *buf, size_t len, const struct verdict_view *view)
{
	unsigned int i, at = 0;

	buf[0] = '\0';
	for (i = 0; i < view->d.n; i++) {
		unsigned int c = view->d.rank[i];

		if (relation_as_good(&view->d.rel[c]))
			at += fmt_snprintf(buf + at, at < len ? len - at : 0, "%s%s",
					   at ? "," : "", view->cand[c].v->name);
	}
}

static void print_decision(const struct verdict_decision *dec)
{
	const struct verdict_view *view = &dec->times;
	char best[OUT_LINE_MAX], median[24];

	best_text(best, sizeof(best), view);
	median_text(median, sizeof(median), winner(view)->median);
	if (view->d.decidable)
		out_line("verdict %s pass=%s winner=%s median=%s n=%u best=%s decided",
			 verdict_fn_name(dec->fn), passes[dec->pass].id,
			 winner(view)->v->name, median, winner(view)->n, best);
	else if (view->d.reps_needed)
		out_line("verdict %s pass=%s winner=%s median=%s n=%u best=%s undecided reps>=%u",
			 verdict_fn_name(dec->fn), passes[dec->pass].id,
			 winner(view)->v->name, median, winner(view)->n, best,
			 view->d.reps_needed);
	else
		out_line("verdict %s pass=%s winner=%s median=%s n=%u best=%s undecided",
			 verdict_fn_name(dec->fn), passes[dec->pass].id,
			 winner(view)->v->name, median, winner(view)->n, best);
}

/*
 * The paired view's decision: no projection of reps, since its figures are
 * decided by their intervals alone.
 */
static void print_paired(const struct verdict_decision *dec)
{
	const struct verdict_view *view = &dec->paired;
	const struct verdict_ratio *w = &dec->paired_winner;
	char best[OUT_LINE_MAX], ratio[3][24];

	best_text(best, sizeof(best), view);
	verdict_ratio_text(ratio[0], sizeof(ratio[0]), w->median);
	verdict_ratio_text(ratio[1], sizeof(ratio[1]), w->lo);
	verdict_ratio_text(ratio[2], sizeof(ratio[2]), w->hi);
	out_line("verdict %s pass=%s" PAIRED_WORD " ref=%s winner=%s ratio=%s lo=%s hi=%s best=%s %s",
		 verdict_fn_name(dec->fn), passes[dec->pass].id,
		 dec->ref->name, winner(view)->v->name, ratio[0], ratio[1], ratio[2],
		 best, view->d.decidable ? "decided" : "undecided");
}

static void print_pick(const struct verdict_decision *dec, const struct verdict_view *view,
		       bool paired, const struct verdict_pick *pk)
{
	char what[96], cost[24], p[16], assuming[RULE_NEED_LEN + 12];
	int i;

	assuming[0] = '\0';
	if (pk->assuming[0])
		fmt_snprintf(assuming, sizeof(assuming), " assuming %s", pk->assuming);
	switch (pk->status) {
	case PICK_UNKNOWN:
		fmt_snprintf(what, sizeof(what), "?");
		break;
	case PICK_NEEDS_VARIANT:
		fmt_snprintf(what, sizeof(what), "-");
		break;
	case PICK_NOT_MEASURED:
		fmt_snprintf(what, sizeof(what), "%s", pk->variant);
		break;
	case PICK_MEASURED:
		i = candidate(view, pk->variant);
		if (!pk->has_cost) {
			fmt_snprintf(what, sizeof(what), "%s cost=none", pk->variant);
			break;
		}
		tenths_text(cost, sizeof(cost), pk->cost_tenths);
		if (view->d.rel[i].has_p) {
			p_text(p, sizeof(p), view->d.rel[i].p);
			fmt_snprintf(what, sizeof(what), "%s cost=+%s%% p=%s", pk->variant,
				     cost, p);
		} else {
			fmt_snprintf(what, sizeof(what), "%s cost=+%s%%", pk->variant, cost);
		}
		break;
	}
	out_line("verdict %s pass=%s%s pick %s %s %s%s: %s: %s", verdict_fn_name(dec->fn),
		 passes[dec->pass].id, paired ? PAIRED_WORD : "", rule_kernel_name(pk->kernel), pk->version,
		 pk->entry, assuming, what, pk->rec);
}

static void print_picks(const struct verdict_decision *dec, bool paired)
{
	const struct verdict_view *view = paired ? &dec->paired : &dec->times;
	unsigned int j;

	for (j = 0; j < view->npicks; j++)
		print_pick(dec, view, paired, &view->pick[j]);
}

void judge_attach(struct verdict *vd)
{
	vd->decide = judge_decide;
	vd->print = judge_print;
}

void judge_print(struct verdict_decision *dec, const struct rule_pick *picks,
		 unsigned int npicks)
{
	judge_picks(dec, &dec->times, picks, npicks, UNKNOWN_AND_ALTERNATIVES);
	print_decision(dec);
	print_picks(dec, false);
	if (!dec->ref)
		return;
	judge_picks(dec, &dec->paired, picks, npicks, ALTERNATIVES_ONLY);
	print_paired(dec);
	print_picks(dec, true);
}
