/* SPDX-License-Identifier: MIT */
#include "cpu/insn.h"
#include "cpu/live.h"

static void query(void *ctx, uint32_t leaf, uint32_t sub, struct cpuid_regs *out)
{
	uint32_t r[4];

	(void)ctx;
	cpuid_count(leaf, sub, r);
	*out = (struct cpuid_regs){ r[0], r[1], r[2], r[3] };
}

const struct cpuid_source cpuid_live = { query, 0 };

/* XGETBV is #UD unless CR4.OSXSAVE is set, which leaf 1 mirrors. */
uint64_t cpu_xcr0(void)
{
	struct cpuid_regs r;

	query(0, 0, 0, &r);
	if (r.eax < 1)
		return 0;
	query(0, 1, 0, &r);
	if (!(r.ecx & CPUID1_ECX_OSXSAVE))
		return 0;
	return xgetbv(0);
}

void cpu_describe_live(struct cpu_desc *d)
{
	cpu_decode(d, &cpuid_live, cpu_xcr0());
}
