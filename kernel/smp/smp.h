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
#include "harness/host.h"
#include "harness/options.h"
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

/* The calling CPU's index (0 before smp_init()). */
unsigned int smp_cpu_index(void);
unsigned int smp_online(void);
uint32_t smp_apic_id(unsigned int cpu);
/* True while another CPU watches the BSP (the watchdog can catch a hang). */
bool smp_bsp_watched(void);

/* host_cpus() and host_run_on_cpus() (harness/host.h). */
void smp_cpus(struct host_cpus *c);
bool smp_run(unsigned int n, uint64_t start_tsc,
	     void (*fn)(void *ctx, unsigned int i), void *ctx,
	     char *why, size_t whylen);

/* The ACPI proximity domain of host_cpus()'s node; false without NUMA. */
bool smp_node_domain(unsigned int node, uint32_t *domain);

/* When CPU cpu began its wait for the last call's start_tsc. */
uint64_t smp_arrival(unsigned int cpu);

/*
 * Stops CPU cpu with an NMI; true, with the RIP it was stopped at, once
 * it confirms. It never runs again.
 */
bool smp_park(unsigned int cpu, uint64_t *rip);

/* trap_init()'s NMI hook: stops this CPU when it was asked to. */
void smp_nmi(uint64_t rip);

/* From the end of the run: every other CPU stopped, so nothing prints after done. */
void smp_stop_others(void);

/* selftest=smp, nosipi, hang, hang-ap (kernel/smp/selftest.c). */
void smp_selftest(enum selftest t);

#endif
