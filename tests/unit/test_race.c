// SPDX-License-Identifier: MIT
/*
 * time= (harness/measure/budget.c, harness/decide/race.c, harness/measure/progress.c) on
 * synthetic clocks and synthetic figures whose truth is known:
 *
 * - the budget rule: a run ends within time= plus one epoch, a settled
 *   pass stops at its floor, the passes left open get the time left, and
 *   the first round runs whatever the time; a cheap pass's epochs spread
 *   over the whole budget (paced), for at most its share of it;
 * - racing: a candidate far slower than the pick stops after the first
 *   round, the closest calls get the most epochs, and the decision made
 *   on the final intervals is the right one in at least 95% of seeded
 *   trials, for a switch and for a keep;
 * - calibration: under racing, with whole runs 5% apart and epochs 3%
 *   (the machine's), each sample 2% (its own), a rerun's ratio of the
 *   routine a decision names falls inside the first run's interval 90% to
 *   98% of the time;
 * - progress: never above 100%, never a time left that wrapped.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include "harness/measure/budget.h"
#include "harness/measure/epochs.h"
#include "harness/stats/interval.h"
#include "harness/measure/progress.h"
#include "harness/decide/race.h"
#include "harness/decide/prefer.h"
#include "harness/measure/suites/figures.h"
#include "tests/unit/check.h"

#define NOISE_SEED 0x9e3779b97f4a7c15ull
/* The races here serve worth=3%, the default (docs/running.md). */
#define WORTH_BP 300
#include "tests/unit/noise.h"

/* --- the budget rule on a synthetic clock -------------------------------- */

struct model {
	uint64_t cost;		/* ticks an epoch takes */
	unsigned int floor;
	unsigned int settles;	/* the epoch from which its race is settled; 0: never */
	unsigned int need;	/* while open */
};

/*
 * Runs the rule to its end; returns the clock. at, where given: the clock
 * at which each of pass 0's epochs started.
 */
static uint64_t run_budget_at(const struct model *m, struct budget_pass *p,
			      unsigned int n, uint64_t budget, uint64_t *at)
{
	uint64_t clock = 0;
	unsigned int k, guard = 0;

	for (k = 0; k < n; k++)
		p[k] = (struct budget_pass){ .floor = m[k].floor, .open = true };
	while (guard++ < 100000) {
		k = budget_next(p, n, clock, budget);
		if (k == n)
			break;
		if (at && !k && p[0].epochs < INTERVAL_EPOCHS_MAX)
			at[p[0].epochs] = clock;
		clock += m[k].cost;
		p[k].epochs++;
		p[k].last = m[k].cost;
		if (p[k].epochs >= INTERVAL_EPOCHS_MIN && (p[k].epochs & 1)) {
			p[k].open = !m[k].settles || p[k].epochs < m[k].settles;
			p[k].need = p[k].open ? m[k].need : 0;
		}
	}
	return clock;
}

static uint64_t run_budget(const struct model *m, struct budget_pass *p,
			   unsigned int n, uint64_t budget)
{
	return run_budget_at(m, p, n, budget, NULL);
}

static void test_budget(void)
{
	/*
	 * Two settle early, two stay open to the end; one of each is costly.
	 * None is paced (rule 4): 20 ticks x BUDGET_PACE is over 8000 /
	 * BUDGET_PACE_SHARE; test_budget_pace() has the paced ones.
	 */
	static const struct model m[] = {
		{ 20, BUDGET_FLOOR, 3, 20 }, { 20, BUDGET_FLOOR, 0, 30 },
		{ 100, BUDGET_FLOOR_DEEP, 5, 40 }, { 200, BUDGET_FLOOR_DEEP, 0, 200 },
	};
	static const struct model all_settle[] = {
		{ 20, BUDGET_FLOOR, 3, 20 }, { 50, BUDGET_FLOOR_DEEP, 3, 20 },
	};
	static const struct model costly[] = {
		{ 400, BUDGET_FLOOR, 0, 100 }, { 300, BUDGET_FLOOR_DEEP, 0, 100 },
	};
	struct budget_pass p[4];
	uint64_t budget = 8000, clock = run_budget(m, p, 4, budget), most = 200;
	unsigned int k, epochs = 0;

	result(clock <= budget + most, "budget.ends_within_time",
	       "the run took %llu ticks of a budget of %llu (one epoch at most %llu)",
	       (unsigned long long)clock, (unsigned long long)budget,
	       (unsigned long long)most);
	result(p[0].stop == EPOCH_STOP_SETTLED && p[0].epochs == BUDGET_FLOOR &&
	       p[2].stop == EPOCH_STOP_SETTLED && p[2].epochs == BUDGET_FLOOR_DEEP,
	       "budget.settled_pass_stops_at_its_floor",
	       "stop=%s after %u epochs, deep: stop=%s after %u",
	       epoch_stop_name(p[0].stop), p[0].epochs, epoch_stop_name(p[2].stop),
	       p[2].epochs);
	/* The open passes take the rest: what is left cannot pay two of their epochs. */
	result((p[1].stop == EPOCH_STOP_TIME || p[1].stop == EPOCH_STOP_EPOCHS) &&
	       p[3].stop == EPOCH_STOP_TIME && budget - clock < 2 * m[3].cost &&
	       p[3].epochs > BUDGET_FLOOR_DEEP,
	       "budget.open_question_gets_the_time_left",
	       "stops %s and %s, %llu ticks left, the costly open pass %u epochs",
	       epoch_stop_name(p[1].stop), epoch_stop_name(p[3].stop),
	       (unsigned long long)(budget > clock ? budget - clock : 0), p[3].epochs);
	for (k = 0; k < 4; k++)
		epochs += p[k].epochs & 1;
	result(epochs == 4, "budget.odd_epochs", "%u of 4 passes ended on an odd count", epochs);
	clock = run_budget(all_settle, p, 2, budget);
	result(p[0].stop == EPOCH_STOP_SETTLED && p[1].stop == EPOCH_STOP_SETTLED &&
	       clock == BUDGET_FLOOR * 20 + BUDGET_FLOOR_DEEP * 50,
	       "budget.settled_run_ends_early", "took %llu ticks of %llu",
	       (unsigned long long)clock, (unsigned long long)budget);
	/* A first round overrun by a costly pass: a cheap pass still gets its floor. */
	{
		static const struct model mixed[] = {
			{ 2, BUDGET_FLOOR, 0, 100 }, { 900, BUDGET_FLOOR_DEEP, 0, 100 },
		};

		run_budget(mixed, p, 2, 1000);
		result(p[0].epochs == BUDGET_FLOOR && p[0].stop == EPOCH_STOP_TIME &&
		       p[1].epochs == INTERVAL_EPOCHS_MIN && p[1].stop == EPOCH_STOP_TIME,
		       "budget.cheap_floor_after_overrun", "epochs %u (%s) and %u (%s)",
		       p[0].epochs, epoch_stop_name(p[0].stop), p[1].epochs,
		       epoch_stop_name(p[1].stop));
	}
	/*
	 * A cheap pass 40 epochs from settling beside a costly one whose
	 * question could not settle in the whole budget: the cheap one
	 * settles first, the costly one has the rest.
	 */
	{
		static const struct model close[] = {
			{ 20, BUDGET_FLOOR, 39, 40 }, { 200, BUDGET_FLOOR_DEEP, 0, 1000 },
		};

		clock = run_budget(close, p, 2, budget);
		result(p[0].stop == EPOCH_STOP_SETTLED && p[0].epochs == 39 &&
		       p[1].stop == EPOCH_STOP_TIME && budget - clock < 2 * close[1].cost,
		       "budget.cheapest_to_settle_first",
		       "cheap pass %u epochs (%s), costly %u (%s), %llu ticks left",
		       p[0].epochs, epoch_stop_name(p[0].stop), p[1].epochs,
		       epoch_stop_name(p[1].stop),
		       (unsigned long long)(budget > clock ? budget - clock : 0));
	}
	/* A budget the first round overruns: the first round, and nothing more. */
	clock = run_budget(costly, p, 2, 1000);
	result(p[0].epochs == INTERVAL_EPOCHS_MIN && p[1].epochs == INTERVAL_EPOCHS_MIN &&
	       p[0].stop == EPOCH_STOP_TIME && p[1].stop == EPOCH_STOP_TIME,
	       "budget.first_round_whatever_the_time", "epochs %u and %u, stops %s and %s",
	       p[0].epochs, p[1].epochs, epoch_stop_name(p[0].stop),
	       epoch_stop_name(p[1].stop));
}

/*
 * Rule 4 on a synthetic clock: a cheap pass beside a costly open one runs
 * its epochs spread over the whole budget, not in a burst at its start,
 * and stops settled only in its last quarter; one whose open question
 * needs more epochs than BUDGET_PACE is paced to them and settles.
 */
static void test_budget_pace(void)
{
	static const struct model settles[] = {
		{ 2, BUDGET_FLOOR, 3, 0 }, { 200, BUDGET_FLOOR_DEEP, 0, 1000 },
	};
	static const struct model needs[] = {
		{ 10, BUDGET_FLOOR, 39, 40 }, { 200, BUDGET_FLOOR_DEEP, 0, 1000 },
	};
	static uint64_t at[INTERVAL_EPOCHS_MAX];
	struct budget_pass p[2];
	uint64_t budget = 8000, clock;
	unsigned int e, quarter[4] = { 0 }, sparse = 0;

	clock = run_budget_at(settles, p, 2, budget, at);
	for (e = 0; e < p[0].epochs && e < INTERVAL_EPOCHS_MAX; e++)
		quarter[at[e] * 4 / budget < 4 ? at[e] * 4 / budget : 3]++;
	for (e = 0; e < 4; e++)
		sparse += quarter[e] < 3;
	result(!sparse && p[0].stop == EPOCH_STOP_SETTLED &&
	       4 * at[p[0].epochs - 1] >= 3 * budget &&
	       p[0].epochs <= BUDGET_PACE + 2,
	       "budget.paced_epochs_spread",
	       "%u epochs (%s), by quarter of the budget %u %u %u %u, the last at %llu of %llu",
	       p[0].epochs, epoch_stop_name(p[0].stop), quarter[0], quarter[1],
	       quarter[2], quarter[3], (unsigned long long)at[p[0].epochs - 1],
	       (unsigned long long)budget);
	result(p[1].stop == EPOCH_STOP_TIME && budget - clock < 2 * settles[1].cost &&
	       p[0].epochs * settles[0].cost <= budget / BUDGET_PACE_SHARE,
	       "budget.paced_costs_its_share",
	       "the paced pass took %u ticks, the costly one stopped %s with %llu ticks left",
	       p[0].epochs * (unsigned int)settles[0].cost, epoch_stop_name(p[1].stop),
	       (unsigned long long)(budget > clock ? budget - clock : 0));
	run_budget(needs, p, 2, budget);
	result(p[0].stop == EPOCH_STOP_SETTLED && p[0].epochs == 39,
	       "budget.paced_to_its_need", "%u epochs (%s)", p[0].epochs,
	       epoch_stop_name(p[0].stop));
}

/* --- racing on synthetic candidates -------------------------------------- */

#define PICK		0
#define NV_MAX		6
#define REF_TICKS	8000.0

struct scenario {
	const char *name;
	unsigned int nv;		/* the pick, then its candidates */
	double truth[NV_MAX];		/* each one's time over the pick's */
	int right;			/* the right routine; -1: keep */
};

struct machine {
	double run_sd, epoch_sd, own_sd;
};

static const struct machine shared = { 0.05, 0.03, 0.02 };

static bool ratio_of(void *ctx, unsigned int num, unsigned int den,
		     struct interval *iv)
{
	return figures_ratio(ctx, num, den, iv);
}

/*
 * One pass under the race, as harness/measure/suites/pass.c runs it: every
 * variant measured until the race stops it, the pass ended when settled
 * at its floor or at the most epochs.
 */
static void race_pass(const struct scenario *sc, const struct machine *mc,
		      unsigned int floor, unsigned int slot, struct pass_figures *pf)
{
	double run = 1 + mc->run_sd * normal();
	variant_set active = (1ull << sc->nv) - 1, cands = active & ~(1ull << PICK);
	struct race r = { .worth_bp = WORTH_BP };
	unsigned int e, i, rep;

	race_add(&r, PICK, cands);
	figures_begin(pf, slot, OP_CLEAR, "l2", 1, false);
	for (e = 1; e <= INTERVAL_EPOCHS_MAX; e++) {
		double epoch = run * (1 + mc->epoch_sd * normal());
		struct race_outcome rc;

		for (rep = 0; rep < EPOCH_REPS_MAX; rep++)
			for (i = 0; i < sc->nv; i++)
				if ((active >> i) & 1)
					figures_add(pf, i, (uint64_t)(REF_TICKS * sc->truth[i] * epoch *
								      (1 + mc->own_sd * normal())));
		figures_end_epoch(pf, active, 100);
		if (e < INTERVAL_EPOCHS_MIN || !(e & 1))
			continue;
		race_judge(&r, ratio_of, pf, e, &rc);
		if (!rc.open && e >= floor)
			return;
		active = race_keep(&rc, active, e, floor);
	}
}

/* The decision on the final intervals: the routine, -1 keep, -2 undecided. */
static int decision(const struct scenario *sc, const struct pass_figures *pf)
{
	uint64_t threshold = 1000000u - WORTH_BP * 100u;
	struct interval iv;
	int best = -1;
	bool reach = false;
	unsigned int i;
	uint64_t best_median = UINT64_MAX;

	for (i = 1; i < sc->nv; i++) {
		if (!figures_ratio(pf, i, PICK, &iv) || !iv.has_interval)
			return -2;
		if (iv.hi < threshold && iv.median < best_median) {
			best = (int)i;
			best_median = iv.median;
		}
		reach |= iv.lo < threshold;
	}
	return best >= 0 ? best : reach ? -2 : -1;
}

static void test_racing(const struct scenario *sc, int loser)
{
	enum { TRIALS = 400 };
	static struct pass_figures pf;
	unsigned int t, i, right = 0, loser_early = 0;
	double epochs[NV_MAX] = { 0 };
	char check[96];

	for (t = 0; t < TRIALS; t++) {
		race_pass(sc, &shared, BUDGET_FLOOR, 0, &pf);
		right += decision(sc, &pf) == sc->right;
		for (i = 0; i < sc->nv; i++)
			epochs[i] += figures_epochs(&pf, i);
		if (loser >= 0)
			loser_early += figures_epochs(&pf, (unsigned int)loser) == INTERVAL_EPOCHS_MIN;
	}
	printf("# race.%s: right %u of %u; mean epochs", sc->name, right, TRIALS);
	for (i = 0; i < sc->nv; i++)
		printf(" %.1f", epochs[i] / TRIALS);
	printf("\n");
	snprintf(check, sizeof(check), "race.%s.right_decision", sc->name);
	result(right >= TRIALS * 95 / 100, check, "right in %u of %u trials (want 95%%)",
	       right, TRIALS);
	if (loser >= 0) {
		snprintf(check, sizeof(check), "race.%s.clear_loser_stops_early", sc->name);
		result(loser_early >= TRIALS * 95 / 100, check,
		       "stopped after the first round in %u of %u trials", loser_early, TRIALS);
	}
}

static void test_races(void)
{
	static const struct scenario sw = {
		"switch", 5, { 1.0, 0.90, 0.95, 1.06, 2.0 }, 1,
	};
	static const struct scenario keep = {
		"keep", 4, { 1.0, 1.00, 1.06, 2.0 }, -1,
	};
	static struct pass_figures pf;
	double epochs[NV_MAX] = { 0 };
	unsigned int t, i;

	test_racing(&sw, 4);
	test_racing(&keep, 3);
	/* The closest calls: the pick and its two fastest candidates, 10% and 5% apart. */
	for (t = 0; t < 200; t++) {
		race_pass(&sw, &shared, BUDGET_FLOOR, 0, &pf);
		for (i = 0; i < sw.nv; i++)
			epochs[i] += figures_epochs(&pf, i);
	}
	result(epochs[1] > epochs[3] && epochs[1] > epochs[4] && epochs[2] > epochs[3] &&
	       epochs[2] > epochs[4] && epochs[0] >= epochs[1],
	       "race.closest_get_most_epochs",
	       "mean epochs of 0.90, 0.95, 1.06, 2.0: %.1f %.1f %.1f %.1f", epochs[1] / 200,
	       epochs[2] / 200, epochs[3] / 200, epochs[4] / 200);
}

/*
 * Two candidates 1% apart, both saving 20% (harness/decide/prefer.h): whichever
 * measures quicker, the answer and the race name the one earlier in the
 * table (stosb before stosl), trial after trial, and the race keeps
 * measuring it until the question settles.
 */
static void test_race_within_noise(void)
{
	enum { TRIALS = 400 };
	static const struct scenario near = {
		"within_noise", 3, { 1.0, 0.80, 0.79 }, 1,
	};
	static struct pass_figures pf;
	uint64_t threshold = 1000000u - WORTH_BP * 100u;
	unsigned int t, same = 0, kept = 0;

	for (t = 0; t < TRIALS; t++) {
		unsigned int wins[2], n = 0, i;
		struct interval iv;
		int at;

		race_pass(&near, &shared, BUDGET_FLOOR, 0, &pf);
		for (i = 1; i < near.nv; i++)
			if (figures_ratio(&pf, i, PICK, &iv) && iv.has_interval && iv.hi < threshold)
				wins[n++] = i;
		at = prefer_named(wins, n, threshold, ratio_of, &pf);
		same += at >= 0 && wins[at] == 1;
		kept += figures_epochs(&pf, 1) >= figures_epochs(&pf, 2);
	}
	printf("# race.within_noise: stosb named in %u of %u; measured at least as long in %u\n",
	       same, TRIALS, kept);
	result(same >= TRIALS * 95 / 100, "race.within_noise.same_name",
	       "stosb named in %u of %u trials (want 95%%)", same, TRIALS);
	result(kept == TRIALS, "race.within_noise.preferred_kept",
	       "stosb measured fewer epochs than stosl in %u of %u trials", TRIALS - kept, TRIALS);
}

/* --- calibration under racing -------------------------------------------- */

static void test_calibration(void)
{
	enum { TRIALS = 1000 };
	static const struct scenario sc = {
		"close", 4, { 1.0, 0.95, 0.965, 1.3 }, 1,
	};
	static struct pass_figures a, b;
	unsigned int t, inside = 0, named = 0;

	for (t = 0; t < TRIALS; t++) {
		struct interval ra, rb;
		int routine;

		race_pass(&sc, &shared, BUDGET_FLOOR, 0, &a);
		routine = decision(&sc, &a);
		if (routine < 0)
			routine = 1;	/* undecided or keep: the nearest challenger */
		if (!figures_ratio(&a, (unsigned int)routine, PICK, &ra) || !ra.has_interval)
			continue;
		/* The rerun: a machine of its own, its own racing. */
		race_pass(&sc, &shared, BUDGET_FLOOR, 1, &b);
		if (!figures_ratio(&b, (unsigned int)routine, PICK, &rb))
			continue;
		named++;
		inside += rb.median >= ra.lo && rb.median <= ra.hi;
	}
	printf("# race.calibration: a rerun's ratio inside %u of %u\n", inside, named);
	result(named > TRIALS * 9 / 10 && inside >= named * 90 / 100 &&
	       inside <= named * 98 / 100, "race.calibration",
	       "a rerun's ratio inside %u of %u times (want 90%% to 98%%)", inside, named);
}

/* --- progress ------------------------------------------------------------ */

/* This test is the host of harness/measure/progress.c: it shows nothing. */
void host_progress(const struct progress *p)
{
	(void)p;
}

static void test_progress(void)
{
	struct progress_clock c = { .tsc_khz = 1000, .total = 100, .budget_ms = 30000 };
	uint64_t ms, left;
	unsigned int percent, bad = 0;

	for (ms = 0; ms <= 90000; ms += 250) {
		progress_figures(&c, ms, &percent, &left);
		bad += percent > 100 || left > c.budget_ms ||
		       (ms >= c.budget_ms && (percent != 100 || left != 0));
	}
	result(!bad, "progress.time_budget", "%u of the readings above 100%% or past the budget", bad);
	/* Work units: epochs beyond the planned work, as in the 6070% of issue 27. */
	c.budget_ms = 0;
	for (c.done = 0; c.done <= 10000; c.done += 7) {
		progress_figures(&c, c.done * 10, &percent, &left);
		bad += percent > 100 ||
		       (left != PROGRESS_UNKNOWN && left > c.done * 10 * c.total);
	}
	result(!bad, "progress.past_the_plan", "%u readings above 100%% or a wrapped time", bad);
}

int main(void)
{
	test_budget();
	test_budget_pace();
	test_races();
	test_race_within_noise();
	test_calibration();
	test_progress();
	return check_exit();
}
