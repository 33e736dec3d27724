/* SPDX-License-Identifier: MIT */
#include "kernel/smp/stop.h"
#include "kernel/efi/efi_log.h"
#include "kernel/exit.h"
#include "lib/out.h"
#include "lib/run.h"
#include "kernel/screen/run_view.h"
#include "kernel/x86/x86.h"

/*
 * isa-debug-exit: QEMU exits with status (value << 1) | 1. We write 0 for
 * success (status 1) and 1 for failure (status 3). Only ever under QEMU:
 * on real hardware port 0xf4 may belong to anything.
 */
#define QEMU_DEBUG_EXIT	0xf4
#define KBC_CMD		0x64
#define KBC_RESET	0xfe

static enum exit_mode exit_mode = EXIT_HALT;

static void __attribute__((noreturn)) exit_run(void)
{
	unsigned int failures;

	smp_stop_others();	/* first: nothing may print after done */
	failures = run_failures();
	run_print_done();
	log_save();	/* after done:, so the file has it too */
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
		/* The screen turns the summary's pages, then stays on the answer. */
		screen_run_hold();
		break;
	}
	halt_forever();
}

void exit_init(void)
{
	run_set_end(exit_run);
}

void exit_set_mode(enum exit_mode mode, bool under_qemu)
{
	if (mode == EXIT_AUTO)
		mode = under_qemu ? EXIT_QEMU : EXIT_HALT;
	exit_mode = mode;
}
