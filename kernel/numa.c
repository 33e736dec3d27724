/* SPDX-License-Identifier: MIT */
#include "kernel/smp/smp.h"
#include "kernel/acpi/acpi.h"
#include "kernel/numa.h"

#define SRAT_MEMS_MAX 64

void *numa_alloc(struct mem *m, uint64_t bytes, unsigned int node,
		 const char **why)
{
	static struct acpi_srat_mem mems[SRAT_MEMS_MAX];
	const struct acpi_root *root;
	struct acpi_srat srat;
	struct acpi_table t;
	unsigned int i, n;
	uint32_t domain;
	void *p;

	*why = NULL;
	if (!smp_node_domain(node, &domain))
		return mem_alloc(m, bytes);
	root = acpi_live_root(why);
	if (!root || acpi_find_table(root, &acpi_live_mem, "SRAT", &t)) {
		*why = "no SRAT to place memory by node";
		return NULL;
	}
	*why = acpi_srat_parse(t.p, t.len, &srat, 0, 0, mems, SRAT_MEMS_MAX);
	if (*why)
		return NULL;
	n = srat.nmems < SRAT_MEMS_MAX ? srat.nmems : SRAT_MEMS_MAX;
	for (i = 0; i < n; i++) {
		if (!mems[i].enabled || mems[i].domain != domain)
			continue;
		p = mem_alloc_within(m, bytes, mems[i].base, mems[i].base + mems[i].len);
		if (p)
			return p;
	}
	*why = "not enough free memory in the node's SRAT ranges";
	return NULL;
}
