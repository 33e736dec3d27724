/* SPDX-License-Identifier: MIT */
/*
 * The screen font: 8x16 glyphs indexed by code page 437 byte, the VGA text
 * screen's own encoding, generated at build time by scripts/psf2c from a
 * Debian console font. Bytes outside scripts/psf2c's SCREEN_CHARS are
 * drawn as '?'. A row is one byte, its top bit the leftmost pixel.
 */
#ifndef PB_FONT_H
#define PB_FONT_H

#include <stdint.h>

#define FONT_WIDTH	8
#define FONT_HEIGHT	16
#define FONT_CODES	256

/* The line and block characters of SCREEN_CHARS, as code page 437 bytes. */
#define CH_HLINE	0xc4	/* ─ */
#define CH_VLINE	0xb3	/* │ */
#define CH_DOWN_RIGHT	0xda	/* ┌ */
#define CH_DOWN_LEFT	0xbf	/* ┐ */
#define CH_UP_RIGHT	0xc0	/* └ */
#define CH_UP_LEFT	0xd9	/* ┘ */
#define CH_VERT_RIGHT	0xc3	/* ├ */
#define CH_VERT_LEFT	0xb4	/* ┤ */
#define CH_DOWN_HORIZ	0xc2	/* ┬ */
#define CH_UP_HORIZ	0xc1	/* ┴ */
#define CH_CROSS	0xc5	/* ┼ */
#define CH_FULL_BLOCK	0xdb	/* █ */
#define CH_LIGHT_SHADE	0xb0	/* ░ */
#define CH_MEDIUM_SHADE	0xb1	/* ▒ */
#define CH_MIDDLE_DOT	0xfa	/* · */

extern const uint8_t font_glyphs[FONT_CODES][FONT_HEIGHT];

#endif
