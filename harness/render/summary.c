/* SPDX-License-Identifier: MIT */
#include "harness/measure/bench.h"
#include "lib/fmt.h"
#include "harness/stats/interval.h"
#include "harness/render/summary.h"

#define PAGE PAGE_SIZE

static void begin(struct summary *s, enum op op, enum pass_id id, size_t bytes)
{
	struct summary_pass *p;

	if (s->n == sizeof(s->pass) / sizeof(s->pass[0]))
		return;
	p = &s->pass[s->n++];
	p->title[0] = '\0';
	p->op = op;
	p->id = id;
	p->bytes = bytes;
	p->n = 0;
}

void summary_begin(struct summary *s, enum op op, enum pass_id id, size_t bytes)
{
	begin(s, op, id, bytes);
}

/* Not a clear or copy pass (suite=scrub's counts). */
void summary_begin_titled(struct summary *s, const char *title, size_t bytes)
{
	begin(s, OP_CLEAR, 0, bytes);
	if (s->n)
		fmt_snprintf(s->pass[s->n - 1].title, sizeof(s->pass[0].title), "%s", title);
}

void summary_add(struct summary *s, const char *variant, uint64_t median2)
{
	struct summary_pass *p = s->n ? &s->pass[s->n - 1] : NULL;

	if (!p || p->n == VARIANTS_MAX || !median2)
		return;
	p->row[p->n++] = (struct summary_row){ variant, median2, 0, 0, false };
}

void summary_add_interval(struct summary *s, const char *variant,
			  uint64_t median2, uint64_t lo2, uint64_t hi2)
{
	struct summary_pass *p = s->n ? &s->pass[s->n - 1] : NULL;

	if (!p || p->n == VARIANTS_MAX || !median2)
		return;
	p->row[p->n++] = (struct summary_row){ variant, median2, lo2, hi2, true };
}

/* Whether row r's interval overlaps the first row's: as good as it. */
static bool as_good(const struct summary_pass *p, unsigned int r)
{
	const struct summary_row *a = &p->row[0], *b = &p->row[r];

	return a->has_interval && b->has_interval && b->lo2 <= a->hi2 &&
	       a->lo2 <= b->hi2;
}

void summary_of_record(struct summary *s, const struct run_record *r)
{
	unsigned int k, i;

	s->n = 0;
	for (k = 0; k < r->n; k++) {
		const struct record_pass *p = &r->pass[k];

		if (p->step[0])
			summary_begin_titled(s, p->title, p->bytes);
		else
			summary_begin(s, p->op, p->id, p->bytes);
		for (i = 0; i < p->nfig; i++)
			if (p->fig[i].has_interval)
				summary_add_interval(s, p->fig[i].variant, p->fig[i].median2,
						     p->fig[i].lo2, p->fig[i].hi2);
			else
				summary_add(s, p->fig[i].variant, p->fig[i].median2);
		summary_end(s);
	}
}

/* Insertion sort: stable, so equal medians keep the table's order. */
void summary_end(struct summary *s)
{
	struct summary_pass *p = s->n ? &s->pass[s->n - 1] : NULL;
	unsigned int i, j;

	if (!p)
		return;
	for (i = 1; i < p->n; i++)
		for (j = i; j && p->row[j - 1].median2 > p->row[j].median2; j--) {
			struct summary_row x = p->row[j];

			p->row[j] = p->row[j - 1];
			p->row[j - 1] = x;
		}
}

/* v / d to one decimal, rounded: "123.4". */
static void tenths(char *buf, size_t len, uint64_t v, uint64_t d)
{
	uint64_t x = d ? (v * 10 + d / 2) / d : 0;

	fmt_snprintf(buf, len, "%lu.%lu", (unsigned long)(x / 10),
		     (unsigned long)(x % 10));
}

/* v / d to two decimals, rounded: "1.46". */
static void hundredths(char *buf, size_t len, uint64_t v, uint64_t d)
{
	uint64_t x = d ? (v * 100 + d / 2) / d : 0;

	fmt_snprintf(buf, len, "%lu.%02lu", (unsigned long)(x / 100),
		     (unsigned long)(x % 100));
}

/* "+7.69%": (r / w - 1) in percent, to two decimals, rounded. */
static void margin(char *buf, size_t len, uint64_t r2, uint64_t w2)
{
	uint64_t bp = ((r2 - w2) * 10000 + w2 / 2) / w2;

	fmt_snprintf(buf, len, "+%lu.%02lu%%", (unsigned long)(bp / 100),
		     (unsigned long)(bp % 100));
}

static void size_text(char *buf, size_t len, size_t bytes)
{
	if (bytes % (1024 * 1024) == 0)
		fmt_snprintf(buf, len, "%zu MiB", bytes / (1024 * 1024));
	else
		fmt_snprintf(buf, len, "%zu KiB", bytes / 1024);
}

unsigned int summary_block(const struct summary_pass *p, uint64_t tsc_khz,
			   char (*lines)[SUMMARY_COLS], unsigned int max)
{
	uint64_t pages = p->bytes / PAGE ? p->bytes / PAGE : 1;
	char size[16], tpp[16], ns[16], bpt[16], vs[16];
	bool undecided = false;
	unsigned int i, n = 0;

	if (!max)
		return 0;
	size_text(size, sizeof(size), p->bytes);
	if (p->title[0])
		fmt_snprintf(lines[n++], SUMMARY_COLS, "%s, %s", p->title, size);
	else
		fmt_snprintf(lines[n++], SUMMARY_COLS, "%s%s, %s %s",
			     pass_prefix(p->op, p->id), passes[p->id].header, size,
			     p->op == OP_COPY ? "each way" : "a call");
	for (i = 1; i < p->n; i++)
		undecided |= as_good(p, i);
	for (i = 0; i < p->n && n < max; i++) {
		const struct summary_row *r = &p->row[i];

		/* Per page: median2 / 2 / pages; bytes per tick: bytes / (median2 / 2). */
		tenths(tpp, sizeof(tpp), r->median2, 2 * pages);
		tenths(ns, sizeof(ns), r->median2 * 1000000ull, 2 * pages * (tsc_khz ? tsc_khz : 1));
		hundredths(bpt, sizeof(bpt), 2 * (uint64_t)p->bytes, r->median2);
		if (i == 0)
			fmt_snprintf(vs, sizeof(vs), undecided ? "tied" : "quickest");
		else
			margin(vs + as_good(p, i), sizeof(vs) - 1, r->median2,
			       p->row[0].median2);
		if (i && as_good(p, i))
			vs[0] = '~';
		if (tsc_khz)
			fmt_snprintf(lines[n++], SUMMARY_COLS, "%c%-12s %10s %9s %7s  %s",
				     i ? ' ' : '*', r->variant, tpp, ns, bpt, vs);
		else
			fmt_snprintf(lines[n++], SUMMARY_COLS, "%c%-12s %10s %7s  %s",
				     i ? ' ' : '*', r->variant, tpp, bpt, vs);
	}
	return n;
}
