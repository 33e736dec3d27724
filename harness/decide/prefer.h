/* SPDX-License-Identifier: MIT */
/*
 * Which of several routines that each save worth over a kernel's pick
 * the answer names (docs/method.md, "Within noise"). A maintainer takes
 * the simplest routine that does the job: no vector registers before
 * vector registers (no kernel_fpu_begin/end), then the table's order,
 * narrower stores before wider ones. A routine later in that order is
 * named only where its time over the earlier one's, epoch by epoch,
 * surely saves worth (hi < 1 - worth); a lower median alone, within
 * the noise, names nothing. So two reruns that both find AVX and
 * AVX-512 stores alike name the same one, whichever measured quicker.
 *
 * Pure and in integers: the answer (harness/decide/answer.c) and the race
 * that decides what a pass still measures (harness/decide/race.c) name alike.
 */
#ifndef PB_PREFER_H
#define PB_PREFER_H

#include <stdbool.h>
#include <stdint.h>
#include "harness/stats/interval.h"
#include "variants/variants.h"

/* num's time over den's, epoch by epoch, in millionths; false where there is none. */
typedef bool prefer_ratio_fn(void *ctx, unsigned int num, unsigned int den,
			     struct interval *iv);

/* A routine's place in the preference: lower first. index: its table's. */
unsigned int prefer_rank(enum variant_regs regs, unsigned int index);

/*
 * Puts idx[0..n) in the order of preference, key[k] the prefer_rank() of
 * idx[k], both arrays alike; stable, so equal keys keep their order.
 */
void prefer_sort(unsigned int *idx, unsigned int *key, unsigned int n);

/*
 * Of the n routines in order (each its index for ratio, by rank, lowest
 * first), the position of the first that none of the others beats by
 * worth (threshold: 1 - worth in millionths); -1 where every one is
 * beaten (a cycle of noise: the caller names its lowest median).
 */
int prefer_named(const unsigned int *order, unsigned int n, uint64_t threshold,
		 prefer_ratio_fn *ratio, void *ctx);

#endif
