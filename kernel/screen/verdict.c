/* SPDX-License-Identifier: MIT */
/*
 * The verdict page (kernel/screen/verdict.h). In 80 columns:
 *
 *          clear_page                           copy_page
 *   pass   winner    stosb    sse2     clzero_s winner    movsq    xen_cold movsb
 *   l1     avx512_t  +46.1%   +1304%   +1004%   movsb     keep     +365.4%  keep
 *   ...
 *   clear_page: stosb=Linux,Xen hot  sse2=Xen 4.15-4.20  clzero_sf=Xen cold
 *
 * A pick column per variant (a cost depends on the variant and the pass
 * alone), at most three per function: Linux's one or two and Xen's hot
 * and cold ones in practice; more are named in the legend row as not
 * shown. Everything comes from the decisions the verdict lines print.
 */
#include "harness/verdict.h"
#include "kernel/screen/verdict.h"
#include "lib/fmt.h"
#include "lib/str.h"

#define PASS_W		6	/* "mem", "l1f": the pass ids of the log */
#define WINNER_W	10	/* " clzero_sf" */
#define COST_W		9	/* " +1303.8%" */
#define PICK_COLS	3
#define WHO_LEN		64

const char screen_verdict_legend[] =
	"cost vs winner: keep = as good, ? = not separated yet, n/a = not run; f = flush";

struct column {
	const char *variant;		/* NULL: a pick the rules could not make */
	char who[WHO_LEN];
};

struct table {
	enum verdict_fn fn;
	const struct verdict_decision *any;	/* the picks are the CPU's: any pass has them */
	unsigned int ncols, hidden;
	struct column col[PICK_COLS];
};

static bool same(const char *a, const char *b)
{
	if (!a || !b)
		return a == b;
	return str_eq(a, b);
}

static const char *pick_variant(const struct verdict_pick *p)
{
	return p->status == PICK_MEASURED || p->status == PICK_NOT_MEASURED ?
	       p->variant : NULL;
}

/* "hot" of clear_page_hot; "" for the function's own name. */
static const char *entry_suffix(const char *entry, const char *fn)
{
	while (*fn && *entry == *fn)
		entry++, fn++;
	return *entry == '_' ? entry + 1 : entry;
}

/* Whether every pick of the kernel (entry, when given) names one variant. */
static bool one_variant(const struct verdict_decision *d, const struct verdict_pick *p,
			bool per_entry)
{
	unsigned int i;

	for (i = 0; i < d->times.npicks; i++) {
		const struct verdict_pick *q = &d->times.pick[i];

		if (q->assuming[0] || q->kernel != p->kernel ||
		    (per_entry && !same(q->entry, p->entry)))
			continue;
		if (!same(pick_variant(q), pick_variant(p)))
			return false;
	}
	return true;
}

/*
 * Whose pick: "Linux" when all its eras pick alike, else with the era;
 * Xen's entries by their hot or cold suffix, its 2021 one by its versions.
 */
static void who_text(char *buf, size_t len, const struct verdict_decision *d,
		     const struct verdict_pick *p)
{
	const char *suffix = entry_suffix(p->entry, verdict_fn_name(d->fn));

	if (p->kernel == RULE_LINUX)
		fmt_snprintf(buf, len, one_variant(d, p, false) ? "Linux" : "Linux %s",
			     p->version);
	else if (!suffix[0])
		fmt_snprintf(buf, len, "Xen %s", p->version);
	else
		fmt_snprintf(buf, len, one_variant(d, p, true) ? "Xen %s" : "Xen %s %s",
			     suffix, p->version);
}

static void append(char *buf, size_t len, const char *s)
{
	size_t at = 0;

	while (at < len && buf[at])
		at++;
	fmt_snprintf(buf + at, len - at, "%s%s", at ? "," : "", s);
}

static bool contains_word(const char *list, const char *w)
{
	while (*list) {
		const char *a = list, *b = w;

		while (*b && *a == *b)
			a++, b++;
		if (!*b && (*a == ',' || !*a))
			return true;
		while (*list && *list != ',')
			list++;
		if (*list)
			list++;
	}
	return false;
}

static void table_init(struct table *t, const struct verdict *vd, enum verdict_fn fn)
{
	unsigned int i, k;

	*t = (struct table){ .fn = fn };
	for (i = 0; i < vd->ndecisions && !t->any; i++)
		if (vd->decision[i].fn == fn)
			t->any = &vd->decision[i];
	if (!t->any)
		return;
	for (i = 0; i < t->any->times.npicks; i++) {
		const struct verdict_pick *p = &t->any->times.pick[i];
		const char *v = pick_variant(p);
		char who[WHO_LEN];

		if (p->assuming[0] || p->status == PICK_NEEDS_VARIANT)
			continue;	/* the legend of the log lines: serial only */
		for (k = 0; k < t->ncols && !same(t->col[k].variant, v); k++)
			;
		if (k == t->ncols) {
			if (t->ncols == PICK_COLS) {
				t->hidden++;
				continue;
			}
			t->col[t->ncols++] = (struct column){ .variant = v };
		}
		who_text(who, sizeof(who), t->any, p);
		if (!contains_word(t->col[k].who, who))
			append(t->col[k].who, sizeof(t->col[k].who), who);
	}
}

static const struct verdict_decision *decision_of(const struct verdict *vd,
						  enum verdict_fn fn, enum pass_id pass)
{
	unsigned int i;

	for (i = 0; i < vd->ndecisions; i++)
		if (vd->decision[i].fn == fn && vd->decision[i].pass == pass)
			return &vd->decision[i];
	return NULL;
}

/* What a column's variant costs in one decision: "keep", "+46.1%", "+5.2%?", "n/a", "?". */
static void cost_text(char *buf, size_t len, const struct verdict_decision *d,
		      const struct column *c)
{
	const struct verdict_pick *p = NULL;
	unsigned int i;
	int32_t t;

	for (i = 0; i < d->times.npicks && !p; i++)
		if (!d->times.pick[i].assuming[0] && d->times.pick[i].status != PICK_NEEDS_VARIANT &&
		    same(pick_variant(&d->times.pick[i]), c->variant))
			p = &d->times.pick[i];
	if (!p || p->status == PICK_UNKNOWN) {
		fmt_snprintf(buf, len, "?");
		return;
	}
	if (p->status == PICK_NOT_MEASURED) {
		fmt_snprintf(buf, len, "n/a");
		return;
	}
	if (!p->has_cost) {
		fmt_snprintf(buf, len, "keep");
		return;
	}
	t = p->cost_tenths;
	if (t >= 10000)		/* 1000 % and more: no room for the tenths; halves up */
		fmt_snprintf(buf, len, "+%ld%%%s", (long)((t + 5) / 10), p->undecided ? "?" : "");
	else
		fmt_snprintf(buf, len, "+%ld.%ld%%%s", (long)(t / 10), (long)(t % 10),
			     p->undecided ? "?" : "");
}

/* Cuts s to w characters and pads it to w. */
static void cell(char *row, size_t *at, const char *s, unsigned int w)
{
	unsigned int i;

	for (i = 0; i < w && *at < VERDICT_COLS; i++, (*at)++)
		row[*at] = *s ? *s++ : ' ';
	row[*at] = '\0';
}

/* " name" in a w-wide cell: a space, then the text cut to w - 1. */
static void spaced(char *row, size_t *at, const char *s, unsigned int w)
{
	cell(row, at, " ", 1);
	cell(row, at, s ? s : "?", w - 1);
}

static void table_header(char *top, size_t *at_top, char *names, size_t *at_names,
			 const struct table *t)
{
	unsigned int k, w = WINNER_W + PICK_COLS * COST_W;

	spaced(top, at_top, t->any ? verdict_fn_name(t->fn) : "", w);
	spaced(names, at_names, t->any ? "winner" : "", WINNER_W);
	for (k = 0; k < PICK_COLS; k++)
		spaced(names, at_names, k < t->ncols ? (t->col[k].variant ?
			t->col[k].variant : "?") : "", COST_W);
}

static void table_row(char *row, size_t *at, const struct table *t,
		      const struct verdict_decision *d)
{
	char cost[16];
	unsigned int k;

	spaced(row, at, d ? d->times.cand[d->times.d.rank[0]].v->name : "", WINNER_W);
	for (k = 0; k < PICK_COLS; k++) {
		if (d && k < t->ncols)
			cost_text(cost, sizeof(cost), d, &t->col[k]);
		else
			cost[0] = '\0';
		spaced(row, at, cost, COST_W);
	}
}

/* Appends to a row, cut at width. */
static void put(char *row, size_t *at, size_t width, const char *s)
{
	while (*s && *at < width)
		row[(*at)++] = *s++;
	row[*at] = '\0';
}

/* " stosb=Linux,Xen hot" */
static size_t entry_text(char *buf, size_t len, const struct column *c, bool first)
{
	return fmt_snprintf(buf, len, "%s%s=%s", first ? " " : "  ",
			    c->variant ? c->variant : "?(unknown)", c->who);
}

/*
 * "clear_page: stosb=Linux,Xen hot  sse2=Xen 4.15-4.20": a whole entry
 * per column, or none; what did not fit is counted at the end.
 */
static void legend(char *row, const struct table *t)
{
	char entry[VERDICT_COLS + WHO_LEN], more[24];
	size_t at = 0, need = fmt_snprintf(NULL, 0, "%s:", verdict_fn_name(t->fn));
	unsigned int k, shown = t->ncols;

	for (k = 0; k < t->ncols; k++)
		need += entry_text(entry, sizeof(entry), &t->col[k], !k);
	/* Room for the count, when anything is left out. */
	if (t->hidden || need > VERDICT_COLS) {
		size_t room = VERDICT_COLS - sizeof("  +9 more: serial") + 1;

		need = fmt_snprintf(NULL, 0, "%s:", verdict_fn_name(t->fn));
		for (shown = 0; shown < t->ncols; shown++) {
			size_t e = entry_text(entry, sizeof(entry), &t->col[shown], !shown);

			if (need + e > room)
				break;
			need += e;
		}
	}
	row[0] = '\0';
	put(row, &at, VERDICT_COLS, verdict_fn_name(t->fn));
	put(row, &at, VERDICT_COLS, ":");
	for (k = 0; k < shown; k++) {
		entry_text(entry, sizeof(entry), &t->col[k], !k);
		put(row, &at, VERDICT_COLS, entry);
	}
	if (!t->ncols)
		put(row, &at, VERDICT_COLS, " no pick of the rules");
	if (t->hidden + t->ncols - shown) {
		fmt_snprintf(more, sizeof(more), "  +%u more: serial",
			     t->hidden + t->ncols - shown);
		put(row, &at, VERDICT_COLS, more);
	}
}

unsigned int screen_verdict_page(const struct verdict *vd,
				 char (*rows)[VERDICT_COLS + 1], unsigned int max)
{
	struct table clear, copy;
	unsigned int n = 0, id;
	size_t a, b;

	table_init(&clear, vd, VERDICT_CLEAR_PAGE);
	table_init(&copy, vd, VERDICT_COPY_PAGE);
	if ((!clear.any && !copy.any) || max < VERDICT_ROWS)
		return 0;
	a = b = 0;
	rows[0][0] = rows[1][0] = '\0';
	cell(rows[0], &a, "", PASS_W);
	cell(rows[1], &b, "pass", PASS_W);
	table_header(rows[0], &a, rows[1], &b, &clear);
	table_header(rows[0], &a, rows[1], &b, &copy);
	n = 2;
	for (id = 0; id < PASS_COUNT; id++) {
		const struct verdict_decision *dc = decision_of(vd, VERDICT_CLEAR_PAGE, id);
		const struct verdict_decision *dp = decision_of(vd, VERDICT_COPY_PAGE, id);

		if (!dc && !dp)
			continue;
		a = 0;
		rows[n][0] = '\0';
		cell(rows[n], &a, passes[id].id, PASS_W);
		table_row(rows[n], &a, &clear, dc);
		table_row(rows[n], &a, &copy, dp);
		n++;
	}
	if (clear.any)
		legend(rows[n++], &clear);
	if (copy.any)
		legend(rows[n++], &copy);
	/* Trailing blanks are the screen's to paint. */
	for (id = 0; id < n; id++) {
		size_t e = 0;

		while (rows[id][e])
			e++;
		while (e && rows[id][e - 1] == ' ')
			rows[id][--e] = '\0';
	}
	return n;
}
