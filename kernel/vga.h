/* SPDX-License-Identifier: MIT */
/*
 * The VGA text screen of a BIOS boot: cells of a character byte and an
 * attribute byte (foreground colour in bits 0-3, background in 4-7).
 */
#ifndef PB_VGA_H
#define PB_VGA_H

#include <stdint.h>
#include "boot_info.h"

#define VGA_TEXT_ADDR	0xb8000		/* colour text, as mode 3 maps it */
#define VGA_TEXT_COLS	80
#define VGA_TEXT_ROWS	25
#define VGA_CELL_BYTES	2

/*
 * Take over the text screen fb describes: the screen font replaces the
 * firmware's (so a screendump shows exactly kernel/font.h's glyphs), the
 * cursor is hidden, the screen cleared.
 */
void vga_text_setup(const struct framebuffer *fb);
void vga_text_put(unsigned int col, unsigned int row, uint8_t ch, uint8_t attr);

#endif
