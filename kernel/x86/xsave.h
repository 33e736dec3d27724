/* SPDX-License-Identifier: MIT */
#ifndef PB_XSAVE_H
#define PB_XSAVE_H

#include <stdint.h>

/*
 * Turns on XSAVE and the vector states the variants use, when the CPU has
 * them, and returns the XCR0 now in force (0 without XSAVE).
 */
uint64_t xsave_enable(void);

#endif
