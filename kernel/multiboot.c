/* SPDX-License-Identifier: MIT */
#include "boot_info.h"

#define MBI_MEM		(1u << 0)
#define MBI_CMDLINE	(1u << 2)
#define MBI_MMAP	(1u << 6)
#define MBI_LOADER	(1u << 9)
#define MBI_FB		(1u << 12)
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
} __attribute__((packed));

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
	 * GRUB describes the screen when it knows it; an EFI GRUB has no text
	 * mode and says nothing. QEMU's -kernel loader never describes it but
	 * always boots through the BIOS, so text mode is there.
	 */
	if (mbi->flags & MBI_FB)
		bi->vga_text = mbi->fb_type == MB_FB_EGA_TEXT;
	else
		bi->vga_text = !(bi->loader[0] == 'G' && bi->loader[1] == 'R' &&
				 bi->loader[2] == 'U' && bi->loader[3] == 'B');
}
