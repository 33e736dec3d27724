// SPDX-License-Identifier: MIT
/*
 * Bottom lines combined (harness/decide/combine.c), on synthetic bottom lines
 * whose outcome is known: runs that agree, and name alike routines in
 * any order, give one answer named by preference; runs that disagree
 * give undecided and say what each said; each pass is the median of the
 * runs' medians with the least lo and the greatest hi, judged again
 * against the worth; the sets are every run's. A fleet switches to the
 * first routine safe on every group that saves on some, keeps where all
 * keep, is undecided where a group is, else a trade-off; a group with no
 * advice is left out; and the lines' words.
 */
#define _GNU_SOURCE
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include "harness/decide/combine.h"
#include "lib/out.h"
#include "tests/unit/check.h"

/* Candidates a, b, c, d: ids 0..3, preferred in that order (as prefer_rank() over a table). */
enum { A, B, C, D };
static const char *const names[] = { "a", "b", "c", "d" };
static unsigned int rank[VARIANTS_MAX];

static const char *name(unsigned int id)
{
	return id < 4 ? names[id] : "?";
}

static variant_set set(const char *ids)
{
	variant_set s = 0;

	for (; *ids; ids++)
		s |= 1ull << (*ids - 'a');
	return s;
}

#define PPM(x)	((uint64_t)((x) * 1000000 + 0.5))

/* A run's bottom line over passes l1 and l2f: routine's ratio, lo, hi in each. */
static struct bottom line(enum bottom_action action, int routine, const char *alike,
			  const double *l1, const double *l2f, const char *safe, const char *saves)
{
	struct bottom b = { .action = action, .routine = routine, .alike = set(alike),
			    .unpriced = -1, .npass = 2, .pass = { "l1", "l2f" },
			    .safe = set(safe), .saves = set(saves) };
	const double *r[2] = { l1, l2f };
	unsigned int p;

	for (p = 0; p < 2; p++) {
		struct bottom_cell *c = &b.cell[p];

		if (!r[p]) {
			c->verdict = CELL_MISSING;
			continue;
		}
		*c = (struct bottom_cell){ .verdict = r[p][2] < 0.97 ? CELL_SAVES : CELL_EVEN,
			.ratio = { PPM(r[p][0]), PPM(r[p][1]), PPM(r[p][2]), true }, .epochs = 21,
			.has_ns = true, .pick_ns10 = 1000, .routine_ns10 = (uint64_t)(r[p][0] * 1000) };
	}
	return b;
}

static const double EVEN[3] = { 1.0, 0.98, 1.02 };

static struct bottom combined(const struct bottom *runs, unsigned int n, char *differ)
{
	const struct bottom *p[COMBINE_RUNS_MAX];
	struct bottom out;
	unsigned int i;

	for (i = 0; i < n; i++)
		p[i] = &runs[i];
	combine_runs(p, n, 300, rank, name, differ, 128, &out);
	return out;
}

static void test_agree(void)
{
	static char differ[128];
	const double s1[3] = { 0.80, 0.75, 0.85 }, s2[3] = { 0.84, 0.78, 0.90 };
	const double s3[3] = { 0.82, 0.70, 0.86 };
	struct bottom runs[3] = {
		line(BOTTOM_SWITCH, C, "b", EVEN, s1, "bc", "bc"),
		line(BOTTOM_SWITCH, B, "cd", EVEN, s2, "bcd", "bcd"),
		line(BOTTOM_SWITCH, C, "bd", EVEN, s3, "bcd", "bc"),
	};
	struct bottom b = combined(runs, 3, differ);
	const struct bottom_cell *c = &b.cell[1];

	/* b and c alike in every run, whichever each named: b, first by preference. */
	result(b.action == BOTTOM_SWITCH && b.routine == B && b.alike == set("c") &&
	       b.runs == 3 && !b.differ, "combine.agree_alike", "%s %d alike=%llx runs=%u",
	       bottom_action_name(b.action), b.routine, b.alike, b.runs);
	result(b.safe == set("bc") && b.saves == set("bc"), "combine.sets_of_every_run",
	       "safe=%llx saves=%llx", b.safe, b.saves);
	/* Only the run that named b gives its cells. */
	result(c->verdict == CELL_SAVES && c->ratio.median == PPM(0.84) &&
	       c->ratio.lo == PPM(0.78) && c->ratio.hi == PPM(0.90) && c->epochs == 21,
	       "combine.cells_of_named", "%s %lu %lu %lu %u", bottom_verdict_name(c->verdict),
	       (unsigned long)c->ratio.median, (unsigned long)c->ratio.lo,
	       (unsigned long)c->ratio.hi, c->epochs);

	/* Every run names c: the median of medians, least lo, greatest hi, epochs summed. */
	runs[1] = line(BOTTOM_SWITCH, C, "b", EVEN, s2, "bc", "bc");
	b = combined(runs, 3, differ);
	c = &b.cell[1];
	result(b.routine == B && c->ratio.median == PPM(0.82) && c->ratio.lo == PPM(0.70) &&
	       c->ratio.hi == PPM(0.90) && c->epochs == 63 && c->has_ns && c->pick_ns10 == 1000 &&
	       c->routine_ns10 == 820 && b.cell[0].verdict == CELL_EVEN,
	       "combine.median_least_greatest", "%d %lu %lu %lu %u %lu", b.routine,
	       (unsigned long)c->ratio.median, (unsigned long)c->ratio.lo,
	       (unsigned long)c->ratio.hi, c->epochs, (unsigned long)c->routine_ns10);
}

static void test_verdict_again(void)
{
	static char differ[128];
	const double s1[3] = { 0.90, 0.85, 0.95 }, s2[3] = { 0.95, 0.93, 0.99 };
	struct bottom runs[2] = {
		line(BOTTOM_SWITCH, A, "", EVEN, s1, "a", "a"),
		line(BOTTOM_SWITCH, A, "", EVEN, s2, "a", "a"),
	};
	struct bottom b = combined(runs, 2, differ);

	/* Each run saves at l2f; together their interval reaches the worth: open. */
	result(b.action == BOTTOM_SWITCH && b.cell[1].verdict == CELL_OPEN &&
	       b.cell[1].ratio.hi == PPM(0.99) && b.cell[1].need > 42,
	       "combine.verdict_of_the_union", "%s %s need=%u", bottom_action_name(b.action),
	       bottom_verdict_name(b.cell[1].verdict), b.cell[1].need);
}

static void test_disagree(void)
{
	static char differ[128];
	const double s[3] = { 0.80, 0.75, 0.85 };
	struct bottom runs[3] = {
		line(BOTTOM_KEEP, A, "", EVEN, EVEN, "a", ""),
		line(BOTTOM_SWITCH, D, "", EVEN, s, "d", "d"),
		line(BOTTOM_SWITCH, D, "", EVEN, s, "d", "d"),
	};
	struct bottom b = combined(runs, 3, differ);

	result(b.action == BOTTOM_UNDECIDED && b.routine == -1 && b.differ &&
	       !strcmp(b.differ, "switch d x2; keep x1") && b.safe == 0,
	       "combine.disagree", "%s %d \"%s\"", bottom_action_name(b.action), b.routine,
	       b.differ ? b.differ : "(null)");

	/* One action, routines not alike: undecided too. */
	runs[0] = line(BOTTOM_SWITCH, A, "", EVEN, s, "a", "a");
	b = combined(runs, 3, differ);
	result(b.action == BOTTOM_UNDECIDED && b.routine == -1 &&
	       !strcmp(b.differ, "switch d x2; switch a x1"), "combine.disagree_routine",
	       "%s \"%s\"", bottom_action_name(b.action), b.differ);
}

static void test_keep_none(void)
{
	static char differ[128];
	struct bottom runs[2] = {
		line(BOTTOM_KEEP, C, "", EVEN, EVEN, "abc", ""),
		line(BOTTOM_KEEP, B, "", EVEN, EVEN, "abc", ""),
	};
	struct bottom b = combined(runs, 2, differ);

	result(b.action == BOTTOM_KEEP && b.routine == B && !b.alike && !b.differ,
	       "combine.keep", "%s %d", bottom_action_name(b.action), b.routine);
	runs[0] = (struct bottom){ .action = BOTTOM_NONE, .why = WHY_NOT_A_CPU, .routine = -1 };
	runs[1] = runs[0];
	b = combined(runs, 2, differ);
	result(b.action == BOTTOM_NONE && b.why == WHY_NOT_A_CPU && b.runs == 2, "combine.none",
	       "%s why=%d", bottom_action_name(b.action), b.why);
	runs[1].why = WHY_NO_INTERVAL;
	b = combined(runs, 2, differ);
	result(b.action == BOTTOM_NONE && b.why == WHY_NOT_A_CPU && b.npass == 0 && b.differ &&
	       !strcmp(b.differ, "none not-a-cpu x1; none no-interval x1"),
	       "combine.none_for_different_reasons", "%s \"%s\"", bottom_action_name(b.action),
	       b.differ ? b.differ : "");
}

static void test_passes_union(void)
{
	static char differ[128];
	const double s[3] = { 0.80, 0.75, 0.85 };
	struct bottom runs[2] = {
		line(BOTTOM_SWITCH, A, "", EVEN, s, "a", "a"),
		line(BOTTOM_SWITCH, A, "", EVEN, s, "a", "a"),
	};
	struct bottom b;

	runs[0].pass[1] = "mem";
	b = combined(runs, 2, differ);
	/* In the passes' order, whichever run names them first. */
	result(b.npass == 3 && !strcmp(b.pass[1], "l2f") && !strcmp(b.pass[2], "mem") &&
	       b.cell[1].epochs == 21 && b.cell[2].epochs == 21, "combine.passes_of_every_run",
	       "%u passes: %s %s %s", b.npass, b.pass[0], b.pass[1], b.pass[2]);
}

static struct bottom group(enum bottom_action action, int routine, const char *safe,
			   const char *saves)
{
	return (struct bottom){ .action = action, .routine = routine, .unpriced = -1,
				.safe = set(safe), .saves = set(saves) };
}

static struct fleet fleet_of(const struct bottom *g, unsigned int n)
{
	const struct bottom *p[COMBINE_GROUPS_MAX];
	struct fleet f;
	unsigned int i;

	for (i = 0; i < n; i++)
		p[i] = &g[i];
	combine_fleet(p, n, rank, &f);
	return f;
}

static void test_fleet(void)
{
	struct bottom g[3] = {
		group(BOTTOM_SWITCH, C, "bcd", "cd"),
		group(BOTTOM_KEEP, A, "abcd", ""),
		group(BOTTOM_TRADE_OFF, D, "cd", "d"),
	};
	struct fleet f = fleet_of(g, 3);

	/* Safe everywhere: c, d; saves somewhere: both. c first by preference, d also. */
	result(f.action == BOTTOM_SWITCH && f.routine == C && f.also == set("d") &&
	       f.ngroups == 3, "fleet.switch", "%s %d also=%llx", bottom_action_name(f.action),
	       f.routine, f.also);
	g[2] = group(BOTTOM_TRADE_OFF, D, "a", "d");
	f = fleet_of(g, 3);
	result(f.action == BOTTOM_TRADE_OFF && f.routine == -1, "fleet.trade_off", "%s",
	       bottom_action_name(f.action));
	g[2] = group(BOTTOM_UNDECIDED, D, "a", "");
	f = fleet_of(g, 3);
	result(f.action == BOTTOM_UNDECIDED, "fleet.undecided", "%s", bottom_action_name(f.action));
	g[0] = group(BOTTOM_KEEP, B, "ab", "");
	g[2] = group(BOTTOM_KEEP, A, "a", "");
	f = fleet_of(g, 3);
	result(f.action == BOTTOM_KEEP, "fleet.keep", "%s", bottom_action_name(f.action));
	g[2] = (struct bottom){ .action = BOTTOM_NONE, .why = WHY_NOT_A_CPU, .routine = -1 };
	f = fleet_of(g, 3);
	result(f.action == BOTTOM_KEEP && f.ngroups == 2 && !f.in[2], "fleet.none_left_out",
	       "%s %u", bottom_action_name(f.action), f.ngroups);
}

static char text[8][OUT_LINE_MAX];
static unsigned int ntext;

static void put(const char *l, void *ctx)
{
	(void)ctx;
	if (ntext < 8)
		snprintf(text[ntext++], sizeof(text[0]), "%s", l);
}

static void test_lines(void)
{
	static char differ[128];
	struct answer_pick pk = { .kernel = RULE_LINUX, .versions = ">=5.4", .entry = "clear_page",
				  .variant = "stosb" };
	struct answer_run run = { .worth_bp = 300 };
	const double s[3] = { 0.80, 0.75, 0.85 };
	struct bottom runs[2] = {
		line(BOTTOM_KEEP, A, "", EVEN, EVEN, "a", ""),
		line(BOTTOM_SWITCH, D, "", EVEN, s, "d", "d"),
	};
	struct bottom b = combined(runs, 2, differ), g[2];
	const struct bottom *gp[2] = { &g[0], &g[1] };
	const char *gn[2] = { "zen5", "emr" };
	struct fleet f;
	char buf[OUT_LINE_MAX];

	ntext = 0;
	bottom_lines(&run, &pk, "clear_page", &b, name, put, NULL);
	result(ntext == 2 && !strcmp(text[0], "bottom fn=clear_page kernel=linux versions=\">=5.4\" "
				     "entry=clear_page pick=stosb action=undecided routine=- "
				     "worth=3.0% passes=l1,l2f saves=- costs=- open=- runs=2 "
				     "differ=\"keep x1; switch d x1\""),
	       "combine.bottom_line_words", "%u: %s", ntext, text[0]);
	g[0] = group(BOTTOM_SWITCH, C, "bcd", "c");
	g[1] = group(BOTTOM_KEEP, A, "abcd", "");
	combine_fleet(gp, 2, rank, &f);
	combine_fleet_line(buf, sizeof(buf), "clear_page", &pk, &f, gp, gn, 2, name);
	result(!strcmp(buf, "fleet fn=clear_page kernel=linux versions=\">=5.4\" entry=clear_page "
			    "action=switch routine=c groups=2 by=\"zen5:switch:c,emr:keep:a\""),
	       "combine.fleet_line_words", "%s", buf);
}

int main(void)
{
	unsigned int id;

	for (id = 0; id < VARIANTS_MAX; id++)
		rank[id] = id;
	test_agree();
	test_verdict_again();
	test_disagree();
	test_keep_none();
	test_passes_union();
	test_fleet();
	test_lines();
	return check_exit();
}
