/* SPDX-License-Identifier: MIT */
#include "boot_info.h"
#include "vga.h"

#define MBI_MEM		(1u << 0)
#define MBI_CMDLINE	(1u << 2)
#define MBI_MMAP	(1u << 6)
#define MBI_LOADER	(1u << 9)
#define MBI_FB		(1u << 12)
#define MB_FB_INDEXED	0
#define MB_FB_RGB	1
#define MB_FB_EGA_TEXT	2
#define MB_RAM		1

struct mb_info {
	uint32_t flags, mem_lower, mem_upper, boot_device, cmdline;
	uint32_t mods_count, mods_addr, syms[4];
	uint32_t mmap_length, mmap_addr, drives_length, drives_addr;
	uint32_t config_table, boot_loader_name, apm_table;
	uint32_t vbe_control_info, vbe_mode_info;
	uint16_t vbe_mode, vbe_interface_seg, vbe_interface_off, vbe_interface_len;
	uint64_t fb_addr;
	uint32_t fb_pitch, fb_width, fb_height;
	uint8_t fb_bpp, fb_type;
	/*
	 * The spec's table puts the colour fields at offset 110, but its own
	 * C header (and GRUB, which fills them) align their union to 4: 112.
	 */
	uint16_t fb_union_align;
	uint8_t red_pos, red_size, green_pos, green_size, blue_pos, blue_size;
} __attribute__((packed));

/* QEMU's -kernel loader: the BIOS text screen, never described. */
static const struct framebuffer bios_text = {
	.kind = FB_EGA_TEXT, .assumed = true, .addr = VGA_TEXT_ADDR,
	.pitch = VGA_TEXT_COLS * VGA_CELL_BYTES, .width = VGA_TEXT_COLS,
	.height = VGA_TEXT_ROWS, .bpp = VGA_CELL_BYTES * 8,
};

struct mb_mmap_entry {
	uint32_t size;
	uint64_t base, len;
	uint32_t type;
} __attribute__((packed));

static void copy_str(char *dst, unsigned int size, const char *src)
{
	unsigned int i;

	for (i = 0; i + 1 < size && src[i]; i++)
		dst[i] = src[i];
	dst[i] = '\0';
}

static void add_ram(struct boot_info *bi, uint64_t base, uint64_t len)
{
	if (!len || bi->nram == RAM_MAX_REGIONS)
		return;
	bi->ram[bi->nram].base = base;
	bi->ram[bi->nram].len = len;
	bi->nram++;
	bi->ram_total += len;
}

static bool is_grub(const char *loader)
{
	return loader[0] == 'G' && loader[1] == 'R' && loader[2] == 'U' &&
	       loader[3] == 'B';
}

static void read_fb(struct framebuffer *fb, const struct mb_info *mbi)
{
	fb->addr = mbi->fb_addr;
	fb->pitch = mbi->fb_pitch;
	fb->width = mbi->fb_width;
	fb->height = mbi->fb_height;
	fb->bpp = mbi->fb_bpp;
	switch (mbi->fb_type) {
	case MB_FB_EGA_TEXT:
		fb->kind = FB_EGA_TEXT;
		break;
	case MB_FB_RGB:
		fb->kind = FB_RGB;
		fb->red = (struct fb_channel){ mbi->red_pos, mbi->red_size };
		fb->green = (struct fb_channel){ mbi->green_pos, mbi->green_size };
		fb->blue = (struct fb_channel){ mbi->blue_pos, mbi->blue_size };
		break;
	case MB_FB_INDEXED:
		fb->kind = FB_INDEXED;
		break;
	default:
		fb->kind = FB_NONE;
		break;
	}
}

void multiboot_read(struct boot_info *bi, uint32_t info_addr)
{
	const struct mb_info *mbi = (const void *)(uintptr_t)info_addr;

	if (mbi->flags & MBI_CMDLINE)
		copy_str(bi->cmdline, sizeof(bi->cmdline),
			 (const char *)(uintptr_t)mbi->cmdline);
	if (mbi->flags & MBI_LOADER)
		copy_str(bi->loader, sizeof(bi->loader),
			 (const char *)(uintptr_t)mbi->boot_loader_name);

	if (mbi->flags & MBI_MMAP) {
		uintptr_t p = mbi->mmap_addr;
		uintptr_t end = p + mbi->mmap_length;

		while (p + sizeof(struct mb_mmap_entry) <= end) {
			const struct mb_mmap_entry *e = (const void *)p;

			if (e->type == MB_RAM)
				add_ram(bi, e->base, e->len);
			p += e->size + sizeof(e->size);
		}
	} else if (mbi->flags & MBI_MEM) {
		/* No map: the contiguous RAM above 1 MiB is all we know of. */
		add_ram(bi, 0x100000, (uint64_t)mbi->mem_upper * 1024);
	}

	/*
	 * GRUB describes the screen when it knows it; an EFI GRUB that set no
	 * video mode says nothing, and there is no text mode to fall back on.
	 */
	if (mbi->flags & MBI_FB)
		read_fb(&bi->fb, mbi);
	else if (!is_grub(bi->loader))
		bi->fb = bios_text;
}
