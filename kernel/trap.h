/* SPDX-License-Identifier: MIT */
#ifndef PB_TRAP_H
#define PB_TRAP_H

/* Every CPU exception prints what went wrong and where, then ends the run. */
void trap_init(void);
/* The same IDT on an AP. */
void trap_load(void);

#endif
