// SPDX-License-Identifier: MIT
/*
 * kernel/boot/mem.c on made-up memory maps: what the buffers get, and the NUMA
 * case, a block from within one node's range, splitting a region.
 */
#include <stdint.h>
#include <string.h>
#include "kernel/boot/mem.h"
#include "tests/unit/check.h"

#define MIB (1ull << 20)

static void map(struct mem *m, const struct ram_region *r, unsigned int n)
{
	struct boot_info bi;

	memset(&bi, 0, sizeof(bi));
	memcpy(bi.ram, r, n * sizeof(*r));
	bi.nram = n;
	mem_init(m, &bi, 64ull << 30, 2 * MIB);
}

static uint64_t free_bytes(const struct mem *m)
{
	uint64_t t = 0;

	for (unsigned int i = 0; i < m->n; i++)
		t += m->free[i].len;
	return t;
}

int main(void)
{
	static const struct ram_region one[] = { { 1 * MIB, 1023 * MIB } };
	struct mem m;
	uintptr_t p, q;

	map(&m, one, 1);
	result(m.n == 1 && m.free[0].base == 2 * MIB && m.free[0].len == 1022 * MIB,
	       "mem.kernel_left_out", "n=%u base=0x%llx len=0x%llx", m.n,
	       (unsigned long long)m.free[0].base, (unsigned long long)m.free[0].len);

	/* From the middle: the block is inside the range, the rest stays free. */
	p = (uintptr_t)mem_alloc_within(&m, 64 * MIB, 512 * MIB, 1024 * MIB);
	result(p == 512 * MIB && m.n == 2 && free_bytes(&m) == 958 * MIB,
	       "mem.within_splits", "p=0x%llx n=%u free=%llu", (unsigned long long)p,
	       m.n, (unsigned long long)free_bytes(&m));
	q = (uintptr_t)mem_alloc_within(&m, 64 * MIB, 512 * MIB, 1024 * MIB);
	result(q == 576 * MIB, "mem.within_next", "q=0x%llx", (unsigned long long)q);
	/* Nothing of the range is handed out twice, or outside it. */
	result(!mem_alloc_within(&m, 512 * MIB, 512 * MIB, 1024 * MIB),
	       "mem.within_too_big", "a block larger than what is left in the range");
	p = (uintptr_t)mem_alloc_within(&m, 16 * MIB, 0, 64 * MIB);
	result(p == 2 * MIB, "mem.within_from_base", "p=0x%llx", (unsigned long long)p);
	result(!mem_alloc_within(&m, 4096, 2048ull * MIB, 4096ull * MIB),
	       "mem.within_outside_ram", "a range with no RAM");
	p = (uintptr_t)mem_alloc(&m, 8 * MIB);
	result(p && (p + 8 * MIB <= 512 * MIB || p >= 640 * MIB), "mem.alloc_not_overlapping",
	       "p=0x%llx", (unsigned long long)p);
	return check_exit();
}
