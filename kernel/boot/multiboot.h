/* SPDX-License-Identifier: MIT */
/* What multiboot v1 and multiboot2 describe alike, and read alike. */
#ifndef PB_MULTIBOOT_H
#define PB_MULTIBOOT_H

#include "kernel/boot/boot_info.h"

#define MB_FB_INDEXED	0
#define MB_FB_RGB	1
#define MB_FB_EGA_TEXT	2
#define MB_RAM		1	/* a memory map entry's type: usable RAM */

/*
 * The framebuffer: the tail of the v1 information structure and the body
 * of the v2 framebuffer tag (type 8) are this same layout.
 */
struct mb_fb {
	uint64_t addr;
	uint32_t pitch, width, height;
	uint8_t bpp, type;
	/*
	 * The v1 spec's table puts the colour fields at offset 110, but its
	 * own C header (and GRUB, which fills them) align their union to 4:
	 * 112. Multiboot2 has the same 16 bits reserved here.
	 */
	uint16_t union_align;
	uint8_t red_pos, red_size, green_pos, green_size, blue_pos, blue_size;
} __attribute__((packed));

#define MB1_BOOT_MAGIC	0x2badb002
#define MB2_BOOT_MAGIC	0x36d76289

void multiboot_read_fb(struct framebuffer *fb, const struct mb_fb *m);
void multiboot_copy_str(char *dst, unsigned int size, const char *src);

/* The readers of kernel/boot/boot.c's boot_read(). */
void multiboot1_read(struct boot_info *bi, uint32_t info_addr);
void multiboot2_read(struct boot_info *bi, uint32_t info_addr);

#endif
