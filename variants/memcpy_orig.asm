; SPDX-License-Identifier: MIT
;
; Linux's memcpy_orig, instruction for instruction: the memcpy of CPUs
; without usable fast strings (from 6.4 every CPU without FSRM; before,
; those with neither ERMS nor REP_GOOD). Read in torvalds/linux
; arch/x86/lib/memcpy_64.S at 002c6ca75289; 68674f94ffc9 (6.4) dropped
; memcpy_erms and the REP_GOOD path around it but left this body as it
; was. Written here in nasm from that reading, so that a verdict on a CPU
; that runs memcpy_orig times the routine it runs, direction test, tail
; and loop alignment included; tests/fixtures/routines/memcpy_orig.insns
; records the instruction sequence it is compared with.
;
; Contract, as Linux's: rdi = dst, rsi = src, rdx = n; returns dst in
; rax; touches rcx, rdx, rsi, rdi, r8-r11 and the flags only; reads only
; [src, src + n) and writes only [dst, dst + n), any n including 0, any
; alignment. Overlapping buffers are memmove's business, not this.

bits 64
default rel
%use smartalign
alignmode p6

BLOCK		equ 32		; four quadwords per iteration

section .text

global memcpy_orig:function (memcpy_orig.end - memcpy_orig)
align 16
memcpy_orig:
	mov	rax, rdi
	cmp	rdx, BLOCK
	jb	.tail

	; Which way to walk. Linux compares only the low bytes of the two
	; addresses, signed: when src's low byte is below dst's (as signed
	; bytes), a forward loop would load from where it has just stored
	; modulo 4 KiB ("4K aliasing", the false dependence its comment
	; names), so it copies from the end down. Only 8 bits of the 12
	; that alias are looked at, and signed: the choice is Linux's, kept
	; as it is, not the exact window.
	cmp	sil, dil
	jl	.backward

	; rdx is decremented once ahead and once at the top of each
	; iteration, so the JAE at the bottom sees the borrow of the block
	; after the one being copied: the loop stops with 0..31 bytes left.
	sub	rdx, BLOCK
.forward:
	sub	rdx, BLOCK
	mov	r8, [rsi]
	mov	r9, [rsi + 8]
	mov	r10, [rsi + 16]
	mov	r11, [rsi + 24]
	lea	rsi, [rsi + BLOCK]	; LEA leaves the SUB's carry alone
	mov	[rdi], r8
	mov	[rdi + 8], r9
	mov	[rdi + 16], r10
	mov	[rdi + 24], r11
	lea	rdi, [rdi + BLOCK]
	jae	.forward
	add	edx, BLOCK		; 0..31 left; clears rdx's upper half
	jmp	.tail

	; From both ends down; what is left at the head goes to .tail.
.backward:
	add	rsi, rdx
	add	rdi, rdx
	sub	rdx, BLOCK
	; Linux aligns this loop (and not the forward one) to 16 bytes,
	; "at most 3 ALU operations in one cycle" in its comment.
align 16
.backward_loop:
	sub	rdx, BLOCK
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
	jae	.backward_loop
	add	edx, BLOCK
	sub	rsi, rdx
	sub	rdi, rdx

	; 0..31 bytes at [rsi] to [rdi]: the first and the last piece of
	; one width, overlapping in the middle, so no byte loop.
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
align 16
.under16:
	cmp	edx, 8
	jb	.under8
	mov	r8, [rsi]
	mov	r9, [rsi + rdx - 8]
	mov	[rdi], r8
	mov	[rdi + rdx - 8], r9
	ret
align 16
.under8:
	cmp	edx, 4
	jb	.under4
	mov	ecx, [rsi]
	mov	r8d, [rsi + rdx - 4]
	mov	[rdi], ecx
	mov	[rdi + rdx - 4], r8d
	ret
align 16
.under4:
	; 0..3 bytes. After the SUB, CF says n was 0 and ZF that it was 1;
	; MOVZX changes no flag, so the JZ still sees the SUB's. For 2 and 3
	; the bytes at 1 and at n - 1 (the same byte when n is 2), then
	; byte 0 for every n from 1.
	sub	edx, 1
	jb	.done
	movzx	ecx, byte [rsi]
	jz	.store_first
	movzx	r8, byte [rsi + 1]
	movzx	r9, byte [rsi + rdx]
	mov	[rdi + 1], r8b
	mov	[rdi + rdx], r9b
.store_first:
	mov	[rdi], cl
.done:
	ret
.end:

section .note.GNU-stack noalloc noexec nowrite progbits
