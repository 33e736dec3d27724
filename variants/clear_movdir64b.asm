; SPDX-License-Identifier: MIT
;
; Clearing with MOVDIR64B: a 64-byte direct store, written as one
; non-temporal full-line transaction, so the destination line is neither
; read nor allocated in the cache.

bits 64
default rel
%use smartalign
alignmode p6

section .rodata align=64

; The source has no alignment requirement, but an aligned one is a single
; line read each time instead of two.
align 64
zero_line:
	times 64 db 0

section .text

; void clear_movdir64b(void *dst)
;
; Each MOVDIR64B reads the same cached zero line, so the loads cost little.
; Its stores are weakly ordered like MOVNTI's; SFENCE orders them before
; the page can be handed out. The destination must be 64-byte aligned or
; the instruction faults; a page always is.
global clear_movdir64b:function (clear_movdir64b.end - clear_movdir64b)
align 16
clear_movdir64b:
	lea	rsi, [zero_line]
	mov	ecx, 4096 / 64
align 16
.loop:
	movdir64b rdi, [rsi]
	add	rdi, 64
	dec	ecx
	jnz	.loop

	sfence
	ret
.end:

section .note.GNU-stack noalloc noexec nowrite progbits
