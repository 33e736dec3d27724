; SPDX-License-Identifier: MIT
;
; Linux clear_page_orig: the fallback for CPUs whose string instructions
; are slow (no REP_GOOD), one cache line of 8-byte stores per iteration.

bits 64
default rel
%use smartalign
alignmode p6

section .text

; void clear_orig(void *dst)
;
; The counter is decremented before the stores and the pointer advanced
; with LEA, which leaves the flags alone, so the loop branch needs no
; separate compare and the decrement's latency is hidden behind the stores.
global clear_orig:function (clear_orig.end - clear_orig)
align 16
clear_orig:
	xor	eax, eax
	mov	ecx, 4096 / 64
align 16
.loop:
	dec	ecx
	mov	[rdi], rax
	mov	[rdi + 8], rax
	mov	[rdi + 16], rax
	mov	[rdi + 24], rax
	mov	[rdi + 32], rax
	mov	[rdi + 40], rax
	mov	[rdi + 48], rax
	mov	[rdi + 56], rax
	lea	rdi, [rdi + 64]
	jnz	.loop
	ret
.end:

section .note.GNU-stack noalloc noexec nowrite progbits
