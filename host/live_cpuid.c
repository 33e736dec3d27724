// SPDX-License-Identifier: MIT
#include <cpuid.h>
#include <stddef.h>
#include <stdint.h>
#include "live_cpuid.h"

#define L1_ECX_OSXSAVE	(1u << 27)

static void live_query(void *ctx, uint32_t leaf, uint32_t subleaf,
		       struct cpuid_regs *out)
{
	unsigned int a, b, c, d;

	(void)ctx;
	__cpuid_count(leaf, subleaf, a, b, c, d);
	*out = (struct cpuid_regs){ a, b, c, d };
}

void host_cpuid_source(struct cpuid_source *src)
{
	src->query = live_query;
	src->ctx = NULL;
}

/* XGETBV is #UD unless the OS set CR4.OSXSAVE, which leaf 1 mirrors. */
uint64_t host_xcr0(void)
{
	unsigned int a, b, c, d, lo, hi;

	if (__get_cpuid_max(0, NULL) < 1)
		return 0;
	__cpuid(1, a, b, c, d);
	if (!(c & L1_ECX_OSXSAVE))
		return 0;
	__asm__ volatile("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
	return (uint64_t)hi << 32 | lo;
}

void host_cpu_describe(struct cpu_desc *d)
{
	struct cpuid_source src;

	host_cpuid_source(&src);
	cpu_decode(d, &src, host_xcr0());
}
