/* SPDX-License-Identifier: MIT */
/*
 * time='s race in one pass (pass_race.c, harness/decide/race.h): which
 * of its variants are still worth measuring, on the run's question list.
 */
#ifndef PB_PASS_RACE_H
#define PB_PASS_RACE_H

#include <stdbool.h>
#include "harness/decide/race.h"
#include "harness/measure/suites/figures.h"

struct pass_race {
	variant_set active;	/* still measured */
	bool open;		/* some question of its race is open */
	unsigned int need;	/* epochs its open questions are projected to need */
};

/* Epochs a pass runs under time= before it may stop settled. */
unsigned int pass_floor(enum pass_id id);

/*
 * time=: after an odd count of epochs from the first round on, the race
 * of the questions of q that the op of figs measures, their candidates
 * among runs (the variants that run, less those that failed), says what
 * pass id still measures (r->active): below its floor every variant an
 * answer names, from it those of the open questions. A variant it stops
 * measuring stops for good (stop=out, in figs).
 */
void pass_race(struct pass_race *r, const struct race_questions *q, unsigned int worth_bp,
	       enum pass_id id, variant_set runs, unsigned int epoch,
	       struct pass_figures *figs);

#endif
