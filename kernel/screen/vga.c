/* SPDX-License-Identifier: MIT */
#include "kernel/screen/font.h"
#include "kernel/screen/vga.h"
#include "kernel/x86/x86.h"

#define SEQ_INDEX	0x3c4
#define SEQ_DATA	0x3c5
#define SEQ_RESET	0x00
#define SEQ_MAP_MASK	0x02
#define SEQ_MEMORY_MODE	0x04
#define GC_INDEX	0x3ce
#define GC_DATA		0x3cf
#define GC_READ_MAP	0x04
#define GC_MODE		0x05
#define GC_MISC		0x06
#define CRTC_INDEX	0x3d4		/* colour: the address VGA_TEXT_ADDR implies */
#define CRTC_DATA	0x3d5
#define CRTC_CURSOR_START 0x0a
#define CURSOR_OFF	(1 << 5)

#define RESET_SYNC	0x01		/* stop the sequencer, keep memory */
#define RESET_RUN	0x03
#define FONT_PLANE	2		/* the plane that holds the glyphs */
#define PLANES_TEXT	((1 << 0) | (1 << 1))	/* characters and attributes */
#define MEM_SEQUENTIAL	0x07		/* extended memory, no odd/even, no chain 4 */
#define MEM_ODD_EVEN	0x02		/* text mode's: extended memory, odd/even */
#define GC_MODE_PLAIN	0x00		/* write mode 0, read mode 0 */
#define GC_MODE_ODD_EVEN 0x10
#define GC_MISC_A0000	0x04		/* graphics memory at A0000 (64K) */
#define GC_MISC_TEXT	0x0e		/* text memory at B8000 (32K), odd/even */
#define FONT_WINDOW	((volatile uint8_t *)0xa0000)
#define FONT_SLOT	32		/* bytes per character in plane 2 */

static volatile uint16_t *cells;
static unsigned int cols, rows, pitch_cells;

static void seq(uint8_t reg, uint8_t v)
{
	outb(SEQ_INDEX, reg);
	outb(SEQ_DATA, v);
}

static void gc(uint8_t reg, uint8_t v)
{
	outb(GC_INDEX, reg);
	outb(GC_DATA, v);
}

/*
 * Plane 2 is reachable only with the sequencer and graphics controller
 * switched to plain planar access; text mode's settings come back after.
 */
static void load_font(void)
{
	unsigned int c, y;

	seq(SEQ_RESET, RESET_SYNC);
	seq(SEQ_MAP_MASK, 1 << FONT_PLANE);
	seq(SEQ_MEMORY_MODE, MEM_SEQUENTIAL);
	seq(SEQ_RESET, RESET_RUN);
	gc(GC_READ_MAP, FONT_PLANE);
	gc(GC_MODE, GC_MODE_PLAIN);
	gc(GC_MISC, GC_MISC_A0000);

	for (c = 0; c < FONT_CODES; c++)
		for (y = 0; y < FONT_SLOT; y++)
			FONT_WINDOW[c * FONT_SLOT + y] =
				y < FONT_HEIGHT ? font_glyphs[c][y] : 0;

	seq(SEQ_RESET, RESET_SYNC);
	seq(SEQ_MAP_MASK, PLANES_TEXT);
	seq(SEQ_MEMORY_MODE, MEM_ODD_EVEN);
	seq(SEQ_RESET, RESET_RUN);
	gc(GC_READ_MAP, 0);
	gc(GC_MODE, GC_MODE_ODD_EVEN);
	gc(GC_MISC, GC_MISC_TEXT);
}

static void hide_cursor(void)
{
	uint8_t v;

	outb(CRTC_INDEX, CRTC_CURSOR_START);
	v = inb(CRTC_DATA);
	outb(CRTC_DATA, v | CURSOR_OFF);
}

void vga_text_setup(const struct framebuffer *fb)
{
	unsigned int i;

	cells = (volatile uint16_t *)(uintptr_t)fb->addr;
	cols = fb->width;
	rows = fb->height;
	pitch_cells = fb->pitch / VGA_CELL_BYTES;
	/* The registers are the colour VGA's only when its memory is. */
	if (fb->addr == VGA_TEXT_ADDR) {
		load_font();
		hide_cursor();
	}
	for (i = 0; i < rows * pitch_cells; i++)
		cells[i] = ' ';
}

void vga_text_put(unsigned int col, unsigned int row, uint8_t ch, uint8_t attr)
{
	if (col < cols && row < rows)
		cells[row * pitch_cells + col] = (uint16_t)attr << 8 | ch;
}
