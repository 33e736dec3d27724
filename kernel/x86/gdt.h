/* SPDX-License-Identifier: MIT */
/* The kernel's GDT, which boot/entry32.asm and every CPU it starts load. */
#ifndef PB_GDT_H
#define PB_GDT_H

#include <stdbool.h>
#include <stdint.h>

#define GDT_CODE64	0x08
#define GDT_DATA	0x10
#define GDT_ENTRIES	32	/* room for the selector a UEFI firmware's code uses */

struct gdt_ptr {
	uint16_t limit;
	uint64_t base;
} __attribute__((packed));

extern struct gdt_ptr gdt_ptr64;

/*
 * On UEFI the boot CPU keeps the firmware's GDT and code selector, and the
 * IDT's gates name that selector: the kernel's GDT gets a 64-bit code
 * segment there too, so an exception or NMI on another CPU lands.
 * false when the selector lies beyond the table.
 */
bool gdt_alias_code64(uint16_t sel);

#endif
