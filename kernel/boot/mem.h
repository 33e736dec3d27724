/* SPDX-License-Identifier: MIT */
/* Usable RAM for the benchmark buffers, handed out in pages, never freed. */
#ifndef PB_MEM_H
#define PB_MEM_H

#include <stdint.h>
#include "kernel/boot/boot_info.h"

struct mem {
	unsigned int n;
	struct ram_region free[RAM_MAX_REGIONS];
};

/* The usable RAM of bi below mapped_top, less [0, kernel_end). */
void mem_init(struct mem *m, const struct boot_info *bi, uint64_t mapped_top,
	      uint64_t kernel_end);
uint64_t mem_largest(const struct mem *m);
/* Page-aligned; NULL when no region has bytes left. */
void *mem_alloc(struct mem *m, uint64_t bytes);
/* The same, from within [lo, hi) only (a NUMA node's memory). */
void *mem_alloc_within(struct mem *m, uint64_t bytes, uint64_t lo, uint64_t hi);

#endif
