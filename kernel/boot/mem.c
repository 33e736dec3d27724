/* SPDX-License-Identifier: MIT */
#include <stddef.h>
#include "kernel/boot/mem.h"

#define PAGE 4096ull

void mem_init(struct mem *m, const struct boot_info *bi, uint64_t mapped_top,
	      uint64_t kernel_end)
{
	unsigned int i;

	m->n = 0;
	for (i = 0; i < bi->nram; i++) {
		uint64_t base = bi->ram[i].base;
		uint64_t end = base + bi->ram[i].len;

		/* Below the kernel's end lie the kernel, BIOS data and the MBI. */
		if (base < kernel_end)
			base = kernel_end;
		if (end > mapped_top)
			end = mapped_top;
		base = (base + PAGE - 1) & ~(PAGE - 1);
		end &= ~(PAGE - 1);
		if (end <= base)
			continue;
		m->free[m->n].base = base;
		m->free[m->n].len = end - base;
		m->n++;
	}
}

uint64_t mem_largest(const struct mem *m)
{
	uint64_t best = 0;
	unsigned int i;

	for (i = 0; i < m->n; i++)
		if (m->free[i].len > best)
			best = m->free[i].len;
	return best;
}

void *mem_alloc(struct mem *m, uint64_t bytes)
{
	struct ram_region *best = NULL;
	unsigned int i;
	void *p;

	bytes = (bytes + PAGE - 1) & ~(PAGE - 1);
	/* The smallest region that fits keeps the large ones for large passes. */
	for (i = 0; i < m->n; i++)
		if (m->free[i].len >= bytes && (!best || m->free[i].len < best->len))
			best = &m->free[i];
	if (!best || !bytes)
		return NULL;
	p = (void *)(uintptr_t)best->base;
	best->base += bytes;
	best->len -= bytes;
	return p;
}

void *mem_alloc_within(struct mem *m, uint64_t bytes, uint64_t lo, uint64_t hi)
{
	unsigned int i;

	bytes = (bytes + PAGE - 1) & ~(PAGE - 1);
	lo = (lo + PAGE - 1) & ~(PAGE - 1);
	for (i = 0; i < m->n && bytes; i++) {
		struct ram_region *r = &m->free[i];
		uint64_t start = r->base > lo ? r->base : lo;
		uint64_t end = r->base + r->len < hi ? r->base + r->len : hi;

		if (end <= start || end - start < bytes)
			continue;
		if (start == r->base) {
			r->base += bytes;
			r->len -= bytes;
			return (void *)(uintptr_t)start;
		}
		/* From the middle of a region: what lies past it becomes a region of its own. */
		if (start + bytes < r->base + r->len) {
			if (m->n == RAM_MAX_REGIONS)
				continue;
			m->free[m->n].base = start + bytes;
			m->free[m->n].len = r->base + r->len - (start + bytes);
			m->n++;
		}
		r->len = start - r->base;
		return (void *)(uintptr_t)start;
	}
	return NULL;
}
