// SPDX-License-Identifier: MIT
/*
 * The harness's host interface in ring 0 inside a running Linux kernel.
 * Interrupts are off for each timed call only, never for longer than one
 * window of PBK_WINDOW_BYTES; preemption is off during a pass and back on
 * between its reps, where the run offers to reschedule.
 */
#include <linux/irqflags.h>
#include <linux/delay.h>
#include <linux/kernel.h>
#include <linux/preempt.h>
#include <linux/sched.h>
#include <linux/smp.h>
#include <asm/cpufeature.h>
#include <asm/fpu/api.h>
#include <asm/msr.h>
#include <asm/special_insns.h>
#include <asm/tsc.h>
#include "harness/host.h"
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
 * A fault in ring 0 here is an oops, and the kernel has no fixup for code
 * that is not in its exception tables: run.c never calls a variant whose
 * feature CPUID lacks, even when forced. So there is nothing to guard.
 */
bool host_call_guarded(void (*fn)(void *ctx), void *ctx, struct fault *f)
{
	unsigned long flags;
	u64 t0, t1;

	(void)f;
	local_irq_save(flags);
	t0 = rdtsc_ordered();
	fn(ctx);
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
}

void host_vector_end(void)
{
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

/* The rep the pass is at, to offer a reschedule when it moves on. */
static unsigned int pass_rep;
static bool in_pass;
static u64 preempt_off_since;

static void preempt_off(void)
{
	preempt_disable();
	preempt_off_since = rdtsc_ordered();
}

static void preempt_on(void)
{
	u64 t = rdtsc_ordered() - preempt_off_since;

	if (t > windows.preempt_longest)
		windows.preempt_longest = t;
	preempt_enable();
	cond_resched();
}

/*
 * Between a pass's epochs: preemption on, and the kthread asleep in
 * slices, so that what the system queued for this CPU runs now.
 */
void host_pause(uint64_t until_tsc)
{
	if (in_pass)
		preempt_on();
	while ((s64)(rdtsc_ordered() - until_tsc) < 0)
		usleep_range(PBK_PAUSE_SLICE_US, 2 * PBK_PAUSE_SLICE_US);
	if (in_pass)
		preempt_off();
}

void host_pass_begin(void)
{
	preempt_off();
	in_pass = true;
	pass_rep = 0;
}

void host_pass_end(const char *suite, const char *pass,
		   const struct sample_tally *t)
{
	(void)suite;
	(void)pass;
	(void)t;
	in_pass = false;
	preempt_on();
}

/* Called before each timed iteration, outside its preparation. */
void host_progress(const struct progress *p)
{
	if (!in_pass || p->rep == pass_rep)
		return;
	pass_rep = p->rep;
	preempt_on();
	preempt_off();
}

/* One CPU: option_names.c refuses suite=scrub, the only user of more. */
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
