/* SPDX-License-Identifier: MIT */
/* Memory of one NUMA node, as the ACPI SRAT places it. */
#ifndef PB_NUMA_MEM_H
#define PB_NUMA_MEM_H

#include <stdint.h>
#include "kernel/boot/mem.h"

/*
 * bytes from node's memory (host_cpus()'s numbering); NULL, with *why, when
 * the SRAT gives the node no free range that large. Without NUMA, any RAM.
 */
void *numa_alloc(struct mem *m, uint64_t bytes, unsigned int node,
		 const char **why);

#endif
