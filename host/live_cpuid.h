/* SPDX-License-Identifier: MIT */
/* The CPU this host program runs on, decoded by kernel/cpu.c. */
#ifndef PB_LIVE_CPUID_H
#define PB_LIVE_CPUID_H

#include "harness/cpu.h"

/* The CPUID instruction as a struct cpuid_source. */
void host_cpuid_source(struct cpuid_source *src);

/* XCR0 as the OS set it; 0 when the OS did not enable XSAVE. */
uint64_t host_xcr0(void);

/*
 * Decodes the host CPU with the XCR0 its OS set, so avx/avx512f say what
 * this process can run (which a unit test about to call the variants needs).
 */
void host_cpu_describe(struct cpu_desc *d);

#endif
