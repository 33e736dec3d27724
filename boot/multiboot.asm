; SPDX-License-Identifier: MIT
; Multiboot v1 header. linker.ld puts .multiboot first in the image, because
; GRUB and QEMU only look for the header in the first 8 KiB of the file.

MB_MAGIC	equ 0x1BADB002
MB_PAGE_ALIGN	equ 1 << 0	; modules page aligned (we load none, but GRUB expects it)
MB_MEMINFO	equ 1 << 1	; we need the memory map to place the buffers
MB_FLAGS	equ MB_PAGE_ALIGN | MB_MEMINFO

section .multiboot
align 4
	dd MB_MAGIC
	dd MB_FLAGS
	dd -(MB_MAGIC + MB_FLAGS)
