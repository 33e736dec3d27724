/* SPDX-License-Identifier: MIT */
#include "kernel/screen/fb.h"
#include "kernel/screen/font.h"

#define MAX_CHANNEL	16	/* bits; deeper channels do not exist */
#define GLYPH_LEFT	(1u << (FONT_WIDTH - 1))	/* a glyph row's leftmost pixel */

/*
 * The VGA's default text palette (its DAC's 6-bit levels 0x00, 0x15, 0x2a
 * and 0x3f widened to 8 bits), so that the screen reads and photographs
 * the same whether the firmware left VGA text or a framebuffer.
 */
static const uint8_t vga_rgb[VGA_COLOURS][3] = {
	{ 0x00, 0x00, 0x00 }, { 0x00, 0x00, 0xaa }, { 0x00, 0xaa, 0x00 },
	{ 0x00, 0xaa, 0xaa }, { 0xaa, 0x00, 0x00 }, { 0xaa, 0x00, 0xaa },
	{ 0xaa, 0x55, 0x00 }, { 0xaa, 0xaa, 0xaa }, { 0x55, 0x55, 0x55 },
	{ 0x55, 0x55, 0xff }, { 0x55, 0xff, 0x55 }, { 0x55, 0xff, 0xff },
	{ 0xff, 0x55, 0x55 }, { 0xff, 0x55, 0xff }, { 0xff, 0xff, 0x55 },
	{ 0xff, 0xff, 0xff },
};

static bool channel_fits(struct fb_channel c, unsigned int bits)
{
	return c.size >= 1 && c.size <= MAX_CHANNEL && c.pos + c.size <= bits;
}

/* An 8-bit level in a channel of c.size bits, rounded to nearest. */
static uint32_t channel(struct fb_channel c, uint8_t level)
{
	uint32_t max = (1u << c.size) - 1;

	return ((level * max + 127) / 255) << c.pos;
}

const char *fb_setup(struct fb *f, const struct framebuffer *info, void *base)
{
	unsigned int bits, i, s;

	if (info->kind != FB_RGB)
		return "not a direct-colour framebuffer";
	bits = info->bpp;
	if (bits < 1 || bits > 32)
		return "unsupported bits per pixel";
	if (!channel_fits(info->red, bits) || !channel_fits(info->green, bits) ||
	    !channel_fits(info->blue, bits))
		return "colour channels outside the pixel";
	f->bytes_pp = (bits + 7) / 8;
	if (info->width < FONT_WIDTH || info->height < FONT_HEIGHT)
		return "smaller than one character";
	if (info->pitch < (uint64_t)info->width * f->bytes_pp)
		return "pitch shorter than a line";

	f->base = base;
	f->pitch = info->pitch;
	f->width = info->width;
	f->height = info->height;
	for (s = 1;; s++)
		if (info->width / (FONT_WIDTH * (s + 1)) < FB_MIN_COLS ||
		    info->height / (FONT_HEIGHT * (s + 1)) < FB_MIN_ROWS)
			break;
	f->scale = s;
	f->cols = info->width / (FONT_WIDTH * s);
	f->rows = info->height / (FONT_HEIGHT * s);
	for (i = 0; i < VGA_COLOURS; i++)
		f->pixel[i] = channel(info->red, vga_rgb[i][0]) |
			      channel(info->green, vga_rgb[i][1]) |
			      channel(info->blue, vga_rgb[i][2]);
	return 0;
}

/* One pixel, little-endian, in a store as wide as the pixel where it can. */
static void put_pixel(volatile uint8_t *p, unsigned int bytes_pp, uint32_t v)
{
	switch (bytes_pp) {
	case 4:
		*(volatile uint32_t *)p = v;
		break;
	case 2:
		*(volatile uint16_t *)p = v;
		break;
	default:
		for (unsigned int i = 0; i < bytes_pp; i++)
			p[i] = v >> (8 * i);
		break;
	}
}

void fb_clear(const struct fb *f)
{
	uint32_t x, y;

	for (y = 0; y < f->height; y++)
		for (x = 0; x < f->width; x++)
			put_pixel(f->base + (uint64_t)y * f->pitch + x * f->bytes_pp,
				  f->bytes_pp, f->pixel[VGA_BLACK]);
}

void fb_draw_cell(const struct fb *f, unsigned int col, unsigned int row,
		  uint8_t ch, uint8_t attr)
{
	const uint8_t *glyph = font_glyphs[ch];
	uint32_t fg = f->pixel[VGA_ATTR_FG(attr)], bg = f->pixel[VGA_ATTR_BG(attr)];
	unsigned int s = f->scale, x, y;
	volatile uint8_t *line;

	if (col >= f->cols || row >= f->rows)
		return;
	line = f->base + (uint64_t)row * FONT_HEIGHT * s * f->pitch +
	       (uint64_t)col * FONT_WIDTH * s * f->bytes_pp;
	for (y = 0; y < FONT_HEIGHT * s; y++, line += f->pitch) {
		uint8_t bits = glyph[y / s];

		for (x = 0; x < FONT_WIDTH * s; x++)
			put_pixel(line + x * f->bytes_pp, f->bytes_pp,
				  bits & (GLYPH_LEFT >> (x / s)) ? fg : bg);
	}
}
