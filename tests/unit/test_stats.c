// SPDX-License-Identifier: MIT
/*
 * Unit tests of harness/stats.c and harness/decide.c, the verdict's port
 * of scripts/pbreport/stats.py and decide.py.
 *
 * Without arguments: checks whose answers are known without the code: the
 * exact test's extreme splits (2 / C(n1 + n2, n1)), quartiles counted by
 * hand, erfc() at a few points, the decision rules on samples made to
 * tie, to be slower and to stay undecided. Prints "ok
 * NAME", "FAIL NAME: why" (tests/unit/check.h).
 *
 * With --eval: reads cases from stdin and prints what the C code makes of
 * them, for tests/test_verdict_log.py to compare with the Python's:
 *     mw X Y      X and Y comma-separated samples: the p, U, the spread
 *                 of each, and Y related to X as the winner
 *     reps THETA  decide_reps_needed(THETA, 0.05)
 *     erfc X      erfc(X)
 */
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "harness/decide.h"
#include "harness/stats.h"
#include "tests/unit/check.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#define SAMPLES_MAX 2000

static void near(const char *name, double got, double want, double rel)
{
	result(fabs(got - want) <= rel * fabs(want), name, "got %.17g, want %.17g",
	       got, want);
}

static void cell_of(struct cell *c, uint64_t *t, unsigned int n)
{
	struct spread sp;

	stats_spread(&sp, t, n);
	*c = (struct cell){ .n = n, .median = sp.median, .q1 = sp.q1, .q3 = sp.q3, .values = t };
}

static void check_exact_test(void)
{
	uint64_t lo[5] = { 1, 2, 3, 4, 5 }, hi[5] = { 6, 7, 8, 9, 10 };
	uint64_t same[3] = { 7, 7, 7 };

	/* Complete separation is the most extreme of C(n1 + n2, n1) splits, twice. */
	result(stats_mann_whitney(lo, 3, hi, 3) == 0.1, "mw.separated_3_3",
	       "p=%.17g", stats_mann_whitney(lo, 3, hi, 3));
	result(stats_mann_whitney(lo, 5, hi, 5) == 2.0 / 252, "mw.separated_5_5",
	       "p=%.17g", stats_mann_whitney(lo, 5, hi, 5));
	result(stats_mann_whitney(hi, 5, lo, 5) == 2.0 / 252, "mw.symmetric",
	       "p=%.17g", stats_mann_whitney(hi, 5, lo, 5));
	result(stats_mann_whitney(same, 3, same, 3) == 1.0, "mw.all_tied",
	       "p=%.17g", stats_mann_whitney(same, 3, same, 3));
	result(stats_min_p(3, 3) == 0.1 && stats_min_p(4, 4) == 2.0 / 70 &&
	       stats_min_p(5, 5) == 2.0 / 252, "mw.min_p", "%.17g %.17g %.17g",
	       stats_min_p(3, 3), stats_min_p(4, 4), stats_min_p(5, 5));
	result(stats_u(hi, 5, lo, 5) == 25 && stats_u(same, 3, same, 3) == 4.5,
	       "mw.u", "%g %g", stats_u(hi, 5, lo, 5), stats_u(same, 3, same, 3));
}

static void check_spread(void)
{
	uint64_t t[4] = { 4, 1, 3, 2 }, one[1] = { 9 };
	struct spread sp;

	/* Type 7: h = (n - 1) q = 0.75 and 2.25 for n = 4. */
	stats_spread(&sp, t, 4);
	result(sp.median == 2.5 && sp.q1 == 1.75 && sp.q3 == 3.25 &&
	       sp.min == 1 && sp.max == 4, "spread.four", "median %g q1 %g q3 %g",
	       sp.median, sp.q1, sp.q3);
	stats_spread(&sp, one, 1);
	result(sp.median == 9 && sp.q1 == 9 && sp.q3 == 9, "spread.one",
	       "median %g q1 %g q3 %g", sp.median, sp.q1, sp.q3);
}

/*
 * Python's math.erfc() (glibc's, within an ulp of the exact value) at the
 * points the verdict's p-values pass: both series of stats.c and the
 * change between them at 1.
 */
static void check_erfc(void)
{
	near("erfc.0", stats_erfc(0), 1, 0);
	near("erfc.0_5", stats_erfc(0.5), 0.4795001221869535, 1e-15);
	near("erfc.1", stats_erfc(1), 0.15729920705028513, 1e-14);
	near("erfc.2", stats_erfc(2), 0.004677734981047265, 1e-14);
	near("erfc.3", stats_erfc(3), 2.2090496998585438e-05, 1e-14);
	near("erfc.5", stats_erfc(5), 1.5374597944280351e-12, 1e-14);
	near("erfc.10", stats_erfc(10), 2.088487583762545e-45, 1e-13);
	near("erfc.-1", stats_erfc(-1), 2 - 0.15729920705028513, 1e-15);
	result(stats_erfc(40) == 0, "erfc.underflow", "%g", stats_erfc(40));
}

static void check_decisions(void)
{
	uint64_t w[4] = { 100, 102, 104, 106 }, tie[4] = { 102, 104, 106, 108 };
	uint64_t slow[4] = { 200, 201, 202, 203 }, few[3] = { 200, 201, 202 };
	uint64_t eq[4] = { 106, 104, 102, 100 };
	struct cell cw, ct, cs, cf, ce, cells[4];
	struct relation r;
	struct decision d;

	cell_of(&cw, w, 4);
	cell_of(&ct, tie, 4);
	cell_of(&cs, slow, 4);
	cell_of(&cf, few, 3);
	cell_of(&ce, eq, 4);
	/* The winner's IQR is 104.5 - 101.5 = 3; the medians differ by 2. */
	decide_relate(&r, &cw, &ct, DECIDE_ALPHA, 0);
	result(r.state == REL_TIE, "relate.tie", "state %d", r.state);
	decide_relate(&r, &cw, &cs, DECIDE_ALPHA, 0);
	result(r.state == REL_SLOWER && r.p == 2.0 / 70, "relate.slower",
	       "state %d p %g", r.state, r.p);
	/* 4 against 3 cannot reach 0.05 (2 / 35): undecided, 4 reps would do. */
	decide_relate(&r, &cw, &cf, DECIDE_ALPHA, 0);
	result(r.state == REL_UNDECIDED && r.reps_needed == 4, "relate.undecided",
	       "state %d reps %u", r.state, r.reps_needed);
	decide_relate(&r, &cw, &ce, DECIDE_ALPHA, 0);
	result(r.state == REL_SAME, "relate.same", "state %d", r.state);
	/* Aggregated figures (copy-hot): no quartiles, no test. */
	decide_relate(&r, &(struct cell){ .n = 32, .median = 100 },
		      &(struct cell){ .n = 32, .median = 101 }, DECIDE_ALPHA, 0);
	result(r.state == REL_UNTESTED && r.delta == 101.0 / 100 - 1, "relate.untested",
	       "state %d delta %.17g", r.state, r.delta);

	result(decide_reps_needed(1.0, 0.05) == 4 && decide_reps_needed(0.5, 0.05) == 0 &&
	       decide_min_reps_to_reach(0.05) == 4 &&
	       decide_reps_needed(0.6, 0.05) > decide_reps_needed(0.8, 0.05),
	       "reps_needed", "%u %u %u", decide_reps_needed(1.0, 0.05),
	       decide_reps_needed(0.8, 0.05), decide_reps_needed(0.6, 0.05));

	/* Ranked by median, stable; the few-reps candidate keeps it open. */
	cell_of(&cells[0], slow, 4);
	cell_of(&cells[1], w, 4);
	cell_of(&cells[2], few, 3);
	cell_of(&cells[3], tie, 4);
	decide(&d, cells, 4, DECIDE_ALPHA, 0);
	result(d.rank[0] == 1 && d.rank[1] == 3 && !d.decidable && d.reps_needed == 4 &&
	       d.rel[3].state == REL_TIE && d.rel[0].state == REL_SLOWER,
	       "decide.open", "rank %u %u decidable %d reps %u", d.rank[0], d.rank[1],
	       d.decidable, d.reps_needed);
	decide(&d, cells, 2, DECIDE_ALPHA, 0);
	result(d.decidable && d.reps_needed == 0 && d.rank[0] == 1, "decide.closed",
	       "decidable %d", d.decidable);
}

static unsigned int read_samples(char *s, uint64_t *t)
{
	unsigned int n = 0;
	char *end;

	while (*s && n < SAMPLES_MAX) {
		t[n++] = strtoull(s, &end, 10);
		s = *end == ',' ? end + 1 : end;
		if (end == s && *s != ',')
			break;
	}
	return n;
}

static const char *const state_names[] = {
	[REL_SAME] = "same", [REL_TIE] = "tie", [REL_SLOWER] = "slower",
	[REL_FASTER] = "faster", [REL_UNDECIDED] = "undecided",
	[REL_UNTESTED] = "untested",
};

static int eval(void)
{
	static uint64_t x[SAMPLES_MAX], y[SAMPLES_MAX];
	static char line[65536];

	while (fgets(line, sizeof(line), stdin)) {
		char *xs = line, *ys;
		unsigned int nx, ny;
		struct cell cx, cy;
		struct relation r;
		double p, u;

		line[strcspn(line, "\n")] = '\0';
		if (!strncmp(line, "reps ", 5)) {
			printf("%u\n", decide_reps_needed(strtod(line + 5, NULL), 0.05));
			continue;
		}
		if (!strncmp(line, "erfc ", 5)) {
			printf("%.17g\n", stats_erfc(strtod(line + 5, NULL)));
			continue;
		}
		if (strncmp(line, "mw ", 3) || !(ys = strchr(line + 3, ' ')))
			return 2;
		*ys++ = '\0';
		xs += 3;
		nx = read_samples(xs, x);
		ny = read_samples(ys, y);
		p = stats_mann_whitney(x, nx, y, ny);
		u = stats_u(x, nx, y, ny);
		cell_of(&cx, x, nx);
		cell_of(&cy, y, ny);
		decide_relate(&r, &cx, &cy, 0.05, 0);
		printf("%.17g %.17g %.17g %.17g %.17g %.17g %.17g %.17g %s %u %.17g\n", p, u,
		       cx.median, cx.q1, cx.q3, cy.median, cy.q1, cy.q3,
		       state_names[r.state], r.reps_needed, r.has_delta ? r.delta : NAN);
	}
	return 0;
}

int main(int argc, char **argv)
{
	if (argc > 1 && !strcmp(argv[1], "--eval"))
		return eval();
	check_exact_test();
	check_spread();
	check_erfc();
	check_decisions();
	return check_exit();
}
