/* SPDX-License-Identifier: MIT */
/*
 * How far a run has come, in whatever work units its suite counts (pages
 * touched, batches, steps), and the estimate of the time left: one place
 * for every suite's progress figures (harness/host.h shows them).
 */
#ifndef PB_PROGRESS_H
#define PB_PROGRESS_H

#include <stdint.h>
#include "harness/host.h"

struct progress_clock {
	uint64_t tsc_khz;	/* 0: no times */
	uint64_t t_start;	/* TSC at the start of the suite */
	uint64_t done, total;	/* work units */
};

void progress_start(struct progress_clock *c, uint64_t tsc_khz, uint64_t total);

/*
 * Shows that the next work (of `units` units) is suite/pass/variant, rep
 * of reps, then counts it as done.
 */
void progress_next(struct progress_clock *c, const char *suite, const char *pass,
		   const char *variant, unsigned int rep, unsigned int reps,
		   uint64_t units);

#endif
