/* SPDX-License-Identifier: MIT */
/*
 * The HPET as a reference clock (IA-PC HPET specification 1.0a): its main
 * counter runs at the period the capabilities register gives. Firmware
 * often leaves the counter stopped; it is started for the measurement and
 * the configuration put back afterwards.
 */
#include "kernel/time/refclock.h"

#define HPET_CAP		0x000	/* general capabilities and ID */
#define HPET_CONFIG		0x010	/* general configuration */
#define HPET_COUNTER		0x0f0	/* main counter value */

#define CAP_COUNT_SIZE_64	(1ull << 13)
#define CAP_PERIOD_SHIFT	32	/* [63:32]: femtoseconds per tick */
#define CONFIG_ENABLE		(1ull << 0)
#define PERIOD_FS_MAX		100000000ull	/* the spec's bound: 100 ns */
#define FS_PER_S		1000000000000000ull
#define NO_DEVICE		UINT64_MAX	/* what an empty bus reads */

static uint64_t reg(const struct refclock *rc, unsigned int off)
{
	return *(volatile const uint64_t *)(rc->addr + off);
}

static void set_reg(const struct refclock *rc, unsigned int off, uint64_t v)
{
	*(volatile uint64_t *)(rc->addr + off) = v;
}

static uint64_t read_counter(const struct refclock *rc)
{
	return reg(rc, HPET_COUNTER);
}

/* The 32-bit counter's upper register half is undefined: read the low one. */
static uint64_t read_counter32(const struct refclock *rc)
{
	return *(volatile const uint32_t *)(rc->addr + HPET_COUNTER);
}

static void stop(const struct refclock *rc)
{
	set_reg(rc, HPET_CONFIG, rc->saved);
}

const char *hpet_start(struct refclock *rc, const struct acpi_hpet *h)
{
	uint64_t cap, period;

	*rc = (struct refclock){ .addr = h->base };
	cap = reg(rc, HPET_CAP);
	if (cap == NO_DEVICE)
		return "nothing answers at the HPET base address";
	period = cap >> CAP_PERIOD_SHIFT;
	if (!period || period > PERIOD_FS_MAX ||
	    FS_PER_S / period > REFCLOCK_HZ_MAX)
		return "the HPET counter period is out of range";

	rc->hz = FS_PER_S / period;
	if (cap & CAP_COUNT_SIZE_64) {
		rc->mask = UINT64_MAX;
		rc->read = read_counter;
	} else {
		rc->mask = UINT32_MAX;
		rc->read = read_counter32;
	}
	rc->saved = reg(rc, HPET_CONFIG);
	if (!(rc->saved & CONFIG_ENABLE)) {
		set_reg(rc, HPET_CONFIG, rc->saved | CONFIG_ENABLE);
		rc->stop = stop;
	}
	return NULL;
}
