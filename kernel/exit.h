/* SPDX-License-Identifier: MIT */
/* How the kernel's run ends: QEMU exit, halt or reboot. */
#ifndef PB_EXIT_H
#define PB_EXIT_H

#include <stdbool.h>
#include "harness/options/options.h"

/*
 * From now on run_end() (lib/run.h) prints "done: N failures", saves the
 * log and ends the run: by halting, until exit_set_mode() says otherwise.
 */
void exit_init(void);
/* exit=: EXIT_AUTO is qemu when under_qemu, else halt. */
void exit_set_mode(enum exit_mode mode, bool under_qemu);

#endif
