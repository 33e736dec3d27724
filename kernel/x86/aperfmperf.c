/* SPDX-License-Identifier: MIT */
#include "kernel/x86/aperfmperf.h"
#include "kernel/x86/x86.h"
#include "cpu/insn.h"
#include "lib/fmt.h"

/* Long enough for any counter that counts to move, short beside a run. */
#define PROBE_TICKS	100000

bool aperfmperf_read_begin(struct aperfmperf *a)
{
	return rdmsr_safe(MSR_MPERF, &a->mperf) && rdmsr_safe(MSR_APERF, &a->aperf);
}

bool aperfmperf_read_end(struct aperfmperf *a)
{
	return rdmsr_safe(MSR_APERF, &a->aperf) && rdmsr_safe(MSR_MPERF, &a->mperf);
}

bool aperfmperf_probe(char *why, size_t len)
{
	struct aperfmperf a, b;
	uint64_t t0;

	if (!aperfmperf_read_begin(&a)) {
		fmt_snprintf(why, len, "rdmsr of MPERF (0x%x) or APERF (0x%x) faulted",
			     MSR_MPERF, MSR_APERF);
		return false;
	}
	t0 = rdtsc_ordered();
	while (rdtsc_ordered() - t0 < PROBE_TICKS)
		;
	if (!aperfmperf_read_end(&b)) {
		fmt_snprintf(why, len, "rdmsr of APERF or MPERF faulted the second time");
		return false;
	}
	if (b.aperf == a.aperf || b.mperf == a.mperf) {
		fmt_snprintf(why, len, "APERF/MPERF do not count: +%lu and +%lu over %u TSC ticks",
			     (unsigned long)(b.aperf - a.aperf),
			     (unsigned long)(b.mperf - a.mperf), PROBE_TICKS);
		return false;
	}
	return true;
}
