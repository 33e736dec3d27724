/* SPDX-License-Identifier: MIT */
/*
 * Every CPU of the ACPI MADT, started with INIT-SIPI-SIPI and kept in an
 * idle loop until host_run_on_cpus() gives it a call (docs/method.md).
 * Index 0 is the CPU that booted (the BSP); the others follow in MADT order.
 */
#ifndef PB_SMP_H
#define PB_SMP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "kernel/boot/boot_info.h"
#include "harness/measure/host.h"
#include "kernel/boot/mem.h"

/*
 * Starts up to cpus CPUs, this one included, their stacks from mem, timed
 * by the TSC at tsc_khz (0: unknown), with a watchdog of watchdog_s
 * seconds, and prints the cpus lines. nosipi: selftest=nosipi's CPU that
 * never answers. Call once, on the BSP, after acpi_live_init(). With one
 * CPU it touches no APIC.
 */
void smp_init(unsigned int cpus, unsigned int watchdog_s, bool nosipi,
	      const struct boot_info *bi, struct mem *mem, uint64_t tsc_khz);

/* host_cpus() (harness/measure/host.h). */
void smp_cpus(struct host_cpus *c);

/* The ACPI proximity domain of host_cpus()'s node; false without NUMA. */
bool smp_node_domain(unsigned int node, uint32_t *domain);

#endif
