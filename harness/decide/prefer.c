/* SPDX-License-Identifier: MIT */
/* Naming among routines within noise (harness/decide/prefer.h). */
#include "harness/decide/prefer.h"

unsigned int prefer_rank(enum variant_regs regs, unsigned int index)
{
	return (regs == REGS_VEC ? VARIANTS_MAX : 0) + index;
}

void prefer_sort(unsigned int *idx, unsigned int *key, unsigned int n)
{
	unsigned int i, at, x, k;

	for (i = 1; i < n; i++) {
		x = idx[i];
		k = key[i];
		for (at = i; at && key[at - 1] > k; at--) {
			idx[at] = idx[at - 1];
			key[at] = key[at - 1];
		}
		idx[at] = x;
		key[at] = k;
	}
}

int prefer_named(const unsigned int *order, unsigned int n, uint64_t threshold,
		 prefer_ratio_fn *ratio, void *ctx)
{
	unsigned int c, o;

	for (c = 0; c < n; c++) {
		bool beaten = false;

		for (o = 0; o < n && !beaten; o++) {
			struct interval iv;

			beaten = o != c && ratio(ctx, order[o], order[c], &iv) &&
				 iv.has_interval && iv.hi < threshold;
		}
		if (!beaten)
			return (int)c;
	}
	return -1;
}
