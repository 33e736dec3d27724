; SPDX-License-Identifier: MIT
; Multiboot v1 header. linker.ld puts .multiboot first in the image, because
; GRUB and QEMU only look for the header in the first 8 KiB of the file.

MB_MAGIC	equ 0x1BADB002
MB_PAGE_ALIGN	equ 1 << 0	; modules page aligned (we load none, but GRUB expects it)
MB_MEMINFO	equ 1 << 1	; we need the memory map to place the buffers
MB_VIDEO	equ 1 << 2	; the mode fields below are valid: describe the screen
MB_FLAGS	equ MB_PAGE_ALIGN | MB_MEMINFO | MB_VIDEO

; Text preferred, a framebuffer accepted: GRUB then keeps VGA text on a
; BIOS and, where there is no text mode (UEFI), sets a graphics mode and
; passes the framebuffer. A linear-graphics request would make a BIOS
; GRUB leave text mode too.
MB_MODE_EGA_TEXT equ 1
MB_MODE_ANY	equ 0		; width, height, depth: no preference

section .multiboot
align 4
	dd MB_MAGIC
	dd MB_FLAGS
	dd -(MB_MAGIC + MB_FLAGS)
	; header_addr .. entry_addr: only read with flag 16 (a.out kludge);
	; the ELF headers say where to load, but the fields hold their place.
	times 5 dd 0
	dd MB_MODE_EGA_TEXT
	dd MB_MODE_ANY			; width
	dd MB_MODE_ANY			; height
	dd MB_MODE_ANY			; depth
