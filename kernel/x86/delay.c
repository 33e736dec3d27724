/* SPDX-License-Identifier: MIT */
#include "kernel/x86/delay.h"
#include "kernel/x86/x86.h"

/* Faster than any TSC there is (refclock.c bounds its waits the same way). */
#define TSC_KHZ_MAX	10000000ull
#define US_PER_MS	1000ull

static uint64_t khz = TSC_KHZ_MAX;

void delay_init(uint64_t tsc_khz)
{
	khz = tsc_khz ? tsc_khz : TSC_KHZ_MAX;
}

uint64_t delay_ticks_us(uint64_t us)
{
	return us * khz / US_PER_MS;
}

uint64_t delay_ticks_ms(uint64_t ms)
{
	return ms * khz;
}

uint64_t delay_ms_of(uint64_t ticks)
{
	return ticks / khz;
}

void delay_us(uint64_t us)
{
	uint64_t end = rdtsc_ordered() + delay_ticks_us(us);

	while (rdtsc_ordered() < end)
		cpu_relax();
}

bool delay_wait_flag(volatile uint32_t *flag, uint64_t ms)
{
	uint64_t end = rdtsc_ordered() + delay_ticks_ms(ms);

	while (!__atomic_load_n(flag, __ATOMIC_ACQUIRE)) {
		if (rdtsc_ordered() > end)
			return false;
		cpu_relax();
	}
	return true;
}
