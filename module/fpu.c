// SPDX-License-Identifier: MIT
/*
 * What a kernel pays to use vector registers: kernel_fpu_begin() and
 * kernel_fpu_end(), timed with interrupts off.
 *
 * In a kthread (the run's) there is no user state: begin only marks the
 * registers as the kernel's. In a task that came from user space (insmod,
 * at load) the first begin of a kernel entry saves the task's registers
 * (XSAVE), and the return to user space loads them again (XRSTOR). To time
 * that on every sample, each sample then gives the registers back with
 * switch_fpu_return(), as KVM does before it enters a guest, and that
 * restore is timed too. What is saved is insmod's state as it left it: a
 * component still in its initial state costs XSAVE little.
 */
#include <linux/irqflags.h>
#include <linux/sched.h>
#include <linux/smp.h>
#include <linux/sort.h>
#include <asm/fpu/api.h>
#include <asm/msr.h>
#include "module/kernel.h"

static int cmp_u64(const void *a, const void *b)
{
	u64 x = *(const u64 *)a, y = *(const u64 *)b;

	return x < y ? -1 : x > y;
}

/* Makes the task's own registers live again, as its return to user space would. */
static u64 give_back(void)
{
	u64 t0, t1;

	fpregs_lock();
	t0 = rdtsc_ordered();
	if (test_thread_flag(TIF_NEED_FPU_LOAD))
		switch_fpu_return();
	t1 = rdtsc_ordered();
	fpregs_unlock();
	return t1 - t0;
}

void pbk_fpu_cost(struct pbk_fpu_cost *c)
{
	unsigned long flags;
	unsigned int i;
	u64 t0, t1;

	c->task = !(current->flags & PF_KTHREAD);
	c->empty_min = U64_MAX;
	migrate_disable();
	c->cpu = smp_processor_id();
	if (c->task)
		give_back();	/* live, so that the first begin has them to save */
	for (i = 0; i < PBK_FPU_SAMPLES; i++) {
		/* No switch away in between: that would save them itself. */
		preempt_disable();
		local_irq_save(flags);
		t0 = rdtsc_ordered();
		t1 = rdtsc_ordered();
		if (t1 - t0 < c->empty_min)
			c->empty_min = t1 - t0;
		t0 = rdtsc_ordered();
		kernel_fpu_begin();
		kernel_fpu_end();
		t1 = rdtsc_ordered();
		local_irq_restore(flags);
		c->begin_end[i] = t1 - t0;
		c->restore[i] = c->task ? give_back() : 0;
		preempt_enable();
	}
	migrate_enable();
	sort(c->begin_end, PBK_FPU_SAMPLES, sizeof(u64), cmp_u64, NULL);
	sort(c->restore, PBK_FPU_SAMPLES, sizeof(u64), cmp_u64, NULL);
}
