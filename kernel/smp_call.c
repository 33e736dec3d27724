/* SPDX-License-Identifier: MIT */
/*
 * A started CPU's life: halted in smp_idle() until host_run_on_cpus()
 * gives it a call; the last one also watches the BSP for the watchdog.
 * And the end of CPUs: parked by an NMI, by the watchdog or at the end
 * of the run. docs/method.md.
 */
#include "apic.h"
#include "delay.h"
#include "end.h"
#include "harness/fmt.h"
#include "harness/run.h"
#include "smp_cpu.h"
#include "watchdog.h"
#include "x86.h"

/* An NMI is taken at the next instruction boundary. */
#define PARK_WAIT_MS	100

static volatile uint32_t stopping;	/* the run is ending */

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

/* ---- stopping ---- */

bool smp_park(unsigned int cpu, uint64_t *rip)
{
	struct cpu *c = &smp_cpu[cpu];

	__atomic_store_n(&c->park, 1, __ATOMIC_RELEASE);
	apic_send(c->apic_id, ICR_NMI | ICR_ASSERT);
	if (!delay_wait_flag(&c->parked, PARK_WAIT_MS)) {
		c->state = CPU_PARKED;	/* never given work again */
		return false;
	}
	*rip = c->parked_rip;
	return true;
}

void smp_nmi(uint64_t rip)
{
	struct cpu *self = this_cpu();

	if (!__atomic_load_n(&self->park, __ATOMIC_ACQUIRE) &&
	    !__atomic_load_n(&stopping, __ATOMIC_ACQUIRE))
		return;		/* not ours: trap_handler() reports it */
	self->parked_rip = rip;
	self->state = CPU_PARKED;
	__atomic_store_n(&self->parked, 1, __ATOMIC_RELEASE);
	/* NMIs stay blocked: this handler never returns with IRET. */
	halt_forever();
}

void smp_stop_others(void)
{
	struct cpu *self = this_cpu();
	uint64_t end;
	unsigned int i;

	if (smp_ncpus < 2)
		return;
	if (__atomic_exchange_n(&stopping, 1, __ATOMIC_ACQ_REL)) {
		/* Another CPU is ending the run; its NMI will find this one here. */
		halt_forever();
	}
	for (i = 0; i < smp_ncpus; i++)
		if (&smp_cpu[i] != self && !smp_cpu[i].parked)
			apic_send(smp_cpu[i].apic_id, ICR_NMI | ICR_ASSERT);
	end = rdtsc_ordered() + delay_ticks_ms(PARK_WAIT_MS);
	for (i = 0; i < smp_ncpus; i++)
		while (&smp_cpu[i] != self && !smp_cpu[i].parked && rdtsc_ordered() < end)
			cpu_relax();
}
