/* SPDX-License-Identifier: MIT */
/* The screen's hardware: which one the loader left, and reporting it. */
#include "kernel/screen/fb.h"
#include "lib/fmt.h"
#include "lib/out.h"
#include "kernel/x86/paging.h"
#include "kernel/screen/screen.h"
#include "kernel/screen/vga.h"

static struct fb fb;
static const struct framebuffer *info;
static const char *why_none = "not set up";

static void fb_put(unsigned int col, unsigned int row, uint8_t ch, uint8_t attr)
{
	fb_draw_cell(&fb, col, row, ch, attr);
}

bool screen_init(const struct boot_info *bi)
{
	enum map_result mapped;

	info = &bi->fb;
	switch (info->kind) {
	case FB_EGA_TEXT:
		vga_text_setup(info);
		screen_attach(info->width, info->height, vga_text_put);
		return true;
	case FB_RGB:
		why_none = fb_setup(&fb, info, (void *)(uintptr_t)info->addr);
		if (why_none)
			return false;
		mapped = map_device(info->addr, (uint64_t)info->pitch * info->height);
		if (mapped != MAP_OK) {
			why_none = map_result_name(mapped);
			return false;
		}
		fb_clear(&fb);
		screen_attach(fb.cols, fb.rows, fb_put);
		return true;
	case FB_INDEXED:
		why_none = "palette framebuffer, not supported";
		return false;
	case FB_NONE:
		why_none = "the loader passed no framebuffer";
		return false;
	}
	return false;
}

/* "framebuffer 800x600 bpp=32 pitch=3200 rgb=16:8,8:8,0:8 addr=0x80000000" */
static void describe_fb(char *buf, size_t size)
{
	const struct fb_channel *r = &info->red, *g = &info->green, *b = &info->blue;

	fmt_snprintf(buf, size, "framebuffer %ux%u bpp=%u pitch=%u rgb=%u:%u,%u:%u,%u:%u addr=0x%llx",
		     info->width, info->height, info->bpp, info->pitch,
		     r->pos, r->size, g->pos, g->size, b->pos, b->size,
		     (unsigned long long)info->addr);
}

void screen_report(void)
{
	char fb_text[OUT_LINE_MAX / 2];

	if (info && info->kind != FB_NONE && info->kind != FB_EGA_TEXT)
		describe_fb(fb_text, sizeof(fb_text));
	else
		fb_text[0] = '\0';

	if (!screen_cols())
		out_line("screen: none (%s)%s%s", why_none, fb_text[0] ? " " : "", fb_text);
	else if (info->kind == FB_EGA_TEXT)
		out_line("screen: vga-text cells=%ux%u addr=0x%llx%s",
			 screen_cols(), screen_rows(),
			 (unsigned long long)info->addr,
			 info->assumed ? " assumed" : "");
	else
		out_line("screen: %s cells=%ux%u scale=%u", fb_text,
			 screen_cols(), screen_rows(), fb.scale);
}
