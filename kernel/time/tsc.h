/* SPDX-License-Identifier: MIT */
#ifndef PB_TSC_H
#define PB_TSC_H

#include <stdint.h>
#include "cpu/cpu.h"
#include "harness/options/options.h"

/*
 * The TSC rate in kHz (0 when no source works) and its source. pick is
 * the tsc= option; auto, or a forced source that is absent, takes the
 * first present of: CPUID (a hypervisor's leaf, or Intel's 0x15/0x16),
 * AMD's P-state 0, the HPET, the ACPI PM timer, the PIT. Every other
 * present source is measured too, for tsc_print_report(). Call
 * acpi_live_init() first; prints nothing.
 */
uint64_t tsc_select(const struct cpu_desc *d, enum tsc_pick pick,
		    enum tsc_source *src);

/*
 * After the tsc line: a note when the forced source was absent, then per
 * other source a check line (its rate, its difference from the chosen
 * one) or an absent line (why).
 */
void tsc_print_report(void);

#endif
