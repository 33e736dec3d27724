/* SPDX-License-Identifier: MIT */
/*
 * The TSC as a timer: how fine a time it shows. Every timed region is an
 * LFENCE;RDTSC pair, so its figure is a multiple of the counter's step,
 * never below the narrowest pair. suite=strings prints it on its `strings
 * tsc` line, the page suites on their `tsc step` line, and the batches of
 * harness/stats/interval.h are sized from it.
 */
#ifndef PB_TIMER_H
#define PB_TIMER_H

#include <stdint.h>

#define TIMER_READS	1000	/* pairs of reads behind each figure */
/* Where the TSC rate is unknown, times in ms assume a 4 GHz TSC. */
#define TIMER_TICKS_PER_MS_UNKNOWN 4000000ull

struct timer_res {
	/*
	 * The usual advance between two consecutive RDTSCs that differ (the
	 * median of TIMER_READS): the counter's own step (26 ticks on this
	 * project's AMD VM, whose TSC is scaled; there a step is now and then
	 * a tick longer or shorter, so no smallest one or common divisor says
	 * it), or the time one RDTSC takes where that is longer. 0 when the
	 * counter stood still.
	 */
	uint64_t step;
	uint64_t region;	/* the narrowest LFENCE;RDTSC pair */
	unsigned int reads;
};

void timer_measure(struct timer_res *t);

#endif
