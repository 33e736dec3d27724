/* SPDX-License-Identifier: MIT */
#include "cpu/live.h"
#include "kernel/x86/x86.h"
#include "kernel/x86/xsave.h"

#define CR4_OSXSAVE	(1u << 18)

uint64_t xsave_enable(void)
{
	struct cpuid_regs r;

	cpuid_live.query(0, 1, 0, &r);
	if (!(r.ecx & CPUID1_ECX_XSAVE))
		return 0;
	write_cr4(read_cr4() | CR4_OSXSAVE);
	xsetbv(0, cpu_xcr0_wanted(&cpuid_live));
	/*
	 * Read back what is in force rather than trust the write. Under the
	 * nested KVM of docs/method.md this XGETBV is the first instruction to
	 * hit the hypervisor's quirk; scripts/run-qemu then reruns with
	 * disable=xsave.
	 */
	return cpu_xcr0();
}
