/* SPDX-License-Identifier: MIT */
#include <stdarg.h>
#include "fmt.h"
#include "out.h"
#include "run.h"
#include "kernel/x86.h"

/*
 * isa-debug-exit: QEMU exits with status (value << 1) | 1. We write 0 for
 * success (status 1) and 1 for failure (status 3). Only ever under QEMU:
 * on real hardware port 0xf4 may belong to anything.
 */
#define QEMU_DEBUG_EXIT	0xf4
#define KBC_CMD		0x64
#define KBC_RESET	0xfe

static char step[160] = "boot";
static unsigned int failures;
static enum exit_mode exit_mode = EXIT_HALT;

void run_step(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	fmt_vsnprintf(step, sizeof(step), fmt, ap);
	va_end(ap);
}

const char *run_step_now(void)
{
	return step;
}

void run_fail(void)
{
	failures++;
}

unsigned int run_failures(void)
{
	return failures;
}

void run_set_exit(enum exit_mode mode, bool under_qemu)
{
	if (mode == EXIT_AUTO)
		mode = under_qemu ? EXIT_QEMU : EXIT_HALT;
	exit_mode = mode;
}

void run_end(void)
{
	out_line("done: %u failure%s", failures, failures == 1 ? "" : "s");

	switch (exit_mode) {
	case EXIT_QEMU:
		outl(QEMU_DEBUG_EXIT, failures ? 1 : 0);
		/* Still here: QEMU without isa-debug-exit. Halt instead. */
		out_line("run complete, halting.");
		break;
	case EXIT_REBOOT:
		out_line("run complete, rebooting.");
		outb(KBC_CMD, KBC_RESET);
		/* A triple fault resets any PC the keyboard controller could not. */
		asm volatile("lidt %0; int3" : : "m"((struct { uint16_t l; uint64_t b; }
						      __attribute__((packed))){ 0, 0 }));
		break;
	case EXIT_HALT:
	case EXIT_AUTO:
		out_line("run complete, halting.");
		break;
	}
	halt_forever();
}
