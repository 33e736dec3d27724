/* SPDX-License-Identifier: MIT */
/*
 * Stopping CPUs: by the watchdog, or all but one at the end of the run
 * (kernel/smp/stop.c).
 */
#ifndef PB_SMP_STOP_H
#define PB_SMP_STOP_H

#include <stdbool.h>
#include <stdint.h>

/*
 * Stops CPU cpu with an NMI; true, with the RIP it was stopped at, once
 * it confirms. It never runs again.
 */
bool smp_park(unsigned int cpu, uint64_t *rip);

/* trap_init()'s NMI hook: stops this CPU when it was asked to. */
void smp_nmi(uint64_t rip);

/* From the end of the run: every other CPU stopped, so nothing prints after done. */
void smp_stop_others(void);

#endif
