// SPDX-License-Identifier: MIT
/*
 * The answer (harness/decide/answer.c) on synthetic per-epoch figures whose
 * decisions are known: switch, keep, undecided and the epochs it needs,
 * the least saving worth acting on, the candidates (no CLZERO without
 * SFENCE, page routines for clear_page, range routines for clear_pages,
 * no failed variant), hot and cold entries in their passes, not-a-cpu,
 * the reasons for no recommendation, the fast_string assumption, the
 * line's text; a ratio that drifts during the run; and the running
 * kernel's pick from recorded /proc/cpuinfo files (harness/decide/rules.c
 * rule_running_linux()).
 */
#define _GNU_SOURCE
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "harness/decide/answer.h"
#include "harness/stats/interval.h"
#include "lib/out.h"
#include "tests/unit/check.h"

#define NOISE_SEED 0x13198a2e03707344ull
#include "tests/unit/noise.h"

#define E	11		/* epochs */

/* No libm: the test links none. */
static double dabs(double x)
{
	return x < 0 ? -x : x;
}
#define MAXIN	8

static const struct variant *variant_named(enum op op, const char *name)
{
	for (unsigned int i = 0; i < variant_count; i++)
		if (variants[i].op == op && !strcmp(variants[i].name, name))
			return &variants[i];
	fprintf(stderr, "no variant %s\n", name);
	exit(2);
}

/* A pass's inputs: each variant's epoch medians, base x (1 + a wobble). */
struct pass {
	unsigned int n;
	uint64_t med[MAXIN][INTERVAL_EPOCHS_MAX];
	struct answer_input in[MAXIN];
};

/*
 * Variant name at median centi (hundredths of a tick), its epochs
 * spread by +-spread_ppm around it, alternately, so that the pick's and
 * the candidate's wobbles do not cancel in the ratio.
 */
static void add(struct pass *p, enum op op, const char *name, uint64_t centi,
		uint64_t spread_ppm, unsigned int epochs, unsigned int phase)
{
	struct answer_input *in = &p->in[p->n];
	uint64_t sorted[INTERVAL_EPOCHS_MAX];
	unsigned int e;

	for (e = 0; e < epochs; e++) {
		int64_t d = (int64_t)(centi * spread_ppm / 1000000);
		int k = (int)((e + phase) % 3) - 1;	/* -1, 0, 1 */

		p->med[p->n][e] = (uint64_t)((int64_t)centi + k * d);
		sorted[e] = p->med[p->n][e];
	}
	*in = (struct answer_input){ variant_named(op, name), false,
				     { p->med[p->n], epochs,
				       median_u64(sorted, epochs), 1 } };
	p->n++;
}

static struct answer_pick pick(enum rule_kernel k, const char *entry, const char *variant)
{
	struct answer_pick p = { .kernel = k, .entry = entry, .variant = variant };

	snprintf(p.versions, sizeof(p.versions), ">=5.4");
	return p;
}

/* A CPU's run whose vector price was measured at nothing: VEC routines weigh as they ran. */
static const struct answer_run cpu_run = { .worth_bp = 300, .tsc_khz = 2000000,
					   .price = { .measured = true } };

static bool decide(const struct answer_run *run, const struct answer_pick *pk,
		   enum answer_fn fn, enum pass_id pass, const struct pass *p,
		   struct answer *a)
{
	return answer_decide(run, pk, fn, pass, 8192, p->in, p->n, a);
}

static const char *rname(const struct answer *a)
{
	return a->routine ? a->routine->name : "-";
}

static void test_switch_keep_undecided(void)
{
	struct answer_pick pk = pick(RULE_LINUX, "clear_page", "stosb");
	struct pass p = { 0 };
	struct answer a = { 0 };
	char line[OUT_LINE_MAX];
	double half, dist, want;

	/*
	 * avx_t at half stosb's time, sse2_t at 0.8, each epoch alike (the
	 * whole machine moves): switch to the lower median, exactly 0.5.
	 */
	add(&p, OP_CLEAR, "stosb", 100000, 10000, E, 0);
	add(&p, OP_CLEAR, "avx_t", 50000, 10000, E, 0);
	add(&p, OP_CLEAR, "sse2_t", 80000, 10000, E, 0);
	result(decide(&cpu_run, &pk, ANSWER_CLEAR_PAGE, PASS_L1, &p, &a) &&
	       a.action == ANSWER_SWITCH && !strcmp(rname(&a), "avx_t") &&
	       a.has_ratio && a.ratio.median == 500000 && a.ratio.hi < 970000 &&
	       a.epochs == E, "answer.switch_lowest_median",
	       "action=%d routine=%s ratio=%llu hi=%llu", a.action, rname(&a),
	       (unsigned long long)a.ratio.median, (unsigned long long)a.ratio.hi);
	/* ns per 4 KiB page: 1000 ticks a call of 2 pages at 2 GHz is 250 ns. */
	result(a.has_ns && a.pick_ns10 == 2500 && a.routine_ns10 == 1250,
	       "answer.ns_per_page", "pick %llu routine %llu",
	       (unsigned long long)a.pick_ns10, (unsigned long long)a.routine_ns10);
	answer_text(line, sizeof(line), &cpu_run, &pk, &a);
	result(!strncmp(line, "answer fn=clear_page pass=l1 kernel=linux versions=\">=5.4\" "
			"entry=clear_page pick=stosb action=switch routine=avx_t ratio=0.5000 lo=0.",
			strlen("answer fn=clear_page pass=l1 kernel=linux versions=\">=5.4\" "
			       "entry=clear_page pick=stosb action=switch routine=avx_t ratio=0.5000 lo=0.")) &&
	       strstr(line, " epochs=11 pick_ns=250.0 routine_ns=125.0 price=0.0 worth=3.0%") &&
	       !strstr(line, "need=") && !strstr(line, "why="), "answer.text_switch", "%s", line);

	/* Every candidate slower: keep, naming the nearest (sse2_t). */
	p = (struct pass){ 0 };
	add(&p, OP_CLEAR, "stosb", 100000, 10000, E, 0);
	add(&p, OP_CLEAR, "avx_t", 150000, 10000, E, 0);
	add(&p, OP_CLEAR, "sse2_t", 120000, 10000, E, 0);
	result(decide(&cpu_run, &pk, ANSWER_CLEAR_PAGE, PASS_L1, &p, &a) &&
	       a.action == ANSWER_KEEP && !strcmp(rname(&a), "sse2_t") &&
	       a.ratio.median == 1200000, "answer.keep_names_nearest",
	       "action=%d routine=%s", a.action, rname(&a));
	answer_text(line, sizeof(line), &cpu_run, &pk, &a);
	result(strstr(line, " action=keep routine=sse2_t ratio=1.2000 ") && !strstr(line, "why="),
	       "answer.text_keep", "%s", line);

	/* No candidate at all: keep, routine "-". */
	p = (struct pass){ 0 };
	add(&p, OP_CLEAR, "stosb", 100000, 10000, E, 0);
	result(decide(&cpu_run, &pk, ANSWER_CLEAR_PAGE, PASS_L1, &p, &a) &&
	       a.action == ANSWER_KEEP && !a.routine && !a.has_ratio && !a.has_ns,
	       "answer.keep_without_candidates", "action=%d routine=%s", a.action, rname(&a));
	answer_text(line, sizeof(line), &cpu_run, &pk, &a);
	result(strstr(line, " action=keep routine=- worth=3.0%") != NULL,
	       "answer.text_keep_alone", "%s", line);

	/* 0.96 +- a wide spread: lo below 0.97, hi above: undecided, and what decides. */
	p = (struct pass){ 0 };
	add(&p, OP_CLEAR, "stosb", 100000, 0, E, 0);
	add(&p, OP_CLEAR, "avx_t", 96000, 40000, E, 1);
	result(decide(&cpu_run, &pk, ANSWER_CLEAR_PAGE, PASS_L1, &p, &a) &&
	       a.action == ANSWER_UNDECIDED && !strcmp(rname(&a), "avx_t") &&
	       a.ratio.lo < 970000 && a.ratio.hi >= 970000, "answer.undecided",
	       "action=%d lo=%llu hi=%llu", a.action, (unsigned long long)a.ratio.lo,
	       (unsigned long long)a.ratio.hi);
	half = (double)(a.ratio.hi - a.ratio.lo) / 2;
	dist = dabs((double)a.ratio.median - 970000.0);
	want = half * half / (dist * dist) * E;
	if (want > NEED_EPOCHS_MAX)
		want = NEED_EPOCHS_MAX;
	result(dabs(a.need_epochs - want) <= 1.5 && a.need_epochs > E, "answer.undecided_need",
	       "need=%u, (half/dist)^2 x epochs = %.1f", a.need_epochs, want);
	answer_text(line, sizeof(line), &cpu_run, &pk, &a);
	result(strstr(line, " action=undecided routine=avx_t ") && strstr(line, " need=epochs>="),
	       "answer.text_undecided", "%s", line);

	/*
	 * Of those in doubt, the lowest median: not a far slower one whose
	 * wide interval happens to reach lowest.
	 */
	p = (struct pass){ 0 };
	add(&p, OP_CLEAR, "stosb", 100000, 0, E, 0);
	add(&p, OP_CLEAR, "avx_t", 96000, 20000, E, 1);
	add(&p, OP_CLEAR, "sse2", 300000, 900000, E, 1);
	result(decide(&cpu_run, &pk, ANSWER_CLEAR_PAGE, PASS_L1, &p, &a) &&
	       a.action == ANSWER_UNDECIDED && !strcmp(rname(&a), "avx_t") &&
	       p.n == 3, "answer.undecided_lowest_median", "action=%d routine=%s",
	       a.action, rname(&a));
	{
		struct interval wide;

		result(interval_of_ratio(&p.in[2].s, &p.in[0].s, &wide) && wide.lo < 970000 &&
		       wide.lo < a.ratio.lo, "answer.undecided_wide_one_reaches_lower",
		       "sse2's lo %llu, avx_t's %llu", (unsigned long long)wide.lo,
		       (unsigned long long)a.ratio.lo);
	}

	/* A median exactly on the threshold: the most epochs. */
	p = (struct pass){ 0 };
	add(&p, OP_CLEAR, "stosb", 100000, 0, E, 0);
	add(&p, OP_CLEAR, "avx_t", 97000, 20000, E, 1);
	result(decide(&cpu_run, &pk, ANSWER_CLEAR_PAGE, PASS_L1, &p, &a) &&
	       a.action == ANSWER_UNDECIDED && a.need_epochs == NEED_EPOCHS_MAX,
	       "answer.undecided_on_threshold", "action=%d need=%u", a.action, a.need_epochs);
}

/* 0.975 +- 0.005: worth 3% keeps it (cannot save 3%), worth 1% switches, 2% is in doubt. */
static void test_worth(void)
{
	struct answer_pick pk = pick(RULE_LINUX, "clear_page", "stosb");
	struct answer_run run = cpu_run;
	struct pass p = { 0 };
	struct answer a = { 0 };
	char line[OUT_LINE_MAX];

	add(&p, OP_CLEAR, "stosb", 1000000, 0, E, 0);
	add(&p, OP_CLEAR, "avx_t", 975000, 2000, E, 1);
	decide(&run, &pk, ANSWER_CLEAR_PAGE, PASS_L1, &p, &a);
	result(a.action == ANSWER_KEEP && a.ratio.lo >= 970000, "answer.worth_3_keeps",
	       "action=%d lo=%llu", a.action, (unsigned long long)a.ratio.lo);
	run.worth_bp = 100;
	decide(&run, &pk, ANSWER_CLEAR_PAGE, PASS_L1, &p, &a);
	result(a.action == ANSWER_SWITCH && a.ratio.hi < 990000, "answer.worth_1_switches",
	       "action=%d hi=%llu", a.action, (unsigned long long)a.ratio.hi);
	answer_text(line, sizeof(line), &run, &pk, &a);
	result(strstr(line, " worth=1.0%") != NULL, "answer.text_worth", "%s", line);
	run.worth_bp = 250;
	decide(&run, &pk, ANSWER_CLEAR_PAGE, PASS_L1, &p, &a);
	result(a.action == ANSWER_UNDECIDED, "answer.worth_2_5_undecided", "action=%d", a.action);
	run.worth_bp = 5000;
	decide(&run, &pk, ANSWER_CLEAR_PAGE, PASS_L1, &p, &a);
	result(a.action == ANSWER_KEEP, "answer.worth_50_keeps", "action=%d", a.action);
}

static void test_candidates(void)
{
	struct answer_pick pk = pick(RULE_XEN, "clear_page_cold", "clzero_sf");
	struct answer_pick lin = pick(RULE_LINUX, "clear_page", "stosb");
	struct answer_pick range = pick(RULE_LINUX, "clear_pages", "stosb_all");
	struct pass p = { 0 };
	struct answer a = { 0 };

	/* clzero (no SFENCE) a third of the time: never proposed, nor named. */
	add(&p, OP_CLEAR, "clzero_sf", 100000, 5000, E, 0);
	add(&p, OP_CLEAR, "clzero", 30000, 5000, E, 1);
	add(&p, OP_CLEAR, "stosb", 90000, 5000, E, 2);
	add(&p, OP_CLEAR, "stosb_all", 20000, 5000, E, 1);
	add(&p, OP_CLEAR, "stosq_all", 40000, 5000, E, 2);
	decide(&cpu_run, &pk, ANSWER_CLEAR_PAGE, PASS_L1F, &p, &a);
	result(a.action == ANSWER_SWITCH && !strcmp(rname(&a), "stosb"),
	       "answer.no_clzero_without_sfence", "action=%d routine=%s", a.action, rname(&a));
	result(store_done_at_return(variant_named(OP_CLEAR, "clzero_sf")->store) &&
	       !store_done_at_return(variant_named(OP_CLEAR, "clzero")->store),
	       "answer.store_done_at_return", "clzero_sf done, clzero not");
	/* clear_page: page routines only, so the range ones are no candidates. */
	decide(&cpu_run, &lin, ANSWER_CLEAR_PAGE, PASS_L1F, &p, &a);
	result(a.action == ANSWER_KEEP && !strcmp(rname(&a), "clzero_sf"),
	       "answer.page_shape_for_clear_page", "action=%d routine=%s", a.action, rname(&a));
	/* clear_pages: range routines only. */
	decide(&cpu_run, &range, ANSWER_CLEAR_PAGES, PASS_L1F, &p, &a);
	result(a.action == ANSWER_KEEP && !strcmp(rname(&a), "stosq_all"),
	       "answer.range_shape_for_clear_pages", "action=%d routine=%s", a.action, rname(&a));
	/* A failed variant is no candidate; a failed pick is not measured. */
	p.in[2].failed = true;
	decide(&cpu_run, &pk, ANSWER_CLEAR_PAGE, PASS_L1F, &p, &a);
	result(a.action == ANSWER_KEEP && !a.routine, "answer.failed_not_candidate",
	       "action=%d routine=%s", a.action, rname(&a));
	p.in[0].failed = true;
	decide(&cpu_run, &pk, ANSWER_CLEAR_PAGE, PASS_L1F, &p, &a);
	result(a.action == ANSWER_NONE && a.why == WHY_PICK_NOT_MEASURED,
	       "answer.failed_pick_not_measured", "action=%d why=%d", a.action, a.why);
	/* A copy pass's variants are not clear_page's. */
	p = (struct pass){ 0 };
	add(&p, OP_COPY, "movsq", 100000, 5000, E, 0);
	add(&p, OP_COPY, "avx_t", 50000, 5000, E, 1);
	decide(&cpu_run, &lin, ANSWER_CLEAR_PAGE, PASS_L1, &p, &a);
	result(a.action == ANSWER_NONE && a.why == WHY_PICK_NOT_MEASURED,
	       "answer.other_op_not_the_pick", "action=%d why=%d", a.action, a.why);
}

static void test_hot_cold(void)
{
	static const struct { const char *entry; enum pass_id pass; bool judged; } cases[] = {
		{ "clear_page_hot", PASS_L1, true }, { "clear_page_hot", PASS_L2, true },
		{ "copy_page_hot", PASS_HOT, true }, { "clear_page_hot", PASS_L1F, false },
		{ "clear_page_hot", PASS_L3, false }, { "clear_page_hot", PASS_MEM, false },
		{ "copy_page_hot", PASS_COLD, false },
		{ "clear_page_cold", PASS_L1, false }, { "clear_page_cold", PASS_L2, false },
		{ "copy_page_cold", PASS_HOT, false }, { "clear_page_cold", PASS_L1F, true },
		{ "clear_page_cold", PASS_L2F, true }, { "clear_page_cold", PASS_L3, true },
		{ "clear_page_cold", PASS_L3F, true }, { "clear_page_cold", PASS_MEM, true },
		{ "copy_page_cold", PASS_COLD, true },
		{ "clear_page", PASS_L1, true }, { "clear_page", PASS_MEM, true },
	};
	struct answer_pick hot = pick(RULE_XEN, "clear_page_hot", "stosb");
	struct pass p = { 0 };
	struct answer a = { 0 };
	unsigned int i;
	char name[80];

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		snprintf(name, sizeof(name), "answer.judged.%s.%s", cases[i].entry,
			 passes[cases[i].pass].id);
		result(answer_judged(cases[i].entry, cases[i].pass) == cases[i].judged, name,
		       "want %d", cases[i].judged);
	}
	add(&p, OP_CLEAR, "stosb", 100000, 5000, E, 0);
	result(!decide(&cpu_run, &hot, ANSWER_CLEAR_PAGE, PASS_L1F, &p, &a) &&
	       decide(&cpu_run, &hot, ANSWER_CLEAR_PAGE, PASS_L1, &p, &a),
	       "answer.hot_entry_not_in_flushed_pass", "decided where it should not be");
}

static void test_none(void)
{
	struct answer_pick pk = pick(RULE_LINUX, "clear_page", "stosb");
	struct answer_run tcg = cpu_run;
	struct pass p = { 0 };
	struct answer a = { 0 };
	char line[OUT_LINE_MAX];

	/* Under a translator: the figures, no advice. */
	tcg.not_a_cpu = true;
	add(&p, OP_CLEAR, "stosb", 900000, 5000, E, 0);
	add(&p, OP_CLEAR, "avx_t", 81000, 5000, E, 0);
	decide(&tcg, &pk, ANSWER_CLEAR_PAGE, PASS_L1, &p, &a);
	result(a.action == ANSWER_NONE && a.why == WHY_NOT_A_CPU && a.has_ratio &&
	       a.ratio.median == 90000 && !strcmp(rname(&a), "avx_t"), "answer.not_a_cpu",
	       "action=%d why=%d ratio=%llu", a.action, a.why, (unsigned long long)a.ratio.median);
	answer_text(line, sizeof(line), &tcg, &pk, &a);
	result(strstr(line, " action=none routine=avx_t ratio=0.0900 ") &&
	       strstr(line, " why=not-a-cpu") && !strstr(line, "need="),
	       "answer.text_not_a_cpu", "%s", line);

	/* Fewer than 3 epochs (reps=2, suite=xen): no interval. */
	p = (struct pass){ 0 };
	add(&p, OP_CLEAR, "stosb", 100000, 5000, 1, 0);
	add(&p, OP_CLEAR, "avx_t", 50000, 5000, 1, 1);
	decide(&cpu_run, &pk, ANSWER_CLEAR_PAGE, PASS_L1, &p, &a);
	result(a.action == ANSWER_NONE && a.why == WHY_NO_INTERVAL && !a.has_ratio && a.has_ns,
	       "answer.no_interval", "action=%d why=%d", a.action, a.why);
	answer_text(line, sizeof(line), &cpu_run, &pk, &a);
	result(!strstr(line, " ratio=") && strstr(line, " pick_ns=") &&
	       strstr(line, " why=no-interval"), "answer.text_no_interval", "%s", line);
	/* suite=xen: ran, no epochs at all. */
	p.in[0].s.epochs = p.in[1].s.epochs = 0;
	decide(&cpu_run, &pk, ANSWER_CLEAR_PAGE, PASS_L1, &p, &a);
	result(a.action == ANSWER_NONE && a.why == WHY_NO_INTERVAL && !a.has_ns,
	       "answer.no_epochs", "action=%d why=%d", a.action, a.why);

	/* The pick's variant did not run. */
	p = (struct pass){ 0 };
	add(&p, OP_CLEAR, "avx_t", 50000, 5000, E, 1);
	decide(&cpu_run, &pk, ANSWER_CLEAR_PAGE, PASS_L1, &p, &a);
	result(a.action == ANSWER_NONE && a.why == WHY_PICK_NOT_MEASURED && !a.routine,
	       "answer.pick_not_measured", "action=%d why=%d", a.action, a.why);
	answer_text(line, sizeof(line), &cpu_run, &pk, &a);
	result(strstr(line, " action=none routine=- worth=3.0% why=pick-not-measured") != NULL,
	       "answer.text_pick_not_measured", "%s", line);
}

/* Picks from the rules' shapes: assumed fast strings, no variant, unknown. */
static void test_picks(void)
{
	static const struct pick_rule stosb = { .routine = "clear_page_erms", .variant = "stosb" },
		orig = { .routine = "clear_page_orig", .variant = "orig" },
		none = { .routine = "clear_page_new", .needs_variant = "new" };
	struct rule_pick rp = { .kernel = RULE_LINUX, .entry = "clear_page",
				.version = ">=5.4" };
	struct answer_pick p;
	char line[OUT_LINE_MAX];
	struct answer a = { .fn = ANSWER_CLEAR_PAGE, .pass = PASS_L1, .action = ANSWER_NONE };

	rp.nalts = 2;
	snprintf(rp.alt[0].assuming, RULE_NEED_LEN, "fast_string=1");
	rp.alt[0].rule = &stosb;
	snprintf(rp.alt[1].assuming, RULE_NEED_LEN, "fast_string=0");
	rp.alt[1].rule = &orig;
	answer_pick_of(&p, &rp);
	result(p.why == WHY_NONE && p.variant && !strcmp(p.variant, "stosb") &&
	       !strcmp(p.assuming, "fast_string=1"), "answer.pick_assumes_fast_strings",
	       "variant=%s assuming=%s", p.variant ? p.variant : "-", p.assuming);
	a.action = ANSWER_KEEP;
	answer_text(line, sizeof(line), &cpu_run, &p, &a);
	result(strstr(line, " pick=stosb assuming=fast_string=1 action=keep") != NULL,
	       "answer.text_assuming", "%s", line);
	rp.nalts = 1;
	rp.alt[0] = rp.alt[1];		/* only fast_string=0 answers: unknown */
	answer_pick_of(&p, &rp);
	result(p.why == WHY_UNKNOWN_PICK && !p.variant, "answer.pick_unknown", "why=%d", p.why);
	rp.nalts = 0;
	rp.rule = &none;
	answer_pick_of(&p, &rp);
	result(p.why == WHY_NO_PICK_VARIANT && !p.variant, "answer.pick_no_variant", "why=%d", p.why);
	a.action = ANSWER_NONE;
	a.why = p.why;
	answer_text(line, sizeof(line), &cpu_run, &p, &a);
	result(strstr(line, " pick=- action=none routine=- worth=3.0% why=no-pick-variant") != NULL,
	       "answer.text_no_pick_variant", "%s", line);
	rp.rule = &orig;
	answer_pick_of(&p, &rp);
	result(p.why == WHY_NONE && !strcmp(p.variant, "orig") && !p.assuming[0],
	       "answer.pick_known", "variant=%s", p.variant);
}

/*
 * The vector price of VEC routines (harness/decide/answer.h, answer_price_of()):
 * 60 ticks (58 to 62) a kernel entry, 10 of them already in the figure
 * once per window (the module's).
 */
static void test_price(void)
{
	const struct vector_price price = { .measured = true, .ticks = 60, .lo = 58, .hi = 62,
					    .held_ticks = 10, .window_bytes = 1u << 20 };
	struct answer_run run = cpu_run, unpriced = cpu_run;
	struct answer_pick pk = pick(RULE_LINUX, "clear_page", "stosb");
	const struct variant *avx_t = variant_named(OP_CLEAR, "avx_t");
	struct vector_price small = price;
	struct answer_price ap = answer_price_of(&price, avx_t, 8192);
	struct pass p = { 0 };
	struct answer a = { 0 };
	char line[OUT_LINE_MAX];

	/* Per call: entries x 6000 less windows x 1000, hundredths of a tick; its reach per entry. */
	result(ap.centi == 2 * 6000 - 1000 && ap.below == 2 * 200 && ap.above == 2 * 200 &&
	       answer_price_of(&price, variant_named(OP_CLEAR, "avx_all"), 8192).centi ==
	       6000 - 1000 &&
	       answer_price_of(&price, variant_named(OP_CLEAR, "stosq"), 8192).centi == 0 &&
	       answer_price_of(&cpu_run.price, avx_t, 8192).centi == 0,
	       "answer.price_per_call", "avx_t %llu below %llu above %llu",
	       (unsigned long long)ap.centi, (unsigned long long)ap.below,
	       (unsigned long long)ap.above);
	small.window_bytes = 4096;	/* two windows in the figure */
	result(answer_price_of(&small, avx_t, 8192).centi == 2 * 6000 - 2 * 1000,
	       "answer.price_less_each_window", "%llu",
	       (unsigned long long)answer_price_of(&small, avx_t, 8192).centi);
	small.held_ticks = 70;	/* held more than paid: nothing, never a credit */
	result(answer_price_of(&small, avx_t, 8192).centi == 0, "answer.price_never_negative",
	       "%llu", (unsigned long long)answer_price_of(&small, avx_t, 8192).centi);
	small = price;
	small.held_ticks = 0;
	small.ticks = small.hi = UINT64_MAX / 3;	/* absurd: saturates, never wraps small */
	result(answer_price_of(&small, avx_t, 8192).centi == UINT64_MAX,
	       "answer.price_saturates", "%llu",
	       (unsigned long long)answer_price_of(&small, avx_t, 8192).centi);

	/*
	 * avx_t at 0.9 of stosb: where no price was measured it is not
	 * weighed, only shown (unpriced=), and stosq, a GPR routine at 0.99,
	 * is the nearest: keep. With the price (110 ticks on 1000) it is at
	 * 1.01, and the answer is the same, without the mark.
	 */
	add(&p, OP_CLEAR, "stosb", 100000, 10000, E, 0);
	add(&p, OP_CLEAR, "avx_t", 90000, 10000, E, 0);
	add(&p, OP_CLEAR, "stosq", 99000, 10000, E, 0);
	unpriced.price.measured = false;
	result(decide(&unpriced, &pk, ANSWER_CLEAR_PAGE, PASS_L1, &p, &a) &&
	       a.action == ANSWER_KEEP && !strcmp(rname(&a), "stosq") &&
	       a.unpriced && !strcmp(a.unpriced->name, "avx_t") &&
	       a.unpriced_ratio == 900000, "answer.price_unmeasured_not_named",
	       "action=%d routine=%s unpriced=%s", a.action, rname(&a),
	       a.unpriced ? a.unpriced->name : "-");
	answer_text(line, sizeof(line), &unpriced, &pk, &a);
	result(strstr(line, " routine=stosq ") && strstr(line, " unpriced=avx_t:0.9000") &&
	       !strstr(line, "price="), "answer.price_unmeasured_text", "%s", line);
	run.price = price;
	result(decide(&run, &pk, ANSWER_CLEAR_PAGE, PASS_L1, &p, &a) &&
	       a.action == ANSWER_KEEP && !strcmp(rname(&a), "stosq") &&
	       a.ratio.median == 990000 && !a.unpriced, "answer.price_measured_keeps",
	       "action=%d routine=%s ratio=%llu", a.action, rname(&a),
	       (unsigned long long)a.ratio.median);
	answer_text(line, sizeof(line), &run, &pk, &a);
	result(strstr(line, " routine=stosq ") && !strstr(line, "price=") &&
	       !strstr(line, "unpriced="), "answer.price_none_on_gpr", "%s", line);

	/*
	 * Still the winner with it: 500 + 110 ticks over 1000, each epoch
	 * alike, is 0.61, its interval widened by the price's reach, 4 ticks
	 * either way over 1000 (0.004); per 4 KiB page at 2 GHz, 305 ticks
	 * (152.5 ns), of which 55 ticks (27.5 ns) are the price.
	 */
	p = (struct pass){ 0 };
	add(&p, OP_CLEAR, "stosb", 100000, 0, E, 0);
	add(&p, OP_CLEAR, "avx_t", 50000, 0, E, 0);
	result(decide(&run, &pk, ANSWER_CLEAR_PAGE, PASS_L1, &p, &a) &&
	       a.action == ANSWER_SWITCH && !strcmp(rname(&a), "avx_t") &&
	       a.ratio.median == 610000 && a.ratio.median - a.ratio.lo >= 4000 &&
	       a.ratio.hi - a.ratio.median >= 4000 && a.routine_ns10 == 1525 &&
	       a.price_ns10 == 275 && a.pick_ns10 == 2500, "answer.price_in_ratio_and_ns",
	       "ratio=%llu lo=%llu hi=%llu routine_ns10=%llu price_ns10=%llu",
	       (unsigned long long)a.ratio.median, (unsigned long long)a.ratio.lo,
	       (unsigned long long)a.ratio.hi, (unsigned long long)a.routine_ns10,
	       (unsigned long long)a.price_ns10);
	answer_text(line, sizeof(line), &run, &pk, &a);
	result(strstr(line, " ratio=0.6100 ") &&
	       strstr(line, " pick_ns=250.0 routine_ns=152.5 price=27.5 worth=3.0%"),
	       "answer.price_text", "%s", line);
}

/*
 * A vector routine's figure near the top of 64 bits plus its vector price
 * stays the largest (lib/sat.h): wrapped, it became a few ticks, and the
 * slowest routine the one to switch to.
 */
static void test_fpu_saturates(void)
{
	struct answer_run run = cpu_run;
	struct answer_pick pk = pick(RULE_LINUX, "clear_page", "stosb");
	struct pass p = { 0 };
	struct answer a = { 0 };
	bool decided;

	run.price = (struct vector_price){ .measured = true, .ticks = 60, .lo = 58, .hi = 62,
					   .held_ticks = 10, .window_bytes = 1u << 20 };
	add(&p, OP_CLEAR, "stosb", 100000, 0, E, 0);
	add(&p, OP_CLEAR, "avx_t", UINT64_MAX - 1000, 0, E, 0);
	decided = decide(&run, &pk, ANSWER_CLEAR_PAGE, PASS_L1, &p, &a);
	result(!decided || a.action != ANSWER_SWITCH, "answer.fpu_cost_saturates",
	       "action=%d routine=%s ratio=%llu", a.action, rname(&a),
	       (unsigned long long)a.ratio.median);
}

/* The first flags line of a cpuinfo file, or NULL where the file is not there. */
static char *flags_of(const char *path)
{
	FILE *f = fopen(path, "r");
	char *line = NULL;
	size_t cap = 0;

	if (!f)
		return NULL;
	while (getline(&line, &cap, f) > 0)
		if (!strncmp(line, "flags", 5) && strchr(line, ':')) {
			fclose(f);
			return strchr(line, ':') + 1;	/* leaked: a test */
		}
	fclose(f);
	return NULL;
}

static void running_case(const char *name, const char *path, const char *want_clear,
			 const char *want_copy)
{
	static struct cpu_desc d;
	struct rule_facts facts;
	struct rule_running r;
	struct rule_pick c = { 0 }, p = { 0 };
	char *flags = flags_of(path);
	char check[80];

	snprintf(check, sizeof(check), "answer.running.%s", name);
	if (!flags) {
		skip(check, "no recorded cpuinfo here (../shared/cpuinfo beside the checkout)");
		return;
	}
	rule_facts_init(&facts, &d, FACT_UNKNOWN);
	result(rule_running_linux(&r, "6.18.44-fc-v1045", flags, false) &&
	       r.version.n == 3 && r.version.part[0] == 6 && r.version.part[1] == 18 &&
	       r.version.part[2] == 44 &&
	       rule_pick_running(&r, "clear_page", &facts, &c) &&
	       rule_pick_running(&r, "copy_page", &facts, &p) &&
	       c.rule && p.rule && !strcmp(c.rule->variant, want_clear) &&
	       !strcmp(p.rule->variant, want_copy) &&
	       !strcmp(c.version, "running 6.18.44-fc-v1045"), check,
	       "clear_page %s copy_page %s (%s), want %s %s",
	       c.rule ? c.rule->variant : "?", p.rule ? p.rule->variant : "?", c.version,
	       want_clear, want_copy);
}

/* The running kernel's pick from its own flags (harness/decide/rules.c). */
static void test_running(void)
{
	static struct cpu_desc d;
	struct rule_facts facts;
	struct rule_running r;
	struct rule_pick p;
	unsigned int i;
	int rep_good = -1, erms = -1, fsrm = -1;

	running_case("intel_fast_strings_off", "tests/fixtures/cpuinfo/intel-spr-fast-strings-off.txt",
		     "orig", "regs");
	running_case("amd_zen5", "../shared/cpuinfo/AuthenticAMD-family1a-model02-zen5-vm.txt",
		     "stosb", "movsq");
	/* The words themselves, not parts of others: "erms" is not in "perms". */
	rule_running_linux(&r, "6.1", "fpu perms rep_good_not fsrm", false);
	for (i = 0; i < r.nflags; i++) {
		if (!strcmp(r.flag[i].flag, "REP_GOOD"))
			rep_good = r.flag[i].value;
		if (!strcmp(r.flag[i].flag, "ERMS"))
			erms = r.flag[i].value;
		if (!strcmp(r.flag[i].flag, "FSRM"))
			fsrm = r.flag[i].value;
	}
	result(rep_good == 0 && erms == 0 && fsrm == 1, "answer.running.whole_words",
	       "REP_GOOD=%d ERMS=%d FSRM=%d", rep_good, erms, fsrm);
	/* Before 5.4 the rules answer nothing; a release without a version is refused. */
	rule_facts_init(&facts, &d, FACT_UNKNOWN);
	result(rule_running_linux(&r, "4.19.0-27", "rep_good erms", false) &&
	       !rule_pick_running(&r, "clear_page", &facts, &p), "answer.running.before_5_4",
	       "picked for 4.19");
	result(!rule_running_linux(&r, "custom", "rep_good erms", false), "answer.running.no_version",
	       "accepted a release without a version");
	/*
	 * FSRS, which /proc/cpuinfo never shows: an AMD CPU with FSRM under
	 * 6.18 has it from the rules (init_amd()), not clear from its
	 * absence, so memset's pick is REP STOSB.
	 */
	snprintf(d.vendor, sizeof(d.vendor), "AuthenticAMD");
	d.family = 0x1a;
	d.model = 2;
	d.feats = 1ull << FEAT_FSRM | 1ull << FEAT_ERMS;
	rule_facts_init(&facts, &d, FACT_UNKNOWN);
	result(rule_running_linux(&r, "6.18.44-fc", "rep_good erms fsrm", false) &&
	       r.nnot_shown == 1 && !strcmp(r.not_shown[0], "FSRS") &&
	       rule_pick_running(&r, "memset", &facts, &p) && p.rule &&
	       !strcmp(p.rule->variant, "stosb"), "answer.running.fsrs_from_rules",
	       "not_shown=%u pick=%s", r.nnot_shown, p.rule ? p.rule->variant : "?");
	d.feats = 1ull << FEAT_ERMS;	/* no FSRM: no FSRS, memset_orig */
	rule_facts_init(&facts, &d, FACT_UNKNOWN);
	result(rule_running_linux(&r, "6.18.44-fc", "rep_good erms", false) &&
	       rule_pick_running(&r, "memset", &facts, &p) && p.rule &&
	       !strcmp(p.rule->variant, "orig"), "answer.running.no_fsrs_orig",
	       "pick=%s", p.rule ? p.rule->variant : "?");
	d = (struct cpu_desc){ 0 };
	rule_facts_init(&facts, &d, FACT_UNKNOWN);
	/* 7.0 and on: clear_pages has a pick too, the range one. */
	result(rule_running_linux(&r, "7.0.1", "rep_good erms", false) &&
	       rule_pick_running(&r, "clear_pages", &facts, &p) && p.rule &&
	       !strcmp(p.rule->variant, "stosb_all"), "answer.running.clear_pages_7_0",
	       "%s", p.rule ? p.rule->variant : "?");
}

/*
 * Routines that each save worth and lie within noise of each other
 * (harness/decide/prefer.h): the preferred one is named, GPR before VEC, then
 * table order, and alike names the quicker; one that surely beats the
 * preferred one by worth is named itself.
 */
static const char *alike(const struct answer *a)
{
	return a->alike ? a->alike->name : "-";
}

static void test_within_noise(void)
{
	struct answer_pick pk = pick(RULE_LINUX, "clear_page", "stosb");
	struct pass p = { 0 };
	struct answer a = { 0 };
	char line[OUT_LINE_MAX];
	bool ok;

	/* avx512_t 1% under avx_t, each +-4%: avx_t (earlier in the table), alike avx512_t. */
	add(&p, OP_CLEAR, "stosb", 100000, 10000, E, 0);
	add(&p, OP_CLEAR, "avx512_t", 49500, 40000, E, 2);
	add(&p, OP_CLEAR, "avx_t", 50000, 40000, E, 1);
	ok = decide(&cpu_run, &pk, ANSWER_CLEAR_PAGE, PASS_L1, &p, &a);
	result(ok &&
	       a.action == ANSWER_SWITCH && !strcmp(rname(&a), "avx_t") &&
	       a.alike && !strcmp(a.alike->name, "avx512_t") && a.ratio.hi < 970000,
	       "answer.noise_names_preferred", "routine=%s alike=%s", rname(&a), alike(&a));
	answer_text(line, sizeof(line), &cpu_run, &pk, &a);
	result(strstr(line, " action=switch routine=avx_t ratio=0.5") &&
	       strstr(line, " worth=3.0% alike=avx512_t") != NULL,
	       "answer.text_alike", "%s", line);

	/* The same two, avx512_t 20% under avx_t at +-1%: avx512_t, alike none. */
	p = (struct pass){ 0 };
	add(&p, OP_CLEAR, "stosb", 100000, 10000, E, 0);
	add(&p, OP_CLEAR, "avx512_t", 40000, 10000, E, 2);
	add(&p, OP_CLEAR, "avx_t", 50000, 10000, E, 1);
	ok = decide(&cpu_run, &pk, ANSWER_CLEAR_PAGE, PASS_L1, &p, &a);
	result(ok &&
	       a.action == ANSWER_SWITCH && !strcmp(rname(&a), "avx512_t") && !a.alike,
	       "answer.noise_beaten_by_worth", "routine=%s alike=%s", rname(&a), alike(&a));
	answer_text(line, sizeof(line), &cpu_run, &pk, &a);
	result(!strstr(line, "alike="), "answer.text_no_alike", "%s", line);

	/* Within 2%, both decisively: less than worth apart, the preferred one still. */
	p = (struct pass){ 0 };
	add(&p, OP_CLEAR, "stosb", 100000, 1000, E, 0);
	add(&p, OP_CLEAR, "avx512_t", 49000, 1000, E, 2);
	add(&p, OP_CLEAR, "avx_t", 50000, 1000, E, 1);
	ok = decide(&cpu_run, &pk, ANSWER_CLEAR_PAGE, PASS_L1, &p, &a);
	result(ok &&
	       !strcmp(rname(&a), "avx_t") && a.alike && !strcmp(a.alike->name, "avx512_t"),
	       "answer.noise_under_worth", "routine=%s alike=%s", rname(&a), alike(&a));

	/* A GPR routine within noise of a VEC one: the GPR one, listed last. */
	p = (struct pass){ 0 };
	add(&p, OP_CLEAR, "stosb", 100000, 10000, E, 0);
	add(&p, OP_CLEAR, "avx512_t", 50000, 40000, E, 2);
	add(&p, OP_CLEAR, "clzero_sf", 50500, 40000, E, 1);
	ok = decide(&cpu_run, &pk, ANSWER_CLEAR_PAGE, PASS_L1, &p, &a);
	result(ok &&
	       !strcmp(rname(&a), "clzero_sf") && a.alike &&
	       !strcmp(a.alike->name, "avx512_t"), "answer.noise_gpr_first",
	       "routine=%s alike=%s", rname(&a), alike(&a));
}

/*
 * A copy pass of epochs epochs: movsq at 100000 hundredths, regs_nopf at
 * first times it in the first half of the epochs and last times it in
 * the rest, each epoch of each with relative noise sd (seeded).
 */
static void drifting(struct pass *p, unsigned int epochs, double first,
		     double last, double sd)
{
	uint64_t sorted[INTERVAL_EPOCHS_MAX];
	unsigned int e, v;

	*p = (struct pass){ 0 };
	for (v = 0; v < 2; v++) {
		for (e = 0; e < epochs; e++) {
			double x = v ? (e < epochs / 2 ? first : last) : 1.0;

			p->med[v][e] = (uint64_t)(100000 * x * (1 + sd * normal()));
			sorted[e] = p->med[v][e];
		}
		p->in[v] = (struct answer_input){ variant_named(OP_COPY, v ? "regs_nopf" : "movsq"),
						   false, { p->med[v], epochs,
							    median_u64(sorted, epochs), 1 } };
	}
	p->n = 2;
}

/*
 * The ratio the decision names moves during the run beyond its noise and
 * by worth: drift= gives its first and last halves' medians; a steady
 * ratio, or one that moves by less than worth, has none.
 */
static void test_drift(void)
{
	enum { TRIALS = 1000 };
	struct answer_pick pk = pick(RULE_LINUX, "copy_page", "movsq");
	static struct pass p;
	struct answer a = { 0 };
	char line[OUT_LINE_MAX];
	unsigned int t, moved_steady = 0, moved_loud = 0, moved_shift = 0;
	bool ok;

	/*
	 * As on the Intel VM: regs_nopf 1.22 of REP MOVSQ, then 1.6 with the
	 * sibling busy. The blocks' spread (harness/stats/interval.h) widens the
	 * ratio's interval below 1 - worth: no sure keep on such a run, but
	 * undecided, and drift= says why.
	 */
	drifting(&p, 21, 1.22, 1.60, 0.03);
	ok = decide(&cpu_run, &pk, ANSWER_COPY_PAGE, PASS_L1, &p, &a);
	answer_text(line, sizeof(line), &cpu_run, &pk, &a);
	result(ok && a.action == ANSWER_UNDECIDED && a.drift.moved &&
	       a.drift.first > 1150000 && a.drift.first < 1290000 &&
	       a.drift.last > 1520000 && a.drift.last < 1680000 &&
	       strstr(line, " drift=1.") && !strstr(line, "alike="),
	       "answer.drift_moved", "%s", line);
	/* Too few epochs to split: none. */
	drifting(&p, 9, 1.22, 1.60, 0.03);
	ok = decide(&cpu_run, &pk, ANSWER_COPY_PAGE, PASS_L1, &p, &a);
	answer_text(line, sizeof(line), &cpu_run, &pk, &a);
	result(ok && !a.drift.moved && !strstr(line, "drift="), "answer.drift_few_epochs",
	       "%s", line);
	/* Apart beyond their noise, but by less than worth: none. */
	drifting(&p, 21, 1.00, 1.02, 0.001);
	ok = decide(&cpu_run, &pk, ANSWER_COPY_PAGE, PASS_L1, &p, &a);
	result(ok && !a.drift.moved, "answer.drift_under_worth", "first %llu last %llu",
	       (unsigned long long)a.drift.first, (unsigned long long)a.drift.last);
	for (t = 0; t < TRIALS; t++) {
		drifting(&p, 21, 1.22, 1.22, 0.03);
		decide(&cpu_run, &pk, ANSWER_COPY_PAGE, PASS_L1, &p, &a);
		moved_steady += a.drift.moved;
		drifting(&p, 21, 1.22, 1.22, 0.10);
		decide(&cpu_run, &pk, ANSWER_COPY_PAGE, PASS_L1, &p, &a);
		moved_loud += a.drift.moved;
		drifting(&p, 21, 1.22, 1.60, 0.05);
		decide(&cpu_run, &pk, ANSWER_COPY_PAGE, PASS_L1, &p, &a);
		moved_shift += a.drift.moved;
	}
	printf("# answer.drift: steady %u and %u, shifted %u of %u\n", moved_steady,
	       moved_loud, moved_shift, TRIALS);
	result(moved_steady <= TRIALS / 100 && moved_loud <= TRIALS / 100,
	       "answer.drift_steady_rare", "a steady ratio drifted in %u (3%% noise) and "
	       "%u (10%%) of %u trials", moved_steady, moved_loud, TRIALS);
	result(moved_shift >= TRIALS * 95 / 100, "answer.drift_shift_found",
	       "1.22 then 1.60 (5%% noise) drifted in %u of %u trials", moved_shift, TRIALS);
}

int main(void)
{
	test_switch_keep_undecided();
	test_within_noise();
	test_drift();
	test_worth();
	test_candidates();
	test_hot_cold();
	test_none();
	test_price();
	test_fpu_saturates();
	test_picks();
	test_running();
	return check_exit();
}
