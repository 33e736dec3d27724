/* SPDX-License-Identifier: MIT */
/*
 * Identity mappings added after boot: boot/entry32.asm maps RAM and the
 * first 4 GiB, but a device (a UEFI framebuffer) may lie above all of that.
 */
#ifndef PB_PAGING_H
#define PB_PAGING_H

#include <stdbool.h>
#include <stdint.h>

#define PT_ENTRIES	512
#define PT_PRESENT	(1ull << 0)
#define PT_WRITABLE	(1ull << 1)
#define PT_PWT		(1ull << 3)
#define PT_PCD		(1ull << 4)
#define PT_LARGE	(1ull << 7)	/* a 2 MiB (PD) or 1 GiB (PDPT) page */
#define PT_ADDR_MASK	0x000ffffffffff000ull
#define PAGE_2M		(1ull << 21)
/* Identity mapping needs canonical lower-half addresses: 4-level paging. */
#define IDENTITY_LIMIT	(1ull << 47)

enum map_result {
	MAP_OK,
	MAP_OUT_OF_TABLES,	/* the pool of page tables is used up */
	MAP_BEYOND_LIMIT,	/* not below IDENTITY_LIMIT */
};

/* Where new page tables come from: pages whose address is their content. */
struct pt_pool {
	uint64_t (*pages)[PT_ENTRIES];
	unsigned int n, used;
};

/*
 * Identity-map [base, base + len) in the tree at pml4 with 2 MiB pages of
 * attributes flags, taking tables from pool. What is mapped already stays
 * as it is: every mapping here is an identity mapping.
 */
enum map_result pt_map_identity(uint64_t *pml4, struct pt_pool *pool,
				uint64_t base, uint64_t len, uint64_t flags);

/* The 2 MiB page entry that maps addr, or NULL (unmapped, or a 1 GiB page). */
uint64_t *pt_entry_2m(uint64_t *pml4, uint64_t addr);

/* The same in the live tables, uncached (a device), TLB flushed. */
/*
 * The kernel runs on page tables that identity-map [0, this many GiB):
 * boot/entry32.asm's on a BIOS, kernel/efi/efi.c's on UEFI.
 */
extern uint32_t identity_mapped_gib;

enum map_result map_device(uint64_t base, uint64_t len);
/*
 * Registers that must be uncached whatever the MTRRs say (the local
 * APIC): as map_device(), and a 2 MiB page already mapped turns uncached.
 */
enum map_result map_device_uncached(uint64_t base, uint64_t len);
const char *map_result_name(enum map_result r);

/* selftest=map: map_device() far above RAM, checked (kernel/x86/map_selftest.c). */
void map_selftest(void);

#endif
