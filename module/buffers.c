// SPDX-License-Identifier: MIT
/*
 * The run's buffers, from the page allocator. Up to the largest block it
 * hands out (4 MiB on x86-64) a buffer is one block of the direct map,
 * where the kernel's own clear_page() callers find their pages; larger ones
 * are vmalloc_huge() areas, pages of the allocator mapped contiguously
 * (2 MiB mappings where it found 2 MiB pages, 4 KiB ones otherwise).
 */
#include <linux/gfp.h>
#include <linux/kernel.h>
#include <linux/mm.h>
#include <linux/mmzone.h>
#include <linux/vmalloc.h>
#include "module/kernel.h"

/* Fails rather than reclaiming or warning hard: a benchmark takes what is free. */
#define BUFFER_GFP	(GFP_KERNEL | __GFP_NOWARN | __GFP_NORETRY)

static bool fits_one_block(size_t bytes)
{
	return get_order(bytes) < MAX_ORDER;
}

void *pbk_buffer_alloc(size_t bytes, char *how, size_t howlen)
{
	void *p;

	if (fits_one_block(bytes)) {
		unsigned int order = get_order(bytes);

		p = (void *)__get_free_pages(BUFFER_GFP, order);
		if (p) {
			snprintf(how, howlen, "alloc_pages order=%u", order);
			return p;
		}
		/* Free memory too fragmented for one block: pages will do. */
	}
	p = vmalloc_huge(bytes, BUFFER_GFP);
	if (p) {
		snprintf(how, howlen, "vmalloc_huge%s", fits_one_block(bytes) ?
			 " (no free block of this order)" : "");
		return p;
	}
	snprintf(how, howlen,
		 "the page allocator has not that much free memory (alloc_pages and vmalloc_huge failed); a smaller plan (passes=) needs less");
	return NULL;
}

void pbk_buffer_free(void *p, size_t bytes)
{
	if (!p)
		return;
	if (is_vmalloc_addr(p))
		vfree(p);
	else
		free_pages((unsigned long)p, get_order(bytes));
}
