/* SPDX-License-Identifier: MIT */
/*
 * A started CPU's life: halted in smp_idle() until host_run_on_cpus()
 * gives it a call; the last one also watches the BSP for the watchdog.
 * docs/method.md.
 */
#include "kernel/smp/call.h"
#include "kernel/smp/cpu_slots.h"
#include "kernel/x86/apic.h"
#include "kernel/x86/delay.h"
#include "lib/fmt.h"
#include "lib/run.h"
#include "kernel/smp/watchdog.h"
#include "kernel/x86/x86.h"

static void run_call(struct cpu *self)
{
	uint32_t seq = __atomic_load_n(&self->job_seq, __ATOMIC_ACQUIRE);

	self->state = CPU_BUSY;
	/* What the BSP is doing names this CPU's part until fn says more. */
	run_step("%s (cpu %u)", run_step_of(0), self->index);
	self->arrived = rdtsc_ordered();
	while (rdtsc_ordered() < self->start_tsc)
		cpu_relax();
	self->fn(self->ctx, self->index);
	self->state = CPU_IDLE;
	__atomic_store_n(&self->done_seq, seq, __ATOMIC_RELEASE);
}

/* The watcher: a BSP whose step is too old is stopped and the run ends. */
static void watch_bsp(struct watch *w)
{
	uint64_t ticks;

	if (smp_cpu[0].state != CPU_BUSY) {
		watch_reset(w, 0);	/* waiting for the APs: it watches them */
		return;
	}
	if (!watch_stuck(w, 0, &ticks))
		return;
	watchdog_fire(0, ticks);
	run_end();
}

/* A watcher whose APIC timer may stop in HLT looks every period awake. */
static void watch_period_awake(struct cpu *self)
{
	uint64_t end = rdtsc_ordered() + delay_ticks_ms(WATCH_PERIOD_MS);

	while (rdtsc_ordered() < end &&
	       __atomic_load_n(&self->job_seq, __ATOMIC_ACQUIRE) == self->done_seq)
		cpu_relax();
}

/*
 * Halted with interrupts on, so an idle AP takes no issue slots from a
 * sibling that measures. A call's IPI or the watcher's timer (VEC_WAKE)
 * wakes it; it sends the EOI itself once interrupts are off again.
 */
void smp_idle(struct cpu *self)
{
	struct watch w;
	bool watching = false;

	for (;;) {
		if (__atomic_load_n(&self->job_seq, __ATOMIC_ACQUIRE) != self->done_seq) {
			run_call(self);
			watching = false;	/* it did not look meanwhile */
		}
		if (self->index == __atomic_load_n(&smp_watcher, __ATOMIC_ACQUIRE)) {
			if (!watching) {
				if (smp_timer_runs_in_halt)
					apic_timer_periodic(VEC_WAKE, smp_watch_ticks);
				watch_reset(&w, 0);
				watching = true;
			}
			watch_bsp(&w);
			if (!smp_timer_runs_in_halt) {
				watch_period_awake(self);
				continue;
			}
		}
		asm volatile("sti; hlt; cli" : : : "memory");
		apic_eoi_if_in_service(VEC_WAKE);
	}
}

static bool call_done(const struct cpu *c)
{
	return __atomic_load_n(&c->done_seq, __ATOMIC_ACQUIRE) == c->job_seq;
}

/* The BSP's wait: every AP finishes, or the watchdog stops it. */
static bool wait_calls(unsigned int n, char *why, size_t whylen)
{
	static struct watch w[HOST_CPUS_MAX];
	unsigned int i, left;
	uint64_t ticks;
	bool ok = true;

	for (i = 1; i < n; i++)
		watch_reset(&w[i], i);
	do {
		left = 0;
		for (i = 1; i < n; i++) {
			struct cpu *c = &smp_cpu[i];

			if (call_done(c) || c->state == CPU_PARKED)
				continue;
			if (!watch_stuck(&w[i], i, &ticks)) {
				left++;
				continue;
			}
			watchdog_fire(i, ticks);
			if (ok)
				fmt_snprintf(why, whylen, "cpu %u (apic=%u) did not finish: the watchdog stopped it",
					     i, c->apic_id);
			ok = false;
		}
		cpu_relax();
	} while (left);
	return ok;
}

bool smp_run(unsigned int n, uint64_t start_tsc,
	     void (*fn)(void *ctx, unsigned int i), void *ctx,
	     char *why, size_t whylen)
{
	unsigned int i;
	bool ok;

	if (!n || n > smp_ncpus) {
		fmt_snprintf(why, whylen, "%u CPUs asked for, %u online", n, smp_ncpus);
		return false;
	}
	if (smp_cpu_index()) {
		fmt_snprintf(why, whylen, "called on cpu %u, not cpu 0", smp_cpu_index());
		return false;
	}
	for (i = 1; i < n; i++) {
		if (smp_cpu[i].state == CPU_PARKED) {
			fmt_snprintf(why, whylen, "cpu %u (apic=%u) was stopped by the watchdog",
				     i, smp_cpu[i].apic_id);
			return false;
		}
	}
	for (i = 1; i < n; i++) {
		struct cpu *c = &smp_cpu[i];

		c->fn = fn;
		c->ctx = ctx;
		c->start_tsc = start_tsc;
		__atomic_store_n(&c->job_seq, c->job_seq + 1, __ATOMIC_RELEASE);
		apic_send(c->apic_id, ICR_FIXED | ICR_ASSERT | VEC_WAKE);
	}
	smp_cpu[0].arrived = rdtsc_ordered();
	while (rdtsc_ordered() < start_tsc)
		cpu_relax();
	fn(ctx, 0);
	smp_cpu[0].state = CPU_WAITING;
	ok = wait_calls(n, why, whylen);
	smp_cpu[0].state = CPU_BUSY;
	return ok;
}

uint64_t smp_arrival(unsigned int cpu)
{
	return smp_cpu[cpu < smp_ncpus ? cpu : 0].arrived;
}
