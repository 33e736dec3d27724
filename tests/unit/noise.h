/* SPDX-License-Identifier: MIT */
/*
 * Seeded noise for the tests that simulate runs (test_interval, test_race):
 * the same figures on every machine, so a test asserts arithmetic, never
 * luck. Each program seeds its own stream (NOISE_SEED before the include).
 */
#ifndef PB_TEST_NOISE_H
#define PB_TEST_NOISE_H

#include <stdint.h>

#ifndef NOISE_SEED
#error "define NOISE_SEED, the test's own seed, before including noise.h"
#endif

static uint64_t rng = NOISE_SEED;

/* xorshift64: uniform in [0, 1). */
static double uniform(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return (double)(rng >> 11) / (double)(1ull << 53);
}

/* A standard normal value, near enough: twelve uniforms less six (Irwin-Hall). */
static double __attribute__((unused)) normal(void)
{
	double s = -6;
	int i;

	for (i = 0; i < 12; i++)
		s += uniform();
	return s;
}

#endif
