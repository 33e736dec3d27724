/* SPDX-License-Identifier: MIT */
/*
 * The VGA text screen of a BIOS boot: cells of a character byte and an
 * attribute byte (foreground colour in bits 0-3, background in 4-7).
 */
#ifndef PB_VGA_H
#define PB_VGA_H

#include <stdint.h>
#include "kernel/boot/boot_info.h"

/* Colour text, as mode 3 maps it (kernel/boot/boot_info.h says so once). */
#define VGA_TEXT_ADDR	BIOS_TEXT_ADDR
#define VGA_TEXT_COLS	BIOS_TEXT_COLS
#define VGA_TEXT_ROWS	BIOS_TEXT_ROWS
#define VGA_CELL_BYTES	BIOS_TEXT_CELL_BYTES

/* The 16 text colours, by their index in an attribute's nibble. */
enum vga_colour {
	VGA_BLACK, VGA_BLUE, VGA_GREEN, VGA_CYAN, VGA_RED, VGA_MAGENTA,
	VGA_BROWN, VGA_LIGHT_GREY, VGA_DARK_GREY, VGA_LIGHT_BLUE,
	VGA_LIGHT_GREEN, VGA_LIGHT_CYAN, VGA_LIGHT_RED, VGA_LIGHT_MAGENTA,
	VGA_YELLOW, VGA_WHITE, VGA_COLOURS
};
#define VGA_ATTR(fg, bg)	((uint8_t)((bg) << 4 | (fg)))
#define VGA_ATTR_FG(a)		((a) & 0x0f)
#define VGA_ATTR_BG(a)		((a) >> 4)

/*
 * Take over the text screen fb describes: the screen font replaces the
 * firmware's (so a screendump shows exactly kernel/screen/font.h's glyphs), the
 * cursor is hidden, the screen cleared.
 */
void vga_text_setup(const struct framebuffer *fb);
void vga_text_put(unsigned int col, unsigned int row, uint8_t ch, uint8_t attr);

#endif
