/* SPDX-License-Identifier: MIT */
/*
 * time=: one time budget for a whole run of the page suites, shared
 * between the passes by need (docs/method.md, "One time budget"). The
 * passes take turns an epoch at a time; which goes next, and which stops
 * and why, is decided here, on a clock the caller reads, so that
 * tests/unit/test_race.c runs the rule on a synthetic one:
 *
 *   1. the first round: until every pass has INTERVAL_EPOCHS_MIN epochs,
 *      the pass with the fewest goes next, whatever the time;
 *   2. a pass with an even count of epochs goes on to the next odd one
 *      (an interval needs an odd count), whatever the time;
 *   3. then a pass stops: settled, once its race (harness/decide/race.h) has no
 *      open question and it has its floor of epochs (a paced pass: and
 *      no slot left in the budget for its next pair); epochs, at
 *      INTERVAL_EPOCHS_MAX; time, where two more of its epochs, at the
 *      last one's length, would end beyond the budget, unless it is
 *      below its floor and the epochs to it cost at most an even share
 *      of the budget (budget / passes);
 *   4. a paced pass whose next epoch is due: one whose BUDGET_PACE
 *      epochs (or the epochs its open questions are projected to need,
 *      where more) cost at most 1/BUDGET_PACE_SHARE of the budget (an L1
 *      or L2 pass, milliseconds an epoch) runs them a slot (the budget
 *      over that count) apart, neither sooner nor in a burst, so that its
 *      epochs sample the machine over the whole run as a rerun's will
 *      (its interval then holds what changes over it, and the answer's
 *      drift compares its first half of the run with its last);
 *   5. of the other passes, one below its floor first (the fewest epochs
 *      over its floor); then, of those whose open questions could settle
 *      in the time left (the epochs they are projected to need, at the
 *      last epoch's length), the cheapest to settle: an L1 pass a few
 *      milliseconds of epochs from a decision before an L3 pass that
 *      would need minutes;
 *   6. else the one furthest from what it needs: the fewest epochs over
 *      the epochs it is projected to need, so that the closest calls get
 *      the most epochs;
 *   7. where only paced passes are left, none of them due, the one due
 *      first: the budget is not left idle (where the L3 and MEM passes
 *      have all stopped early, the paced ones then run as they come).
 *
 * Past the first round no pass starts two epochs the budget cannot
 * afford at their last length, but for the cheap floors of rule 3: a run
 * whose first round fits ends within its budget, plus what one epoch
 * took beyond its estimate.
 */
#ifndef PB_BUDGET_H
#define PB_BUDGET_H

#include <stdbool.h>
#include <stdint.h>
#include "harness/measure/epochs.h"

/*
 * The floor: the epochs a pass runs before it may stop settled, so that
 * a question is not decided on the few epochs that happened to agree
 * (docs/method.md, "One time budget"); the L3 and MEM passes' floor
 * brings their interval factor f(E) from 4.08 at 3 epochs to 1.33.
 */
#define BUDGET_FLOOR		5
#define BUDGET_FLOOR_DEEP	9

/*
 * Rule 4's pace: the epochs a paced pass spreads over the budget, at
 * least, and the most of the budget they may cost, in
 * 1/BUDGET_PACE_SHARE, for the pass to be paced (at time=30s: epochs of
 * up to 60 ms; 30 ms where 63 epochs are needed).
 */
#define BUDGET_PACE		31
#define BUDGET_PACE_SHARE	16

struct budget_pass {
	unsigned int epochs;	/* ended */
	unsigned int floor;	/* epochs before it may stop settled */
	uint64_t last;		/* ticks its last epoch took */
	bool open;		/* some question of its race is open */
	unsigned int need;	/* epochs its open questions are projected to need */
	enum epoch_stop stop;	/* EPOCH_GO_ON while it runs */
};

/*
 * The pass to run next, or n when every pass has stopped; passes that
 * stop now get their stop. elapsed and budget in ticks.
 */
unsigned int budget_next(struct budget_pass *p, unsigned int n, uint64_t elapsed,
			 uint64_t budget);

#endif
