/* SPDX-License-Identifier: MIT */
#ifndef PB_SERIAL_H
#define PB_SERIAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* false when no UART answers at port: then serial_write() does nothing. */
bool serial_init(uint16_t port, uint32_t baud);
void serial_write(const char *s, size_t len);

#endif
