/* SPDX-License-Identifier: MIT */
/*
 * The state of the run that the exception handler must see: what step is
 * executing, how many failures so far, and how a run ends.
 */
#ifndef PB_RUN_H
#define PB_RUN_H

#include "options.h"

/* Names what is executing now, e.g. "clear L1 w/o flush rep 2 variant avx". */
void run_step(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
const char *run_step_now(void);

void run_fail(void);
unsigned int run_failures(void);

/* exit=auto resolves to qemu when under_qemu, otherwise halt. */
void run_set_exit(enum exit_mode mode, bool under_qemu);

/* Prints "done: N failures" and ends the run as the exit mode says. */
void __attribute__((noreturn)) run_end(void);

#endif
