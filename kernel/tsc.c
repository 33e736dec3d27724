/* SPDX-License-Identifier: MIT */
/*
 * Without a CPUID leaf for it, the TSC rate is measured: PIT channel 2 counts
 * down from CALIBRATE_MS worth of 1.193182 MHz ticks in mode 0, and its OUT
 * pin (port 0x61 bit 5) rises when it reaches zero. No interrupts needed.
 */
#include "tsc.h"
#include "x86.h"

#define PIT_HZ		1193182u
#define PIT_CH2		0x42
#define PIT_CMD		0x43
#define PORT_B		0x61
#define PORT_B_GATE2	0x01
#define PORT_B_SPKR	0x02
#define PORT_B_OUT2	0x20

uint64_t tsc_calibrate_pit_khz(void)
{
	uint32_t count = PIT_HZ / 1000 * CALIBRATE_MS;
	uint64_t t0, t1, spins = 0;
	uint8_t b;

	b = inb(PORT_B);
	outb(PORT_B, (b & ~PORT_B_SPKR) | PORT_B_GATE2);
	outb(PIT_CMD, 0xb0);		/* channel 2, lo/hi byte, mode 0, binary */
	outb(PIT_CH2, count & 0xff);
	outb(PIT_CH2, count >> 8);

	t0 = rdtsc_ordered();
	/* A missing PIT never raises OUT2: give up rather than hang. */
	while (!(inb(PORT_B) & PORT_B_OUT2))
		if (++spins > 100000000ull)
			return 0;
	t1 = rdtsc_ordered();
	outb(PORT_B, b);
	return (t1 - t0) / CALIBRATE_MS;
}
