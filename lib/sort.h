/* SPDX-License-Identifier: MIT */
/*
 * The one sort of the harness, for the medians and minima of a few
 * hundred figures at most: an insertion sort, in place, which needs no
 * memory and no libc in the kernel.
 */
#ifndef PB_SORT_H
#define PB_SORT_H

#include <stdint.h>

void sort_u64(uint64_t *v, unsigned int n);

/*
 * Signed figures (ticks less an overhead may be below 0) through the same
 * sort: flipping the sign bit maps int64_t's order onto uint64_t's
 * (INT64_MIN to 0, -1 to 2^63 - 1, 0 to 2^63, INT64_MAX to 2^64 - 1), and
 * flipping it again gives the values back.
 */
void sort_i64(int64_t *v, unsigned int n);

#endif
