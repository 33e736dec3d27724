/* SPDX-License-Identifier: MIT */
/*
 * String equality for every layer: the kernel and the module have no
 * libc, and one definition serves them all.
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

#endif
