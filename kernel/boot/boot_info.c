/* SPDX-License-Identifier: MIT */
/* The one thing every boot path does to boot_info: it calls nothing. */
#include "kernel/boot/boot_info.h"

void boot_info_add_ram(struct boot_info *bi, uint64_t base, uint64_t len)
{
	if (!len || bi->nram == RAM_MAX_REGIONS)
		return;
	bi->ram[bi->nram].base = base;
	bi->ram[bi->nram].len = len;
	bi->nram++;
	bi->ram_total += len;
}
