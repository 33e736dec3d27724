// SPDX-License-Identifier: MIT
/*
 * Unit tests of kernel/smp/start_plan.c: which MADT CPUs are started (the BSP,
 * disabled and duplicate entries, ids that need x2APIC, cpus=, the CPU
 * limit, selftest=nosipi), the page for the AP trampoline from a memory
 * map, NUMA nodes from SRAT entries, and the APIC id lists of the log.
 * Prints "ok NAME" / "FAIL NAME: why" per check; exits 1 on a failure.
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include "harness/measure/host.h"
#include "kernel/smp/start_plan.h"
#include "tests/unit/check.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#define MAX_CPUS 600

static struct acpi_cpu cpus[MAX_CPUS];
static enum smp_fate fate[MAX_CPUS];

static const char *const fate_names[] = {
	[SMP_BSP] = "bsp", [SMP_START] = "start", [SMP_DISABLED] = "disabled",
	[SMP_DUPLICATE] = "duplicate", [SMP_NEEDS_X2APIC] = "x2apic",
	[SMP_LIMIT] = "limit", [SMP_TOO_MANY] = "too-many",
	[SMP_NOSIPI] = "nosipi",
};

static unsigned int set(unsigned int i, uint32_t id, bool enabled)
{
	cpus[i] = (struct acpi_cpu){ .apic_id = id, .enabled = enabled,
				     .x2apic = id > XAPIC_ID_MAX };
	return i + 1;
}

/* Fates as "bsp start ..." for a failure message. */
static const char *fates(unsigned int n)
{
	static char buf[4096];
	size_t len = 0;
	unsigned int i;

	buf[0] = '\0';
	for (i = 0; i < n && len < sizeof(buf) - 16; i++)
		len += snprintf(buf + len, sizeof(buf) - len, "%s%s",
				i ? " " : "", fate_names[fate[i]]);
	return buf;
}

static void expect(const char *name, unsigned int n, const char *want,
		   const struct smp_plan *p, unsigned int enabled,
		   unsigned int start)
{
	const char *got = fates(n);

	result(!strcmp(got, want) && p->enabled == enabled && p->start == start,
	       name, "fates '%s' (want '%s'), enabled %u (want %u), start %u (want %u)",
	       got, want, p->enabled, enabled, p->start, start);
}

static void test_plan(void)
{
	struct smp_plan_in in = { .cpus = cpus, .bsp_id = 0 };
	struct smp_plan p;
	unsigned int n, i;

	/* QEMU -smp 4: ids 0-3, all enabled. */
	n = set(0, 0, true);
	n = set(n, 1, true);
	n = set(n, 2, true);
	n = set(n, 3, true);
	in.n = n;
	smp_plan(&in, fate, &p);
	expect("plan_all", n, "bsp start start start", &p, 4, 3);
	result(p.bsp_listed, "plan_bsp_listed", "the BSP at id 0 not found");

	/* cpus=2: the BSP and the first AP in MADT order. */
	in.limit = 2;
	smp_plan(&in, fate, &p);
	expect("plan_cpus_2", n, "bsp start limit limit", &p, 4, 1);
	/* cpus=1: nothing started, exactly the single-CPU run. */
	in.limit = 1;
	smp_plan(&in, fate, &p);
	expect("plan_cpus_1", n, "bsp limit limit limit", &p, 4, 0);
	/* More than there are: all. */
	in.limit = 64;
	smp_plan(&in, fate, &p);
	expect("plan_cpus_more", n, "bsp start start start", &p, 4, 3);
	in.limit = 0;

	/* selftest=nosipi: the last AP to start is left without a SIPI. */
	in.nosipi = true;
	smp_plan(&in, fate, &p);
	expect("plan_nosipi", n, "bsp start start nosipi", &p, 4, 2);
	in.limit = 3;
	smp_plan(&in, fate, &p);
	expect("plan_nosipi_limit", n, "bsp start nosipi limit", &p, 4, 1);
	in.limit = 1;
	smp_plan(&in, fate, &p);
	expect("plan_nosipi_alone", n, "bsp limit limit limit", &p, 4, 0);
	in.limit = 0;
	in.nosipi = false;

	/* The BSP need not be first; its id is what counts. */
	in.bsp_id = 2;
	smp_plan(&in, fate, &p);
	expect("plan_bsp_not_first", n, "start start bsp start", &p, 4, 3);
	in.bsp_id = 0;

	/* -smp 2,maxcpus=4: hot-pluggable CPUs are listed, not enabled. */
	n = set(0, 0, true);
	n = set(n, 1, true);
	n = set(n, 2, false);
	cpus[n - 1].online_capable = true;
	n = set(n, 3, false);
	in.n = n;
	smp_plan(&in, fate, &p);
	expect("plan_disabled", n, "bsp start disabled disabled", &p, 2, 1);

	/* A firmware that lists a CPU twice (type 0 and type 9): once. */
	n = set(0, 0, true);
	n = set(n, 1, true);
	n = set(n, 1, true);
	n = set(n, 0, true);
	in.n = n;
	smp_plan(&in, fate, &p);
	expect("plan_duplicate", n, "bsp start duplicate duplicate", &p, 2, 1);

	/* A disabled entry does not make a later enabled one a duplicate. */
	n = set(0, 0, true);
	n = set(n, 1, false);
	n = set(n, 1, true);
	in.n = n;
	smp_plan(&in, fate, &p);
	expect("plan_duplicate_of_disabled", n, "bsp disabled start", &p, 2, 1);

	/* Ids above 254 need x2APIC; 255 is xAPIC's broadcast. */
	n = set(0, 0, true);
	n = set(n, 254, true);
	n = set(n, 255, true);
	n = set(n, 300, true);
	in.n = n;
	smp_plan(&in, fate, &p);
	expect("plan_needs_x2apic", n, "bsp start x2apic x2apic", &p, 4, 1);
	in.x2apic = true;
	smp_plan(&in, fate, &p);
	expect("plan_x2apic", n, "bsp start start start", &p, 4, 3);

	/* The BSP missing from the MADT still counts and still runs. */
	in.bsp_id = 7;
	smp_plan(&in, fate, &p);
	expect("plan_bsp_unlisted", n, "start start start start", &p, 5, 4);
	result(!p.bsp_listed, "plan_bsp_unlisted_flag", "the BSP reported as listed");
	in.bsp_id = 0;

	/* More CPUs than HOST_CPUS_MAX: the rest are counted, not started. */
	for (i = n = 0; i < HOST_CPUS_MAX + 10; i++)
		n = set(n, i, true);
	in.n = n;
	smp_plan(&in, fate, &p);
	result(p.start == HOST_CPUS_MAX - 1 && p.enabled == n &&
	       fate[HOST_CPUS_MAX - 1] == SMP_START &&
	       fate[HOST_CPUS_MAX] == SMP_TOO_MANY && fate[n - 1] == SMP_TOO_MANY,
	       "plan_too_many", "start %u enabled %u, fate[%u] %s, fate[%u] %s",
	       p.start, p.enabled, HOST_CPUS_MAX - 1,
	       fate_names[fate[HOST_CPUS_MAX - 1]], HOST_CPUS_MAX,
	       fate_names[fate[HOST_CPUS_MAX]]);

	/* Nothing listed: the BSP alone. */
	in.n = 0;
	smp_plan(&in, fate, &p);
	result(p.enabled == 1 && p.start == 0 && !p.bsp_listed, "plan_empty",
	       "enabled %u start %u", p.enabled, p.start);
}

static void test_trampoline_page(void)
{
	/* SeaBIOS under QEMU: [0, 0x9fc00) usable, then above 1 MiB. */
	struct ram_region qemu[] = { { 0, 0x9fc00 }, { 0x100000, 0x3fee0000 } };
	/* Page 0 and the VGA hole are never taken; a region may start odd. */
	struct ram_region odd[] = { { 0x100000, 0x100000 }, { 0x500, 0x1000 },
				    { 0x3000, 0x1800 } };
	struct ram_region none[] = { { 0, 0x1000 }, { 0x100000, 0x100000 } };
	struct ram_region hole[] = { { 0xa0000, 0x20000 }, { 0xc0000, 0x1000 } };
	struct ram_region tail[] = { { 0xff800, 0x1000 } };
	uint64_t page;

	page = smp_trampoline_page(qemu, ARRAY_SIZE(qemu));
	result(page == 0x1000, "tramp_qemu", "page 0x%llx, want 0x1000",
	       (unsigned long long)page);
	page = smp_trampoline_page(odd, ARRAY_SIZE(odd));
	result(page == 0x3000, "tramp_whole_page", "page 0x%llx, want 0x3000",
	       (unsigned long long)page);
	page = smp_trampoline_page(none, ARRAY_SIZE(none));
	result(page == 0, "tramp_none_below_1m", "page 0x%llx, want none",
	       (unsigned long long)page);
	page = smp_trampoline_page(hole, ARRAY_SIZE(hole));
	result(page == 0xc0000, "tramp_not_in_vga_hole", "page 0x%llx, want 0xc0000",
	       (unsigned long long)page);
	page = smp_trampoline_page(tail, ARRAY_SIZE(tail));
	result(page == 0, "tramp_not_across_1m", "page 0x%llx, want none",
	       (unsigned long long)page);
	page = smp_trampoline_page(NULL, 0);
	result(page == 0, "tramp_empty_map", "page 0x%llx", (unsigned long long)page);
}

static void test_numa(void)
{
	uint32_t ids[] = { 0, 1, 2, 3, 4 };
	struct acpi_srat_cpu srat[] = {
		{ .apic_id = 3, .domain = 7, .enabled = true },
		{ .apic_id = 0, .domain = 5, .enabled = true },
		{ .apic_id = 1, .domain = 5, .enabled = true },
		{ .apic_id = 2, .domain = 7, .enabled = true },
		{ .apic_id = 4, .domain = 2, .enabled = false },
	};
	struct acpi_srat_cpu many[HOST_NODES_MAX + 1];
	uint32_t many_ids[HOST_NODES_MAX + 1], dom[HOST_NODES_MAX];
	unsigned int node[HOST_NODES_MAX + 1], nodes, i;

	nodes = smp_numa(ids, ARRAY_SIZE(ids), srat, ARRAY_SIZE(srat), node, dom);
	result(nodes == 2 && node[0] == 0 && node[1] == 0 && node[2] == 1 &&
	       node[3] == 1 && node[4] == 0 && dom[0] == 5 && dom[1] == 7,
	       "numa_two_domains", "nodes %u, node %u %u %u %u %u, dom %u %u",
	       nodes, node[0], node[1], node[2], node[3], node[4], dom[0], dom[1]);

	/* Only the online CPUs' domains make nodes. */
	nodes = smp_numa(ids, 2, srat, ARRAY_SIZE(srat), node, dom);
	result(nodes == 1 && node[0] == 0 && node[1] == 0 && dom[0] == 5,
	       "numa_online_only", "nodes %u, node %u %u", nodes, node[0], node[1]);

	nodes = smp_numa(ids, ARRAY_SIZE(ids), NULL, 0, node, dom);
	result(nodes == 1 && node[3] == 0, "numa_no_srat", "nodes %u", nodes);

	for (i = 0; i < ARRAY_SIZE(many); i++) {
		many[i] = (struct acpi_srat_cpu){ .apic_id = i, .domain = 100 - i,
						  .enabled = true };
		many_ids[i] = i;
	}
	nodes = smp_numa(many_ids, HOST_NODES_MAX, many, ARRAY_SIZE(many), node, dom);
	result(nodes == HOST_NODES_MAX && node[0] == HOST_NODES_MAX - 1 &&
	       node[HOST_NODES_MAX - 1] == 0, "numa_max_nodes",
	       "nodes %u node[0] %u", nodes, node[0]);
	nodes = smp_numa(many_ids, ARRAY_SIZE(many), many, ARRAY_SIZE(many), node, dom);
	result(nodes == 0 && node[0] == 0 && node[HOST_NODES_MAX] == 0,
	       "numa_too_many_nodes", "nodes %u node[0] %u", nodes, node[0]);
}

static void test_ids(void)
{
	static const struct {
		const char *name;
		uint32_t ids[8];
		unsigned int n;
		size_t size;
		const char *want;
	} cases[] = {
		{ "ids_one", { 0 }, 1, 64, "0" },
		{ "ids_range", { 0, 1, 2, 3 }, 4, 64, "0-3" },
		{ "ids_pair", { 0, 1 }, 2, 64, "0,1" },
		{ "ids_mixed", { 0, 1, 2, 4, 6, 7, 8, 9 }, 8, 64, "0-2,4,6-9" },
		{ "ids_even", { 0, 2, 4, 6 }, 4, 64, "0,2,4,6" },
		{ "ids_cut", { 0, 2, 4, 6, 8, 10, 12, 14 }, 8, 12, "0,2,4,6,..." },
		{ "ids_last_fits", { 10, 20, 30 }, 3, 9, "10,20,30" },
		{ "ids_none", { 0 }, 0, 64, "" },
	};
	char buf[64];
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		memset(buf, 'x', sizeof(buf));
		smp_format_ids(buf, cases[i].size, cases[i].ids, cases[i].n);
		result(!strcmp(buf, cases[i].want) && strlen(buf) < cases[i].size,
		       cases[i].name, "'%s', want '%s'", buf, cases[i].want);
	}
}

int main(void)
{
	test_plan();
	test_trampoline_page();
	test_numa();
	test_ids();
	return check_exit();
}
