; SPDX-License-Identifier: MIT
; First 64-bit code: segments, stack, SSE, then the C entry. Also the
; exception entry stubs: each pushes its vector (and a dummy error code where
; the CPU pushes none) so one C handler sees a uniform frame.

extern kmain
extern trap_handler
extern boot_info, gdt_ptr64
global long_entry, sse_enable, stack_top, idt_stubs, irq_ignore

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
	mov edi, [boot_info]		; the magic was checked in entry32.asm
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

; Vectors whose exceptions push an error code: 8, 10-14, 17, 21, 29, 30.
%macro STUB 1
align 16
stub_%1:
%if (%1 == 8) || (%1 >= 10 && %1 <= 14) || (%1 == 17) || (%1 == 21) || (%1 == 29) || (%1 == 30)
%else
	push 0
%endif
	push %1
	jmp trap_common
%endmacro

%assign v 0
%rep 32
	STUB %[v]
%assign v v + 1
%endrep

; Vectors 32-255: an idle AP's wake-up (kernel/smp.c halts with interrupts
; on) and the APIC's spurious vector. Nothing to do but return: the idle
; loop sends the EOI itself, once interrupts are off again.
align 16
irq_ignore:
	iretq

; Save every general register and call C with a pointer to the frame. The
; handler either ends the run or, for a fault it expected (rdmsr_safe),
; moves the saved RIP on and returns here to resume.
trap_common:
	push rax
	push rbx
	push rcx
	push rdx
	push rsi
	push rdi
	push rbp
	push r8
	push r9
	push r10
	push r11
	push r12
	push r13
	push r14
	push r15
	mov rdi, rsp
	mov rbp, rsp
	and rsp, ~15			; the ABI's alignment for the call
	call trap_handler
	mov rsp, rbp
	pop r15
	pop r14
	pop r13
	pop r12
	pop r11
	pop r10
	pop r9
	pop r8
	pop rbp
	pop rdi
	pop rsi
	pop rdx
	pop rcx
	pop rbx
	pop rax
	add rsp, 16			; vector and error code
	iretq

section .rodata
align 8
idt_stubs:
%assign v 0
%rep 32
	dq stub_%[v]
%assign v v + 1
%endrep

section .bss
align 16
stack_bottom:
	resb STACK_SIZE
stack_top:
