/* SPDX-License-Identifier: MIT */
/*
 * The end of CPUs: parked by an NMI, by the watchdog or at the end of the
 * run. docs/method.md.
 */
#include "kernel/smp/stop.h"
#include "kernel/smp/cpu_slots.h"
#include "kernel/x86/apic.h"
#include "kernel/x86/delay.h"
#include "kernel/x86/x86.h"

/* An NMI is taken at the next instruction boundary. */
#define PARK_WAIT_MS	100

static volatile uint32_t stopping;	/* the run is ending */

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
