/* SPDX-License-Identifier: MIT */
/* What multiboot v1 and multiboot2 describe alike, read alike. */
#include "kernel/boot/multiboot.h"

void multiboot_copy_str(char *dst, unsigned int size, const char *src)
{
	unsigned int i;

	for (i = 0; i + 1 < size && src[i]; i++)
		dst[i] = src[i];
	dst[i] = '\0';
}

void multiboot_read_fb(struct framebuffer *fb, const struct mb_fb *m)
{
	fb->addr = m->addr;
	fb->pitch = m->pitch;
	fb->width = m->width;
	fb->height = m->height;
	fb->bpp = m->bpp;
	switch (m->type) {
	case MB_FB_EGA_TEXT:
		fb->kind = FB_EGA_TEXT;
		break;
	case MB_FB_RGB:
		fb->kind = FB_RGB;
		fb->red = (struct fb_channel){ m->red_pos, m->red_size };
		fb->green = (struct fb_channel){ m->green_pos, m->green_size };
		fb->blue = (struct fb_channel){ m->blue_pos, m->blue_size };
		break;
	case MB_FB_INDEXED:
		fb->kind = FB_INDEXED;
		break;
	default:
		fb->kind = FB_NONE;
		break;
	}
}
