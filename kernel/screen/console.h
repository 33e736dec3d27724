/* SPDX-License-Identifier: MIT */
#ifndef PB_CONSOLE_H
#define PB_CONSOLE_H

#include <stdint.h>
#include "kernel/boot/boot_info.h"

/*
 * Serial at serial_port (when a UART answers there) and the screen bi
 * describes (when there is one): out_line()'s sink from now on.
 */
void console_init(uint16_t serial_port, uint32_t baud, const struct boot_info *bi);

#endif
