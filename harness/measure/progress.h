/* SPDX-License-Identifier: MIT */
/*
 * How far a run has come, in whatever work units its suite counts (pages
 * touched, batches, steps), and the estimate of the time left: one place
 * for every suite's progress figures (harness/measure/host.h shows them).
 */
#ifndef PB_PROGRESS_H
#define PB_PROGRESS_H

#include <stdint.h>
#include "harness/measure/host.h"

struct progress_clock {
	uint64_t tsc_khz;	/* 0: no times */
	uint64_t t_start;	/* TSC at the start of the suite */
	uint64_t done, total;	/* work units */
	uint64_t budget_ms;	/* time=: the run's time budget; 0: none */
};

void progress_start(struct progress_clock *c, uint64_t tsc_khz, uint64_t total,
		    uint64_t budget_ms);

/*
 * What progress shows elapsed_ms into the run: the percent, 0 to 100,
 * and the time left (PROGRESS_UNKNOWN: no estimate). With a time budget
 * both come from it; otherwise from the work units, and past the planned
 * work (epochs the plan could not foresee) 100% and no estimate, never
 * more, never a time from a negative count.
 */
void progress_figures(const struct progress_clock *c, uint64_t elapsed_ms,
		      unsigned int *percent, uint64_t *left_ms);

/*
 * Shows that the next work (of `units` units) is suite/pass/variant, rep
 * of reps, then counts it as done.
 */
void progress_next(struct progress_clock *c, const char *suite, const char *pass,
		   const char *variant, unsigned int rep, unsigned int reps,
		   uint64_t units);

/* The percent progress_next() showed last: how far a run cut short came. */
unsigned int progress_percent(void);

#endif
