/* SPDX-License-Identifier: MIT */
/*
 * PIT channel 2 as a reference clock: in mode 2 with a reload of 65536 it
 * counts down at 1.193182 MHz without end, and a latch command freezes
 * the count for reading. Its gate is port 0x61 bit 0 (which also drives
 * the speaker through bit 1, kept off); the port is put back afterwards.
 * Machines that gate the 8254's clock leave the count standing still,
 * which refclock_measure() notices.
 */
#include "kernel/time/refclock.h"
#include "kernel/x86/x86.h"

#define PIT_HZ		1193182u
#define PIT_CH2		0x42
#define PIT_CMD		0x43
#define PORT_B		0x61
#define PORT_B_GATE2	0x01
#define PORT_B_SPKR	0x02

#define CMD_CH2		(2u << 6)
#define CMD_LATCH	(0u << 4)
#define CMD_LOHI	(3u << 4)	/* low byte, then high byte */
#define CMD_MODE2	(2u << 1)	/* rate generator: reloads at 1 */
#define PIT_COUNT_MASK	0xffffu		/* reload 0 means 65536 */

static uint64_t read_count(const struct refclock *rc)
{
	uint8_t lo, hi;

	(void)rc;
	outb(PIT_CMD, CMD_CH2 | CMD_LATCH);
	lo = inb(PIT_CH2);
	hi = inb(PIT_CH2);
	/* It counts down; the reference clocks count up. */
	return (0u - (uint32_t)(lo | hi << 8)) & PIT_COUNT_MASK;
}

static void stop(const struct refclock *rc)
{
	outb(PORT_B, (uint8_t)rc->saved);
}

const char *pit_start(struct refclock *rc)
{
	*rc = (struct refclock){
		.hz = PIT_HZ,
		.mask = PIT_COUNT_MASK,
		.read = read_count,
		.stop = stop,
		.addr = PIT_CH2,
		.saved = inb(PORT_B),
	};
	outb(PORT_B, (rc->saved & ~PORT_B_SPKR) | PORT_B_GATE2);
	outb(PIT_CMD, CMD_CH2 | CMD_LOHI | CMD_MODE2);
	outb(PIT_CH2, 0);
	outb(PIT_CH2, 0);
	return NULL;
}
