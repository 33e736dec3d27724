/* SPDX-License-Identifier: MIT */
#ifndef PB_HOST_FAULT_H
#define PB_HOST_FAULT_H

#include <stdint.h>

/*
 * Called by the exception handler: when the fault hit a guarded call
 * (host_call_guarded()), records it and resumes there; otherwise returns.
 */
void host_fault_escape(const char *name, const char *desc, uint64_t rip);

#endif
