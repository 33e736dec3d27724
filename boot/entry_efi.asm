; SPDX-License-Identifier: MIT
; The UEFI entry: GRUB's multiboot2 command, with the header's tags 7 and 9
; (boot/multiboot.asm), jumps here in 64-bit mode with the firmware's boot
; services alive: its page tables, GDT and IDT loaded, RAX the multiboot2
; magic, RBX the information structure, RSP on the firmware's stack, and
; interrupts as the firmware had them (on, at TPL_APPLICATION).
;
; Kept from the firmware: page tables (they identity-map all memory the
; firmware describes, and its drivers need them), the GDT and the CS
; selector (the firmware's interrupt handlers use them; trap_init() puts
; the CS in use in the kernel's IDT gates). Left: its stack (the kernel's
; is larger, see entry64.asm) and its IDT, which kernel/efi/efi.c puts back
; around every firmware call. Interrupts go off here and stay off in the
; kernel.

MB2_BOOT_MAGIC	equ 0x36D76289
RFLAGS_IF	equ 1 << 9

extern kmain, sse_enable, stack_top
global efi64_entry
extern efi_fw_idtr, efi_fw_rflags

section .text
bits 64
efi64_entry:
	pushfq
	pop qword [efi_fw_rflags]
	cli
	cld
	cmp eax, MB2_BOOT_MAGIC
	jne .halt			; only GRUB's multiboot2 path knows this entry
	mov rcx, rbx
	shr rcx, 32
	jnz .halt			; GRUB puts the information below 4 GiB
	sidt [efi_fw_idtr]
	mov edi, eax			; kmain(magic, info); sse_enable uses rax only
	mov esi, ebx
	mov rsp, stack_top
	call sse_enable
	call kmain
.halt:
	cli
	hlt
	jmp .halt
