; SPDX-License-Identifier: MIT
;
; The shape of Linux's memcpy_orig, the memcpy of CPUs without usable
; fast strings: 32 bytes per iteration through four general registers,
; the direction chosen so that the loop's own stores do not look like
; they feed its later loads, and sizes below 32 copied by two overlapping
; moves of the largest width that fits, so no byte loop at all.

bits 64
default rel
%use smartalign
alignmode p6
%include "variants/small_moves.inc"

BLOCK		equ 32

; Loads and stores whose addresses agree in their low 12 bits look
; dependent to the memory disambiguation until the full address is known
; ("4K aliasing"). A forward loop whose dst runs a little ahead of src in
; that window keeps loading from just where it recently stored, and the
; loads wait; a backward loop has the same trouble when dst runs a little
; behind. Splitting the window in halves gives each case the direction
; that is clear of it.
ALIAS_WINDOW	equ 4096
ALIAS_MASK	equ ALIAS_WINDOW - 1

section .text

; void *memcpy_orig(void *dst, const void *src, size_t n)
;
; Touches rax, rcx, rdx, rsi, rdi, r8-r11 only. Every access is inside
; [src, src + n) and [dst, dst + n): the overlapping tail moves read and
; write the last bytes twice rather than ever going past them.
global memcpy_orig:function (memcpy_orig.end - memcpy_orig)
align 16
memcpy_orig:
	mov	rax, rdi
	cmp	rdx, BLOCK
	jb	.tail

	; (dst - src) mod 4 KiB in 1 .. 2047: dst is just ahead, go backward.
	; 0 is safe forward: each block is loaded before it is stored.
	mov	ecx, edi
	sub	ecx, esi
	and	ecx, ALIAS_MASK
	dec	ecx
	cmp	ecx, ALIAS_WINDOW / 2 - 1
	jb	.backward

	; rdx counts what is left beyond the block being copied; the SUB
	; that makes it negative ends the loop with 0..31 bytes to go.
	sub	rdx, BLOCK
align 16
.forward:
	mov	r8, [rsi]
	mov	r9, [rsi + 8]
	mov	r10, [rsi + 16]
	mov	r11, [rsi + 24]
	lea	rsi, [rsi + BLOCK]
	mov	[rdi], r8
	mov	[rdi + 8], r9
	mov	[rdi + 16], r10
	mov	[rdi + 24], r11
	lea	rdi, [rdi + BLOCK]
	sub	rdx, BLOCK
	jae	.forward
	add	edx, BLOCK		; also clears the upper half of rdx
	jmp	.tail

	; From the ends down; the head left over is then copied by .tail.
.backward:
	add	rsi, rdx
	add	rdi, rdx
	sub	rdx, BLOCK
align 16
.backward_loop:
	mov	r8, [rsi - 8]
	mov	r9, [rsi - 16]
	mov	r10, [rsi - 24]
	mov	r11, [rsi - 32]
	lea	rsi, [rsi - BLOCK]
	mov	[rdi - 8], r8
	mov	[rdi - 16], r9
	mov	[rdi - 24], r10
	mov	[rdi - 32], r11
	lea	rdi, [rdi - BLOCK]
	sub	rdx, BLOCK
	jae	.backward_loop
	add	edx, BLOCK
	sub	rsi, rdx
	sub	rdi, rdx

	; 0..31 bytes at [rsi], [rdi]: first and last pieces of one width,
	; overlapping in the middle when the size is not twice the width.
.tail:
	cmp	edx, 16
	jb	.under16
	mov	r8, [rsi]
	mov	r9, [rsi + 8]
	mov	r10, [rsi + rdx - 16]
	mov	r11, [rsi + rdx - 8]
	mov	[rdi], r8
	mov	[rdi + 8], r9
	mov	[rdi + rdx - 16], r10
	mov	[rdi + rdx - 8], r11
	ret
.under16:
	COPY_UNDER16
.end:

section .note.GNU-stack noalloc noexec nowrite progbits
