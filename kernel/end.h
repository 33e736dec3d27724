/* SPDX-License-Identifier: MIT */
/* How the kernel's run ends: QEMU exit, halt or reboot. */
#ifndef PB_END_H
#define PB_END_H

#include <stdbool.h>
#include "harness/options.h"

/* exit=auto resolves to qemu when under_qemu, otherwise halt. */
void run_set_exit(enum exit_mode mode, bool under_qemu);

/* Prints "done: N failures" and ends the run as the exit mode says. */
void __attribute__((noreturn)) run_end(void);

#endif
