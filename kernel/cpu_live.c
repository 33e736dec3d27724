/* SPDX-License-Identifier: MIT */
#include "cpu_live.h"
#include "x86.h"

#define CR4_OSXSAVE	(1u << 18)
#define CPUID1_XSAVE	(1u << 26)

static void query(void *ctx, uint32_t leaf, uint32_t sub, struct cpuid_regs *out)
{
	uint32_t r[4];

	(void)ctx;
	cpuid_count(leaf, sub, r);
	*out = (struct cpuid_regs){ r[0], r[1], r[2], r[3] };
}

const struct cpuid_source cpuid_live = { query, 0 };

uint64_t xsave_enable(void)
{
	struct cpuid_regs r;
	uint64_t xcr0;

	query(0, 1, 0, &r);
	if (!(r.ecx & CPUID1_XSAVE))
		return 0;
	write_cr4(read_cr4() | CR4_OSXSAVE);
	xcr0 = cpu_xcr0_wanted(&cpuid_live);
	xsetbv(0, xcr0);
	/*
	 * Read back what is in force rather than trust the write. Under the
	 * nested KVM of docs/method.md this XGETBV is the first instruction to
	 * hit the hypervisor's quirk; scripts/run-qemu then reruns with
	 * disable=xsave.
	 */
	return xgetbv(0);
}
