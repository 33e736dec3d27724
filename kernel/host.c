/* SPDX-License-Identifier: MIT */
/*
 * The harness's host interface in ring 0. The whole run has interrupts
 * off, so nothing the kernel could count disturbs a pass.
 */
#include "kernel/smp/cpu.h"
#include "kernel/smp/call.h"
#include "kernel/smp/smp.h"
#include "lib/fmt.h"
#include "harness/host.h"
#include "cpu/insn.h"
#include "kernel/host_fault.h"
#include "kernel/screen/run.h"
#include "kernel/x86/x86.h"

#define MSR_PRED_CMD	0x49
#define PRED_CMD_IBPB	(1u << 0)
#define MSR_MPERF	0xe7
#define MSR_APERF	0xe8
#define CPUID6_ECX_APERFMPERF	(1u << 0)

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

bool host_aperf_mperf(uint64_t *aperf, uint64_t *mperf)
{
	uint32_t r[4];

	cpuid_count(0, 0, r);
	if (r[0] < 6)
		return false;
	cpuid_count(6, 0, r);
	return (r[2] & CPUID6_ECX_APERFMPERF) && rdmsr_safe(MSR_APERF, aperf) &&
	       rdmsr_safe(MSR_MPERF, mperf);
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

void host_pass_begin(void)
{
}

void host_pass_end(const char *suite, const char *pass)
{
	(void)suite;
	(void)pass;
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
