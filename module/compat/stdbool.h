/* SPDX-License-Identifier: MIT */
/* <stdbool.h> for the harness in a kernel build: see stdint.h here. */
#ifndef PB_COMPAT_STDBOOL_H
#define PB_COMPAT_STDBOOL_H

#include <linux/stddef.h>	/* true, false */
#include <linux/types.h>	/* bool */

#endif
