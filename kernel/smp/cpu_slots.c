/* SPDX-License-Identifier: MIT */
/*
 * The CPU slots every part of kernel/smp/ shares, and which slot the
 * calling CPU is: the bottom of the folder, calling nothing above it.
 */
#include "kernel/smp/cpu_slots.h"
#include "kernel/x86/x86.h"

#define MSR_GS_BASE	0xc0000101

struct cpu smp_cpu[HOST_CPUS_MAX];
unsigned int smp_ncpus = 1;
unsigned int smp_watcher;
uint32_t smp_watch_ticks;
bool smp_timer_runs_in_halt;
static bool gs_set;		/* the BSP's GS base points at smp_cpu[0] */

/* %gs:0 is the calling CPU's index: its struct cpu begins with it. */
_Static_assert(__builtin_offsetof(struct cpu, index) == 0, "index first");

void smp_cpu_enter(struct cpu *self)
{
	wrmsr(MSR_GS_BASE, (uintptr_t)self);
	gs_set = true;
}

unsigned int smp_cpu_index(void)
{
	unsigned int i;

	if (!gs_set)
		return 0;
	asm("movl %%gs:0, %0" : "=r"(i));
	return i;
}

unsigned int smp_online(void)
{
	return smp_ncpus;
}

uint32_t smp_apic_id(unsigned int cpu)
{
	return smp_cpu[cpu < smp_ncpus ? cpu : 0].apic_id;
}

bool smp_bsp_watched(void)
{
	return smp_watcher != 0;
}
