// SPDX-License-Identifier: MIT
/* What the run's lines say about the running kernel, from the kernel itself. */
#include <linux/cpumask.h>
#include <linux/kernel.h>
#include <linux/mm.h>
#include <linux/smp.h>
#include <linux/string.h>
#include <linux/utsname.h>
#include <asm/cpufeature.h>
#include <asm/msr.h>
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

int pbk_fast_string(void)
{
	u64 misc;

	if (rdmsrl_safe(MSR_IA32_MISC_ENABLE, &misc))
		return -1;
	return (misc & MSR_IA32_MISC_ENABLE_FAST_STRING) != 0;
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

#define KERNEL_FLAGS_MAX	8
struct kernel_flag {
	const char *name;
	int on;			/* -1: this kernel has no such bit */
};

static unsigned int kernel_flags(struct kernel_flag *out)
{
	const struct kernel_flag flags[] = {
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

	BUILD_BUG_ON(ARRAY_SIZE(flags) > KERNEL_FLAGS_MAX);
	memcpy(out, flags, sizeof(flags));
	return ARRAY_SIZE(flags);
}

void pbk_kernel_features(char *buf, size_t len)
{
	struct kernel_flag flags[KERNEL_FLAGS_MAX];
	unsigned int i, n = kernel_flags(flags);
	size_t at = 0;

	buf[0] = '\0';
	for (i = 0; i < n && at < len; i++)
		at += scnprintf(buf + at, len - at, " %s=%s", flags[i].name,
				flags[i].on < 0 ? "unknown" : flags[i].on ? "1" : "0");
}

int pbk_kernel_flag(const char *flag)
{
	struct kernel_flag flags[KERNEL_FLAGS_MAX];
	unsigned int i, n = kernel_flags(flags);

	for (i = 0; i < n; i++)
		if (!strcasecmp(flags[i].name, flag))
			return flags[i].on < 0 ? 0 : flags[i].on;
	return -1;
}
