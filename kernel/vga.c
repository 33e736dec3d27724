/* SPDX-License-Identifier: MIT */
#include <stdint.h>
#include "vga.h"

#define VGA_TEXT	((volatile uint16_t *)0xb8000)
#define COLS		80
#define ROWS		25
#define ATTR		0x0700	/* light grey on black */

static unsigned int row, col;

static void scroll(void)
{
	unsigned int i;

	for (i = 0; i < COLS * (ROWS - 1); i++)
		VGA_TEXT[i] = VGA_TEXT[i + COLS];
	for (i = COLS * (ROWS - 1); i < COLS * ROWS; i++)
		VGA_TEXT[i] = ATTR | ' ';
	row = ROWS - 1;
}

void vga_init(void)
{
	unsigned int i;

	for (i = 0; i < COLS * ROWS; i++)
		VGA_TEXT[i] = ATTR | ' ';
	row = col = 0;
}

void vga_write(const char *s, size_t len)
{
	size_t i;

	for (i = 0; i < len; i++) {
		if (s[i] == '\n' || col == COLS) {
			col = 0;
			if (++row == ROWS)
				scroll();
			if (s[i] == '\n')
				continue;
		}
		VGA_TEXT[row * COLS + col++] = ATTR | (uint8_t)s[i];
	}
}
