/* SPDX-License-Identifier: MIT */
#include "kernel/smp/cpu_slots.h"
#include "kernel/screen/console.h"
#include "kernel/x86/delay.h"
#include "lib/out.h"
#include "kernel/efi/log_keep.h"
#include "kernel/screen/screen.h"
#include "kernel/screen/serial.h"
#include "kernel/x86/x86.h"

/*
 * Longer than any line takes to print (512 characters at 1200 baud: 4 s).
 * A CPU stopped while it held the console must not silence the others.
 */
#define HOLD_MAX_MS	5000

static bool serial_on, screen_on;
static uint32_t holder;		/* CPU index + 1 printing now, 0: none */

/* One line at a time, whole on every sink, whichever CPU prints it. */
static void console_write(const char *s, size_t len)
{
	uint32_t me = smp_cpu_index() + 1, none = 0;
	uint64_t end = rdtsc_ordered() + delay_ticks_ms(HOLD_MAX_MS);
	bool nested = __atomic_load_n(&holder, __ATOMIC_RELAXED) == me;

	/* Nested: a fault while printing, reported from the same CPU. */
	while (!nested && !__atomic_compare_exchange_n(&holder, &none, me, false,
						       __ATOMIC_ACQUIRE,
						       __ATOMIC_RELAXED)) {
		none = 0;
		if (rdtsc_ordered() > end) {
			__atomic_store_n(&holder, me, __ATOMIC_RELAXED);
			break;
		}
		cpu_relax();
	}
	log_keep_sink(s, len);		/* every line, for the file saved at the end */
	if (serial_on)
		serial_write(s, len);
	if (screen_on)
		screen_log_sink(s, len);
	if (!nested)
		__atomic_store_n(&holder, 0, __ATOMIC_RELEASE);
}

void console_init(uint16_t serial_port, uint32_t baud, const struct boot_info *bi)
{
	serial_on = serial_init(serial_port, baud);
	screen_on = screen_init(bi);
	out_add_sink(console_write);
}
