/* SPDX-License-Identifier: MIT */
#include "cpu/insn.h"
#include "lib/sort.h"
#include "harness/measure/timer.h"

#define TIMER_SPIN_MAX	1000000	/* reads that may return one value */

static inline uint64_t rdtsc_plain(void)
{
	uint32_t lo, hi;

	asm volatile("rdtsc" : "=a"(lo), "=d"(hi));
	return ((uint64_t)hi << 32) | lo;
}

void timer_measure(struct timer_res *t)
{
	static uint64_t steps[TIMER_READS];
	uint64_t region = UINT64_MAX;
	unsigned int i;

	for (i = 0; i < TIMER_READS; i++) {
		uint64_t a = rdtsc_plain(), b = rdtsc_plain();
		unsigned int spins = 0;

		/* A counter that stands still gives up, and a step of 0. */
		while (b == a && ++spins < TIMER_SPIN_MAX)
			b = rdtsc_plain();
		steps[i] = b - a;
		a = rdtsc_ordered();
		b = rdtsc_ordered();
		if (b - a < region)
			region = b - a;
	}
	sort_u64(steps, TIMER_READS);
	t->step = steps[TIMER_READS / 2];
	t->region = region;
	t->reads = TIMER_READS;
}
