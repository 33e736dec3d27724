/* SPDX-License-Identifier: MIT */
/* The module's part of the run (run_host.c), as main.c starts it. Plain C types only. */
#ifndef PB_MODULE_RUN_HOST_H
#define PB_MODULE_RUN_HOST_H

#include <stdbool.h>
#include "module/kernel.h"

/*
 * Parses args (NULL: none) and picks the CPU to run on. false after an
 * option error: the log then holds the description, the "option error"
 * lines and "done:", and loading must fail.
 */
bool pb_prepare(const char *args, int *cpu);

/*
 * The whole run, on the CPU pb_prepare() picked, to its "done:" line.
 * task: kernel_fpu_begin/end's cost in a task, measured before.
 */
void pb_run(const struct pbk_fpu_cost *task);

#endif
