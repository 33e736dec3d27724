/* SPDX-License-Identifier: MIT */
/*
 * A page pass's buffers (harness/measure/suites/layout.h):
 * the slots a batch of calls needs, or the L3 and MEM passes' placements
 * (harness/measure/plan.h), each between guard pages, and the pages an iteration
 * touches, which progress counts.
 */
#include "harness/measure/suites/layout.h"

#define PAGE PAGE_SIZE

/* Work units for progress: a page touched by an iteration. */
#define COLD_PAGES (COPY_COLD_BYTES / PAGE)

struct layout layout_of(const struct plan *p, uint8_t *base, enum op op,
			size_t bytes)
{
	struct layout l = { NULL, base + PAGE, bytes, bytes + PAGE, 1 };

	if (op == OP_COPY) {
		l.src = l.dst;
		l.dst = l.src + bytes + PAGE;
		l.stride *= 2;
	}
	if (p->stats && p->batch_room / l.stride > 1)
		l.slots = p->batch_room / l.stride;
	if (l.slots > BATCH_MAX)
		l.slots = BATCH_MAX;
	return l;
}

struct layout pass_layout(const struct plan *p, uint8_t *base, enum op op,
			  enum pass_id id)
{
	struct layout l = layout_of(p, base, op, pass_bytes(p, id, op));

	if (p->placements[id] > 1)
		l.slots = p->placements[id];
	return l;
}

/* Slot j alone, as a layout of one slot. */
struct layout layout_slot(const struct layout *l, unsigned int j)
{
	struct layout s = *l;

	s.dst += j * l->stride;
	if (s.src)
		s.src += j * l->stride;
	s.slots = 1;
	return s;
}

/* The bytes from base to the last slot's last guard page. */
size_t layout_span(const struct layout *l, const uint8_t *base)
{
	return (size_t)(l->dst - base) + (l->slots - 1) * l->stride + l->bytes + PAGE;
}

/* Pages one iteration of pass id touches: its fill, or one page each way. */
uint64_t iteration_pages(const struct plan *p, enum pass_id id)
{
	switch (passes[id].kind) {
	case KIND_TIMED:
		return p->nr[id];
	case KIND_HOT:
		return 2;
	case KIND_HOTBUF:
		return p->nr[id] / 2;
	case KIND_COLD:
		return 2 + 2 * COLD_PAGES;
	}
	return 1;
}
