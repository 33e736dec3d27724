/* SPDX-License-Identifier: MIT */
/*
 * APERF and MPERF, where CPUID.06H:ECX[0] says the CPU has them: APERF
 * counts core cycles at the frequency the core actually runs at, MPERF at
 * a fixed reference rate (the TSC's on CPUs with an invariant TSC), both
 * only while the core is in C0. APERF/MPERF over a span is its effective
 * frequency as a fraction of the reference (Intel SDM vol. 3B, "Hardware
 * Coordination Feedback"; AMD APM vol. 2, "Effective Frequency Interface").
 */
#ifndef PB_APERFMPERF_H
#define PB_APERFMPERF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define MSR_MPERF	0xe7
#define MSR_APERF	0xe8

struct aperfmperf {
	uint64_t aperf, mperf;
};

/*
 * MPERF then APERF; aperfmperf_read_end() reads them the other way round,
 * so the span MPERF covers encloses APERF's. false when an RDMSR faulted.
 */
bool aperfmperf_read_begin(struct aperfmperf *a);
bool aperfmperf_read_end(struct aperfmperf *a);

/*
 * Whether both MSRs can be read and count, over a short spin: false with
 * why (an RDMSR faulted, or a counter stood still, as emulators leave it).
 */
bool aperfmperf_probe(char *why, size_t len);

#endif
