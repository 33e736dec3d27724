/* SPDX-License-Identifier: MIT */
/*
 * String tests for every layer: the kernel and the module have no libc,
 * and one definition serves them all.
 */
#ifndef PB_LIB_STR_H
#define PB_LIB_STR_H

#include <stdbool.h>

static inline bool str_eq(const char *a, const char *b)
{
	while (*a && *a == *b)
		a++, b++;
	return *a == *b;
}

/* Whether s ends with tail: an entry point's "_hot" or "_cold". */
static inline bool str_ends_with(const char *s, const char *tail)
{
	const char *a = s, *b = tail;

	while (*a)
		a++;
	while (*b)
		b++;
	return a - s >= b - tail && str_eq(a - (b - tail), tail);
}

#endif
