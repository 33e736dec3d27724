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
#include "cpu/hot_load.h"

/* IA32_MISC_ENABLE (MSR 0x1a0): bit 0 enables fast strings. */
#define MSR_MISC_ENABLE			0x1a0
#define MISC_ENABLE_FAST_STRING		(1ull << 0)
/* live_facts.fast_string when the MSR could not be read. */
#define FAST_STRING_UNKNOWN		(-1)

/* Facts only a live machine has. */
struct live_facts {
	bool ucode_readable;
	uint64_t ucode;
	/*
	 * MISC_ENABLE.FAST_STRING, which Linux's REP_GOOD and ERMS and Xen's
	 * ERMS read: 1, 0 or FAST_STRING_UNKNOWN. The features line carries
	 * it when known (docs/log-format.md); the host says why when not.
	 */
	int fast_string;
	uint64_t tsc_khz;		/* final: from a leaf, or calibrated */
	enum tsc_source tsc_src;
	uint64_t hot_load_ticks;	/* cpu/hot_load.h; 0: not measured */
	uint64_t mem_usable;		/* bytes */
	const char *cmdline;
};

/*
 * What ran this program, as the hot load line's runs_on says
 * (cpu/hot_load.h): tcg where the hypervisor leaf says so, else by the
 * chain's speed.
 */
enum hot_load_runner live_runs_on(const struct cpu_desc *d,
				  const struct live_facts *live);

/* live == NULL: describing a dump; those lines say "not in dump". */
void describe_cpu(const struct cpu_desc *d, const char *version,
		  const struct live_facts *live);

#endif
