/* SPDX-License-Identifier: MIT */
/* This machine's ACPI tables, read through the boot identity map. */
#ifndef PB_ACPI_LIVE_H
#define PB_ACPI_LIVE_H

#include "kernel/acpi/tables.h"

/* Physical memory the boot page tables map, for the parsers. */
extern const struct acpi_mem acpi_live_mem;

/*
 * Finds the root of the tables once: at rsdp_hint when the loader gave
 * one (multiboot2, EFI), else in the BIOS area. Prints nothing.
 */
void acpi_live_init(uint64_t rsdp_hint);

/* The root, or NULL with *why saying what went wrong. */
const struct acpi_root *acpi_live_root(const char **why);

/* The acpi line (and a note per table that fails its checks). */
void acpi_live_print(void);

#endif
