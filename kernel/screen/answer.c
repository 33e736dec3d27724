/* SPDX-License-Identifier: MIT */
/*
 * The answer page (kernel/screen/answer.h). On 80 columns:
 *
 *   pass  clear_page                                clear_pages
 *         stosb         sse2          clzero_sf     stosb_all
 *   l1    undecided     avx_t-91%     -             undecided
 *   l1f   avx512_t-20%  avx512_t-32%  avx512_t-29%  undecided
 *
 *   pass  copy_page
 *         movsq         xen_cold      movsb
 *   ...
 *   clear_page: stosb=linux,xen hot  sse2=xen 4.15-4.20  clzero_sf=xen cold
 *
 * Every cell comes from the engine's records, as the answer lines say them.
 */
#include "harness/answer.h"
#include "kernel/screen/answer.h"
#include "lib/fmt.h"
#include "lib/str.h"

#define PASS_W		6	/* "pass  ", "l1f   " */
#define CELL_W		14	/* "avx512_t-24%" and a gap */
#define COLS_MAX	ANSWER_PICKS_MAX
#define WHO_LEN		96

struct column {
	const char *variant;		/* NULL: no variant to measure the pick */
	char who[WHO_LEN];		/* "linux,xen hot" */
};

struct table {
	enum answer_fn fn;
	unsigned int ncols;
	struct column col[COLS_MAX];
};

static bool same(const char *a, const char *b)
{
	if (!a || !b)
		return a == b;
	return str_eq(a, b);
}

/* Whose pick: "linux", "running" (the running Linux), "xen hot", "xen cold", "xen 4.15-4.20". */
static void who_text(char *buf, size_t len, const struct answer_pick *p)
{
	bool running = p->versions[0] == 'r';	/* "running RELEASE" */

	if (p->kernel == RULE_LINUX)
		fmt_snprintf(buf, len, running ? "running" : "linux");
	else if (str_ends_with(p->entry, "_hot"))
		fmt_snprintf(buf, len, "xen hot");
	else if (str_ends_with(p->entry, "_cold"))
		fmt_snprintf(buf, len, "xen cold");
	else
		fmt_snprintf(buf, len, "xen %s", p->versions);
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

static void append(char *buf, size_t len, const char *s)
{
	size_t at = 0;

	while (at < len && buf[at])
		at++;
	fmt_snprintf(buf + at, len - at, "%s%s", at ? "," : "", s);
}

/* The function's columns: one per pick variant that has a record. */
static void table_init(struct table *t, const struct answers *a, enum answer_fn fn)
{
	unsigned int i, k;

	*t = (struct table){ .fn = fn };
	for (i = 0; i < a->n; i++) {
		const struct answer_pick *p;
		char who[WHO_LEN];

		if (a->rec[i].fn != fn)
			continue;
		p = &a->pick[fn][a->rec[i].pick];
		for (k = 0; k < t->ncols && !same(t->col[k].variant, p->variant); k++)
			;
		if (k == t->ncols) {
			if (t->ncols == COLS_MAX)
				continue;
			t->col[t->ncols++] = (struct column){ .variant = p->variant };
		}
		who_text(who, sizeof(who), p);
		if (!contains_word(t->col[k].who, who))
			append(t->col[k].who, sizeof(t->col[k].who), who);
	}
}

/* One record of the column's variant in the pass, or NULL: not judged there. */
static const struct answer *record(const struct answers *a, const struct table *t,
				   const struct column *c, enum pass_id pass)
{
	unsigned int i;

	for (i = 0; i < a->n; i++)
		if (a->rec[i].fn == t->fn && a->rec[i].pass == pass &&
		    same(a->pick[t->fn][a->rec[i].pick].variant, c->variant))
			return &a->rec[i];
	return NULL;
}

/*
 * A routine that needs vector registers whose kernel_fpu_begin/end this
 * host did not time: its figure leaves that cost out (the line's fpu=?).
 */
static bool fpu_unmeasured(const struct answers *a, const struct answer *r)
{
	return r && r->routine && r->routine->regs == REGS_VEC && !a->run.fpu.measured;
}

/*
 * "avx_t-91%", "orig+93%": the routine and its saving (or cost) in whole
 * per cent; "avx_t*-91%" where its FPU cost is not in the figure (the
 * mark on the name, so that a cut of the cell keeps it).
 */
static void saving_text(char *buf, size_t len, const struct answers *a,
			const struct answer *r)
{
	uint64_t m = r->ratio.median;
	uint64_t d = m <= RATIO_ONE ? RATIO_ONE - m : m - RATIO_ONE;

	fmt_snprintf(buf, len, "%s%s%c%lu%%", r->routine->name,
		     fpu_unmeasured(a, r) ? "*" : "", m <= RATIO_ONE ? '-' : '+',
		     (unsigned long)((d * 100 + RATIO_ONE / 2) / RATIO_ONE));
}

/* Whether a cell names a routine: where its mark shows. */
static bool names_routine(const struct answer *r)
{
	return r && (r->action == ANSWER_SWITCH ||
		     (r->action == ANSWER_NONE && r->why == WHY_NOT_A_CPU &&
		      r->routine && r->has_ratio));
}

static void cell_text(char *buf, size_t len, const struct answers *a,
		      const struct answer *r)
{
	char s[CELL_W * 2];

	if (!r) {
		fmt_snprintf(buf, len, "-");
		return;
	}
	switch (r->action) {
	case ANSWER_KEEP:
		fmt_snprintf(buf, len, "keep");
		return;
	case ANSWER_SWITCH:
		saving_text(buf, len, a, r);
		return;
	case ANSWER_UNDECIDED:
		fmt_snprintf(buf, len, "undecided");
		return;
	case ANSWER_NONE:
		break;
	}
	if (r->why == WHY_NOT_A_CPU && r->routine && r->has_ratio) {
		saving_text(s, sizeof(s), a, r);
		fmt_snprintf(buf, len, "~%s", s);
		return;
	}
	fmt_snprintf(buf, len, "n/a");
}

/* Appends s, cut or padded to w characters, at *at of a row cols wide. */
static void put(char *row, size_t *at, size_t cols, const char *s, unsigned int w)
{
	unsigned int i;

	for (i = 0; (w ? i < w : *s != '\0') && *at < cols; i++, (*at)++)
		row[*at] = *s ? *s++ : ' ';
	row[*at] = '\0';
}

/* The bands: tables side by side as long as they fit cols. */
static unsigned int band(const struct answers *a, const struct table *t, unsigned int nt,
			 unsigned int cols, char (*rows)[ANSWER_PAGE_COLS + 1],
			 unsigned int n, unsigned int max)
{
	unsigned int k, c, id, top = n;
	size_t at;

	if (n + 2 > max)
		return n;
	rows[n][0] = rows[n + 1][0] = '\0';
	at = 0;
	put(rows[n], &at, cols, "pass", PASS_W);
	for (k = 0; k < nt; k++)
		put(rows[n], &at, cols, answer_fn_name(t[k].fn), t[k].ncols * CELL_W);
	at = 0;
	put(rows[n + 1], &at, cols, "", PASS_W);
	for (k = 0; k < nt; k++)
		for (c = 0; c < t[k].ncols; c++)
			put(rows[n + 1], &at, cols, t[k].col[c].variant ? t[k].col[c].variant : "?",
			    CELL_W);
	n += 2;
	for (id = 0; id < PASS_COUNT && n < max; id++) {
		bool any = false;
		char text[CELL_W * 2];

		for (k = 0; k < nt && !any; k++)
			for (c = 0; c < t[k].ncols && !any; c++)
				any = record(a, &t[k], &t[k].col[c], id) != NULL;
		if (!any)
			continue;
		at = 0;
		rows[n][0] = '\0';
		put(rows[n], &at, cols, passes[id].id, PASS_W);
		for (k = 0; k < nt; k++)
			for (c = 0; c < t[k].ncols; c++) {
				cell_text(text, sizeof(text), a,
					  record(a, &t[k], &t[k].col[c], id));
				/* A gap after every cell: cut to CELL_W - 1. */
				text[CELL_W - 1] = '\0';
				put(rows[n], &at, cols, text, CELL_W);
			}
		n++;
	}
	return n > top + 2 ? n : top;
}

/* "clear_page: stosb=linux,xen hot  sse2=xen 4.15-4.20", cut at cols. */
static void legend(char *row, size_t cols, const struct table *t)
{
	char entry[WHO_LEN + 24];
	size_t at = 0;
	unsigned int c;

	row[0] = '\0';
	put(row, &at, cols, answer_fn_name(t->fn), 0);
	put(row, &at, cols, ":", 0);
	for (c = 0; c < t->ncols; c++) {
		fmt_snprintf(entry, sizeof(entry), "%s%s=%s", c ? "  " : " ",
			     t->col[c].variant ? t->col[c].variant : "?", t->col[c].who);
		put(row, &at, cols, entry, 0);
	}
}

/* Whether a cell of the page carries the FPU mark. */
static bool marked(const struct answers *a)
{
	unsigned int i;

	for (i = 0; i < a->n; i++)
		if (names_routine(&a->rec[i]) && fpu_unmeasured(a, &a->rec[i]))
			return true;
	return false;
}

unsigned int screen_answer_page(const struct answers *a, unsigned int cols,
				char (*rows)[ANSWER_PAGE_COLS + 1], unsigned int max)
{
	struct table t[ANSWER_FNS];
	unsigned int fn, nt = 0, first = 0, width, n = 0, r;

	if (cols > ANSWER_PAGE_COLS)
		cols = ANSWER_PAGE_COLS;
	for (fn = 0; fn < ANSWER_FNS; fn++) {
		table_init(&t[nt], a, fn);
		if (t[nt].ncols)
			nt++;
	}
	if (!nt || !a->on)
		return 0;
	/* Bands of whole tables, as many side by side as fit. */
	width = PASS_W;
	for (fn = 0; fn <= nt; fn++) {
		if (fn < nt && (fn == first || width + t[fn].ncols * CELL_W <= cols)) {
			width += t[fn].ncols * CELL_W;
			continue;
		}
		if (first && n < max)
			rows[n++][0] = '\0';
		n = band(a, t + first, fn - first, cols, rows, n, max);
		first = fn;
		width = PASS_W + (fn < nt ? t[fn].ncols * CELL_W : 0);
	}
	if (n < max)
		rows[n++][0] = '\0';
	for (fn = 0; fn < nt && n < max; fn++)
		legend(rows[n++], cols, &t[fn]);
	if (n < max && marked(a)) {
		size_t at = 0;

		rows[n][0] = '\0';
		put(rows[n++], &at, cols, "*: needs kernel_fpu_begin/end, its cost not measured here", 0);
	}
	/* Trailing blanks are the screen's to paint. */
	for (r = 0; r < n; r++) {
		size_t e = 0;

		while (rows[r][e])
			e++;
		while (e && rows[r][e - 1] == ' ')
			rows[r][--e] = '\0';
	}
	return n;
}

const char *screen_answer_legend(const struct answers *a)
{
	return a->run.not_a_cpu ?
	       "not a CPU: ~NAME-Z% figures only, no advice; n/a not measured; - not judged" :
	       "NAME-Z%: switch, saving Z%; keep; undecided; n/a: not measured; -: not judged";
}
