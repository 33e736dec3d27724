/* SPDX-License-Identifier: MIT */
#ifndef PB_CONSOLE_H
#define PB_CONSOLE_H

#include "boot_info.h"
#include "harness/options.h"

/* Serial (when a UART answers) and the text screen (when there is one). */
void console_init(const struct options *o, const struct boot_info *bi);

#endif
