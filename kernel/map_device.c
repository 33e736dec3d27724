/* SPDX-License-Identifier: MIT */
/*
 * map_device() on the live page tables. Kept apart from paging.c, which
 * the host unit test builds and runs on tables of its own.
 */
#include "paging.h"
#include "x86.h"

/*
 * A framebuffer of up to 1 GiB straddles at most two page directories, and
 * may need a page-directory-pointer table of its own above 512 GiB.
 */
#define POOL_PAGES	4

static uint64_t pool_pages[POOL_PAGES][PT_ENTRIES] __attribute__((aligned(4096)));
static struct pt_pool pool = { pool_pages, POOL_PAGES, 0 };

enum map_result map_device(uint64_t base, uint64_t len)
{
	uint64_t cr3 = read_cr3();
	enum map_result r;

	/*
	 * PCD|PWT selects PAT entry 3, uncached as the CPU resets it: a device
	 * that no MTRR describes must not be cached write-back.
	 */
	r = pt_map_identity((uint64_t *)(uintptr_t)(cr3 & PT_ADDR_MASK), &pool, base, len,
			    PT_WRITABLE | PT_PCD | PT_PWT);
	write_cr3(cr3);		/* no stale translations of what changed */
	return r;
}

enum map_result map_device_uncached(uint64_t base, uint64_t len)
{
	uint64_t cr3 = read_cr3(), addr, *e;
	enum map_result r = map_device(base, len);

	if (r != MAP_OK)
		return r;
	for (addr = base & ~(PAGE_2M - 1); addr < base + len; addr += PAGE_2M) {
		e = pt_entry_2m((uint64_t *)(uintptr_t)(cr3 & PT_ADDR_MASK), addr);
		if (e)
			*e |= PT_PCD | PT_PWT;
	}
	write_cr3(cr3);
	return MAP_OK;
}
