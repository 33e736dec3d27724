/* SPDX-License-Identifier: MIT */
/* <stdarg.h> for the harness in a kernel build: see stdint.h here. */
#ifndef PB_COMPAT_STDARG_H
#define PB_COMPAT_STDARG_H

#include <linux/stdarg.h>

#endif
