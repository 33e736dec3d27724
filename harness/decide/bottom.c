/* SPDX-License-Identifier: MIT */
/* The bottom line (harness/decide/bottom.h): integers only. */
#include "harness/decide/bottom.h"
#include "harness/decide/prefer.h"
#include "lib/fmt.h"
#include "lib/out.h"
#include "lib/str.h"
#include "variants/passes.h"

#define BP_ONE		10000u		/* hundredths of a per cent in a whole */
#define FIGURE_LEN	24
/* mix=: weights and products scaled below these before they multiply. */
#define MIX_WEIGHT_LIMIT	(1ull << 24)
#define MIX_RATIO_LIMIT		(1ull << 32)
#define MIX_SQUARE_LIMIT	(1ull << 29)

const char *bottom_action_name(enum bottom_action a)
{
	static const char *const names[] = {
		[BOTTOM_KEEP] = "keep", [BOTTOM_SWITCH] = "switch",
		[BOTTOM_TRADE_OFF] = "trade-off", [BOTTOM_UNDECIDED] = "undecided",
		[BOTTOM_NONE] = "none",
	};

	return a <= BOTTOM_NONE ? names[a] : "?";
}

const char *bottom_verdict_name(enum bottom_verdict v)
{
	static const char *const names[] = {
		[CELL_EVEN] = "even", [CELL_SAVES] = "saves", [CELL_COSTS] = "costs",
		[CELL_OPEN] = "open", [CELL_MISSING] = "missing",
	};

	return v <= CELL_MISSING ? names[v] : "?";
}

/* Scratch of one bottom line at a time, off the stack (the module's is 16 KiB). */
static struct {
	uint64_t save, cost;		/* 1 - worth, 1 + worth, millionths */
	unsigned int np;
	const struct bottom_pass *p;
	bool active[BOTTOM_PASSES_MAX];	/* the pick has an interval there */
	int at[BOTTOM_PASSES_MAX][VARIANTS_MAX];	/* a candidate's place in its pass; -1 */
	struct interval iv[BOTTOM_PASSES_MAX][VARIANTS_MAX];	/* over the pick */
	bool has[BOTTOM_PASSES_MAX][VARIANTS_MAX];
	/* beats[p][a]: the ids a surely saves worth over in pass p. */
	variant_set beats[BOTTOM_PASSES_MAX][VARIANTS_MAX];
	unsigned int rank[VARIANTS_MAX];
	variant_set seen;		/* candidates of some active pass */
	struct interval mix[VARIANTS_MAX];
	bool has_mix[VARIANTS_MAX];
} w;

static variant_set bit(unsigned int id)
{
	return 1ull << id;
}

static enum bottom_verdict verdict_of(bool has, const struct interval *iv)
{
	if (!has)
		return CELL_MISSING;
	if (iv->hi < w.save)
		return CELL_SAVES;
	if (iv->lo > w.cost)
		return CELL_COSTS;
	if (iv->lo >= w.save && iv->hi <= w.cost)
		return CELL_EVEN;
	return CELL_OPEN;
}

/* Every candidate of every active pass over the pick, and against each other. */
static void weigh_all(void)
{
	unsigned int p, i, j;

	w.seen = 0;
	for (p = 0; p < w.np; p++) {
		const struct bottom_pass *bp = &w.p[p];

		for (i = 0; i < VARIANTS_MAX; i++) {
			w.at[p][i] = -1;
			w.has[p][i] = false;
			w.beats[p][i] = 0;
		}
		if (!w.active[p])
			continue;
		for (i = 0; i < bp->n; i++) {
			unsigned int id = bp->id[i];

			w.at[p][id] = (int)i;
			w.rank[id] = bp->rank[i];
			w.seen |= bit(id);
			w.has[p][id] = answer_ratio(bp->s[i], &bp->add[i], bp->pick, &w.iv[p][id]) &&
				       w.iv[p][id].has_interval;
		}
		for (i = 0; i < bp->n; i++)
			for (j = 0; j < bp->n; j++) {
				struct interval iv;

				if (i != j && answer_versus(bp->s[i], &bp->add[i], bp->s[j],
							    &bp->add[j], &iv) &&
				    iv.has_interval && iv.hi < w.save)
					w.beats[p][bp->id[i]] |= bit(bp->id[j]);
			}
	}
}

/* What a candidate is over the active passes. */
struct standing {
	bool saves, may_save, costs, may_cost;
};

static struct standing standing_of(unsigned int id)
{
	struct standing s = { 0 };
	unsigned int p;

	for (p = 0; p < w.np; p++) {
		const struct interval *iv = &w.iv[p][id];

		if (!w.active[p])
			continue;
		if (!w.has[p][id]) {
			/* Not measured where the pick was: it may do anything there. */
			s.may_cost = true;
			continue;
		}
		s.saves |= iv->hi < w.save;
		s.may_save |= iv->lo < w.save;
		s.costs |= iv->lo > w.cost;
		s.may_cost |= iv->hi > w.cost;
	}
	return s;
}

/* Whether b dominates a: surely saves worth over it in some pass, and it over b in none. */
static bool dominates(unsigned int b, unsigned int a, const bool *in_mix)
{
	bool some = false;
	unsigned int p;

	for (p = 0; p < w.np; p++) {
		if (!w.active[p] || (in_mix && !in_mix[p]))
			continue;
		if ((w.beats[p][a] >> b) & 1)
			return false;
		some |= (w.beats[p][b] >> a) & 1;
	}
	return some;
}

/* Of set, the first in the order of preference that none of set dominates; else the first. */
static int choose(variant_set set, const bool *in_mix)
{
	int first = -1, named = -1;
	unsigned int a, b;

	for (a = 0; a < VARIANTS_MAX; a++) {
		bool beaten = false;

		if (!((set >> a) & 1))
			continue;
		if (first < 0 || w.rank[a] < w.rank[first])
			first = (int)a;
		for (b = 0; b < VARIANTS_MAX && !beaten; b++)
			beaten = b != a && ((set >> b) & 1) && dominates(b, a, in_mix);
		if (!beaten && (named < 0 || w.rank[a] < w.rank[named]))
			named = (int)a;
	}
	return named >= 0 ? named : first;
}

/* The candidates with no sure difference of worth from named in any pass. */
static variant_set alike_of(unsigned int named, const bool *in_mix)
{
	variant_set set = 0;
	unsigned int c, p;

	for (c = 0; c < VARIANTS_MAX; c++) {
		bool apart = false;

		if (c == named || !((w.seen >> c) & 1))
			continue;
		for (p = 0; p < w.np && !apart; p++)
			apart = w.active[p] && (!in_mix || in_mix[p]) &&
				(((w.beats[p][c] >> named) & 1) || ((w.beats[p][named] >> c) & 1));
		if (!apart)
			set |= bit(c);
	}
	return set;
}

/* Of set, the lowest sum of medians over the active passes: the nearest challenger. */
static int nearest(variant_set set)
{
	uint64_t best = UINT64_MAX;
	int named = -1;
	unsigned int c, p;

	for (c = 0; c < VARIANTS_MAX; c++) {
		uint64_t sum = 0;

		if (!((set >> c) & 1))
			continue;
		for (p = 0; p < w.np; p++)
			if (w.active[p] && w.has[p][c])
				sum += w.iv[p][c].median < UINT64_MAX / 32 ? w.iv[p][c].median :
									    UINT64_MAX / 32;
		if (sum < best || (sum == best && named >= 0 && w.rank[c] < w.rank[named])) {
			best = sum;
			named = (int)c;
		}
	}
	return named;
}

/* The pick's time a page in pass p, in hundredths of a tick, for mix= weights. */
static uint64_t page_time(unsigned int p)
{
	uint64_t per = w.p[p].per ? w.p[p].per : 1;

	return w.p[p].pick->median / per;
}

/*
 * The sum of squares of x[0..n) (each at most UINT64_MAX / 2), its root,
 * without overflow: all scaled down alike until each square fits.
 */
static uint64_t root_of_squares(const uint64_t *x, unsigned int n)
{
	uint64_t top = 0, sum = 0;
	unsigned int i, shift = 0;

	for (i = 0; i < n; i++)
		if (x[i] > top)
			top = x[i];
	while ((top >> shift) >= MIX_SQUARE_LIMIT)
		shift++;
	for (i = 0; i < n; i++)
		sum += (x[i] >> shift) * (x[i] >> shift);
	return isqrt_u64(sum) << shift;
}

/*
 * mix=: candidate id's weighed figure over the passes with a weight:
 * sum(W r) / sum(W), W a pass's weight times the pick's time a page, its
 * lo and hi the passes' reaches in quadrature. False where it lacks a
 * weighed pass.
 */
static bool mix_of(unsigned int id, struct interval *out)
{
	uint64_t wt[BOTTOM_PASSES_MAX], below[BOTTOM_PASSES_MAX], above[BOTTOM_PASSES_MAX];
	uint64_t top = 0, sum_w = 0, sum_wr = 0;
	unsigned int p, n = 0, shift = 0;

	for (p = 0; p < w.np; p++) {
		if (!w.p[p].weight)
			continue;
		if (!w.active[p] || !w.has[p][id])
			return false;
		wt[p] = page_time(p);
		wt[p] = wt[p] > UINT64_MAX / w.p[p].weight ? UINT64_MAX : wt[p] * w.p[p].weight;
		if (wt[p] > top)
			top = wt[p];
	}
	while ((top >> shift) >= MIX_WEIGHT_LIMIT)
		shift++;
	for (p = 0; p < w.np; p++) {
		const struct interval *iv = &w.iv[p][id];
		uint64_t r, lo, hi, x;

		if (!w.p[p].weight)
			continue;
		x = (wt[p] >> shift) ? wt[p] >> shift : 1;
		r = iv->median < MIX_RATIO_LIMIT ? iv->median : MIX_RATIO_LIMIT;
		lo = iv->lo < r ? iv->lo : r;
		hi = iv->hi < MIX_RATIO_LIMIT ? iv->hi : MIX_RATIO_LIMIT;
		sum_w += x;
		sum_wr += x * r;
		below[n] = x * (r - lo);
		above[n] = x * (hi > r ? hi - r : 0);
		n++;
	}
	if (!n || !sum_w)
		return false;
	*out = (struct interval){ .median = sum_wr / sum_w, .has_interval = true };
	below[0] = root_of_squares(below, n) / sum_w;
	above[0] = root_of_squares(above, n) / sum_w;
	out->lo = out->median > below[0] ? out->median - below[0] : 0;
	out->hi = out->median + above[0];
	return true;
}

/* The named routine's cells, pass by pass. */
static void cells_of(const struct answer_run *run, struct bottom *out)
{
	unsigned int p;

	for (p = 0; p < w.np; p++) {
		struct bottom_cell *c = &out->cell[p];
		const struct bottom_pass *bp = &w.p[p];
		unsigned int id = (unsigned int)out->routine;
		int at = w.at[p][id];

		*c = (struct bottom_cell){ .verdict = CELL_MISSING };
		if (!w.active[p] || at < 0)
			continue;
		c->epochs = bp->pick->epochs;
		c->verdict = verdict_of(w.has[p][id], &w.iv[p][id]);
		c->ratio = w.iv[p][id];
		if (c->verdict == CELL_OPEN) {
			unsigned int to_save = c->ratio.lo < w.save && c->ratio.hi >= w.save ?
				answer_need_epochs(&c->ratio, w.save, c->epochs) : 0;
			unsigned int to_cost = c->ratio.lo <= w.cost && c->ratio.hi > w.cost ?
				answer_need_epochs(&c->ratio, w.cost, c->epochs) : 0;

			c->need = to_save > to_cost ? to_save : to_cost;
		}
		if (run->tsc_khz) {
			uint64_t per = bp->per ? bp->per : 1;

			c->has_ns = true;
			c->pick_ns10 = answer_ns10(bp->pick->median, run->tsc_khz, per);
			c->routine_ns10 = answer_ns10(bp->s[at]->median + bp->add[at].centi,
						      run->tsc_khz, per);
			c->price_ns10 = answer_ns10(bp->add[at].centi, run->tsc_khz, per);
		}
	}
}

/* Without a price: the VEC candidate whose median, before it, is lowest below 1 - worth. */
static void unpriced_of(struct bottom *out)
{
	unsigned int p, i;

	for (p = 0; p < w.np; p++) {
		const struct bottom_pass *bp = &w.p[p];

		for (i = 0; w.active[p] && i < bp->nunpriced; i++) {
			struct interval iv;

			if (!interval_of_ratio(bp->unpriced_s[i], bp->pick, &iv) ||
			    iv.median >= w.save ||
			    (out->unpriced >= 0 && iv.median >= out->unpriced_ratio))
				continue;
			out->unpriced = (int)bp->unpriced_id[i];
			out->unpriced_pass = p;
			out->unpriced_ratio = iv.median;
		}
	}
}

/* The decision on mix='s one figure. */
static void decide_mixed(struct bottom *out)
{
	variant_set surely = 0, maybe = 0, any = 0;
	bool in_mix[BOTTOM_PASSES_MAX];
	unsigned int c, p;
	int named;

	for (p = 0; p < w.np; p++)
		in_mix[p] = w.p[p].weight != 0;
	for (c = 0; c < VARIANTS_MAX; c++) {
		w.has_mix[c] = ((w.seen >> c) & 1) && mix_of(c, &w.mix[c]);
		if (!w.has_mix[c])
			continue;
		any |= bit(c);
		if (w.mix[c].hi < w.save)
			surely |= bit(c);
		if (w.mix[c].lo < w.save)
			maybe |= bit(c);
	}
	if (surely) {
		out->action = BOTTOM_SWITCH;
		named = choose(surely, in_mix);
	} else if (maybe) {
		out->action = BOTTOM_UNDECIDED;
		named = choose(maybe, in_mix);
	} else {
		out->action = BOTTOM_KEEP;
		named = choose(any, in_mix);
	}
	out->mixed = true;
	out->routine = named;
	if (named >= 0) {
		out->mix = w.mix[named];
		out->alike = alike_of((unsigned int)named, in_mix) & any;
	}
}

/* Which candidates may cost in no pass, and which surely save in some: for a fleet. */
static void sets_of(struct bottom *out)
{
	unsigned int c;

	for (c = 0; c < VARIANTS_MAX; c++) {
		struct standing s;

		if (!((w.seen >> c) & 1))
			continue;
		s = standing_of(c);
		if (!s.may_cost)
			out->safe |= bit(c);
		if (s.saves)
			out->saves |= bit(c);
	}
}

/* The decision pass by pass (bottom.h's rule). */
static void decide_passes(struct bottom *out)
{
	variant_set sw = 0, open_sw = 0, trade = 0, open_any = 0;
	unsigned int c;
	int named;

	for (c = 0; c < VARIANTS_MAX; c++) {
		struct standing s;

		if (!((w.seen >> c) & 1))
			continue;
		s = standing_of(c);
		if (s.saves && !s.may_cost)
			sw |= bit(c);
		else if (s.may_save && !s.costs)
			open_sw |= bit(c);
		else if (s.saves && s.costs)
			trade |= bit(c);
		else if (s.may_save)
			open_any |= bit(c);
	}
	if (sw) {
		out->action = BOTTOM_SWITCH;
		named = choose(sw, NULL);
	} else if (open_sw) {
		out->action = BOTTOM_UNDECIDED;
		named = choose(open_sw, NULL);
	} else if (trade) {
		out->action = BOTTOM_TRADE_OFF;
		named = choose(trade, NULL);
	} else if (open_any) {
		out->action = BOTTOM_UNDECIDED;
		named = choose(open_any, NULL);
	} else {
		out->action = BOTTOM_KEEP;
		named = nearest(w.seen);
	}
	out->routine = named;
	if (named >= 0 && out->action != BOTTOM_KEEP)
		out->alike = alike_of((unsigned int)named, NULL);
}

void bottom_decide(const struct answer_run *run, const struct bottom_pass *p,
		   unsigned int np, struct bottom *out)
{
	uint64_t worth = (uint64_t)run->worth_bp * (RATIO_ONE / BP_ONE);
	bool mixed = false, measured = false;
	unsigned int i;

	*out = (struct bottom){ .action = BOTTOM_NONE, .routine = -1, .unpriced = -1 };
	w.np = np < BOTTOM_PASSES_MAX ? np : BOTTOM_PASSES_MAX;
	w.p = p;
	w.save = worth < RATIO_ONE ? RATIO_ONE - worth : 0;
	w.cost = RATIO_ONE + worth;
	out->npass = w.np;
	for (i = 0; i < w.np; i++) {
		out->pass[i] = p[i].name;
		out->weight[i] = p[i].weight;
		w.active[i] = p[i].pick && p[i].pick->epochs >= INTERVAL_EPOCHS_MIN;
		measured |= p[i].pick != NULL;
		mixed |= p[i].weight != 0;
	}
	weigh_all();
	if (!measured) {
		out->why = WHY_PICK_NOT_MEASURED;
		return;
	}
	if (!w.seen) {
		out->why = WHY_NO_INTERVAL;
		return;
	}
	if (run->not_a_cpu) {
		out->why = WHY_NOT_A_CPU;
		return;
	}
	sets_of(out);
	if (mixed)
		decide_mixed(out);
	else
		decide_passes(out);
	if (out->routine >= 0) {
		for (i = 0; i < w.np && !out->vec; i++) {
			int at = w.at[i][out->routine];

			out->vec = at >= 0 && (p[i].add[at].centi || p[i].add[at].above);
		}
		cells_of(run, out);
	}
	unpriced_of(out);
}

unsigned int bottom_passes_of(const struct answer_run *run, const struct answer_pick *pick,
			      enum answer_fn fn, const struct answer_pass_in *pin,
			      unsigned int npin, struct answer_cands *cands,
			      struct bottom_pass *out)
{
	unsigned int i, k, n = 0;

	if (pick->why != WHY_NONE)
		return 0;
	for (i = 0; i < npin && n < BOTTOM_PASSES_MAX; i++) {
		const struct answer_pass_in *in = &pin[i];
		struct answer_cands *c = &cands[n];
		struct bottom_pass *bp = &out[n];

		if (in->op != answer_fn_op(fn) || !answer_judged(pick->entry, in->pass))
			continue;
		answer_cands_of(c, run, pick->variant, fn, in->bytes, in->in, in->n);
		*bp = (struct bottom_pass){ .name = passes[in->pass].id, .pick = c->ps,
					    .n = c->n, .nunpriced = c->nunpriced,
					    .per = in->bytes / PAGE_SIZE ? in->bytes / PAGE_SIZE : 1,
					    .weight = run->mix[in->pass] };
		for (k = 0; k < c->n; k++) {
			unsigned int id = (unsigned int)(c->cand[k]->v - variants);

			bp->id[k] = id;
			bp->rank[k] = prefer_rank(c->cand[k]->v->regs, id);
			bp->s[k] = c->s[k];
			bp->add[k] = c->add[k];
		}
		for (k = 0; k < c->nunpriced; k++) {
			bp->unpriced_id[k] = (unsigned int)(c->unpriced[k]->v - variants);
			bp->unpriced_s[k] = &c->unpriced[k]->s;
		}
		n++;
	}
	return n;
}

/* The names of the ids of set, comma-separated, or "-". */
static void set_text(char *buf, size_t len, variant_set set, const char *(*name)(unsigned int))
{
	size_t at = 0;
	unsigned int id;

	buf[0] = '\0';
	for (id = 0; id < VARIANTS_MAX; id++)
		if ((set >> id) & 1)
			at += fmt_snprintf(buf + at, at < len ? len - at : 0, "%s%s",
					   at ? "," : "", name(id));
	if (!at)
		fmt_snprintf(buf, len, "-");
}

/* Any cell's verdict, for passes_text(). */
#define CELL_ANY	((enum bottom_verdict)-1)

/* The passes whose cell is v (CELL_ANY: all), comma-separated, or "-". */
static void passes_text(char *buf, size_t len, const struct bottom *b, enum bottom_verdict v)
{
	size_t at = 0;
	unsigned int p;

	buf[0] = '\0';
	for (p = 0; p < b->npass; p++)
		if (v == CELL_ANY || b->cell[p].verdict == v)
			at += fmt_snprintf(buf + at, at < len ? len - at : 0, "%s%s",
					   at ? "," : "", b->pass[p]);
	if (!at)
		fmt_snprintf(buf, len, "-");
}

static size_t tenths(char *buf, size_t len, uint64_t x)
{
	return fmt_snprintf(buf, len, "%lu.%lu", (unsigned long)(x / 10),
			    (unsigned long)(x % 10));
}

/* The words every line of a bottom line starts with: what it answers. */
static size_t key_text(char *buf, size_t len, const char *kind, const char *fn,
		       const struct answer_pick *pick)
{
	return fmt_snprintf(buf, len, "%s fn=%s kernel=%s versions=\"%s\" entry=%s", kind, fn,
			    rule_kernel_name(pick->kernel), pick->versions, pick->entry);
}

void bottom_lines(const struct answer_run *run, const struct answer_pick *pick,
		  const char *fn, const struct bottom *b, const char *(*name)(unsigned int id),
		  void (*put)(const char *line, void *ctx), void *ctx)
{
	char line[OUT_LINE_MAX], list[OUT_LINE_MAX / 2], more[OUT_LINE_MAX / 2];
	size_t at;
	unsigned int p;

#define PUT(...) (at += fmt_snprintf(line + at, at < sizeof(line) ? sizeof(line) - at : 0, \
				     __VA_ARGS__))
	at = key_text(line, sizeof(line), "bottom", fn, pick);
	PUT(" pick=%s", pick->variant ? pick->variant : "-");
	if (pick->assuming[0])
		PUT(" assuming=%s", pick->assuming);
	if (pick->routine)
		PUT(" kernel_routine=\"%s\" selected_by=\"%s\"", pick->routine, pick->when);
	PUT(" action=%s routine=%s", bottom_action_name(b->action),
	    b->routine >= 0 ? name((unsigned int)b->routine) : "-");
	if (b->alike) {
		set_text(list, sizeof(list), b->alike, name);
		PUT(" alike=%s", list);
	}
	PUT(" worth=%u.%u%%", run->worth_bp / 100, run->worth_bp % 100 / 10);
	if (b->action == BOTTOM_NONE) {
		PUT(" why=%s", answer_why_name(b->why));
	} else {
		passes_text(list, sizeof(list), b, CELL_ANY);
		PUT(" passes=%s", list);
		passes_text(list, sizeof(list), b, CELL_SAVES);
		PUT(" saves=%s", list);
		passes_text(list, sizeof(list), b, CELL_COSTS);
		PUT(" costs=%s", list);
		passes_text(list, sizeof(list), b, CELL_OPEN);
		PUT(" open=%s", list);
	}
	if (b->mixed) {
		char med[FIGURE_LEN], lo[FIGURE_LEN], hi[FIGURE_LEN];
		size_t m = 0;

		for (p = 0, more[0] = '\0'; p < b->npass; p++)
			if (b->weight[p])
				m += fmt_snprintf(more + m, m < sizeof(more) ? sizeof(more) - m : 0,
						  "%s%s:%u", m ? "," : "", b->pass[p], b->weight[p]);
		ratio_text(med, sizeof(med), b->mix.median);
		ratio_text(lo, sizeof(lo), b->mix.lo);
		ratio_text(hi, sizeof(hi), b->mix.hi);
		PUT(" mix=%s ratio=%s lo=%s hi=%s", more, med, lo, hi);
	}
	if (b->unpriced >= 0) {
		char r[FIGURE_LEN];

		ratio_text(r, sizeof(r), b->unpriced_ratio);
		PUT(" unpriced=%s:%s:%s", name((unsigned int)b->unpriced),
		    b->pass[b->unpriced_pass], r);
	}
	if (b->runs)
		PUT(" runs=%u", b->runs);
	if (b->runs && b->differ)
		PUT(" differ=\"%s\"", b->differ);
	put(line, ctx);

	for (p = 0; b->routine >= 0 && p < b->npass; p++) {
		const struct bottom_cell *c = &b->cell[p];

		at = key_text(line, sizeof(line), "bottom_pass", fn, pick);
		PUT(" pass=%s routine=%s verdict=%s", b->pass[p], name((unsigned int)b->routine),
		    bottom_verdict_name(c->verdict));
		if (c->verdict != CELL_MISSING) {
			char med[FIGURE_LEN], lo[FIGURE_LEN], hi[FIGURE_LEN];

			ratio_text(med, sizeof(med), c->ratio.median);
			ratio_text(lo, sizeof(lo), c->ratio.lo);
			ratio_text(hi, sizeof(hi), c->ratio.hi);
			PUT(" ratio=%s lo=%s hi=%s epochs=%u", med, lo, hi, c->epochs);
		}
		if (c->has_ns) {
			char pn[FIGURE_LEN], rn[FIGURE_LEN];

			tenths(pn, sizeof(pn), c->pick_ns10);
			tenths(rn, sizeof(rn), c->routine_ns10);
			PUT(" pick_ns=%s routine_ns=%s", pn, rn);
			if (b->vec) {
				tenths(pn, sizeof(pn), c->price_ns10);
				PUT(" price=%s", pn);
			}
		}
		if (c->verdict == CELL_OPEN)
			PUT(" need=epochs>=%u", c->need);
		put(line, ctx);
	}

	if (b->action != BOTTOM_NONE) {
		at = key_text(line, sizeof(line), "bottom_sets", fn, pick);
		set_text(list, sizeof(list), b->safe, name);
		set_text(more, sizeof(more), b->saves, name);
		PUT(" safe=%s saves=%s", list, more);
		put(line, ctx);
	}
#undef PUT
}
