/* SPDX-License-Identifier: MIT */
/*
 * The CPU this program runs on, kernel or user space alike: CPUID and
 * XGETBV are unprivileged, so one source serves every host.
 */
#ifndef PB_CPU_LIVE_H
#define PB_CPU_LIVE_H

#include "cpu/cpu.h"

/* CPUID executed on this CPU. */
extern const struct cpuid_source cpuid_live;

/* XCR0 as the OS (or the kernel itself) set it; 0 without OSXSAVE. */
uint64_t cpu_xcr0(void);

/*
 * Decodes this CPU with the XCR0 in force, so avx/avx512f say what this
 * program can run (which a unit test about to call the variants needs).
 */
void cpu_describe_live(struct cpu_desc *d);

#endif
