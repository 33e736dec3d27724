/* SPDX-License-Identifier: MIT */
#include <stdbool.h>
#include "kernel/x86/gdt.h"

#define SEL_INDEX(sel)	((sel) >> 3)	/* the low 3 bits: table and privilege */

/*
 * Initialised data, not .bss: boot/entry32.asm loads it before anything
 * could clear .bss, and no loader need zero .bss for a multiboot image.
 */
uint64_t kernel_gdt[GDT_ENTRIES] = {
	[SEL_INDEX(GDT_CODE64)]	= 0x00af9a000000ffffull,	/* 64-bit code, ring 0 */
	[SEL_INDEX(GDT_DATA)]	= 0x00cf92000000ffffull,	/* data */
};

/*
 * lgdt reads 2+4 bytes of this in 32-bit mode, 2+8 in 64-bit mode: the
 * kernel lies below 4 GiB, so one pointer serves boot/entry32.asm,
 * boot/entry64.asm and kernel/smp/trampoline.asm.
 */
struct gdt_ptr gdt_ptr64 = {
	sizeof(kernel_gdt) - 1, (uintptr_t)kernel_gdt
};

bool gdt_alias_code64(uint16_t sel)
{
	unsigned int i = SEL_INDEX(sel);

	if (i >= GDT_ENTRIES || i == SEL_INDEX(GDT_DATA) || i == 0)
		return false;
	kernel_gdt[i] = kernel_gdt[SEL_INDEX(GDT_CODE64)];
	return true;
}
