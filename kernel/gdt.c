/* SPDX-License-Identifier: MIT */
#include <stdbool.h>
#include "gdt.h"

#define SEL_INDEX(sel)	((sel) >> 3)	/* the low 3 bits: table and privilege */

extern uint64_t kernel_gdt[GDT_ENTRIES];

bool gdt_alias_code64(uint16_t sel)
{
	unsigned int i = SEL_INDEX(sel);

	if (i >= GDT_ENTRIES || i == SEL_INDEX(GDT_DATA) || i == 0)
		return false;
	kernel_gdt[i] = kernel_gdt[SEL_INDEX(GDT_CODE64)];
	return true;
}
