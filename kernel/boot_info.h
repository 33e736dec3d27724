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

struct boot_info {
	char cmdline[1024];
	char loader[64];		/* the boot loader's name, or "" */
	bool vga_text;			/* an 80x25 text screen is at 0xb8000 */
	unsigned int nram;
	struct ram_region ram[RAM_MAX_REGIONS];	/* usable RAM (type 1) */
	uint64_t ram_total;		/* bytes, all usable regions */
};

void multiboot_read(struct boot_info *bi, uint32_t info_addr);

#endif
