/* SPDX-License-Identifier: MIT */
#include "kernel/x86/paging.h"

#define PML4_SHIFT	39
#define PDPT_SHIFT	30
#define PD_SHIFT	21
#define INDEX(addr, shift)	(((addr) >> (shift)) & (PT_ENTRIES - 1))
#define TABLE_FLAGS	(PT_PRESENT | PT_WRITABLE)

static uint64_t *table_at(uint64_t entry)
{
	return (uint64_t *)(uintptr_t)(entry & PT_ADDR_MASK);
}

static void zero_table(uint64_t *t)
{
	unsigned int i;

	for (i = 0; i < PT_ENTRIES; i++)
		t[i] = 0;
}

/* The table entry *e points to, made from the pool if there is none. */
static uint64_t *next_table(uint64_t *e, struct pt_pool *pool)
{
	uint64_t *t;

	if (*e & PT_PRESENT)
		return table_at(*e);
	if (pool->used == pool->n)
		return 0;
	t = pool->pages[pool->used++];
	zero_table(t);
	*e = (uint64_t)(uintptr_t)t | TABLE_FLAGS;
	return t;
}

enum map_result pt_map_identity(uint64_t *pml4, struct pt_pool *pool,
				uint64_t base, uint64_t len, uint64_t flags)
{
	uint64_t addr = base & ~(PAGE_2M - 1);
	uint64_t end = base + len;

	if (end < base || end > IDENTITY_LIMIT)
		return MAP_BEYOND_LIMIT;
	for (; addr < end; addr += PAGE_2M) {
		uint64_t *pdpt, *pd, *pdpte;

		pdpt = next_table(&pml4[INDEX(addr, PML4_SHIFT)], pool);
		if (!pdpt)
			return MAP_OUT_OF_TABLES;
		pdpte = &pdpt[INDEX(addr, PDPT_SHIFT)];
		if ((*pdpte & (PT_PRESENT | PT_LARGE)) == (PT_PRESENT | PT_LARGE))
			continue;	/* inside a 1 GiB page already */
		pd = next_table(pdpte, pool);
		if (!pd)
			return MAP_OUT_OF_TABLES;
		if (!(pd[INDEX(addr, PD_SHIFT)] & PT_PRESENT))
			pd[INDEX(addr, PD_SHIFT)] = addr | flags | PT_LARGE | PT_PRESENT;
	}
	return MAP_OK;
}

uint64_t *pt_entry_2m(uint64_t *pml4, uint64_t addr)
{
	uint64_t *e = &pml4[INDEX(addr, PML4_SHIFT)];

	if (addr >= IDENTITY_LIMIT || !(*e & PT_PRESENT))
		return 0;
	e = &table_at(*e)[INDEX(addr, PDPT_SHIFT)];
	if ((*e & (PT_PRESENT | PT_LARGE)) != PT_PRESENT)
		return 0;
	e = &table_at(*e)[INDEX(addr, PD_SHIFT)];
	return (*e & (PT_PRESENT | PT_LARGE)) == (PT_PRESENT | PT_LARGE) ? e : 0;
}

const char *map_result_name(enum map_result r)
{
	switch (r) {
	case MAP_OK:
		return "mapped";
	case MAP_OUT_OF_TABLES:
		return "out of page tables";
	case MAP_BEYOND_LIMIT:
		return "beyond the identity-mappable 128 TiB";
	}
	return "?";
}
