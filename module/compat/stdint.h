/* SPDX-License-Identifier: MIT */
/*
 * The harness includes the C library's <stdint.h>; a kernel build has no C
 * library headers (-nostdinc), so the module's Kbuild puts this directory
 * first: the same names from the kernel's own types.
 */
#ifndef PB_COMPAT_STDINT_H
#define PB_COMPAT_STDINT_H

#include <linux/limits.h>
#include <linux/types.h>

#ifndef UINT16_MAX
#define UINT16_MAX	U16_MAX
#endif
#ifndef UINT32_MAX
#define UINT32_MAX	U32_MAX
#endif
#ifndef UINT64_MAX
#define UINT64_MAX	U64_MAX
#endif
#ifndef INT64_MAX
#define INT64_MAX	S64_MAX
#endif
#ifndef INT64_MIN
#define INT64_MIN	S64_MIN
#endif

#endif
