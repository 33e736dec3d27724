/* SPDX-License-Identifier: MIT */
/* What the multiboot loader told us, copied out before anything else runs. */
#ifndef PB_BOOT_INFO_H
#define PB_BOOT_INFO_H

#include <stdbool.h>
#include <stdint.h>

#define RAM_MAX_REGIONS 64

struct ram_region {
	uint64_t base, len;
};

enum fb_kind {
	FB_NONE,		/* no screen we know of */
	FB_EGA_TEXT,		/* VGA text: 16-bit cells, character and attribute */
	FB_RGB,			/* direct colour, channels as below */
	FB_INDEXED,		/* palette colour: not drawn on */
};

struct fb_channel {
	uint8_t pos, size;	/* bit position and width within a pixel */
};

/* The screen, as the loader left it. */
struct framebuffer {
	enum fb_kind kind;
	bool assumed;		/* no loader said so: the BIOS text screen */
	uint64_t addr;		/* physical */
	uint32_t pitch;		/* bytes from one line (or text row) to the next */
	uint32_t width, height;	/* pixels; characters for FB_EGA_TEXT */
	uint8_t bpp;
	struct fb_channel red, green, blue;	/* FB_RGB only */
};

struct boot_info {
	unsigned int multiboot;		/* 1 or 2: which the loader spoke */
	char cmdline[1024];
	char loader[64];		/* the boot loader's name, or "" */
	struct framebuffer fb;
	unsigned int nram;
	struct ram_region ram[RAM_MAX_REGIONS];	/* usable RAM (type 1) */
	uint64_t ram_total;		/* bytes, all usable regions */
	uint64_t rsdp;			/* the ACPI root the loader or firmware gave; 0: search */
};

/*
 * Reads what the loader handed over at info_addr, multiboot v1 or
 * multiboot2 as the entry's magic says; on UEFI this also takes over the
 * firmware (kernel/efi/efi.c). kernel/boot/boot.c.
 */
void boot_read(struct boot_info *bi, uint32_t magic, uint32_t info_addr);
/* The "boot:" line: how the kernel was started, and by what. */
void boot_report(const struct boot_info *bi);

/* One usable RAM region more (ignored when empty or the table is full). */
void boot_info_add_ram(struct boot_info *bi, uint64_t base, uint64_t len);

/* The BIOS text screen (mode 3), which no loader describes. */
#define BIOS_TEXT_ADDR		0xb8000
#define BIOS_TEXT_COLS		80
#define BIOS_TEXT_ROWS		25
#define BIOS_TEXT_CELL_BYTES	2	/* character and attribute */

#endif
