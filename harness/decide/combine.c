/* SPDX-License-Identifier: MIT */
/* Bottom lines combined over runs and over CPU groups (harness/decide/combine.h). */
#include "harness/decide/combine.h"
#include "lib/fmt.h"
#include "variants/passes.h"

#define BP_ONE		10000u		/* hundredths of a per cent in a whole */

static variant_set bit(unsigned int id)
{
	return 1ull << id;
}

/* Of set, the first in the order of preference (ties: the lower id); -1: empty. */
static int first_of(variant_set set, const unsigned int *rank)
{
	int best = -1;
	unsigned int id;

	for (id = 0; id < VARIANTS_MAX; id++)
		if (((set >> id) & 1) && (best < 0 || rank[id] < rank[best]))
			best = (int)id;
	return best;
}

/* The routine a run names and those alike to it: what the run cannot tell apart. */
static variant_set named_of(const struct bottom *b)
{
	return b->routine >= 0 ? bit((unsigned int)b->routine) | b->alike : 0;
}

/* The median of n values (sorted in place), of two middle ones their mean. */
static uint64_t median_of(uint64_t *x, unsigned int n)
{
	return n ? median_u64(x, n) : 0;
}

static int pass_at(const struct bottom *b, const char *name)
{
	unsigned int p;

	for (p = 0; p < b->npass; p++) {
		const char *x = b->pass[p], *y = name;

		while (*x && *x == *y)
			x++, y++;
		if (*x == *y)
			return (int)p;
	}
	return -1;
}

/* What each run said, most said first: "switch orig x2; keep x1". */
static void differ_text(const struct bottom *const *run, unsigned int n,
			const char *(*name)(unsigned int), char *buf, size_t len)
{
	unsigned int count[COMBINE_RUNS_MAX], first[COMBINE_RUNS_MAX], nk = 0, i, k, most;
	size_t at = 0;

	for (i = 0; i < n; i++) {
		for (k = 0; k < nk; k++)
			if (run[first[k]]->action == run[i]->action &&
			    (run[i]->action == BOTTOM_NONE ? run[first[k]]->why == run[i]->why :
			     run[i]->action == BOTTOM_KEEP ||
			     run[first[k]]->routine == run[i]->routine))
				break;
		if (k == nk) {
			first[nk] = i;
			count[nk++] = 0;
		}
		count[k]++;
	}
	buf[0] = '\0';
	for (most = n; most; most--)
		for (k = 0; k < nk; k++) {
			const struct bottom *b = run[first[k]];

			if (count[k] != most)
				continue;
			at += fmt_snprintf(buf + at, at < len ? len - at : 0, "%s%s", at ? "; " : "",
					   bottom_action_name(b->action));
			if (b->action == BOTTOM_NONE)
				at += fmt_snprintf(buf + at, at < len ? len - at : 0, " %s",
						   answer_why_name(b->why));
			else if (b->action != BOTTOM_KEEP && b->routine >= 0)
				at += fmt_snprintf(buf + at, at < len ? len - at : 0, " %s",
						   name((unsigned int)b->routine));
			at += fmt_snprintf(buf + at, at < len ? len - at : 0, " x%u", most);
		}
}

/* Each pass of routine r, from the runs that named it (or, where none did, from every run). */
static void cells_of(const struct bottom *const *run, unsigned int n, unsigned int worth_bp,
		     struct bottom *out)
{
	uint64_t worth = (uint64_t)worth_bp * (RATIO_ONE / BP_ONE);
	uint64_t save = worth < RATIO_ONE ? RATIO_ONE - worth : 0, cost = RATIO_ONE + worth;
	uint64_t med[COMBINE_RUNS_MAX], pick[COMBINE_RUNS_MAX], rout[COMBINE_RUNS_MAX];
	uint64_t price[COMBINE_RUNS_MAX];
	bool by_name = false;
	unsigned int i, p;

	for (i = 0; i < n; i++)
		by_name |= run[i]->routine == out->routine;
	for (p = 0; p < out->npass; p++) {
		struct bottom_cell *c = &out->cell[p];
		unsigned int k = 0, kn = 0;

		*c = (struct bottom_cell){ .verdict = CELL_MISSING };
		for (i = 0; i < n; i++) {
			const struct bottom *b = run[i];
			int at = pass_at(b, out->pass[p]);
			const struct bottom_cell *x;

			if (at < 0 || b->routine < 0 || (by_name && b->routine != out->routine))
				continue;
			x = &b->cell[at];
			if (x->verdict == CELL_MISSING)
				continue;
			out->vec |= b->vec;
			med[k] = x->ratio.median;
			if (!k || x->ratio.lo < c->ratio.lo)
				c->ratio.lo = x->ratio.lo;
			if (!k || x->ratio.hi > c->ratio.hi)
				c->ratio.hi = x->ratio.hi;
			c->epochs += x->epochs;
			k++;
			if (x->has_ns) {
				pick[kn] = x->pick_ns10;
				rout[kn] = x->routine_ns10;
				price[kn++] = x->price_ns10;
			}
		}
		if (!k)
			continue;
		c->ratio.median = median_of(med, k);
		c->ratio.has_interval = true;
		if (c->ratio.hi < save)
			c->verdict = CELL_SAVES;
		else if (c->ratio.lo > cost)
			c->verdict = CELL_COSTS;
		else if (c->ratio.lo >= save && c->ratio.hi <= cost)
			c->verdict = CELL_EVEN;
		else
			c->verdict = CELL_OPEN;
		if (c->verdict == CELL_OPEN) {
			unsigned int to_save = c->ratio.lo < save && c->ratio.hi >= save ?
				answer_need_epochs(&c->ratio, save, c->epochs) : 0;
			unsigned int to_cost = c->ratio.lo <= cost && c->ratio.hi > cost ?
				answer_need_epochs(&c->ratio, cost, c->epochs) : 0;

			c->need = to_save > to_cost ? to_save : to_cost;
		}
		if (kn) {
			c->has_ns = true;
			c->pick_ns10 = median_of(pick, kn);
			c->routine_ns10 = median_of(rout, kn);
			c->price_ns10 = median_of(price, kn);
		}
	}
}

/* A pass's place: the page passes in their table's order, any other after them. */
static unsigned int pass_rank(const char *name)
{
	unsigned int p;

	for (p = 0; p < PASS_COUNT; p++) {
		const char *x = passes[p].id, *y = name;

		while (*x && *x == *y)
			x++, y++;
		if (*x == *y)
			return p;
	}
	return PASS_COUNT;
}

/* The passes of every run: the page passes in the run's order, the others as the runs first name them. */
static void passes_of(const struct bottom *const *run, unsigned int n, struct bottom *out)
{
	unsigned int i, p, at;

	for (i = 0; i < n; i++)
		for (p = 0; p < run[i]->npass; p++) {
			const char *name = run[i]->pass[p];

			if (pass_at(out, name) >= 0 || out->npass == BOTTOM_PASSES_MAX)
				continue;
			for (at = out->npass; at && pass_rank(out->pass[at - 1]) > pass_rank(name); at--)
				out->pass[at] = out->pass[at - 1];
			out->pass[at] = name;
			out->npass++;
		}
}

/* mix=: where every run weighed the same passes alike, the figure over them. */
static void mix_of(const struct bottom *const *run, unsigned int n, struct bottom *out)
{
	uint64_t med[COMBINE_RUNS_MAX];
	unsigned int i, p;

	for (i = 0; i < n; i++) {
		if (!run[i]->mixed || run[i]->npass != run[0]->npass)
			return;
		for (p = 0; p < run[i]->npass; p++) {
			int at = pass_at(run[0], run[i]->pass[p]);

			if (at < 0 || run[0]->weight[at] != run[i]->weight[p])
				return;
		}
	}
	out->mixed = true;
	for (p = 0; p < run[0]->npass; p++) {
		int at = pass_at(out, run[0]->pass[p]);

		if (at >= 0)
			out->weight[at] = run[0]->weight[p];
	}
	for (i = 0; i < n; i++) {
		med[i] = run[i]->mix.median;
		if (!i || run[i]->mix.lo < out->mix.lo)
			out->mix.lo = run[i]->mix.lo;
		if (!i || run[i]->mix.hi > out->mix.hi)
			out->mix.hi = run[i]->mix.hi;
	}
	out->mix.median = median_of(med, n);
	out->mix.has_interval = true;
}

/* unpriced=: where every run names the same vector routine before its price. */
static void unpriced_of(const struct bottom *const *run, unsigned int n, struct bottom *out)
{
	uint64_t r[COMBINE_RUNS_MAX];
	unsigned int i;
	int at;

	for (i = 0; i < n; i++) {
		if (run[i]->unpriced < 0 || run[i]->unpriced != run[0]->unpriced)
			return;
		r[i] = run[i]->unpriced_ratio;
	}
	at = pass_at(out, run[0]->pass[run[0]->unpriced_pass]);
	if (at < 0)
		return;
	out->unpriced = run[0]->unpriced;
	out->unpriced_pass = (unsigned int)at;
	out->unpriced_ratio = median_of(r, n);
}

void combine_runs(const struct bottom *const *run, unsigned int n, unsigned int worth_bp,
		  const unsigned int *rank, const char *(*name)(unsigned int id),
		  char *differ, size_t differ_len, struct bottom *out)
{
	variant_set both = ~0ull, any = 0, safe = ~0ull, saves = ~0ull;
	bool same = true, none = false;
	unsigned int i;

	*out = (struct bottom){ .action = BOTTOM_UNDECIDED, .routine = -1, .unpriced = -1,
				.runs = n };
	if (n > COMBINE_RUNS_MAX)
		n = out->runs = COMBINE_RUNS_MAX;
	if (!n) {
		out->action = BOTTOM_NONE;
		out->why = WHY_PICK_NOT_MEASURED;
		return;
	}
	for (i = 0; i < n; i++) {
		same &= run[i]->action == run[0]->action;
		none |= run[i]->action == BOTTOM_NONE;
		both &= named_of(run[i]);
		any |= run[i]->routine >= 0 ? bit((unsigned int)run[i]->routine) : 0;
		safe &= run[i]->safe;
		saves &= run[i]->saves;
	}
	passes_of(run, n, out);
	/* No run gave advice: none, for the first run's reason (differ: each one's). */
	if (same && none) {
		out->action = BOTTOM_NONE;
		out->why = run[0]->why;
		out->npass = 0;
		for (i = 0; i < n && run[i]->why == run[0]->why; i++)
			;
		if (i < n) {
			differ_text(run, n, name, differ, differ_len);
			out->differ = differ;
		}
		return;
	}
	out->safe = none ? 0 : safe;
	out->saves = none ? 0 : saves;
	if (same && !none && run[0]->action == BOTTOM_KEEP) {
		out->action = BOTTOM_KEEP;
		out->routine = first_of(both ? both : any, rank);
	} else if (same && !none && both) {
		out->action = run[0]->action;
		out->routine = first_of(both, rank);
		out->alike = both & ~bit((unsigned int)out->routine);
	} else {
		differ_text(run, n, name, differ, differ_len);
		out->differ = differ;
	}
	if (out->routine >= 0)
		cells_of(run, n, worth_bp, out);
	mix_of(run, n, out);
	unpriced_of(run, n, out);
}

void combine_fleet(const struct bottom *const *group, unsigned int n, const unsigned int *rank,
		   struct fleet *out)
{
	variant_set safe = ~0ull, saves = 0, q;
	bool keep = true, undecided = false;
	unsigned int g;

	*out = (struct fleet){ .action = BOTTOM_TRADE_OFF, .routine = -1 };
	for (g = 0; g < n && g < COMBINE_GROUPS_MAX; g++) {
		const struct bottom *b = group[g];

		if (b->action == BOTTOM_NONE)
			continue;
		out->in[g] = true;
		out->ngroups++;
		safe &= b->safe;
		saves |= b->saves;
		keep &= b->action == BOTTOM_KEEP;
		undecided |= b->action == BOTTOM_UNDECIDED;
	}
	q = out->ngroups ? safe & saves : 0;
	if (q) {
		out->action = BOTTOM_SWITCH;
		out->routine = first_of(q, rank);
		out->also = q & ~bit((unsigned int)out->routine);
	} else if (keep) {
		out->action = BOTTOM_KEEP;
	} else if (undecided) {
		out->action = BOTTOM_UNDECIDED;
	}
}

void combine_fleet_line(char *buf, size_t len, const char *fn, const struct answer_pick *pick,
			const struct fleet *f, const struct bottom *const *group,
			const char *const *group_name, unsigned int n,
			const char *(*name)(unsigned int id))
{
	size_t at;
	unsigned int g, id, said = 0;

#define PUT(...) (at += fmt_snprintf(buf + at, at < len ? len - at : 0, __VA_ARGS__))
	at = 0;
	PUT("fleet fn=%s kernel=%s versions=\"%s\" entry=%s action=%s routine=%s", fn,
	    rule_kernel_name(pick->kernel), pick->versions, pick->entry,
	    bottom_action_name(f->action), f->routine >= 0 ? name((unsigned int)f->routine) : "-");
	for (id = 0; id < VARIANTS_MAX; id++)
		if ((f->also >> id) & 1)
			PUT("%s%s", said++ ? "," : " also=", name(id));
	PUT(" groups=%u by=\"", f->ngroups);
	for (g = 0, said = 0; g < n && g < COMBINE_GROUPS_MAX; g++)
		if (f->in[g])
			PUT("%s%s:%s:%s", said++ ? "," : "", group_name[g],
			    bottom_action_name(group[g]->action),
			    group[g]->routine >= 0 ? name((unsigned int)group[g]->routine) : "-");
	PUT("\"");
#undef PUT
}
