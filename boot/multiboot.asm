; SPDX-License-Identifier: MIT
; The multiboot v1 and multiboot2 headers. linker.ld puts .multiboot first
; in the image, because GRUB and QEMU only look for a v1 header in the first
; 8 KiB of the file (v2: 32 KiB). QEMU's -kernel and a BIOS GRUB use v1.

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

; Multiboot2 header, for GRUB on UEFI (grub.cfg uses "multiboot2" there,
; "multiboot" on a BIOS). GRUB looks for it in the first 32 KiB, 8-byte
; aligned. Tags 7 and 9: keep the firmware's boot services and enter at
; efi64_entry (boot/entry_efi.asm) in 64-bit mode on the firmware's page
; tables, so the kernel can write its log to the stick at the end.
MB2_MAGIC		equ 0xE85250D6
MB2_ARCH_I386		equ 0
MB2_TAG_OPTIONAL	equ 1 << 0
MB2_TAG_END		equ 0
MB2_TAG_FRAMEBUFFER	equ 5
MB2_TAG_EFI_BS		equ 7
MB2_TAG_ENTRY_EFI64	equ 9

extern efi64_entry

align 8
mb2_header:
	dd MB2_MAGIC
	dd MB2_ARCH_I386
	dd mb2_header_end - mb2_header
	dd 0x100000000 - (MB2_MAGIC + MB2_ARCH_I386 + (mb2_header_end - mb2_header))
align 8
	dw MB2_TAG_EFI_BS, 0
	dd 8
align 8
	dw MB2_TAG_ENTRY_EFI64, 0
	dd 12
	dd efi64_entry
align 8
	; Any mode: UEFI has no text mode, so GRUB passes the framebuffer
	; it set up with the firmware's GOP.
	dw MB2_TAG_FRAMEBUFFER, MB2_TAG_OPTIONAL
	dd 20
	dd MB_MODE_ANY			; width
	dd MB_MODE_ANY			; height
	dd MB_MODE_ANY			; depth
align 8
	dw MB2_TAG_END, 0
	dd 8
mb2_header_end:
