// SPDX-License-Identifier: MIT
/*
 * The harness's host interface in ring 0 inside a running Linux kernel.
 * Interrupts are off for each timed call only, never for longer than one
 * window of PBK_WINDOW_BYTES; preemption is off during the passes, and the
 * run offers to reschedule at the harness's yield points once
 * PBK_YIELD_MS have passed since it last did (host_may_yield()). A trap in
 * the module's code during a guarded call returns from it as a fault; an
 * unload ends the run at its next yield point.
 */
#include <linux/irqflags.h>
#include <linux/delay.h>
#include <linux/kdebug.h>
#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/notifier.h>
#include <linux/preempt.h>
#include <linux/sched.h>
#include <linux/smp.h>
#include <asm/traps.h>
#include <asm/cpufeature.h>
#include <asm/fpu/api.h>
#include <asm/msr.h>
#include <asm/special_insns.h>
#include <asm/tsc.h>
#include "harness/measure/host.h"
#include "module/kernel.h"

static struct pbk_windows windows;

void pbk_windows(struct pbk_windows *w)
{
	*w = windows;
}

void host_caps(struct host_caps *c)
{
	c->wbinvd = true;
	c->ibpb = true;
	c->window_bytes = PBK_WINDOW_BYTES;
}

/* Not interruptible: on a large L3 it can hold off interrupts by itself (docs/method.md). */
void host_wbinvd(void)
{
	wbinvd();
}

bool host_ibpb(void)
{
	return wrmsrl_safe(MSR_IA32_PRED_CMD, PRED_CMD_IBPB) == 0;
}

/*
 * A guarded call that traps: a variant whose feature CPUID lacks (force=,
 * or a hypervisor whose CPUID lies) raises #UD, or #GP. The kernel's
 * exception tables cannot cover it: their entries name single
 * instructions, and the variants are nasm routines without any. So the
 * module watches the traps the kernel offers its die notifiers (do_trap()
 * and the #GP handler call them before they would oops): one in the
 * module's own code, on the run's CPU, during a guarded call, has the trap
 * frame's RIP moved to pbk_jump_back() (jump.asm), and the exception
 * returns there: back in host_call_guarded(), with the stack and registers
 * of before the call. The FPU, interrupts and preemption are then given
 * back as the call would have. A trap anywhere else is none of ours.
 */
static struct {
	struct pbk_jump back;
	bool armed;
	int cpu;
	int trapnr;
	const char *str;
	unsigned long ip;
} guard;

/* Taken by host_vector_begin(), given back by host_vector_end() */
static bool vector_held;

static int on_die(struct notifier_block *nb, unsigned long val, void *data)
{
	struct die_args *a = data;
	struct pt_regs *regs = a->regs;

	(void)nb;
	if ((val != DIE_TRAP && val != DIE_GPF) || !READ_ONCE(guard.armed) ||
	    guard.cpu != raw_smp_processor_id() || user_mode(regs) ||
	    !within_module_core(regs->ip, THIS_MODULE))
		return NOTIFY_DONE;
	guard.armed = false;
	guard.trapnr = a->trapnr;
	guard.str = a->str;
	guard.ip = regs->ip;
	regs->ip = (unsigned long)pbk_jump_back;
	regs->di = (unsigned long)&guard.back;
	return NOTIFY_STOP;
}

static struct notifier_block die_nb = { .notifier_call = on_die };

int pbk_guard_init(void)
{
	return register_die_notifier(&die_nb);
}

void pbk_guard_exit(void)
{
	unregister_die_notifier(&die_nb);
}

static const char *trap_name(int trapnr)
{
	switch (trapnr) {
	case X86_TRAP_DE:
		return "#DE";
	case X86_TRAP_UD:
		return "#UD";
	case X86_TRAP_SS:
		return "#SS";
	case X86_TRAP_GP:
		return "#GP";
	case X86_TRAP_MF:
		return "#MF";
	case X86_TRAP_AC:
		return "#AC";
	case X86_TRAP_XF:
		return "#XF";
	}
	return "#?";
}

bool host_call_guarded(void (*fn)(void *ctx), void *ctx, struct fault *f)
{
	bool held_before = vector_held;
	unsigned long flags;
	u64 t0, t1;

	local_irq_save(flags);
	guard.cpu = raw_smp_processor_id();
	t0 = rdtsc_ordered();
	if (pbk_jump_set(&guard.back)) {
		/* What the call took and did not give back: the FPU, with its preempt_disable(). */
		if (vector_held && !held_before)
			host_vector_end();
		local_irq_restore(flags);
		snprintf(f->what, sizeof(f->what), "%s (%s)", trap_name(guard.trapnr),
			 guard.str ? guard.str : "trap");
		f->rip = guard.ip;
		return false;
	}
	WRITE_ONCE(guard.armed, true);
	fn(ctx);
	WRITE_ONCE(guard.armed, false);
	t1 = rdtsc_ordered();
	local_irq_restore(flags);

	windows.n++;
	if (t1 - t0 > windows.longest)
		windows.longest = t1 - t0;
	if (tsc_khz && t1 - t0 > tsc_khz)	/* tsc_khz ticks: 1 ms */
		windows.over_1ms++;
	return true;
}

/*
 * In the run's kthread there is no user state to save: kernel_fpu_begin()
 * marks the registers as the kernel's and loads a clean MXCSR.
 */
void host_vector_begin(void)
{
	kernel_fpu_begin();
	vector_held = true;
}

void host_vector_end(void)
{
	vector_held = false;
	kernel_fpu_end();
}

/*
 * Cycles beside the ticks: APERF and MPERF, as the boot kernel reads them
 * (kernel/x86/aperfmperf.h), through the running kernel's rdmsrl_safe(),
 * so that a CPU or hypervisor that faults on them costs an error, not an
 * oops. Set once, before the first sample.
 */
static bool aperfmperf;

/* MPERF, then APERF: the span MPERF covers encloses APERF's. */
static bool read_begin(u64 *aperf, u64 *mperf)
{
	return !rdmsrl_safe(MSR_IA32_MPERF, mperf) &&
	       !rdmsrl_safe(MSR_IA32_APERF, aperf);
}

static bool read_end(u64 *aperf, u64 *mperf)
{
	return !rdmsrl_safe(MSR_IA32_APERF, aperf) &&
	       !rdmsrl_safe(MSR_IA32_MPERF, mperf);
}

#define PROBE_SPINS	10000

bool host_samples_start(const struct sample_plan *sp, char *what, size_t len)
{
	u64 a0, m0, a1, m1;
	unsigned int i;

	if (!sp->cycles) {
		snprintf(what, len, "cycles=off");
		return false;
	}
	if (!sp->aperfmperf) {
		snprintf(what, len, "no APERF/MPERF: %s", sp->no_aperfmperf);
		return false;
	}
	if (!read_begin(&a0, &m0)) {
		snprintf(what, len, "no APERF/MPERF: an RDMSR of them faulted");
		return false;
	}
	for (i = 0; i < PROBE_SPINS; i++)
		cpu_relax();
	if (!read_end(&a1, &m1) || a1 == a0 || m1 == m0) {
		snprintf(what, len, "no APERF/MPERF: they do not count here");
		return false;
	}
	aperfmperf = true;
	snprintf(what, len, "source=aperf ref=mperf");
	return true;
}

/* With interrupts off around the window, nothing takes the CPU away from it. */
void host_sample_begin(struct host_sample *s)
{
	u64 a = 0, m = 0;

	s->disturbed = false;
	s->has_cycles = aperfmperf && read_begin(&a, &m);
	s->at[0] = a;
	s->at[1] = m;
}

void host_sample_end(struct host_sample *s, uint64_t ticks)
{
	u64 a, m;

	(void)ticks;
	if (!s->has_cycles || !read_end(&a, &m)) {
		s->has_cycles = false;
		return;
	}
	s->cycles = a - s->at[0];
	s->ref = m - s->at[1];
	/* MPERF stands still only while the core halts: no figure to give. */
	s->has_cycles = s->ref != 0;
}

/*
 * Reschedule points. The run's thread gives the CPU away only where it
 * offers to (a kernel built without forced preemption never takes it
 * anyway), so the stretch from one offer to the next is what the rest of
 * the CPU waits for at worst: the longest is measured, with the step it
 * ended in, and run_host.c holds it against stall_limit_ms=.
 */
static bool in_pass;		/* preemption off, between host_pass_begin() and _end() */
static u64 last_offer;		/* TSC of the last reschedule point */
static u64 yield_ticks;		/* PBK_YIELD_MS in TSC ticks */
static bool stop_wanted;	/* pbk_stop(): an unload is waiting */
static bool stoppable;		/* pbk_run_stoppable() is under way */
static struct pbk_jump stop_back;

void pbk_yield_start(uint64_t khz)
{
	yield_ticks = (khz ? khz : 1000000) * PBK_YIELD_MS;
	last_offer = rdtsc_ordered();
}

/* The stretch since the last offer ends here. */
static void stretch_end(void)
{
	u64 now = rdtsc_ordered();

	if (now - last_offer > windows.preempt_longest) {
		windows.preempt_longest = now - last_offer;
		snprintf(windows.longest_during, sizeof(windows.longest_during),
			 "%s", run_step_now());
	}
}

static void offer(void)
{
	stretch_end();
	if (in_pass)
		preempt_enable();
	cond_resched();
	if (in_pass)
		preempt_disable();
	last_offer = rdtsc_ordered();
}

void pbk_may_sleep_begin(void)
{
	offer();
}

void pbk_may_sleep_end(void)
{
	last_offer = rdtsc_ordered();
}

void pbk_stop(void)
{
	WRITE_ONCE(stop_wanted, true);
}

bool pbk_stop_wanted(void)
{
	return READ_ONCE(stop_wanted);
}

bool pbk_run_stoppable(void (*fn)(void *ctx), void *ctx)
{
	if (pbk_jump_set(&stop_back)) {
		stoppable = false;
		return false;
	}
	stoppable = true;
	fn(ctx);
	stoppable = false;
	return true;
}

/*
 * Nothing is held at a yield point (harness/measure/host.h): no FPU, interrupts
 * on; preemption is given back before leaving the run, and the run's
 * buffers are run_host.c's to free.
 */
void host_may_yield(void)
{
	if (READ_ONCE(stop_wanted) && stoppable) {
		offer();
		if (in_pass)
			preempt_enable();
		in_pass = false;
		pbk_jump_back(&stop_back);
	}
	if (rdtsc_ordered() - last_offer >= yield_ticks)
		offer();
}

/*
 * Between a pass's epochs: preemption on, and the kthread asleep in
 * slices, so that what the system queued for this CPU runs now.
 */
void host_pause(uint64_t until_tsc)
{
	stretch_end();
	if (in_pass)
		preempt_enable();
	while ((s64)(rdtsc_ordered() - until_tsc) < 0 && !READ_ONCE(stop_wanted))
		usleep_range(PBK_PAUSE_SLICE_US, 2 * PBK_PAUSE_SLICE_US);
	if (in_pass)
		preempt_disable();
	last_offer = rdtsc_ordered();
}

void host_pass_begin(void)
{
	offer();
	preempt_disable();
	in_pass = true;
}

void host_pass_end(const char *suite, const char *pass,
		   const struct sample_tally *t)
{
	(void)suite;
	(void)pass;
	(void)t;
	in_pass = false;
	preempt_enable();
	offer();
}

/* Nobody watches a module's run as it goes: /proc/pagebench is the log. */
void host_progress(const struct progress *p)
{
	(void)p;
}

/* One CPU: harness/options/names.c refuses suite=scrub, the only user of more. */
void host_cpus(struct host_cpus *c)
{
	c->n = 1;
	c->id[0] = raw_smp_processor_id();
	c->node[0] = 0;
	c->nodes = 1;
}

bool host_run_on_cpus(unsigned int n, uint64_t start_tsc,
		      void (*fn)(void *ctx, unsigned int i), void *ctx,
		      char *why, size_t whylen)
{
	if (n != 1) {
		snprintf(why, whylen, "the module runs on one CPU");
		return false;
	}
	while (rdtsc_ordered() < start_tsc)
		cpu_relax();
	fn(ctx, 0);
	return true;
}
