/* SPDX-License-Identifier: MIT */
/*
 * The ACPI PM timer as a reference clock: 3.579545 MHz, 24 or 32 bits
 * wide as the FADT says, in I/O or (rarely) memory space. It always runs.
 */
#include "kernel/time/refclock.h"
#include "kernel/x86/x86.h"

static uint64_t read_io(const struct refclock *rc)
{
	return inl((uint16_t)rc->addr) & rc->mask;
}

static uint64_t read_mem(const struct refclock *rc)
{
	return *(volatile const uint32_t *)rc->addr & rc->mask;
}

const char *pmtimer_start(struct refclock *rc, const struct acpi_pm_timer *t)
{
	*rc = (struct refclock){
		.hz = ACPI_PM_TIMER_HZ,
		.mask = (1ull << t->bits) - 1,
		.read = t->reg.space == ACPI_SPACE_IO ? read_io : read_mem,
		.addr = t->reg.addr,
	};
	/* Reads of nothing return all ones; the timer shows all ones rarely. */
	if (rc->read(rc) == rc->mask && rc->read(rc) == rc->mask)
		return "nothing answers at the PM timer address";
	return NULL;
}
