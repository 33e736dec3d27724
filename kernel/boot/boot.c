/* SPDX-License-Identifier: MIT */
/*
 * The boot order, one way: the entry's magic picks the multiboot reader,
 * which on UEFI takes over the firmware (kernel/efi/), and each fills
 * boot_info.
 */
#include "kernel/boot/multiboot.h"
#include "kernel/efi/efi.h"
#include "lib/out.h"

void boot_read(struct boot_info *bi, uint32_t magic, uint32_t info_addr)
{
	if (magic == MB2_BOOT_MAGIC) {
		bi->multiboot = 2;
		multiboot2_read(bi, info_addr);
	} else {
		bi->multiboot = 1;
		multiboot1_read(bi, info_addr);
	}
}

void boot_report(const struct boot_info *bi)
{
	char uefi[OUT_LINE_MAX / 2];

	efi_describe(uefi, sizeof(uefi));
	out_line("boot: %s%s loader=%s",
		 bi->multiboot == 2 ? "multiboot2" : "multiboot", uefi,
		 bi->loader);
	efi_print_notes();
}
