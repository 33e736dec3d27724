/* SPDX-License-Identifier: MIT */
#include "lib/sort.h"

#define SIGN_BIT	(1ull << 63)

void sort_u64(uint64_t *v, unsigned int n)
{
	unsigned int i, j;

	for (i = 1; i < n; i++)
		for (j = i; j && v[j - 1] > v[j]; j--) {
			uint64_t x = v[j];

			v[j] = v[j - 1];
			v[j - 1] = x;
		}
}

static void flip_sign_bits(uint64_t *v, unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		v[i] ^= SIGN_BIT;
}

void sort_i64(int64_t *v, unsigned int n)
{
	/* C lets an object be read through its type's unsigned twin (6.5p7). */
	uint64_t *u = (uint64_t *)v;

	flip_sign_bits(u, n);
	sort_u64(u, n);
	flip_sign_bits(u, n);
}
