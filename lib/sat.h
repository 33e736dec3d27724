/* SPDX-License-Identifier: MIT */
/*
 * Additions that stop at the type's end instead of wrapping: a figure
 * near the top of its range (a corrupt log, a counter read wrong) must
 * keep a sum the largest, not turn it into a small one that an answer
 * would then take for the fastest. Every layer includes this; the
 * builtins need no libc.
 */
#ifndef PB_SAT_H
#define PB_SAT_H

#include <stdint.h>

static inline uint64_t sat_add_u64(uint64_t a, uint64_t b)
{
	uint64_t s;

	return __builtin_add_overflow(a, b, &s) ? UINT64_MAX : s;
}

static inline int64_t sat_add_i64(int64_t a, int64_t b)
{
	int64_t s;

	if (!__builtin_add_overflow(a, b, &s))
		return s;
	return b > 0 ? INT64_MAX : INT64_MIN;
}

#endif
