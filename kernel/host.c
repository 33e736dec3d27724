/* SPDX-License-Identifier: MIT */
/*
 * The harness's host interface in ring 0. The whole run has interrupts
 * off, so nothing the kernel could count disturbs a pass: no sample is
 * ever disturbed. Cycles come from APERF/MPERF where the CPU has them.
 */
#include "kernel/smp/cpu_slots.h"
#include "kernel/smp/call.h"
#include "kernel/smp/smp.h"
#include "lib/fmt.h"
#include "harness/measure/host.h"
#include "cpu/insn.h"
#include "kernel/host_fault.h"
#include "kernel/screen/run_view.h"
#include "kernel/x86/aperfmperf.h"
#include "kernel/x86/x86.h"

#define MSR_PRED_CMD	0x49
#define PRED_CMD_IBPB	(1u << 0)

void host_caps(struct host_caps *c)
{
	c->wbinvd = true;
	c->ibpb = true;
}

void host_wbinvd(void)
{
	wbinvd();
}

bool host_ibpb(void)
{
	return wrmsr_safe(MSR_PRED_CMD, PRED_CMD_IBPB);
}

/* The registers are the run's own: nothing to save. */
void host_vector_begin(void)
{
}

void host_vector_end(void)
{
}

/*
 * A guarded call records where to come back to; trap_handler() jumps
 * there instead of ending the run. One at a time on each CPU: the harness
 * never nests.
 */
static struct guard {
	void *jmp[5];		/* __builtin_setjmp's buffer */
	struct fault *fault;
	bool armed;
} __attribute__((aligned(64))) guards[HOST_CPUS_MAX];	/* a line each */

bool host_call_guarded(void (*fn)(void *ctx), void *ctx, struct fault *f)
{
	struct guard *guard = &guards[smp_cpu_index()];

	if (__builtin_setjmp(guard->jmp)) {
		guard->armed = false;
		return false;
	}
	guard->fault = f;
	guard->armed = true;
	fn(ctx);
	guard->armed = false;
	return true;
}

void host_fault_escape(const char *name, const char *desc, uint64_t rip)
{
	struct guard *guard = &guards[smp_cpu_index()];
	struct fault *f = guard->fault;
	unsigned int n = 0;

	if (!guard->armed)
		return;
	for (; *name && n + 1 < sizeof(f->what); name++)
		f->what[n++] = *name;
	if (n + 3 < sizeof(f->what)) {
		f->what[n++] = ' ';
		f->what[n++] = '(';
	}
	for (; *desc && n + 2 < sizeof(f->what); desc++)
		f->what[n++] = *desc;
	f->what[n++] = ')';
	f->what[n] = '\0';
	f->rip = rip;
	__builtin_longjmp(guard->jmp, 1);
}

/* The run owns this CPU: nothing waits for it. */
void host_may_yield(void)
{
}

void host_pause(uint64_t until_tsc)
{
	while ((int64_t)(rdtsc_ordered() - until_tsc) < 0)
		asm volatile("pause");
}

/* Set once, before any CPU runs a sample. */
static bool aperfmperf;

bool host_samples_start(const struct sample_plan *sp, char *what, size_t len)
{
	if (!sp->cycles) {
		fmt_snprintf(what, len, "cycles=off");
		return false;
	}
	if (!sp->aperfmperf) {
		fmt_snprintf(what, len, "no APERF/MPERF: %s", sp->no_aperfmperf);
		return false;
	}
	if (!aperfmperf_probe(what, len))
		return false;
	aperfmperf = true;
	fmt_snprintf(what, len, "source=aperf ref=mperf");
	return true;
}

void host_sample_begin(struct host_sample *s)
{
	struct aperfmperf a = { 0, 0 };

	s->disturbed = false;
	s->has_cycles = aperfmperf && aperfmperf_read_begin(&a);
	s->at[0] = a.aperf;
	s->at[1] = a.mperf;
}

void host_sample_end(struct host_sample *s, uint64_t ticks)
{
	struct aperfmperf a;

	(void)ticks;
	if (!s->has_cycles || !aperfmperf_read_end(&a)) {
		s->has_cycles = false;
		return;
	}
	s->cycles = a.aperf - s->at[0];
	s->ref = a.mperf - s->at[1];
	/* MPERF stands still only while the core halts: no figure to give. */
	s->has_cycles = s->ref != 0;
}

void host_pass_begin(void)
{
}

void host_pass_end(const char *suite, const char *pass,
		   const struct sample_tally *t)
{
	(void)suite;
	(void)pass;
	(void)t;
}

void host_progress(const struct progress *p)
{
	screen_run_progress(p);
}

void host_cpus(struct host_cpus *c)
{
	smp_cpus(c);
}

bool host_run_on_cpus(unsigned int n, uint64_t start_tsc,
		      void (*fn)(void *ctx, unsigned int i), void *ctx,
		      char *why, size_t whylen)
{
	return smp_run(n, start_tsc, fn, ctx, why, whylen);
}
