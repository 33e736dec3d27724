// SPDX-License-Identifier: MIT
/*
 * The bottom line (harness/decide/bottom.c) on synthetic per-epoch figures whose
 * outcome is known: switch, trade-off, keep, undecided and what would
 * decide it; routines the run cannot tell apart named alike, by the order
 * of preference whichever measured quicker; a routine that surely beats
 * another by the worth named over it; the vector price that makes a
 * per-page vector clear lose and a 2 MiB range win; mix=; no advice where
 * no CPU ran; and the lines' words.
 */
#define _GNU_SOURCE
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "harness/decide/answers.h"
#include "harness/decide/bottom.h"
#include "lib/out.h"
#include "tests/unit/check.h"

#define NOISE_SEED 0x5be0cd19137e2179ull
#include "tests/unit/noise.h"

#define E	21		/* epochs */
#define PASSES	4

static const struct variant *variant_named(enum op op, const char *name)
{
	for (unsigned int i = 0; i < variant_count; i++)
		if (variants[i].op == op && !strcmp(variants[i].name, name))
			return &variants[i];
	fprintf(stderr, "no variant %s\n", name);
	exit(2);
}

static struct answer_pass_in pin[PASSES];
static uint64_t med[PASSES][VARIANTS_MAX][INTERVAL_EPOCHS_MAX];
static struct answer_cands cands[BOTTOM_PASSES_MAX];
static struct bottom_pass bp[BOTTOM_PASSES_MAX];

static void pass_begin(unsigned int p, enum pass_id id, size_t bytes)
{
	pin[p] = (struct answer_pass_in){ .op = OP_CLEAR, .pass = id, .bytes = bytes };
}

/*
 * Variant name in pass p at centi (hundredths of a tick a call), each
 * epoch off by a normal deviate of spread_ppm (seeded: the same figures
 * on every machine); spread 0: every epoch exactly centi.
 */
static void add(unsigned int p, const char *name, uint64_t centi, uint64_t spread_ppm,
		unsigned int phase)
{
	struct answer_pass_in *k = &pin[p];
	uint64_t sorted[INTERVAL_EPOCHS_MAX];
	unsigned int e;

	(void)phase;
	for (e = 0; e < E; e++) {
		double x = (double)centi * (1 + (double)spread_ppm / 1e6 * normal());

		med[p][k->n][e] = spread_ppm ? (uint64_t)(x + 0.5) : centi;
		sorted[e] = med[p][k->n][e];
	}
	k->in[k->n] = (struct answer_input){ variant_named(OP_CLEAR, name), false,
					     { med[p][k->n], E, median_u64(sorted, E), 1 } };
	k->n++;
}

static struct answer_pick pick_of(const char *entry, const char *variant)
{
	struct answer_pick p = { .kernel = RULE_LINUX, .entry = entry, .variant = variant,
				 .routine = "clear_page_erms", .when = "ERMS" };

	snprintf(p.versions, sizeof(p.versions), ">=5.4");
	return p;
}

/* A CPU's run whose vector price was measured at nothing, unless a test sets one. */
static struct answer_run cpu_run(void)
{
	return (struct answer_run){ .worth_bp = 300, .tsc_khz = 2000000,
				    .price = { .measured = true } };
}

static struct bottom decide(const struct answer_run *run, enum answer_fn fn,
			    const char *pick, unsigned int np)
{
	struct answer_pick pk = pick_of(fn == ANSWER_CLEAR_PAGES ? "clear_pages" : "clear_page",
					pick);
	unsigned int n = bottom_passes_of(run, &pk, fn, pin, np, cands, bp);
	struct bottom b;

	bottom_decide(run, bp, n, &b);
	return b;
}

static const char *rname(const struct bottom *b)
{
	return b->routine >= 0 ? variants[b->routine].name : "-";
}

static bool has(variant_set set, const char *name)
{
	return (set >> (variant_named(OP_CLEAR, name) - variants)) & 1;
}

/* Four passes of 2 pages a call: stosb at 1000 ticks, the others at ratio[p] of it. */
static void four(const char *name, const unsigned int *ratio_pct, uint64_t spread_ppm)
{
	static const enum pass_id ids[PASSES] = { PASS_L1, PASS_L2F, PASS_L3, PASS_MEM };
	unsigned int p;

	for (p = 0; p < PASSES; p++) {
		if (!pin[p].n) {
			pass_begin(p, ids[p], 8192);
			add(p, "stosb", 100000, spread_ppm, 0);
		}
		add(p, name, 1000u * ratio_pct[p], spread_ppm, 1 + pin[p].n);
	}
}

static void reset(void)
{
	memset(pin, 0, sizeof(pin));
}

static void test_actions(void)
{
	struct answer_run run = cpu_run();
	struct bottom b;

	/* orig saves 20% where the page comes from memory, is even at l1: switch. */
	reset();
	four("orig", (const unsigned int[]){ 100, 80, 80, 80 }, 2000);
	four("stosq", (const unsigned int[]){ 100, 100, 100, 100 }, 2000);
	b = decide(&run, ANSWER_CLEAR_PAGE, "stosb", PASSES);
	result(b.action == BOTTOM_SWITCH && !strcmp(rname(&b), "orig") &&
	       b.cell[0].verdict == CELL_EVEN && b.cell[1].verdict == CELL_SAVES &&
	       b.cell[3].verdict == CELL_SAVES && has(b.safe, "orig") && has(b.safe, "stosq") &&
	       has(b.saves, "orig") && !has(b.saves, "stosq"), "bottom.switch",
	       "action=%s routine=%s", bottom_action_name(b.action), rname(&b));

	/* The same saving, at a cost of 20% at l1: a trade-off, both named. */
	reset();
	four("orig", (const unsigned int[]){ 120, 80, 80, 80 }, 2000);
	four("stosq", (const unsigned int[]){ 100, 100, 100, 100 }, 2000);
	b = decide(&run, ANSWER_CLEAR_PAGE, "stosb", PASSES);
	result(b.action == BOTTOM_TRADE_OFF && !strcmp(rname(&b), "orig") &&
	       b.cell[0].verdict == CELL_COSTS && b.cell[2].verdict == CELL_SAVES &&
	       !has(b.safe, "orig") && has(b.saves, "orig"), "bottom.trade_off",
	       "action=%s routine=%s", bottom_action_name(b.action), rname(&b));

	/* Nothing saves 3% anywhere, each surely: keep, the nearest named. */
	reset();
	four("orig", (const unsigned int[]){ 101, 100, 102, 100 }, 2000);
	four("stosq", (const unsigned int[]){ 100, 99, 100, 100 }, 2000);
	b = decide(&run, ANSWER_CLEAR_PAGE, "stosb", PASSES);
	result(b.action == BOTTOM_KEEP && !strcmp(rname(&b), "stosq") && !b.alike &&
	       !b.saves, "bottom.keep", "action=%s routine=%s", bottom_action_name(b.action),
	       rname(&b));

	/*
	 * stosq at 0.96 with epochs 5% apart: its interval reaches both sides
	 * of 0.97 at l2f; it costs nowhere: undecided, the pass open, and
	 * more epochs than ran would decide.
	 */
	reset();
	four("stosq", (const unsigned int[]){ 100, 96, 100, 100 }, 50000);
	b = decide(&run, ANSWER_CLEAR_PAGE, "stosb", PASSES);
	result(b.action == BOTTOM_UNDECIDED && !strcmp(rname(&b), "stosq") &&
	       b.cell[1].verdict == CELL_OPEN && b.cell[1].need > E, "bottom.undecided",
	       "action=%s routine=%s verdict=%s need=%u", bottom_action_name(b.action),
	       rname(&b), bottom_verdict_name(b.cell[1].verdict), b.cell[1].need);

	/* A switch with a routine that may cost somewhere is no switch: undecided too. */
	reset();
	four("orig", (const unsigned int[]){ 102, 80, 80, 80 }, 50000);
	b = decide(&run, ANSWER_CLEAR_PAGE, "stosb", PASSES);
	result(b.action == BOTTOM_UNDECIDED && !strcmp(rname(&b), "orig") &&
	       b.cell[0].verdict == CELL_OPEN, "bottom.undecided_may_cost",
	       "action=%s verdict=%s", bottom_action_name(b.action),
	       bottom_verdict_name(b.cell[0].verdict));
}

static void test_alike(void)
{
	struct answer_run run = cpu_run();
	struct bottom b1, b2;

	/*
	 * stosl and orig both save 20%, one 1% quicker than the other, then
	 * the other way round (two reruns): alike, and stosl, first in the
	 * table's order, named both times.
	 */
	reset();
	four("stosl", (const unsigned int[]){ 100, 80, 80, 80 }, 2000);
	four("orig", (const unsigned int[]){ 100, 79, 79, 79 }, 2000);
	b1 = decide(&run, ANSWER_CLEAR_PAGE, "stosb", PASSES);
	reset();
	four("stosl", (const unsigned int[]){ 100, 79, 79, 79 }, 2000);
	four("orig", (const unsigned int[]){ 100, 80, 80, 80 }, 2000);
	b2 = decide(&run, ANSWER_CLEAR_PAGE, "stosb", PASSES);
	result(b1.action == BOTTOM_SWITCH && b2.action == BOTTOM_SWITCH &&
	       !strcmp(rname(&b1), "stosl") && !strcmp(rname(&b2), "stosl") &&
	       has(b1.alike, "orig") && has(b2.alike, "orig"), "bottom.alike_one_answer",
	       "%s alike orig %d; %s alike orig %d", rname(&b1), has(b1.alike, "orig"),
	       rname(&b2), has(b2.alike, "orig"));

	/* orig saves 30%, stosl 10%: orig surely beats it by the worth, and is named. */
	reset();
	four("stosl", (const unsigned int[]){ 100, 90, 90, 90 }, 2000);
	four("orig", (const unsigned int[]){ 100, 70, 70, 70 }, 2000);
	b1 = decide(&run, ANSWER_CLEAR_PAGE, "stosb", PASSES);
	result(b1.action == BOTTOM_SWITCH && !strcmp(rname(&b1), "orig") &&
	       !has(b1.alike, "stosl"), "bottom.beaten_by_worth_not_named", "%s", rname(&b1));

	/* A vector routine alike a GPR one: the GPR one, no kernel_fpu_begin/end. */
	reset();
	four("sse2_t", (const unsigned int[]){ 100, 79, 79, 79 }, 2000);
	four("orig", (const unsigned int[]){ 100, 80, 80, 80 }, 2000);
	b1 = decide(&run, ANSWER_CLEAR_PAGE, "stosb", PASSES);
	result(b1.action == BOTTOM_SWITCH && !strcmp(rname(&b1), "orig") &&
	       has(b1.alike, "sse2_t") && !b1.vec, "bottom.gpr_before_vec", "%s", rname(&b1));
}

/*
 * The vector price: 60 ticks a kernel entry. avx_t clears a page 10
 * ticks quicker than stosb's 100: per page it pays 60 and costs 50%.
 * Over a 2 MiB range (512 pages, one entry) avx_t_all saves 10% less
 * 60 ticks over 51200: still 9.9% (0.901172).
 */
static void test_price(void)
{
	struct answer_run run = cpu_run();
	struct bottom b;

	run.price = (struct vector_price){ .measured = true, .ticks = 60, .lo = 58, .hi = 62 };
	reset();
	pass_begin(0, PASS_L3, 8192);
	add(0, "stosb", 20000, 0, 0);
	add(0, "avx_t", 18000, 0, 1);
	pass_begin(1, PASS_MEM, 8192);
	add(1, "stosb", 20000, 0, 0);
	add(1, "avx_t", 18000, 0, 1);
	b = decide(&run, ANSWER_CLEAR_PAGE, "stosb", 2);
	result(b.action == BOTTOM_TRADE_OFF || b.action == BOTTOM_KEEP ?
	       b.cell[0].verdict == CELL_COSTS && b.cell[0].ratio.median == 1500000 && b.vec :
	       false, "bottom.price_per_page_loses", "action=%s verdict=%s ratio=%llu",
	       bottom_action_name(b.action), bottom_verdict_name(b.cell[0].verdict),
	       (unsigned long long)b.cell[0].ratio.median);
	/* 60 ticks a page at 2 GHz: 30 ns. */
	result(b.cell[0].has_ns && b.cell[0].price_ns10 == 300,
	       "bottom.price_ns_per_page", "price_ns10=%llu",
	       (unsigned long long)b.cell[0].price_ns10);

	reset();
	pass_begin(0, PASS_L3, 2u << 20);
	add(0, "stosb_all", 5120000, 0, 0);
	add(0, "avx_t_all", 4608000, 0, 1);
	pass_begin(1, PASS_MEM, 2u << 20);
	add(1, "stosb_all", 5120000, 0, 0);
	add(1, "avx_t_all", 4608000, 0, 1);
	b = decide(&run, ANSWER_CLEAR_PAGES, "stosb_all", 2);
	result(b.action == BOTTOM_SWITCH && !strcmp(rname(&b), "avx_t_all") && b.vec &&
	       b.cell[0].ratio.median == 901172, "bottom.price_2m_range_wins",
	       "action=%s routine=%s ratio=%llu", bottom_action_name(b.action), rname(&b),
	       (unsigned long long)b.cell[0].ratio.median);

	/* No price measured (an older log): never named, shown as unpriced. */
	run.price.measured = false;
	b = decide(&run, ANSWER_CLEAR_PAGES, "stosb_all", 2);
	result(b.action == BOTTOM_NONE && b.why == WHY_NO_INTERVAL &&
	       b.unpriced < 0, "bottom.unpriced_no_candidate",
	       "action=%s unpriced=%d", bottom_action_name(b.action), b.unpriced);
	add(0, "stosq_all", 5120000, 0, 2);
	add(1, "stosq_all", 5120000, 0, 2);
	b = decide(&run, ANSWER_CLEAR_PAGES, "stosb_all", 2);
	result(b.action == BOTTOM_KEEP && !strcmp(rname(&b), "stosq_all") && b.unpriced >= 0 &&
	       !strcmp(variants[b.unpriced].name, "avx_t_all") && b.unpriced_ratio == 900000,
	       "bottom.unpriced_beside", "action=%s routine=%s unpriced=%d",
	       bottom_action_name(b.action), rname(&b), b.unpriced);
}

/*
 * mix=: orig costs 10% at l1 (100 ticks a page) and saves 20% at mem (1000
 * a page). Weighed alike, (110 + 800) / 1100 = 0.827: a switch; with l1
 * alone, 1.1: keep.
 */
static void test_mix(void)
{
	struct answer_run run = cpu_run();
	struct bottom b;

	reset();
	pass_begin(0, PASS_L1, 8192);
	add(0, "stosb", 20000, 2000, 0);
	add(0, "orig", 22000, 2000, 1);
	pass_begin(1, PASS_MEM, 8192);
	add(1, "stosb", 200000, 2000, 0);
	add(1, "orig", 160000, 2000, 1);
	/* l1 alone, exactly: the weighed figure is that pass's ratio. */
	memcpy(med[0][1], med[0][0], sizeof(med[0][0]));
	for (unsigned int e = 0; e < E; e++)
		med[0][1][e] = med[0][0][e] * 11 / 10;
	pin[0].in[1].s.median = pin[0].in[0].s.median * 11 / 10;
	b = decide(&run, ANSWER_CLEAR_PAGE, "stosb", 2);
	result(b.action == BOTTOM_TRADE_OFF && !b.mixed, "bottom.mix_none_trade_off",
	       "action=%s", bottom_action_name(b.action));
	run.mix[PASS_L1] = run.mix[PASS_MEM] = 1;
	b = decide(&run, ANSWER_CLEAR_PAGE, "stosb", 2);
	result(b.action == BOTTOM_SWITCH && b.mixed && !strcmp(rname(&b), "orig") &&
	       b.mix.median > 826000 && b.mix.median < 829000 && b.mix.lo < b.mix.median &&
	       b.mix.hi > b.mix.median && b.mix.hi < 970000, "bottom.mix_weighs",
	       "action=%s median=%llu lo=%llu hi=%llu", bottom_action_name(b.action),
	       (unsigned long long)b.mix.median, (unsigned long long)b.mix.lo,
	       (unsigned long long)b.mix.hi);
	run.mix[PASS_MEM] = 0;
	b = decide(&run, ANSWER_CLEAR_PAGE, "stosb", 2);
	result(b.action == BOTTOM_KEEP && b.mixed && b.mix.median > 1099000 &&
	       b.mix.median < 1101000,
	       "bottom.mix_l1_only_keeps", "action=%s median=%llu",
	       bottom_action_name(b.action), (unsigned long long)b.mix.median);
}

static void test_none(void)
{
	struct answer_run run = cpu_run();
	struct bottom b;

	reset();
	four("orig", (const unsigned int[]){ 100, 80, 80, 80 }, 2000);
	run.not_a_cpu = true;
	b = decide(&run, ANSWER_CLEAR_PAGE, "stosb", PASSES);
	result(b.action == BOTTOM_NONE && b.why == WHY_NOT_A_CPU, "bottom.not_a_cpu",
	       "action=%s", bottom_action_name(b.action));
	run.not_a_cpu = false;
	b = decide(&run, ANSWER_CLEAR_PAGE, "stosq", PASSES);
	result(b.action == BOTTOM_NONE && b.why == WHY_PICK_NOT_MEASURED,
	       "bottom.pick_not_measured", "action=%s why=%d", bottom_action_name(b.action),
	       b.why);
}

static char text[8][OUT_LINE_MAX];
static unsigned int ntext;

static void put(const char *line, void *ctx)
{
	(void)ctx;
	if (ntext < 8)
		snprintf(text[ntext++], sizeof(text[0]), "%s", line);
}

static void test_lines(void)
{
	struct answer_run run = cpu_run();
	struct answer_pick pk = pick_of("clear_page", "stosb");
	struct bottom b;

	reset();
	four("orig", (const unsigned int[]){ 100, 80, 80, 80 }, 0);
	four("stosl", (const unsigned int[]){ 100, 80, 80, 80 }, 0);
	b = decide(&run, ANSWER_CLEAR_PAGE, "stosb", PASSES);
	ntext = 0;
	bottom_lines(&run, &pk, "clear_page", &b, answer_variant_name, put, NULL);
	result(ntext == 6 &&
	       !strcmp(text[0], "bottom fn=clear_page kernel=linux versions=\">=5.4\" "
		       "entry=clear_page pick=stosb kernel_routine=\"clear_page_erms\" "
		       "selected_by=\"ERMS\" action=switch routine=stosl alike=orig "
		       "worth=3.0% passes=l1,l2f,l3,mem saves=l2f,l3,mem costs=- open=-") &&
	       !strncmp(text[2], "bottom_pass fn=clear_page kernel=linux versions=\">=5.4\" "
			"entry=clear_page pass=l2f routine=stosl verdict=saves ratio=0.8000 ", 118) &&
	       strstr(text[2], " pick_ns=250.0 routine_ns=200.0") && !strstr(text[2], "price=") &&
	       !strcmp(text[5], "bottom_sets fn=clear_page kernel=linux versions=\">=5.4\" "
		       "entry=clear_page safe=stosl,orig saves=stosl,orig"),
	       "bottom.lines", "%u lines: %s | %s | %s", ntext, text[0], text[2], text[5]);
}

int main(void)
{
	test_actions();
	test_alike();
	test_price();
	test_mix();
	test_none();
	test_lines();
	return check_exit();
}
