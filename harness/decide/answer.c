/* SPDX-License-Identifier: MIT */
/* The answer (harness/decide/answer.h): integers only. */
#include "harness/decide/answer.h"
#include "harness/decide/prefer.h"
#include "lib/fmt.h"
#include "lib/out.h"
#include "lib/sat.h"
#include "lib/str.h"

#define FIGURE_LEN	24
#define BP_ONE		10000u		/* hundredths of a per cent in a whole */
/*
 * Drift: the halves' medians further apart than 3/4 of the sum of their
 * half-widths. Each half-width bounds how far a rerun's median of as many
 * epochs falls 95% of the time, so apart by one of them is a 5% chance
 * on a steady ratio, which over a run's 20 to 30 distinct decision ratios
 * would flag one a run; at 3/4 of the two (about 1.5 of one) a steady
 * ratio drifts in under 1% of trials (tests/unit/test_answer.c).
 */
#define DRIFT_REACH_NUM	3
#define DRIFT_REACH_DEN	4
/* Beyond this many times the distance, the projection is past NEED_EPOCHS_MAX anyway. */
#define NEED_FAR	32u

const char *answer_fn_name(enum answer_fn f)
{
	static const char *const names[ANSWER_FNS] = {
		[ANSWER_CLEAR_PAGE] = "clear_page",
		[ANSWER_CLEAR_PAGES] = "clear_pages",
		[ANSWER_COPY_PAGE] = "copy_page",
	};

	return f < ANSWER_FNS ? names[f] : "?";
}

enum op answer_fn_op(enum answer_fn f)
{
	return f == ANSWER_COPY_PAGE ? OP_COPY : OP_CLEAR;
}

enum variant_shape answer_fn_shape(enum answer_fn f)
{
	return f == ANSWER_CLEAR_PAGES ? SHAPE_RANGE : SHAPE_PAGE;
}

const char *answer_action_name(enum answer_action a)
{
	static const char *const names[] = {
		[ANSWER_KEEP] = "keep", [ANSWER_SWITCH] = "switch",
		[ANSWER_UNDECIDED] = "undecided", [ANSWER_NONE] = "none",
	};

	return a <= ANSWER_NONE ? names[a] : "?";
}

const char *answer_why_name(enum answer_why w)
{
	static const char *const names[WHY_COUNT] = {
		[WHY_NONE] = "", [WHY_NOT_A_CPU] = "not-a-cpu",
		[WHY_PICK_NOT_MEASURED] = "pick-not-measured",
		[WHY_NO_PICK_VARIANT] = "no-pick-variant",
		[WHY_UNKNOWN_PICK] = "unknown-pick", [WHY_NO_INTERVAL] = "no-interval",
	};

	return w < WHY_COUNT ? names[w] : "?";
}

void answer_pick_of(struct answer_pick *out, const struct rule_pick *p)
{
	const struct pick_rule *rule = p->rule;
	unsigned int i;

	*out = (struct answer_pick){ .kernel = p->kernel, .entry = p->entry };
	fmt_snprintf(out->versions, sizeof(out->versions), "%s", p->version);
	/* Fast strings are on unless firmware turned them off: the default. */
	for (i = 0; !rule && i < p->nalts; i++)
		if (str_eq(p->alt[i].assuming, "fast_string=1")) {
			rule = p->alt[i].rule;
			fmt_snprintf(out->assuming, sizeof(out->assuming), "%s",
				     p->alt[i].assuming);
		}
	if (rule) {
		out->routine = rule->routine;
		out->when = rule->condition;
	}
	if (!rule)
		out->why = WHY_UNKNOWN_PICK;
	else if (!rule->variant)
		out->why = WHY_NO_PICK_VARIANT;
	else
		out->variant = rule->variant;
}

struct answer_run answer_run_live(const struct cpu_desc *d,
				  const struct live_facts *live, const struct options *o)
{
	enum hot_load_runner r = live_runs_on(d, live);
	struct answer_run run = { .worth_bp = o->worth_bp,
				  .not_a_cpu = r == HOT_LOAD_TCG || r == HOT_LOAD_EMULATOR,
				  .tsc_khz = live->tsc_khz };
	unsigned int p;

	for (p = 0; p < PASS_COUNT; p++)
		run.mix[p] = o->mix[p];
	return run;
}

bool answer_judged(const char *entry, enum pass_id pass)
{
	if (str_ends_with(entry, "_hot"))
		return pass_hot(pass);
	if (str_ends_with(entry, "_cold"))
		return !pass_hot(pass);
	return true;
}

bool answer_candidate(const struct answer_input *c, enum answer_fn fn)
{
	const struct variant *v = c->v;

	/* The module's kernel_* rows are what a kernel runs already, not a routine to take. */
	return v->op == answer_fn_op(fn) && v->shape == answer_fn_shape(fn) &&
	       store_done_at_return(v->store) && v->store != STORE_KERNEL &&
	       !c->failed && c->s.epochs;
}

/* a * b, or UINT64_MAX where it does not fit: an absurd figure stays absurd, never small. */
static uint64_t times_sat(uint64_t a, uint64_t b)
{
	uint64_t p;

	return __builtin_mul_overflow(a, b, &p) ? UINT64_MAX : p;
}

struct answer_price answer_price_calls(const struct vector_price *p, uint64_t calls)
{
	if (!p->measured)
		return (struct answer_price){ 0 };
	return (struct answer_price){
		.centi = times_sat(times_sat(p->ticks, CENTI), calls),
		.below = times_sat(times_sat(p->ticks > p->lo ? p->ticks - p->lo : 0, CENTI), calls),
		.above = times_sat(times_sat(p->hi > p->ticks ? p->hi - p->ticks : 0, CENTI), calls),
	};
}

struct answer_price answer_price_of(const struct vector_price *p, const struct variant *v,
				    size_t bytes)
{
	uint64_t windows = 1, held;
	struct answer_price paid;

	if (v->regs != REGS_VEC)
		return (struct answer_price){ 0 };
	paid = answer_price_calls(p, variant_calls(v, bytes));
	if (p->window_bytes && bytes > p->window_bytes)
		windows = (bytes + p->window_bytes - 1) / p->window_bytes;
	held = times_sat(times_sat(p->held_ticks, CENTI), windows);
	paid.centi = paid.centi > held ? paid.centi - held : 0;
	return paid;
}

/*
 * s with add in every epoch and in its median, its epochs in buf; s as
 * it is where add is 0. The quantum stays: add is a constant.
 */
static const struct epoch_series *plus(const struct epoch_series *s, uint64_t add,
				       uint64_t *buf, struct epoch_series *out)
{
	unsigned int e;

	if (!add || !s->epochs)
		return s;
	*out = *s;
	for (e = 0; e < s->epochs && e < INTERVAL_EPOCHS_MAX; e++)
		buf[e] = sat_add_u64(s->med[e], add);
	out->med = buf;
	out->median = sat_add_u64(s->median, add);
	return out;
}

uint64_t answer_ns10(uint64_t centi, uint64_t tsc_khz, uint64_t pages)
{
	uint64_t d = tsc_khz * pages;

	/* centi / 100 ticks, 1e6 / khz ns a tick, in tenths: centi * 1e5 / (khz * pages). */
	if (centi > UINT64_MAX / 100000)
		return centi / d * 100000;
	return (centi * 100000 + d / 2) / d;
}

/*
 * The epochs at which the interval's half-width, shrinking as one over
 * the root of the epochs, would no longer reach across the threshold:
 * (half / distance)^2 x epochs, at least one more than ran, at most
 * NEED_EPOCHS_MAX.
 */
unsigned int answer_need_epochs(const struct interval *iv, uint64_t threshold,
				unsigned int epochs)
{
	uint64_t half = (iv->hi - iv->lo) / 2, dist, n;

	dist = iv->median > threshold ? iv->median - threshold : threshold - iv->median;
	if (!dist || half >= dist * NEED_FAR)
		return NEED_EPOCHS_MAX;
	/* Both scaled alike until the squares and the product fit 64 bits. */
	while (dist > (1u << 24)) {
		dist >>= 1;
		half >>= 1;
	}
	if (!dist)
		return NEED_EPOCHS_MAX;
	n = (half * half * epochs + dist * dist - 1) / (dist * dist);
	if (n <= epochs)
		n = epochs + 1;
	return n > NEED_EPOCHS_MAX ? NEED_EPOCHS_MAX : (unsigned int)n;
}

void answer_drift_of(const struct epoch_series *num, const struct epoch_series *den,
		     unsigned int worth_bp, struct answer_drift *d)
{
	unsigned int n = ratio_epochs(num, den);
	/* An odd count, as an interval needs, and no epoch in both halves. */
	unsigned int half = (n / 2) | 1;
	struct interval a, b;
	uint64_t apart, reach;

	*d = (struct answer_drift){ 0 };
	if (n < DRIFT_EPOCHS_MIN)
		return;
	if (half > n / 2)
		half -= 2;
	if (!interval_of_ratio_span(num, den, 0, half, &a) ||
	    !interval_of_ratio_span(num, den, n - half, n, &b) ||
	    !a.has_interval || !b.has_interval)
		return;
	d->first = a.median;
	d->last = b.median;
	apart = a.median > b.median ? a.median - b.median : b.median - a.median;
	reach = ((a.hi - a.lo) + (b.hi - b.lo)) / 2 / DRIFT_REACH_DEN * DRIFT_REACH_NUM;
	d->moved = apart > reach &&
		   apart >= (a.median < b.median ? a.median : b.median) / BP_ONE * worth_bp;
}

/* The candidates of a weighing, each with its FPU cost, for prefer_named(). */
struct weigh_ctx {
	const struct epoch_series *const *cand;
	const struct answer_price *add;
};

/*
 * Two candidates against each other: each with its price's median, the
 * interval not widened, for both pay the same price in the same way.
 */
bool answer_versus(const struct epoch_series *a, const struct answer_price *pa,
		   const struct epoch_series *b, const struct answer_price *pb,
		   struct interval *iv)
{
	uint64_t nbuf[INTERVAL_EPOCHS_MAX], dbuf[INTERVAL_EPOCHS_MAX];
	struct epoch_series n, d;

	return interval_of_ratio(plus(a, pa ? pa->centi : 0, nbuf, &n),
				 plus(b, pb ? pb->centi : 0, dbuf, &d), iv);
}

static bool weigh_ratio(void *ctx, unsigned int num, unsigned int den, struct interval *iv)
{
	const struct weigh_ctx *c = ctx;

	return answer_versus(c->cand[num], c->add ? &c->add[num] : NULL,
			     c->cand[den], c->add ? &c->add[den] : NULL, iv);
}

/* x * RATIO_ONE / den, saturating: a reach in ticks as a share of den. */
static uint64_t share_of(uint64_t x, uint64_t den)
{
	if (!x)
		return 0;
	if (!den)
		return UINT64_MAX;
	if (x > UINT64_MAX / RATIO_ONE)
		return x / den > UINT64_MAX / RATIO_ONE ? UINT64_MAX : x / den * RATIO_ONE;
	return (x * RATIO_ONE + den - 1) / den;
}

bool answer_ratio(const struct epoch_series *cand, const struct answer_price *add,
		  const struct epoch_series *den, struct interval *iv)
{
	uint64_t buf[INTERVAL_EPOCHS_MAX], below, above;
	struct epoch_series with;

	if (!interval_of_ratio(plus(cand, add ? add->centi : 0, buf, &with), den, iv))
		return false;
	if (!add || !iv->has_interval)
		return true;
	/* The price's own doubt moves every epoch's ratio alike: by it over the pick's time. */
	below = share_of(add->below, den->median);
	above = share_of(add->above, den->median);
	iv->lo = iv->lo > below ? iv->lo - below : 0;
	iv->hi = iv->hi > UINT64_MAX - above ? UINT64_MAX : iv->hi + above;
	return true;
}

void answer_weigh(const struct answer_run *run, const struct epoch_series *pick,
		  const struct epoch_series *const *cand, const struct answer_price *add,
		  unsigned int n, struct answer_weighed *w)
{
	uint64_t buf[INTERVAL_EPOCHS_MAX];
	/* The saving must beat worth: a ratio below 1 - worth. */
	uint64_t threshold = RATIO_ONE - (uint64_t)run->worth_bp * (RATIO_ONE / BP_ONE);
	struct weigh_ctx ctx = { cand, add };
	/* Static, as the race's: kept off a kernel stack; one weighing at a time. */
	static struct interval iv[VARIANTS_MAX];
	unsigned int wins[VARIANTS_MAX];
	int best = -1, quick = -1, doubt = -1, named;
	unsigned int i, nwins = 0;

	*w = (struct answer_weighed){ .action = ANSWER_NONE, .named = -1, .alike = -1 };
	if (!pick) {
		w->why = WHY_PICK_NOT_MEASURED;
		return;
	}
	for (i = 0; i < n && i < VARIANTS_MAX; i++) {
		if (!answer_ratio(cand[i], add ? &add[i] : NULL, pick, &iv[i])) {
			iv[i].has_interval = false;
			continue;
		}
		if (best < 0 || iv[i].median < iv[best].median)
			best = (int)i;
		if (!iv[i].has_interval)
			continue;
		if (iv[i].hi < threshold) {
			wins[nwins++] = i;
			if (quick < 0 || iv[i].median < iv[quick].median)
				quick = (int)i;
		}
		/* Of those that might save worth, the likeliest: the lowest median. */
		if (iv[i].lo < threshold && (doubt < 0 || iv[i].median < iv[doubt].median))
			doubt = (int)i;
	}
	w->named = best;
	if (best >= 0)
		w->ratio = iv[best];
	/* Candidates, but no ratio to any (a zero figure of the pick's): nothing to weigh. */
	if (pick->epochs < INTERVAL_EPOCHS_MIN || (best >= 0 && !iv[best].has_interval) ||
	    (n && best < 0)) {
		w->why = WHY_NO_INTERVAL;
	} else if (run->not_a_cpu) {
		w->why = WHY_NOT_A_CPU;
	} else if (nwins) {
		/* cand is in the order of preference: the first no other winner beats by worth. */
		named = prefer_named(wins, nwins, threshold, weigh_ratio, &ctx);
		w->action = ANSWER_SWITCH;
		w->named = named >= 0 ? (int)wins[named] : quick;
		w->ratio = iv[w->named];
		if (quick != w->named)
			w->alike = quick;
	} else if (doubt < 0) {
		w->action = ANSWER_KEEP;
	} else {
		w->action = ANSWER_UNDECIDED;
		w->named = doubt;
		w->ratio = iv[doubt];
		w->need_epochs = answer_need_epochs(&iv[doubt], threshold, pick->epochs);
	}
	w->has_ratio = w->named >= 0 && w->ratio.has_interval;
	w->epochs = pick->epochs;
	if (w->has_ratio && w->action != ANSWER_NONE) {
		struct epoch_series with;

		answer_drift_of(plus(cand[w->named], add ? add[w->named].centi : 0, buf, &with),
				pick, run->worth_bp, &w->drift);
	}
}

void answer_take(struct answer *out, const struct answer_weighed *w)
{
	out->action = w->action;
	out->why = w->why;
	out->has_ratio = w->has_ratio;
	out->ratio = w->ratio;
	out->epochs = w->named >= 0 ? w->epochs : 0;
	out->need_epochs = w->need_epochs;
	out->drift = w->drift;
}

void answer_cands_of(struct answer_cands *c, const struct answer_run *run,
		     const char *pick, enum answer_fn fn, size_t bytes,
		     const struct answer_input *in, unsigned int n)
{
	unsigned int from[VARIANTS_MAX];	/* each candidate's index in in[] */
	unsigned int key[VARIANTS_MAX];		/* its prefer_rank() */
	unsigned int i, nc = 0;

	c->pick = NULL;
	c->ps = NULL;
	c->n = c->nunpriced = 0;
	for (i = 0; i < n && !c->pick; i++)
		if (in[i].v->op == answer_fn_op(fn) && str_eq(in[i].v->name, pick))
			c->pick = &in[i];
	if (!c->pick || c->pick->failed) {
		c->pick = NULL;
		return;
	}
	for (i = 0; i < n && nc < VARIANTS_MAX; i++) {
		if (&in[i] == c->pick || !answer_candidate(&in[i], fn))
			continue;
		/* Without its price a VEC routine cannot be weighed: shown beside, never named. */
		if (in[i].v->regs == REGS_VEC && !run->price.measured) {
			c->unpriced[c->nunpriced++] = &in[i];
			continue;
		}
		key[nc] = prefer_rank(in[i].v->regs, (unsigned int)(in[i].v - variants));
		from[nc++] = i;
	}
	/* In the order of preference, for answer_weigh(). */
	prefer_sort(from, key, nc);
	for (i = 0; i < nc; i++) {
		c->cand[i] = &in[from[i]];
		c->s[i] = &in[from[i]].s;
		c->add[i] = answer_price_of(&run->price, in[from[i]].v, bytes);
	}
	c->n = nc;
	/* No kernel's pick is a VEC routine today; one would pay as the candidates do. */
	c->ps = plus(&c->pick->s, answer_price_of(&run->price, c->pick->v, bytes).centi,
		     c->pick_buf, &c->pick_with);
}

/* Of the candidates left out for want of a price, the quickest, where quicker than the answer's routine. */
static void unpriced_of(struct answer *out, const struct answer_cands *c)
{
	struct interval iv;
	unsigned int i;

	for (i = 0; i < c->nunpriced; i++) {
		if (!interval_of_ratio(&c->unpriced[i]->s, c->ps, &iv))
			continue;
		if ((out->has_ratio && iv.median >= out->ratio.median) ||
		    (!out->has_ratio && iv.median >= RATIO_ONE) ||
		    (out->unpriced && iv.median >= out->unpriced_ratio))
			continue;
		out->unpriced = c->unpriced[i]->v;
		out->unpriced_ratio = iv.median;
	}
}

bool answer_decide(const struct answer_run *run, const struct answer_pick *pick,
		   enum answer_fn fn, enum pass_id pass, size_t bytes,
		   const struct answer_input *in, unsigned int n, struct answer *out)
{
	/* Off the stack: the module's is 16 KiB; one decision at a time. */
	static struct answer_cands c;
	struct answer_weighed w;
	uint64_t pages = bytes / PAGE_SIZE ? bytes / PAGE_SIZE : 1;

	if (!answer_judged(pick->entry, pass))
		return false;
	*out = (struct answer){ .fn = fn, .pass = pass, .action = ANSWER_NONE };
	if (pick->why != WHY_NONE) {
		out->why = pick->why;
		return true;
	}
	answer_cands_of(&c, run, pick->variant, fn, bytes, in, n);
	answer_weigh(run, c.ps, c.s, c.add, c.n, &w);
	answer_take(out, &w);
	if (w.named >= 0) {
		const struct answer_input *r = c.cand[w.named];

		out->routine = r->v;
		if (w.alike >= 0)
			out->alike = c.cand[w.alike]->v;
		if (run->tsc_khz) {
			out->has_ns = true;
			out->pick_ns10 = answer_ns10(c.ps->median, run->tsc_khz, pages);
			out->routine_ns10 = answer_ns10(r->s.median + c.add[w.named].centi,
							run->tsc_khz, pages);
			/* The price in the figures: price=N.N. */
			out->has_price = run->price.measured && r->v->regs == REGS_VEC;
			out->price_ns10 = answer_ns10(c.add[w.named].centi, run->tsc_khz, pages);
		}
	}
	if (c.pick && out->action != ANSWER_NONE)
		unpriced_of(out, &c);
	return true;
}

static size_t tenths(char *buf, size_t len, uint64_t x)
{
	return fmt_snprintf(buf, len, "%lu.%lu", (unsigned long)(x / 10),
			    (unsigned long)(x % 10));
}

void answer_line(char *buf, size_t len, const struct answer_run *run,
		 const struct answer_pick *pick, const struct answer_head *h,
		 const struct answer *a)
{
	size_t at;

#define PUT(...) (at += fmt_snprintf(buf + at, at < len ? len - at : 0, __VA_ARGS__))
	at = 0;
	PUT("answer fn=%s pass=%s", h->fn, h->pass);
	if (h->sized)
		PUT(" sizes=%u-%u", h->sizes_lo, h->sizes_hi);
	PUT(" kernel=%s versions=\"%s\" entry=%s pick=%s", rule_kernel_name(pick->kernel),
	    pick->versions, pick->entry, pick->variant ? pick->variant : "-");
	if (pick->assuming[0])
		PUT(" assuming=%s", pick->assuming);
	PUT(" action=%s routine=%s", answer_action_name(a->action),
	    h->routine ? h->routine : "-");
	if (a->has_ratio) {
		char med[FIGURE_LEN], lo[FIGURE_LEN], hi[FIGURE_LEN];

		ratio_text(med, sizeof(med), a->ratio.median);
		ratio_text(lo, sizeof(lo), a->ratio.lo);
		ratio_text(hi, sizeof(hi), a->ratio.hi);
		PUT(" ratio=%s lo=%s hi=%s epochs=%u", med, lo, hi, a->epochs);
	}
	if (a->has_ns) {
		char pn[FIGURE_LEN], rn[FIGURE_LEN];

		tenths(pn, sizeof(pn), a->pick_ns10);
		tenths(rn, sizeof(rn), a->routine_ns10);
		PUT(" pick_ns=%s routine_ns=%s", pn, rn);
	}
	/* A VEC routine: the vector price its routine_ns holds, ns a page. */
	if (h->vec && a->has_price) {
		char pr[FIGURE_LEN];

		tenths(pr, sizeof(pr), a->price_ns10);
		PUT(" price=%s", pr);
	}
	PUT(" worth=%u.%u%%", run->worth_bp / 100, run->worth_bp % 100 / 10);
	if (a->action == ANSWER_UNDECIDED)
		PUT(" need=epochs>=%u", a->need_epochs);
	if (a->action == ANSWER_NONE)
		PUT(" why=%s", answer_why_name(a->why));
	/* Last, so that a reader of the older lines finds every other field where it was. */
	if (h->alike)
		PUT(" alike=%s", h->alike);
	if (a->drift.moved) {
		char first[FIGURE_LEN], last[FIGURE_LEN];

		ratio_text(first, sizeof(first), a->drift.first);
		ratio_text(last, sizeof(last), a->drift.last);
		PUT(" drift=%s/%s", first, last);
	}
	if (h->unpriced) {
		char r[FIGURE_LEN];

		ratio_text(r, sizeof(r), a->unpriced_ratio);
		PUT(" unpriced=%s:%s", h->unpriced, r);
	}
#undef PUT
}

void answer_text(char *buf, size_t len, const struct answer_run *run,
		 const struct answer_pick *pick, const struct answer *a)
{
	struct answer_head h = { answer_fn_name(a->fn), passes[a->pass].id, false, 0, 0,
				 a->routine ? a->routine->name : NULL,
				 a->routine && a->routine->regs == REGS_VEC,
				 a->alike ? a->alike->name : NULL,
				 a->unpriced ? a->unpriced->name : NULL };

	answer_line(buf, len, run, pick, &h, a);
}
