/* SPDX-License-Identifier: MIT */
/*
 * The description lines: the Xen header line first, then one line per fact
 * (see docs/log-format.md). The kernel and build/bin/pagebench-cpuid print
 * them with this same code.
 */
#ifndef PB_DESCRIBE_H
#define PB_DESCRIBE_H

#include <stdbool.h>
#include <stdint.h>
#include "cpu/cpu.h"

/* Facts only a live machine has. */
struct live_facts {
	bool ucode_readable;
	uint64_t ucode;
	uint64_t tsc_khz;		/* final: from a leaf, or calibrated */
	enum tsc_source tsc_src;
	uint64_t mem_usable;		/* bytes */
	const char *cmdline;
};

/* live == NULL: describing a dump; those lines say "not in dump". */
void describe_cpu(const struct cpu_desc *d, const char *version,
		  const struct live_facts *live);

#endif
