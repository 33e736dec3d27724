// SPDX-License-Identifier: MIT
/* What the run's lines say about the running kernel, from the kernel itself. */
#include <linux/cpumask.h>
#include <linux/kernel.h>
#include <linux/mm.h>
#include <linux/smp.h>
#include <linux/utsname.h>
#include <asm/cpufeature.h>
#include <asm/processor.h>
#include <asm/tsc.h>
#include "module/kernel.h"

const char *pbk_release(void)
{
	return init_utsname()->release;
}

unsigned int pbk_online_cpus(void)
{
	return num_online_cpus();
}

int pbk_last_online_cpu(void)
{
	int cpu, last = 0;

	for_each_online_cpu(cpu)
		last = cpu;
	return last;
}

bool pbk_cpu_online(int cpu)
{
	return cpu >= 0 && cpu < nr_cpu_ids && cpu_online(cpu);
}

int pbk_this_cpu(void)
{
	return raw_smp_processor_id();
}

uint64_t pbk_tsc_khz(void)
{
	return tsc_khz;
}

uint64_t pbk_ram_bytes(void)
{
	return (uint64_t)totalram_pages() << PAGE_SHIFT;
}

uint64_t pbk_available_bytes(void)
{
	return (uint64_t)si_mem_available() << PAGE_SHIFT;
}

uint32_t pbk_microcode(int cpu)
{
	return cpu_data(cpu).microcode;
}

/*
 * The bits the kernel's string routines are patched by (their names as in
 * /proc/cpuinfo). A kernel older than a bit has no X86_FEATURE_ for it.
 */
#define FLAG(name, bit)	{ name, boot_cpu_has(bit) }
#define NO_FLAG(name)	{ name, -1 }

void pbk_kernel_features(char *buf, size_t len)
{
	const struct { const char *name; int on; } flags[] = {
		FLAG("rep_good", X86_FEATURE_REP_GOOD),
		FLAG("erms", X86_FEATURE_ERMS),
		FLAG("fsrm", X86_FEATURE_FSRM),
#ifdef X86_FEATURE_FZRM
		FLAG("fzrm", X86_FEATURE_FZRM),
#else
		NO_FLAG("fzrm"),
#endif
#ifdef X86_FEATURE_FSRS
		FLAG("fsrs", X86_FEATURE_FSRS),
#else
		NO_FLAG("fsrs"),
#endif
	};
	size_t n = 0;
	unsigned int i;

	buf[0] = '\0';
	for (i = 0; i < ARRAY_SIZE(flags) && n < len; i++)
		n += scnprintf(buf + n, len - n, " %s=%s", flags[i].name,
			       flags[i].on < 0 ? "unknown" : flags[i].on ? "1" : "0");
}
