/* SPDX-License-Identifier: MIT */
/* Where a pass's data lives in the buffers (layout.c). */
#ifndef PB_LAYOUT_H
#define PB_LAYOUT_H

#include <stddef.h>
#include <stdint.h>
#include "harness/measure/plan.h"

/*
 * Where a pass's data lives in the work area, from base: a guard page,
 * then per slot src, guard, dst, guard for a copy, dst, guard for a clear
 * (src is NULL). A batch of calls uses one slot per call.
 */
struct layout {
	uint8_t *src, *dst;	/* slot 0's */
	size_t bytes;
	size_t stride;		/* from one slot to the next */
	unsigned int slots;
};

struct layout layout_of(const struct plan *p, uint8_t *base, enum op op,
			size_t bytes);
/* Pass id's layout from base: with placements, one slot per placement. */
struct layout pass_layout(const struct plan *p, uint8_t *base, enum op op,
			  enum pass_id id);
struct layout layout_slot(const struct layout *l, unsigned int j);
size_t layout_span(const struct layout *l, const uint8_t *base);
uint64_t iteration_pages(const struct plan *p, enum pass_id id);

#endif
