; SPDX-License-Identifier: MIT
; First 64-bit code: segments, stack, SSE, then the C entry, kmain(magic,
; info). The exception stubs are kernel/x86/isr.asm's.

extern kmain
extern gdt_ptr64
global long_entry, sse_enable, stack_top
global boot_info, boot_magic

; The kernel needs a few KiB. On UEFI the firmware's calls (the log save)
; run on this stack too, and UEFI promises its code 128 KiB (UEFI 2.10,
; 2.3.4 "x64 Platforms"): that, with room to spare for the kernel's frames.
STACK_SIZE equ 256 * 1024

section .text
bits 64
long_entry:
	lgdt [gdt_ptr64]		; the 32-bit pointer held only a 32-bit base
	mov ax, 0x10
	mov ds, ax
	mov es, ax
	mov ss, ax
	xor eax, eax
	mov fs, ax
	mov gs, ax
	mov rsp, stack_top
	call sse_enable
	mov edi, [boot_magic]		; checked in entry32.asm
	mov esi, [boot_info]
	call kmain
.halt:
	cli
	hlt
	jmp .halt

; SSE for the variants: CR0.EM=0, CR0.MP=1, CR4.OSFXSR|OSXMMEXCPT.
; XSAVE and XCR0 are set in C, where CPUID is decoded. Also called from
; efi64_entry: UEFI sets these bits too, but says so only for x64 boot
; services' own use, so the kernel does not rely on it.
sse_enable:
	mov rax, cr0
	and rax, ~(1 << 2)
	or rax, 1 << 1
	mov cr0, rax
	mov rax, cr4
	or rax, (1 << 9) | (1 << 10)
	mov cr4, rax
	ret

; What the loader handed over, kept by entry32.asm or entry_efi.asm.
section .data
boot_info:	dd 0
boot_magic:	dd 0

section .bss
align 16
stack_bottom:
	resb STACK_SIZE
stack_top:
