// SPDX-License-Identifier: MIT
/* pagebench-decide --combine (tools/decide_combine.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "harness/decide/answers.h"
#include "harness/decide/combine.h"
#include "lib/out.h"
#include "tools/answer_lines.h"
#include "tools/decide_combine.h"

#define KEYS_MAX	((ANSWER_FNS + ANSWER_XFNS) * ANSWER_PICKS_MAX)
#define LINE_LEN	16384
#define DIFFER_LEN	256
#define GROUP_NAME_LEN	40

struct run_lines {
	unsigned int n;
	struct lines_bottom key[KEYS_MAX];
};

struct group {
	char name[GROUP_NAME_LEN + 1];
	unsigned int nkeys;
	struct lines_bottom key[KEYS_MAX];	/* combined */
	char differ[KEYS_MAX][DIFFER_LEN];
};

static struct run_lines *runs;
static struct group *groups;
static unsigned int nruns, ngroups;
static struct lines_bottom cur;
static bool started;
static void (*fail)(const char *what, const char *word);

static const char *page_name(unsigned int id)
{
	return lines_name(TABLE_PAGES, id);
}

/* memset and memcpy share variants/strings.def's one table. */
static const char *string_name(unsigned int id)
{
	return lines_name(TABLE_MEMSET, id);
}

static const char *(*namer(enum lines_table t))(unsigned int)
{
	return t == TABLE_PAGES ? page_name : string_name;
}

static void ranks(enum lines_table t, unsigned int *rank)
{
	unsigned int id;

	for (id = 0; id < VARIANTS_MAX; id++)
		rank[id] = lines_rank(t, id);
}

static bool same_key(const struct lines_bottom *x, const struct lines_bottom *y)
{
	return !strcmp(x->fn, y->fn) && x->pick.kernel == y->pick.kernel &&
	       !strcmp(x->pick.versions, y->pick.versions) && !strcmp(x->pick.entry, y->pick.entry);
}

static int key_at(const struct lines_bottom *keys, unsigned int n, const struct lines_bottom *k)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		if (same_key(&keys[i], k))
			return (int)i;
	return -1;
}

/* The bottom line read last, into its run. */
static void keep_bottom(void)
{
	struct run_lines *r = &runs[nruns - 1];
	const char *e;

	if (!started)
		return;
	started = false;
	if ((e = lines_bottom_whole(&cur)))
		fail(e, NULL);
	if (key_at(r->key, r->n, &cur) >= 0)
		fail("a second bottom line of one pick in one run", cur.pick.entry);
	if (r->n == KEYS_MAX)
		fail("more bottom lines in one run than a run makes", NULL);
	r->key[r->n++] = cur;
}

static void put_line(const char *line, void *ctx)
{
	(void)ctx;
	out_line("%s", line);
}

/* The group's runs combined, key by key, in the order the runs first name them; printed. */
static void group_end(void)
{
	const struct bottom *b[COMBINE_RUNS_MAX];
	unsigned int rank[VARIANTS_MAX], i, k, n;
	struct group *g;

	if (!ngroups)
		return;
	if (nruns)
		keep_bottom();
	g = &groups[ngroups - 1];
	for (i = 0; i < nruns; i++)
		for (k = 0; k < runs[i].n; k++)
			if (key_at(g->key, g->nkeys, &runs[i].key[k]) < 0)
				g->key[g->nkeys++] = runs[i].key[k];
	printf("group %s\n", g->name);
	for (k = 0; k < g->nkeys; k++) {
		struct lines_bottom *out = &g->key[k];
		enum lines_table t = lines_table_of(out->fn);
		struct answer_run run = { .worth_bp = out->worth_bp };

		for (i = 0, n = 0; i < nruns; i++) {
			int at = key_at(runs[i].key, runs[i].n, out);

			if (at < 0)
				continue;
			if (runs[i].key[at].worth_bp != out->worth_bp)
				fail("the runs of one group weigh one pick against different worths",
				     out->pick.entry);
			b[n++] = &runs[i].key[at].b;
		}
		ranks(t, rank);
		combine_runs(b, n, out->worth_bp, rank, namer(t), g->differ[k], DIFFER_LEN,
			     &out->b);
		bottom_lines(&run, &out->pick, out->fn, &out->b, namer(t), put_line, NULL);
	}
	nruns = 0;
}

static bool seen(const struct lines_bottom *const *keys, unsigned int n,
		 const struct lines_bottom *k)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		if (same_key(keys[i], k))
			return true;
	return false;
}

/* A fleet line per pick of an era that two groups or more answer. */
static void fleet(void)
{
	static const struct lines_bottom *keys[COMBINE_GROUPS_MAX * KEYS_MAX];
	const struct bottom *b[COMBINE_GROUPS_MAX];
	const char *names[COMBINE_GROUPS_MAX];
	char line[OUT_LINE_MAX];
	unsigned int rank[VARIANTS_MAX], nkeys = 0, g, k, n;

	for (g = 0; g < ngroups; g++)
		for (k = 0; k < groups[g].nkeys; k++)
			if (strncmp(groups[g].key[k].pick.versions, "running ", 8) &&
			    !seen(keys, nkeys, &groups[g].key[k]))
				keys[nkeys++] = &groups[g].key[k];
	for (k = 0; k < nkeys; k++) {
		enum lines_table t = lines_table_of(keys[k]->fn);
		struct fleet f;

		for (g = 0, n = 0; g < ngroups; g++) {
			int at = key_at(groups[g].key, groups[g].nkeys, keys[k]);

			if (at < 0)
				continue;
			b[n] = &groups[g].key[at].b;
			names[n++] = groups[g].name;
		}
		ranks(t, rank);
		combine_fleet(b, n, rank, &f);
		if (f.ngroups < 2)
			continue;
		combine_fleet_line(line, sizeof(line), keys[k]->fn, &keys[k]->pick, &f, b, names, n,
				   namer(t));
		put_line(line, NULL);
	}
}

static void group_begin(const char *name)
{
	size_t i, len = strlen(name);

	group_end();
	for (i = 0; i < len; i++)
		if (!strchr("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_.+-",
			    name[i]))
			break;
	if (!len || len > GROUP_NAME_LEN || i < len)
		fail("group: a name of 1 to 40 of A-Z a-z 0-9 _ . + -", name);
	if (ngroups == COMBINE_GROUPS_MAX)
		fail("group: more groups than one combining takes (32)", name);
	for (i = 0; i < ngroups; i++)
		if (!strcmp(groups[i].name, name))
			fail("group: named twice", name);
	snprintf(groups[ngroups].name, sizeof(groups[ngroups].name), "%s", name);
	groups[ngroups++].nkeys = 0;
}

static void run_begin(const char *name)
{
	if (!ngroups)
		fail("run before its group", NULL);
	if (nruns)
		keep_bottom();
	if (!*name)
		fail("run: a name is needed", NULL);
	if (nruns == COMBINE_RUNS_MAX)
		fail("run: more runs in one group than one combining takes (32)", name);
	runs[nruns++].n = 0;
}

void decide_combine(FILE *in, void (*fail_fn)(const char *what, const char *word),
		    unsigned long *lineno)
{
	static char line[LINE_LEN];
	const char *e;

	fail = fail_fn;
	runs = calloc(COMBINE_RUNS_MAX, sizeof(*runs));
	groups = calloc(COMBINE_GROUPS_MAX, sizeof(*groups));
	if (!runs || !groups)
		fail("out of memory", NULL);
	while (fgets(line, sizeof(line), in)) {
		(*lineno)++;
		if (!strchr(line, '\n') && !feof(in))
			fail("line too long", NULL);
		line[strcspn(line, "\n")] = '\0';
		if (!strncmp(line, "group ", 6)) {
			group_begin(line + 6);
		} else if (!strncmp(line, "run ", 4)) {
			run_begin(line + 4);
		} else if (!strncmp(line, "bottom", 6)) {
			if (!nruns)
				fail("a bottom line before its run", NULL);
			if (!strncmp(line, "bottom ", 7))
				keep_bottom();
			if ((e = lines_bottom_line(&cur, &started, line)))
				fail(e, NULL);
		} else if (line[0]) {
			fail("unknown line", line);
		}
	}
	group_end();
	fleet();
	free(runs);
	free(groups);
}
