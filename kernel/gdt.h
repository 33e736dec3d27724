/* SPDX-License-Identifier: MIT */
/* The kernel's GDT (boot/entry32.asm), which every CPU it starts loads. */
#ifndef PB_GDT_H
#define PB_GDT_H

#include <stdbool.h>
#include <stdint.h>

#define GDT_CODE64	0x08
#define GDT_DATA	0x10
#define GDT_ENTRIES	32

/*
 * On UEFI the boot CPU keeps the firmware's GDT and code selector, and the
 * IDT's gates name that selector: the kernel's GDT gets a 64-bit code
 * segment there too, so an exception or NMI on another CPU lands.
 * false when the selector lies beyond the table.
 */
bool gdt_alias_code64(uint16_t sel);

#endif
