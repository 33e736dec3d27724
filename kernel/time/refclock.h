/* SPDX-License-Identifier: MIT */
/*
 * Reference clocks: free-running counters of known rate that the TSC is
 * measured against. Each kind has a start function that either fills in a
 * struct refclock (and may change the hardware's state, which stop()
 * restores) or says why the clock is absent. refclock_measure() is the one
 * calibration routine for all of them.
 */
#ifndef PB_REFCLOCK_H
#define PB_REFCLOCK_H

#include <stddef.h>
#include <stdint.h>
#include "kernel/acpi/tables.h"

struct refclock {
	uint64_t hz;			/* counter ticks per second */
	uint64_t mask;			/* counts up modulo mask + 1 */
	uint64_t (*read)(const struct refclock *rc);
	void (*stop)(const struct refclock *rc);
	uintptr_t addr;			/* MMIO address or I/O port */
	uint64_t saved;			/* what stop() puts back */
};

/* No reference worth the name ticks faster; the rate fits 32 bits. */
#define REFCLOCK_HZ_MAX		1000000000ull

const char *hpet_start(struct refclock *rc, const struct acpi_hpet *h);
const char *pmtimer_start(struct refclock *rc, const struct acpi_pm_timer *t);
const char *pit_start(struct refclock *rc);

/*
 * The TSC rate in Hz against rc, or why it could not be measured (the
 * counter does not advance, or every window was disturbed). Every wait
 * is bounded. Calls rc->stop() before it returns.
 */
const char *refclock_measure(struct refclock *rc, uint64_t *tsc_hz);

#endif
