/* SPDX-License-Identifier: MIT */
/*
 * Which CPUs of the MADT to start, and their NUMA nodes from the SRAT.
 * Pure: tables in, decisions out (tests/unit/test_smp.c); kernel/smp/smp.c
 * acts on them.
 */
#ifndef PB_SMP_START_PLAN_H
#define PB_SMP_START_PLAN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "kernel/acpi/tables.h"
#include "kernel/boot/boot_info.h"

/* What becomes of one MADT entry. */
enum smp_fate {
	SMP_BSP,		/* the CPU that booted: index 0 */
	SMP_START,		/* an AP to start */
	SMP_DISABLED,		/* not enabled in the MADT (absent, hot-pluggable) */
	SMP_DUPLICATE,		/* an APIC id listed before: counted once */
	SMP_NEEDS_X2APIC,	/* id above 254, and no x2APIC to reach it */
	SMP_LIMIT,		/* beyond cpus= */
	SMP_TOO_MANY,		/* beyond HOST_CPUS_MAX */
	SMP_NOSIPI,		/* selftest=nosipi: INIT, but never a SIPI */
};

/* The highest xAPIC id: 0xff addresses every CPU. */
#define XAPIC_ID_MAX	0xfe

struct smp_plan_in {
	const struct acpi_cpu *cpus;	/* MADT processor entries, in order */
	unsigned int n;
	uint32_t bsp_id;		/* the APIC id of the CPU that runs this */
	unsigned int limit;		/* cpus=: CPUs to use, the BSP too; 0 all */
	bool x2apic;			/* ids above XAPIC_ID_MAX can be reached */
	bool nosipi;			/* leave the last AP to start unstarted */
};

struct smp_plan {
	unsigned int enabled;		/* distinct enabled CPUs, the BSP counted */
	unsigned int start;		/* entries with SMP_START */
	bool bsp_listed;		/* the BSP's id is among the enabled */
};

/* fate[i] for each entry of in->cpus. */
void smp_plan(const struct smp_plan_in *in, enum smp_fate *fate,
	      struct smp_plan *out);

/*
 * A page (4 KiB, below 1 MiB, not page 0) of usable RAM for the AP
 * trampoline, or 0 when the map has none.
 */
uint64_t smp_trampoline_page(const struct ram_region *ram, unsigned int n);

/*
 * NUMA nodes of the CPUs ids[0..n) from SRAT processor entries: node[i]
 * is the rank of the CPU's proximity domain among those of these CPUs, 0
 * for a CPU the SRAT does not list; dom[node] is that domain (for
 * HOST_NODES_MAX nodes). Returns the number of nodes (at least 1), or 0
 * when there are more than HOST_NODES_MAX: then every node[i] is 0.
 */
unsigned int smp_numa(const uint32_t *ids, unsigned int n,
		      const struct acpi_srat_cpu *srat, unsigned int nsrat,
		      unsigned int *node, uint32_t *dom);

/*
 * "0-3,8,10" into buf: runs of three or more consecutive ids as a range.
 * What does not fit in size ends in ",...".
 */
void smp_format_ids(char *buf, size_t size, const uint32_t *ids, unsigned int n);

#endif
