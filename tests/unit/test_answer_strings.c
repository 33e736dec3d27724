// SPDX-License-Identifier: MIT
/*
 * The answer's other questions (harness/decide/answer_strings.c) on synthetic
 * figures whose decisions are known: the size classes and how a class's
 * per-rep totals are assembled (only its sizes, every alignment; a variant
 * short of a figure or failed is no candidate), switch, keep and
 * undecided for a memset class and for a scrub step, the scrub step judged
 * as a cold pass (scrub_page_hot has no answer, CLZERO without SFENCE is
 * no candidate), the pick not measured, and the lines' text.
 */
#define _GNU_SOURCE
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "harness/decide/answer.h"
#include "harness/decide/answer_strings.h"
#include "harness/stats/interval.h"
#include "lib/out.h"
#include "tests/unit/check.h"

#define REPS	11

static struct answers ans;
static struct strings_figures figs;

static unsigned int string_index(enum string_op op, const char *name)
{
	for (unsigned int i = 0; i < string_variant_count; i++)
		if (string_variants[i].op == op && !strcmp(string_variants[i].name, name))
			return i;
	fprintf(stderr, "no string variant %s\n", name);
	exit(2);
}

static const struct variant *variant_named(const char *name)
{
	for (unsigned int i = 0; i < variant_count; i++)
		if (variants[i].op == OP_CLEAR && !strcmp(variants[i].name, name))
			return &variants[i];
	fprintf(stderr, "no clear variant %s\n", name);
	exit(2);
}

/* reps figures around centi, +-spread_ppm in turn from phase, so that two series' wobbles do not cancel. */
static void wobble(int64_t *out, unsigned int reps, int64_t centi, int64_t spread_ppm,
		   unsigned int phase)
{
	for (unsigned int r = 0; r < reps; r++)
		out[r] = centi + ((int)((r + phase) % 3) - 1) * (centi * spread_ppm / 1000000);
}

static void add(enum strings_mode mode, unsigned int n, const char *name, int64_t centi,
		int64_t spread_ppm, unsigned int phase)
{
	int64_t fig[REPS];

	wobble(fig, REPS, centi, spread_ppm, phase);
	strings_figures_add(&figs, mode, n, string_index(STRING_MEMSET, name), fig, REPS);
}

/* One pick of memset (Linux's stosb), none of memcpy or scrub. */
static void begin(const char *memset_pick)
{
	memset(&ans, 0, sizeof(ans));
	ans.on = true;
	ans.run = (struct answer_run){ .worth_bp = 300, .tsc_khz = 2000000,
					.price = { .measured = true } };
	ans.nxpicks[ANSWER_MEMSET] = 1;
	ans.xpick[ANSWER_MEMSET][0] = (struct answer_pick){ .kernel = RULE_LINUX,
		.entry = "memset", .variant = memset_pick };
	snprintf(ans.xpick[ANSWER_MEMSET][0].versions, 64, ">=6.4");
	strings_figures_begin(&figs);
}

/* The record of fn, pass and class lo, or NULL. */
static const struct answer_x *rec(enum answer_xfn fn, const char *pass, unsigned int lo)
{
	for (unsigned int i = 0; i < ans.nx; i++)
		if (ans.xrec[i].fn == fn && !strcmp(ans.xrec[i].pass, pass) &&
		    (fn == ANSWER_SCRUB || ans.xrec[i].lo == lo))
			return &ans.xrec[i];
	return NULL;
}

static const char *line_of(const struct answer_x *x)
{
	static char line[OUT_LINE_MAX];
	struct answer_head h = { answer_xfn_name(x->fn), x->pass, x->sized, x->lo, x->hi,
				 x->routine, x->vec, x->alike, x->unpriced };

	answer_line(line, sizeof(line), &ans.run, &ans.xpick[x->fn][x->pick], &h, &x->a);
	return line;
}

static void test_classes(void)
{
	static const struct { unsigned int n; int c; } at[] = {
		{ 0, 0 }, { 1, 1 }, { 15, 1 }, { 16, 2 }, { 127, 2 }, { 128, 3 },
		{ 1023, 3 }, { 1024, 4 }, { 4096, 4 }, { 4097, -1 },
	};
	bool ok = true;

	for (unsigned int i = 0; i < sizeof(at) / sizeof(at[0]); i++)
		ok &= strings_class_of(at[i].n) == at[i].c;
	result(ok && strings_classes[0].lo == 0 && strings_classes[0].hi == 0 &&
	       strings_classes[STRINGS_CLASSES - 1].hi == STRINGS_SIZE_LIMIT,
	       "answer_strings.classes", "a size fell in the wrong class");
}

static void test_strings(void)
{
	const struct answer_x *x;
	const char *line;

	/*
	 * Class 16-127: stosb 10 ticks at n=16 and n=64, twice (two
	 * alignments); avx_t 5 at each: exactly half, a switch. Figures of
	 * other classes (n=200, n=8) must not enter it; avx512_t, faster
	 * still, lacks n=64 at one alignment; stosq_br, fastest, failed.
	 */
	begin("stosb");
	for (unsigned int align = 0; align < 2; align++) {
		add(MODE_TPUT, 16, "stosb", 1000, 10000, 0);
		add(MODE_TPUT, 64, "stosb", 1000, 10000, 0);
		add(MODE_TPUT, 16, "avx_t", 500, 10000, 0);
		add(MODE_TPUT, 64, "avx_t", 500, 10000, 0);
		add(MODE_TPUT, 16, "avx512_t", 10, 10000, 0);
		add(MODE_TPUT, 16, "stosq_br", 10, 10000, 0);
		add(MODE_TPUT, 64, "stosq_br", 10, 10000, 0);
	}
	add(MODE_TPUT, 64, "avx512_t", 10, 10000, 0);
	strings_figures_failed(&figs, string_index(STRING_MEMSET, "stosq_br"));
	add(MODE_TPUT, 200, "stosb", 100, 10000, 0);
	add(MODE_TPUT, 200, "avx_t", 100000, 10000, 0);
	add(MODE_TPUT, 8, "avx_t", 100000, 10000, 0);
	add(MODE_TPUT, 8, "stosb", 100, 10000, 0);
	answers_strings(&ans, &figs, 1);
	x = rec(ANSWER_MEMSET, "tput", 16);
	result(x && x->sized && x->lo == 16 && x->hi == 127 && x->a.action == ANSWER_SWITCH &&
	       x->routine && !strcmp(x->routine, "avx_t") && x->a.has_ratio &&
	       x->a.ratio.median == 500000 && x->a.epochs == REPS,
	       "answer_strings.switch_class_totals", "action=%d routine=%s ratio=%llu",
	       x ? (int)x->a.action : -1, x && x->routine ? x->routine : "-",
	       x ? (unsigned long long)x->a.ratio.median : 0);
	/* ns per call summed: 4 figures of 10 ticks at 2 GHz = 20 ns; avx_t 10 ns. */
	result(x && x->a.has_ns && x->a.pick_ns10 == 200 && x->a.routine_ns10 == 100,
	       "answer_strings.ns_per_call_summed", "pick %llu routine %llu",
	       x ? (unsigned long long)x->a.pick_ns10 : 0,
	       x ? (unsigned long long)x->a.routine_ns10 : 0);
	line = x ? line_of(x) : "";
	result(!strncmp(line, "answer fn=memset pass=tput sizes=16-127 kernel=linux "
			"versions=\">=6.4\" entry=memset pick=stosb action=switch routine=avx_t "
			"ratio=0.5000 lo=0.", 114) &&
	       strstr(line, " epochs=11 pick_ns=20.0 routine_ns=10.0 price=0.0 worth=3.0%"),
	       "answer_strings.text", "%s", line);
	/* The other classes were decided from their own figures: keep in 1-15 and 128-1023. */
	x = rec(ANSWER_MEMSET, "tput", 128);
	result(x && x->a.action == ANSWER_KEEP && x->routine && !strcmp(x->routine, "avx_t") &&
	       x->a.ratio.median == 1000ull * RATIO_ONE, "answer_strings.keep_other_class",
	       "action=%d ratio=%llu", x ? (int)x->a.action : -1,
	       x ? (unsigned long long)x->a.ratio.median : 0);
	x = rec(ANSWER_MEMSET, "tput", 1);
	result(x && x->a.action == ANSWER_KEEP, "answer_strings.keep_small", "action=%d",
	       x ? (int)x->a.action : -1);
	/* No figure in class 0-0, 1024-4096, nor in mode lat: no line. */
	result(!rec(ANSWER_MEMSET, "tput", 0) && !rec(ANSWER_MEMSET, "tput", 1024) &&
	       !rec(ANSWER_MEMSET, "lat", 16) && ans.nx == 3,
	       "answer_strings.one_line_per_class_with_figures", "nx=%u", ans.nx);

	/* 0.96 +- a wide spread: undecided, avx_t named, need= beyond the reps. */
	begin("stosb");
	add(MODE_LAT, 0, "stosb", 1000, 0, 0);
	add(MODE_LAT, 0, "avx_t", 960, 40000, 1);
	answers_strings(&ans, &figs, 1);
	x = rec(ANSWER_MEMSET, "lat", 0);
	result(x && x->a.action == ANSWER_UNDECIDED && x->routine &&
	       !strcmp(x->routine, "avx_t") && x->a.ratio.lo < 970000 &&
	       x->a.ratio.hi >= 970000 && x->a.need_epochs > REPS,
	       "answer_strings.undecided", "action=%d", x ? (int)x->a.action : -1);
	line = x ? line_of(x) : "";
	result(strstr(line, "fn=memset pass=lat sizes=0-0 ") && strstr(line, " need=epochs>="),
	       "answer_strings.text_undecided", "%s", line);

	/* The pick (stosb) has no figure: none, why pick-not-measured, no figures on the line. */
	begin("stosb");
	add(MODE_TPUT, 16, "avx_t", 500, 10000, 0);
	answers_strings(&ans, &figs, 1);
	x = rec(ANSWER_MEMSET, "tput", 16);
	line = x ? line_of(x) : "";
	result(x && x->a.action == ANSWER_NONE && x->a.why == WHY_PICK_NOT_MEASURED &&
	       strstr(line, " action=none routine=- worth=3.0% why=pick-not-measured"),
	       "answer_strings.pick_not_measured", "%s", line);

	/* A rep where the pick's total is 0 (below 0 counts as 0): no ratio, no advice. */
	begin("stosb");
	{
		int64_t a[3] = { -20, 100, 100 }, b[3] = { 50, 50, 50 };

		strings_figures_add(&figs, MODE_TPUT, 0, string_index(STRING_MEMSET, "stosb"), a, 3);
		strings_figures_add(&figs, MODE_TPUT, 0, string_index(STRING_MEMSET, "avx_t"), b, 3);
	}
	answers_strings(&ans, &figs, 1);
	x = rec(ANSWER_MEMSET, "tput", 0);
	result(x && x->a.action == ANSWER_NONE && x->a.why == WHY_NO_INTERVAL,
	       "answer_strings.zero_pick_rep_no_interval", "action=%d why=%d",
	       x ? (int)x->a.action : -1, x ? (int)x->a.why : -1);

	/* An even count of reps: the first left out, the interval on the rest. */
	begin("stosb");
	{
		int64_t a[4] = { 5000, 1000, 1000, 1000 }, b[4] = { 100, 500, 500, 500 };

		strings_figures_add(&figs, MODE_TPUT, 16, string_index(STRING_MEMSET, "stosb"), a, 4);
		strings_figures_add(&figs, MODE_TPUT, 16, string_index(STRING_MEMSET, "avx_t"), b, 4);
	}
	answers_strings(&ans, &figs, 1);
	x = rec(ANSWER_MEMSET, "tput", 16);
	result(x && x->a.epochs == 3 && x->a.ratio.median == 500000,
	       "answer_strings.even_reps_drop_first", "epochs=%u ratio=%llu",
	       x ? x->a.epochs : 0, x ? (unsigned long long)x->a.ratio.median : 0);
}

/* A scrub step's inputs: each variant's rep walls around centi. */
struct step {
	unsigned int n;
	uint64_t med[8][REPS];
	struct answer_input in[8];
};

static void wall(struct step *s, const char *name, int64_t centi, int64_t spread_ppm,
		 unsigned int phase)
{
	int64_t w[REPS];
	uint64_t sorted[REPS];

	wobble(w, REPS, centi, spread_ppm, phase);
	for (unsigned int r = 0; r < REPS; r++)
		sorted[r] = s->med[s->n][r] = (uint64_t)w[r];
	s->in[s->n] = (struct answer_input){ variant_named(name), false,
		{ s->med[s->n], REPS, median_u64(sorted, REPS), 100 } };
	s->n++;
}

static void scrub_picks(void)
{
	static const char *const entry[3] = { "scrub_one_page", "scrub_page_hot",
					      "scrub_page_cold" };
	static const char *const pick[3] = { "sse2", "stosb", "clzero_sf" };

	memset(&ans, 0, sizeof(ans));
	ans.on = true;
	ans.run = (struct answer_run){ .worth_bp = 300, .tsc_khz = 2000000,
					.price = { .measured = true } };
	ans.nxpicks[ANSWER_SCRUB] = 3;
	for (unsigned int i = 0; i < 3; i++) {
		ans.xpick[ANSWER_SCRUB][i] = (struct answer_pick){ .kernel = RULE_XEN,
			.entry = entry[i], .variant = pick[i] };
		snprintf(ans.xpick[ANSWER_SCRUB][i].versions, 64, ">=4.21");
	}
}

static void test_scrub(void)
{
	struct step s = { 0 };
	const struct answer_x *x;
	const char *line;
	bool hot = false;

	/*
	 * sse2 10000 ticks a step, avx_t half: switch; clzero (no SFENCE)
	 * faster still is no candidate; stosb, the hot entry's pick, runs but
	 * the hot entry has no answer in a step; clzero_sf did not run.
	 */
	scrub_picks();
	wall(&s, "sse2", 1000000, 10000, 0);
	wall(&s, "avx_t", 500000, 10000, 0);
	wall(&s, "clzero", 100000, 10000, 0);
	wall(&s, "stosb", 2000000, 10000, 0);
	answers_scrub(&ans, "cpus2", 8u << 20, s.in, s.n);
	for (unsigned int i = 0; i < ans.nx; i++)
		hot |= !strcmp(ans.xpick[ANSWER_SCRUB][ans.xrec[i].pick].entry, "scrub_page_hot");
	result(ans.nx == 2 && !hot, "answer_scrub.hot_entry_not_judged", "nx=%u hot=%d",
	       ans.nx, hot);
	x = &ans.xrec[0];
	result(ans.nx >= 1 && x->a.action == ANSWER_SWITCH && x->routine &&
	       !strcmp(x->routine, "avx_t") && x->a.ratio.median == 500000 && !x->sized,
	       "answer_scrub.switch_no_clzero_nofence", "action=%d routine=%s",
	       (int)x->a.action, x->routine ? x->routine : "-");
	/* ns per 4 KiB page: 10000 ticks at 2 GHz over 2048 pages = 2.44 ns. */
	result(x->a.has_ns && x->a.pick_ns10 == 24 && x->a.routine_ns10 == 12,
	       "answer_scrub.ns_per_page", "pick %llu routine %llu",
	       (unsigned long long)x->a.pick_ns10, (unsigned long long)x->a.routine_ns10);
	line = line_of(x);
	result(!strncmp(line, "answer fn=scrub pass=cpus2 kernel=xen versions=\">=4.21\" "
			"entry=scrub_one_page pick=sse2 action=switch routine=avx_t ratio=0.5000 ",
			strlen("answer fn=scrub pass=cpus2 kernel=xen versions=\">=4.21\" "
			       "entry=scrub_one_page pick=sse2 action=switch routine=avx_t ratio=0.5000 ")),
	       "answer_scrub.text", "%s", line);
	x = ans.nx == 2 ? &ans.xrec[1] : NULL;
	result(x && x->a.action == ANSWER_NONE && x->a.why == WHY_PICK_NOT_MEASURED &&
	       strstr(line_of(x), "entry=scrub_page_cold pick=clzero_sf action=none routine=- "),
	       "answer_scrub.cold_pick_not_measured", "%s", x ? line_of(x) : "no record");

	/* Every candidate slower: keep, naming the nearest. */
	scrub_picks();
	s = (struct step){ 0 };
	wall(&s, "sse2", 1000000, 10000, 0);
	wall(&s, "avx_t", 1500000, 10000, 0);
	wall(&s, "stosq", 1200000, 10000, 0);
	answers_scrub(&ans, "cpus1", 8u << 20, s.in, s.n);
	result(ans.nx == 2 && ans.xrec[0].a.action == ANSWER_KEEP && ans.xrec[0].routine &&
	       !strcmp(ans.xrec[0].routine, "stosq"), "answer_scrub.keep", "action=%d",
	       ans.nx ? (int)ans.xrec[0].a.action : -1);

	/* 0.96 +- a wide spread: undecided. */
	scrub_picks();
	s = (struct step){ 0 };
	wall(&s, "sse2", 1000000, 0, 0);
	wall(&s, "avx_t", 960000, 40000, 1);
	answers_scrub(&ans, "cpus1", 8u << 20, s.in, s.n);
	result(ans.nx == 2 && ans.xrec[0].a.action == ANSWER_UNDECIDED &&
	       strstr(line_of(&ans.xrec[0]), " need=epochs>="), "answer_scrub.undecided",
	       "action=%d", ans.nx ? (int)ans.xrec[0].a.action : -1);
}

/*
 * Four figures of 2^62 in one class sum past INT64_MAX: the total stays
 * at the top (lib/sat.h), so the pick is the slowest and the answer
 * switches; wrapped, it summed to 0 and the pick looked the fastest.
 */
static void test_sums_saturate(void)
{
	int64_t big[REPS], small[REPS];
	const struct answer_x *x;

	for (unsigned int r = 0; r < REPS; r++)
		big[r] = INT64_C(1) << 62, small[r] = 1000;
	begin("stosb");
	for (unsigned int i = 0; i < 4; i++) {
		strings_figures_add(&figs, MODE_TPUT, 16 + i, string_index(STRING_MEMSET, "stosb"),
				   big, REPS);
		strings_figures_add(&figs, MODE_TPUT, 16 + i, string_index(STRING_MEMSET, "stosq"),
				   small, REPS);
	}
	answers_strings(&ans, &figs, 1);
	x = rec(ANSWER_MEMSET, "tput", 16);
	result(x && x->a.action == ANSWER_SWITCH && x->routine &&
	       !strcmp(x->routine, "stosq"), "answer_strings.sums_saturate", "%s",
	       x ? line_of(x) : "no record");
}

int main(void)
{
	test_classes();
	test_strings();
	test_scrub();
	test_sums_saturate();
	return check_exit();
}
