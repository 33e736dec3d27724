; SPDX-License-Identifier: MIT
;
; Linux copy_page_regs: the fallback for CPUs without fast strings, a cache
; line per iteration through eight general registers, all eight loads
; issued before the first store so the loads of a line overlap.
;
; Eight data registers plus a counter are more than the scratch set
; (rax, rdx, r8-r11 besides rcx, rsi, rdi), so rbx and r12 are borrowed and
; restored, below a stack pointer moved first: the kernel has no red zone.
; copy_regs is copy_page_regs instruction for instruction
; (torvalds/linux@254a14200711 arch/x86/lib/copy_page_64.S), saves
; included; copy_regs_nopf is pagebench's own.

bits 64
default rel
%use smartalign
alignmode p6

; How far ahead to prefetch, in lines, as in Linux.
PF_LINES	equ 5

; One 64-byte line from [rsi] to [rdi]. %1 non-zero: prefetch PF_LINES
; ahead; %2 the counter (Linux's first loop decrements RCX, its second
; ECX). The pointers advance with LEA so the flags of the DEC that starts
; each iteration survive to its JNZ.
%macro COPY_LINE 2
	dec	%2
	mov	rax, [rsi]
	mov	rbx, [rsi + 8]
	mov	rdx, [rsi + 16]
	mov	r8, [rsi + 24]
	mov	r9, [rsi + 32]
	mov	r10, [rsi + 40]
	mov	r11, [rsi + 48]
	mov	r12, [rsi + 56]
%if %1
	prefetcht0 [rsi + PF_LINES * 64]
%endif
	mov	[rdi], rax
	mov	[rdi + 8], rbx
	mov	[rdi + 16], rdx
	mov	[rdi + 24], r8
	mov	[rdi + 32], r9
	mov	[rdi + 40], r10
	mov	[rdi + 48], r11
	mov	[rdi + 56], r12
	lea	rsi, [rsi + 64]
	lea	rdi, [rdi + 64]
%endmacro

section .text

; void copy_regs(void *dst, const void *src)
;
; The last PF_LINES lines are copied without prefetch: a prefetch beyond
; the source page would pull in a line nobody asked for, costing bandwidth
; and cache space that the measurement would then be charged for.
global copy_regs:function (copy_regs.end - copy_regs)
align 16
copy_regs:
	sub	rsp, 16
	mov	[rsp], rbx
	mov	[rsp + 8], r12

	mov	ecx, 4096 / 64 - PF_LINES
align 16
.loop:
	COPY_LINE 1, rcx
	jnz	.loop

	mov	ecx, PF_LINES
align 16
.tail:
	COPY_LINE 0, ecx
	jnz	.tail

	mov	rbx, [rsp]
	mov	r12, [rsp + 8]
	add	rsp, 16
	ret
.end:

; void copy_regs_nopf(void *dst, const void *src)
;
; Without software prefetch, to show what the hardware prefetchers alone
; achieve on the same loop.
global copy_regs_nopf:function (copy_regs_nopf.end - copy_regs_nopf)
align 16
copy_regs_nopf:
	push	rbx
	push	r12

	mov	ecx, 4096 / 64
align 16
.loop:
	COPY_LINE 0, ecx
	jnz	.loop

	pop	r12
	pop	rbx
	ret
.end:

section .note.GNU-stack noalloc noexec nowrite progbits
