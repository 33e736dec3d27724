/* SPDX-License-Identifier: MIT */
#include "kernel/smp/cpu_slots.h"
#include "kernel/smp/stop.h"
#include "kernel/x86/delay.h"
#include "lib/fmt.h"
#include "lib/out.h"
#include "lib/run.h"
#include "kernel/smp/watchdog.h"
#include "kernel/x86/x86.h"

#define MS_PER_S	1000u

static unsigned int deadline_s;

void watchdog_init(unsigned int seconds)
{
	deadline_s = seconds;
}

unsigned int watchdog_seconds(void)
{
	return deadline_s;
}

void watch_reset(struct watch *w, unsigned int cpu)
{
	w->seq = run_step_seq(cpu);
	w->since = rdtsc_ordered();
}

bool watch_stuck(struct watch *w, unsigned int cpu, uint64_t *ticks)
{
	unsigned long seq = run_step_seq(cpu);
	uint64_t now = rdtsc_ordered();

	if (seq != w->seq) {
		w->seq = seq;
		w->since = now;
		return false;
	}
	*ticks = now - w->since;
	return *ticks > delay_ticks_ms((uint64_t)deadline_s * MS_PER_S);
}

void watchdog_fire(unsigned int cpu, uint64_t ticks)
{
	char rip[32] = "rip=unknown";
	uint64_t at;

	/* Stopped first: the step read below can no longer change. */
	if (smp_park(cpu, &at))
		fmt_snprintf(rip, sizeof(rip), "rip=0x%lx", (unsigned long)at);
	out_line("watchdog: cpu apic=%u stuck for %lu ms %s during: %s",
		 smp_apic_id(cpu), (unsigned long)delay_ms_of(ticks), rip,
		 run_step_of(cpu));
	run_fail();
}
