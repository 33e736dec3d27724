; SPDX-License-Identifier: MIT
; The exception entry stubs: each pushes its vector (and a dummy error code
; where the CPU pushes none) so one C handler sees a uniform frame. The
; handler is reached through trap_entry, which kernel/x86/trap.c sets:
; nothing here names C code.

global idt_stubs, irq_ignore, trap_entry

section .text
bits 64
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

; Vectors 32-255: an idle AP's wake-up (kernel/smp/smp.c halts with interrupts
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
	call [trap_entry]
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

section .data
align 8
trap_entry:	dq 0			; void (*)(struct trap_frame *)

section .rodata
align 8
idt_stubs:
%assign v 0
%rep 32
	dq stub_%[v]
%assign v v + 1
%endrep

