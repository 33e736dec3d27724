// SPDX-License-Identifier: MIT
/* The dependent-load chain of cpu/hot_load.h. */
#include "cpu/hot_load.h"
#include "cpu/insn.h"

#define CHAIN_UNROLL	10	/* loads per loop trip: the branch is noise */

/* Points at itself: each load's address is the load before it. */
static void *volatile hot_line = (void *)&hot_line;

static uint64_t chain(void)
{
	void *p = hot_line;
	unsigned long trips = HOT_LOADS / CHAIN_UNROLL;
	uint64_t t0, t1;

	t0 = rdtsc_ordered();
	asm volatile("1:\n\t"
		     ".rept %c[unroll]\n\t"
		     "mov (%[p]), %[p]\n\t"
		     ".endr\n\t"
		     "dec %[trips]\n\t"
		     "jnz 1b"
		     : [p] "+r"(p), [trips] "+r"(trips)
		     : [unroll] "i"(CHAIN_UNROLL)
		     : "memory", "cc");
	t1 = rdtsc_ordered();
	return t1 - t0;
}

uint64_t hot_load_ticks(void)
{
	uint64_t best = UINT64_MAX;
	unsigned int i;

	/* An interrupt or a preempted vCPU lengthens a chain, never shortens it. */
	for (i = 0; i < HOT_LOAD_TRIES; i++) {
		uint64_t t = chain();

		if (t < best)
			best = t;
	}
	return best;
}

uint64_t hot_load_cns(uint64_t ticks, uint64_t tsc_khz)
{
	/* ticks / HOT_LOADS / (tsc_khz / 10^6 ticks a ns), times 100. */
	if (!tsc_khz)
		return 0;
	return (ticks * (100000000ull / HOT_LOADS) + tsc_khz / 2) / tsc_khz;
}

enum hot_load_runner hot_load_runner(uint64_t ticks, uint64_t tsc_khz, bool tcg)
{
	if (tcg)
		return HOT_LOAD_TCG;
	if (!tsc_khz || !ticks)
		return HOT_LOAD_UNKNOWN;
	return hot_load_cns(ticks, tsc_khz) > HOT_LOAD_CPU_MAX_CNS ?
	       HOT_LOAD_EMULATOR : HOT_LOAD_CPU;
}
