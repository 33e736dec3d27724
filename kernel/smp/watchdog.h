/* SPDX-License-Identifier: MIT */
/*
 * The watchdog: a CPU whose run_step() has not moved for the deadline is
 * stuck. Another CPU notices (kernel/smp/smp.c says which watches which),
 * stops it with an NMI, and prints what it was doing. docs/method.md.
 */
#ifndef PB_WATCHDOG_H
#define PB_WATCHDOG_H

#include <stdbool.h>
#include <stdint.h>

/* watchdog=: seconds one step may take. */
void watchdog_init(unsigned int seconds);
unsigned int watchdog_seconds(void);

/* One watcher's view of one CPU's step. */
struct watch {
	unsigned long seq;	/* run_step_seq() when last seen to change */
	uint64_t since;		/* TSC then */
};

/* From now on: the step as it is now is fresh. */
void watch_reset(struct watch *w, unsigned int cpu);
/* True, with the ticks it has been there, when cpu's step is too old. */
bool watch_stuck(struct watch *w, unsigned int cpu, uint64_t *ticks);

/*
 * Stops the stuck CPU (index cpu of host_cpus()), prints the watchdog
 * line, counts the failure. The caller decides how the run goes on.
 */
void watchdog_fire(unsigned int cpu, uint64_t ticks);

#endif
