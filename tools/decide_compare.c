// SPDX-License-Identifier: MIT
/* pagebench-decide --compare (tools/decide_compare.h). */
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include "harness/stats/interval.h"
#include "tools/decide_compare.h"

#define LINE_LEN	16384
#define NAME_LEN	64
/* Series in one set: diff sets a series per machine of a figure. */
#define SERIES_MAX	1024

struct named {
	char name[NAME_LEN];
	uint64_t med[INTERVAL_EPOCHS_MAX];
	struct epoch_series s;
};

/* Static, not allocated: a refusal leaves by fail(), which does not return. */
static struct named set[SERIES_MAX];
static unsigned int nset;
static bool in_pass;
static uint64_t most;
static void (*fail)(const char *what, const char *word);

/* The value of key among the words after the first, or NULL. */
static char *value_of(char *const *w, unsigned int nw, const char *key)
{
	size_t k = strlen(key);
	unsigned int i;

	for (i = 1; i < nw; i++)
		if (!strncmp(w[i], key, k) && w[i][k] == '=')
			return w[i] + k + 1;
	return NULL;
}

/* A whole number 0 to most: refused otherwise, never cut to fit. */
static uint64_t figure(const char *s, const char *what)
{
	unsigned long long x;
	char *end;

	errno = 0;
	x = strtoull(s, &end, 10);
	if (errno || end == s || *end || *s < '0' || *s > '9' || x > most)
		fail(what, s);
	return x;
}

static struct named *named(const char *name)
{
	unsigned int i;

	for (i = 0; i < nset; i++)
		if (!strcmp(set[i].name, name))
			return &set[i];
	return NULL;
}

/* A ratio in millionths as "0.512200": six decimals, all that is kept. */
static void ratio_words(uint64_t ppm, char *buf, size_t len)
{
	snprintf(buf, len, "%llu.%06llu", (unsigned long long)(ppm / RATIO_ONE),
		 (unsigned long long)(ppm % RATIO_ONE));
}

static void series_line(char *const *w, unsigned int nw)
{
	const char *name = value_of(w, nw, "variant"), *q = value_of(w, nw, "quantum");
	char *med = value_of(w, nw, "med"), *tok, *save;
	uint64_t sorted[INTERVAL_EPOCHS_MAX];
	struct named *n;
	struct interval iv;
	unsigned int e = 0;

	if (!in_pass)
		fail("series outside a pass", NULL);
	if (!name || !q || !med)
		fail("series: variant=, quantum= and med= are needed", NULL);
	if (!*name || strlen(name) >= NAME_LEN)
		fail("series: variant= takes 1 to 63 characters", name);
	if (named(name))
		fail("series: named twice in one pass", name);
	if (nset == SERIES_MAX)
		fail("series: more than 1024 in one pass", name);
	n = &set[nset];
	for (tok = strtok_r(med, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		if (e == INTERVAL_EPOCHS_MAX)
			fail("series: more epochs than an interval takes (63)", name);
		n->med[e++] = figure(tok, "series: med= takes whole numbers of 0 to 2^53");
	}
	e = interval_odd_epochs(n->med, e);
	snprintf(n->name, sizeof(n->name), "%s", name);
	n->s = (struct epoch_series){ .med = n->med, .epochs = e,
				      .quantum = figure(q, "series: quantum= takes a whole number") };
	memcpy(sorted, n->med, e * sizeof(*sorted));
	interval_of_epochs(sorted, e, n->s.quantum ? n->s.quantum : 1, &iv);
	n->s.median = iv.median;
	nset++;
	if (iv.has_interval)
		printf("interval variant=%s epochs=%u median=%llu lo=%llu hi=%llu\n", name, e,
		       (unsigned long long)iv.median, (unsigned long long)iv.lo,
		       (unsigned long long)iv.hi);
	else
		printf("interval variant=%s epochs=%u median=%llu lo=? hi=?\n", name, e,
		       (unsigned long long)iv.median);
}

static void compare_line(char *const *w, unsigned int nw)
{
	const char *a = value_of(w, nw, "num"), *b = value_of(w, nw, "den");
	const struct named *num, *den;
	char med[32], lo[32] = "?", hi[32] = "?";
	struct interval iv;

	if (!in_pass)
		fail("compare outside a pass", NULL);
	if (!a || !b)
		fail("compare: num= and den= are needed", NULL);
	num = named(a);
	den = named(b);
	if (!num || !den)
		fail("compare: no such series in this pass", num ? b : a);
	if (!interval_of_ratio(&num->s, &den->s, &iv)) {
		printf("ratio num=%s den=%s none\n", a, b);
		return;
	}
	ratio_words(iv.median, med, sizeof(med));
	if (iv.has_interval) {
		ratio_words(iv.lo, lo, sizeof(lo));
		ratio_words(iv.hi, hi, sizeof(hi));
	}
	printf("ratio num=%s den=%s epochs=%u median=%s lo=%s hi=%s\n", a, b,
	       ratio_epochs(&num->s, &den->s), med, lo, hi);
}

void decide_compare(FILE *in, uint64_t figure_max,
		    void (*fail_fn)(const char *what, const char *word), unsigned long *lineno)
{
	static char line[LINE_LEN];

	fail = fail_fn;
	most = figure_max;
	nset = 0;
	in_pass = false;
	while (fgets(line, sizeof(line), in)) {
		char *w[64], *save, *tok;
		unsigned int nw = 0;

		(*lineno)++;
		if (!strchr(line, '\n') && !feof(in))
			fail("line too long", NULL);
		line[strcspn(line, "\n")] = '\0';
		if (!strncmp(line, "machine ", 8) || !strncmp(line, "pass ", 5)) {
			puts(line);
			nset = 0;
			in_pass = line[0] == 'p';
			continue;
		}
		for (tok = strtok_r(line, " ", &save); tok && nw < 64;
		     tok = strtok_r(NULL, " ", &save))
			w[nw++] = tok;
		if (!nw)
			continue;
		if (!strcmp(w[0], "series"))
			series_line(w, nw);
		else if (!strcmp(w[0], "compare"))
			compare_line(w, nw);
		else if (!strcmp(w[0], "end") && nw == 1)
			in_pass = false;
		else
			fail("unknown line", w[0]);
	}
}
