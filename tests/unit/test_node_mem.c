// SPDX-License-Identifier: MIT
/*
 * linux/node_mem.c on a made-up sysfs: suite=scrub's region, mapped once
 * per NUMA node, must fit in half of each node's MemFree. The case of the
 * issue: a 4-node guest of 1 GiB, scrub=419968K, which the machine-wide
 * check took and the OOM killer ended.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "linux/linux.h"
#include "tests/unit/check.h"

#define MIB (1024 * 1024ull)

static char root[64];

static void node(int id, unsigned long long free_kib)
{
	char path[128];
	FILE *f;

	snprintf(path, sizeof(path), "%s/node%d", root, id);
	mkdir(path, 0700);
	snprintf(path, sizeof(path), "%s/node%d/meminfo", root, id);
	f = fopen(path, "w");
	fprintf(f, "Node %d MemTotal:         262144 kB\n"
		   "Node %d MemFree:        %8llu kB\n"
		   "Node %d MemUsed:          10000 kB\n", id, id, free_kib, id);
	fclose(f);
}

int main(void)
{
	static const int four[] = { 0, 1, 2, 3 }, gap[] = { 0, 2 }, missing[] = { 0, 7 };
	char why[512];
	bool ok;

	strcpy(root, "/tmp/test_node_mem.XXXXXX");
	if (!mkdtemp(root)) {
		perror("mkdtemp");
		return 1;
	}
	for (int i = 0; i < 4; i++)
		node(i, 240000 - 10000 * i);		/* node 3: 210000 kB free */

	/* 410M (scrub=419968K rounded to 2M) per node: no node holds it. */
	ok = linux_scrub_fits_nodes(root, four, 4, 410 * MIB, why, sizeof(why));
	result(!ok && strstr(why, "NUMA node 0 ") && strstr(why, "234M free") &&
	       strstr(why, "node0/meminfo MemFree") && strstr(why, "for 410M"),
	       "node_mem.too_big_for_every_node", "ok=%d why=%s", ok, why);

	/* Half of node 3's 205M is 102M: 102M fits all four, 104M not node 3. */
	ok = linux_scrub_fits_nodes(root, four, 4, 102 * MIB, why, sizeof(why));
	result(ok, "node_mem.fits_every_node", "why=%s", why);
	ok = linux_scrub_fits_nodes(root, four, 4, 104 * MIB, why, sizeof(why));
	result(!ok && strstr(why, "NUMA node 3 ") && strstr(why, "205M free"),
	       "node_mem.the_smallest_node_decides", "ok=%d why=%s", ok, why);

	/* Kernel node numbers, not indices: nodes 0 and 2 only. */
	ok = linux_scrub_fits_nodes(root, gap, 2, 112 * MIB, why, sizeof(why));
	result(!ok && strstr(why, "NUMA node 2 "), "node_mem.kernel_numbers",
	       "ok=%d why=%s", ok, why);

	/* A node sysfs does not describe is not refused on a guess. */
	ok = linux_scrub_fits_nodes(root, missing, 2, 100 * MIB, why, sizeof(why));
	result(ok, "node_mem.unknown_node_left_to_the_plan", "why=%s", why);

	/* The machine's own sysfs, read as the program reads it. */
	{
		static const int zero[] = { 0 };

		ok = linux_scrub_fits_nodes("/sys/devices/system/node", zero, 1, 1ull << 50,
					    why, sizeof(why));
		if (access("/sys/devices/system/node/node0/meminfo", R_OK))
			skip("node_mem.this_machine", "no /sys/devices/system/node/node0/meminfo");
		else
			result(!ok && strstr(why, "NUMA node 0 "), "node_mem.this_machine",
			       "ok=%d why=%s", ok, why);
	}

	for (int i = 0; i < 4; i++) {
		char path[128];

		snprintf(path, sizeof(path), "%s/node%d/meminfo", root, i);
		unlink(path);
		snprintf(path, sizeof(path), "%s/node%d", root, i);
		rmdir(path);
	}
	rmdir(root);
	return check_exit();
}
