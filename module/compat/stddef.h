/* SPDX-License-Identifier: MIT */
/* <stddef.h> for the harness in a kernel build: see stdint.h here. */
#ifndef PB_COMPAT_STDDEF_H
#define PB_COMPAT_STDDEF_H

#include <linux/stddef.h>
#include <linux/types.h>

#endif
