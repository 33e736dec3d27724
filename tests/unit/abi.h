/* SPDX-License-Identifier: MIT */
/*
 * The System V contract every variant keeps, checked from C: callee-saved
 * registers survive the call and the direction flag is clear on return.
 */
#ifndef PB_TEST_ABI_H
#define PB_TEST_ABI_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/*
 * Calls fn(a0, a1, a2) with all 64 bits of each argument register as
 * given and with known values in rbx, rbp and r12-r15; *ret is fn's rax.
 * false, with why, when one of those registers or DF did not come back.
 */
bool abi_call_checked(const void *fn, uint64_t a0, uint64_t a1, uint64_t a2,
		      uint64_t *ret, char *why, size_t whylen);

#endif
