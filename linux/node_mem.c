// SPDX-License-Identifier: MIT
/*
 * Whether suite=scrub's region fits each NUMA node. linux_buffers() maps
 * the region once per node and binds it there (MPOL_BIND), so each node
 * must hold it; the plan's check against the machine's MemAvailable cannot
 * say (a 4-node guest of 1 GiB took a region of 410M per node and was
 * OOM-killed). Pure but for reading ROOT/nodeN/meminfo, so a test can hand
 * it a folder of made-up nodes.
 */
#include <stdio.h>
#include "linux/linux.h"

#define MIB (1024 * 1024ull)

/* Node node's MemFree in bytes from root/nodeN/meminfo; false when unknown. */
static bool node_mem_free(const char *root, int node, uint64_t *bytes)
{
	unsigned long long kib;
	char path[512], line[256];
	bool found = false;
	FILE *f;
	int n;

	snprintf(path, sizeof(path), "%s/node%d/meminfo", root, node);
	f = fopen(path, "r");
	if (!f)
		return false;
	while (!found && fgets(line, sizeof(line), f))
		found = sscanf(line, "Node %d MemFree: %llu kB", &n, &kib) == 2 && n == node;
	fclose(f);
	if (found)
		*bytes = (uint64_t)kib * 1024;
	return found;
}

bool linux_scrub_fits_nodes(const char *root, const int *nodes, unsigned int n,
			    uint64_t region, char *why, size_t len)
{
	uint64_t free;
	unsigned int i;

	for (i = 0; i < n; i++) {
		/* Unknown (no sysfs): the plan's own check stands. */
		if (!node_mem_free(root, nodes[i], &free))
			continue;
		/* Half, as the plan leaves half of MemAvailable to the rest. */
		if (region > free / 2) {
			snprintf(why, len, "not enough memory on NUMA node %d for the region, "
				     "which is mapped once per node: %lluM free there (%s/node%d/"
				     "meminfo MemFree), at most half of it for %lluM (scrub=SIZE "
				     "sets a smaller one)", nodes[i],
				     (unsigned long long)(free / MIB), root, nodes[i],
				     (unsigned long long)(region / MIB));
			return false;
		}
	}
	return true;
}
