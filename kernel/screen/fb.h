/* SPDX-License-Identifier: MIT */
/*
 * Text on a linear RGB framebuffer: any pitch, 1 to 4 bytes a pixel, the
 * colour channels wherever the loader says they are. The cells are
 * FONT_WIDTH x FONT_HEIGHT pixels times an integer scale, from the top
 * left corner.
 */
#ifndef PB_FB_H
#define PB_FB_H

#include <stdbool.h>
#include <stdint.h>
#include "kernel/boot/boot_info.h"
#include "kernel/screen/vga.h"

/*
 * The glyphs grow by whole multiples while the screen still holds this
 * many cells: enough for the header, progress and summary, and bigger
 * letters photograph better on a large monitor.
 */
#define FB_MIN_COLS	100
#define FB_MIN_ROWS	30

struct fb {
	volatile uint8_t *base;
	uint32_t pitch, width, height;
	unsigned int bytes_pp, scale, cols, rows;
	uint32_t pixel[VGA_COLOURS];	/* each text colour in this format */
};

/*
 * Set f up for the framebuffer info describes, mapped at base. Returns
 * NULL when it can be drawn on, or why it cannot.
 */
const char *fb_setup(struct fb *f, const struct framebuffer *info, void *base);
void fb_clear(const struct fb *f);
/* attr as in VGA text: foreground colour in bits 0-3, background in 4-7. */
void fb_draw_cell(const struct fb *f, unsigned int col, unsigned int row,
		  uint8_t ch, uint8_t attr);

#endif
