/* SPDX-License-Identifier: MIT */
#ifndef PB_VGA_H
#define PB_VGA_H

#include <stddef.h>

/* The 80x25 text screen of a BIOS boot. */
void vga_init(void);
void vga_write(const char *s, size_t len);

#endif
