/* SPDX-License-Identifier: MIT */
#ifndef PB_CPU_LIVE_H
#define PB_CPU_LIVE_H

#include "harness/cpu.h"

/* CPUID executed on this CPU. */
extern const struct cpuid_source cpuid_live;

/*
 * Turns on XSAVE and the vector states the variants use, when the CPU has
 * them, and returns the XCR0 now in force (0 without XSAVE).
 */
uint64_t xsave_enable(void);

#endif
