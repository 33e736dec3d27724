/* SPDX-License-Identifier: MIT */
/* Multiboot v1: QEMU -kernel, GRUB on a BIOS. */
#include "kernel/boot/multiboot.h"

#define MBI_MEM		(1u << 0)
#define MBI_CMDLINE	(1u << 2)
#define MBI_MMAP	(1u << 6)
#define MBI_LOADER	(1u << 9)
#define MBI_FB		(1u << 12)

struct mb_info {
	uint32_t flags, mem_lower, mem_upper, boot_device, cmdline;
	uint32_t mods_count, mods_addr, syms[4];
	uint32_t mmap_length, mmap_addr, drives_length, drives_addr;
	uint32_t config_table, boot_loader_name, apm_table;
	uint32_t vbe_control_info, vbe_mode_info;
	uint16_t vbe_mode, vbe_interface_seg, vbe_interface_off, vbe_interface_len;
	struct mb_fb fb;
} __attribute__((packed));

/* QEMU's -kernel loader: the BIOS text screen, never described. */
static const struct framebuffer bios_text = {
	.kind = FB_EGA_TEXT, .assumed = true, .addr = BIOS_TEXT_ADDR,
	.pitch = BIOS_TEXT_COLS * BIOS_TEXT_CELL_BYTES, .width = BIOS_TEXT_COLS,
	.height = BIOS_TEXT_ROWS, .bpp = BIOS_TEXT_CELL_BYTES * 8,
};

struct mb_mmap_entry {
	uint32_t size;
	uint64_t base, len;
	uint32_t type;
} __attribute__((packed));

static bool is_grub(const char *loader)
{
	return loader[0] == 'G' && loader[1] == 'R' && loader[2] == 'U' &&
	       loader[3] == 'B';
}

void multiboot1_read(struct boot_info *bi, uint32_t info_addr)
{
	const struct mb_info *mbi = (const void *)(uintptr_t)info_addr;

	if (mbi->flags & MBI_CMDLINE)
		multiboot_copy_str(bi->cmdline, sizeof(bi->cmdline),
			 (const char *)(uintptr_t)mbi->cmdline);
	if (mbi->flags & MBI_LOADER)
		multiboot_copy_str(bi->loader, sizeof(bi->loader),
			 (const char *)(uintptr_t)mbi->boot_loader_name);

	if (mbi->flags & MBI_MMAP) {
		uintptr_t p = mbi->mmap_addr;
		uintptr_t end = p + mbi->mmap_length;

		while (p + sizeof(struct mb_mmap_entry) <= end) {
			const struct mb_mmap_entry *e = (const void *)p;

			if (e->type == MB_RAM)
				boot_info_add_ram(bi, e->base, e->len);
			p += e->size + sizeof(e->size);
		}
	} else if (mbi->flags & MBI_MEM) {
		/* No map: the contiguous RAM above 1 MiB is all we know of. */
		boot_info_add_ram(bi, 0x100000, (uint64_t)mbi->mem_upper * 1024);
	}

	/*
	 * GRUB describes the screen when it knows it; an EFI GRUB that set no
	 * video mode says nothing, and there is no text mode to fall back on.
	 */
	if (mbi->flags & MBI_FB)
		multiboot_read_fb(&bi->fb, &mbi->fb);
	else if (!is_grub(bi->loader))
		bi->fb = bios_text;
}
