/* SPDX-License-Identifier: MIT */
#ifndef PB_TRAP_H
#define PB_TRAP_H

#include <stdint.h>

/*
 * What the layers above make of an exception; trap.c itself knows nothing
 * of them (each hook may be NULL).
 */
struct trap_hooks {
	/* An NMI: returns when it is not the hook's (it is then reported). */
	void (*nmi)(uint64_t rip);
	/* Any exception: does not return when a guarded call expected it. */
	void (*guarded)(const char *name, const char *desc, uint64_t rip);
};

/*
 * Every other exception prints what went wrong and where, counts a
 * failure and ends the run through run_end() (lib/run.h).
 */
void trap_init(const struct trap_hooks *h);
/* The same IDT on an AP. */
void trap_load(void);

#endif
