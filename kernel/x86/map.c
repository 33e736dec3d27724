/* SPDX-License-Identifier: MIT */
/*
 * map_device() on the live page tables. Kept apart from paging.c, which
 * the host unit test builds and runs on tables of its own.
 */
#include "kernel/x86/paging.h"
#include "kernel/x86/x86.h"

uint32_t identity_mapped_gib;

/*
 * A framebuffer of up to 1 GiB straddles at most two page directories, and
 * may need a page-directory-pointer table of its own above 512 GiB.
 */
#define POOL_PAGES	4

static uint64_t pool_pages[POOL_PAGES][PT_ENTRIES] __attribute__((aligned(4096)));
static struct pt_pool pool = { pool_pages, POOL_PAGES, 0 };

#define CR0_WP		(1ull << 16)
#define CR4_LA57	(1ull << 12)

enum map_result map_device(uint64_t base, uint64_t len)
{
	uint64_t cr0 = read_cr0(), cr3 = read_cr3();
	uint64_t *top = (uint64_t *)(uintptr_t)(cr3 & PT_ADDR_MASK);
	enum map_result r;

	/*
	 * On UEFI these are the firmware's tables (boot/entry_efi.asm), which
	 * may be 5-level: every identity address lies under the first entry.
	 * The firmware always maps low memory, where it runs, so it is there.
	 */
	if (read_cr4() & CR4_LA57)
		top = (uint64_t *)(uintptr_t)(top[0] & PT_ADDR_MASK);
	/*
	 * PCD|PWT selects PAT entry 3, uncached as the CPU resets it: a device
	 * that no MTRR describes must not be cached write-back. CR0.WP off for
	 * the writes: a firmware may keep its page tables read-only.
	 */
	write_cr0(cr0 & ~CR0_WP);
	r = pt_map_identity(top, &pool, base, len, PT_WRITABLE | PT_PCD | PT_PWT);
	write_cr0(cr0);
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
