; SPDX-License-Identifier: MIT
;
; memcpy with vector loads and stores, the shape of glibc's
; memmove-vec-unaligned and memmove-evex: no string instruction, sizes
; handled by branches and by moves that overlap rather than by byte
; loops. void *memcpy(void *dst, const void *src, size_t n), System V.
; Every load is inside [src, src + n), so a source that ends just before
; an unmapped page is safe.

bits 64
default rel
%use smartalign
alignmode p6
%include "variants/small_moves.inc"

YMM		equ 32
XMM		equ 16
ZMM		equ 64

section .text

; void *memcpy_avx_t(void *dst, const void *src, size_t n)
;
; As memset_avx_t: 32..64 bytes are two ymm moves, one from each end;
; 65..128 four; above, four from each end are loaded first and stored
; last, and between them a loop of four unaligned loads and four aligned
; stores. Below 32, two moves of the widest of 16/8/4 bytes that fits,
; then a word and a byte. VZEROUPPER on the ymm paths only.
global memcpy_avx_t:function (memcpy_avx_t.end - memcpy_avx_t)
align 16
memcpy_avx_t:
	mov	rax, rdi
	cmp	rdx, YMM
	jb	.under32
	cmp	rdx, 2 * YMM
	ja	.over64
	vmovdqu	ymm0, [rsi]
	vmovdqu	ymm1, [rsi + rdx - YMM]
	vmovdqu	[rdi], ymm0
	vmovdqu	[rdi + rdx - YMM], ymm1
	vzeroupper
	ret

.over64:
	cmp	rdx, 4 * YMM
	ja	.over128
	vmovdqu	ymm0, [rsi]
	vmovdqu	ymm1, [rsi + YMM]
	vmovdqu	ymm2, [rsi + rdx - 2 * YMM]
	vmovdqu	ymm3, [rsi + rdx - YMM]
	vmovdqu	[rdi], ymm0
	vmovdqu	[rdi + YMM], ymm1
	vmovdqu	[rdi + rdx - 2 * YMM], ymm2
	vmovdqu	[rdi + rdx - YMM], ymm3
	vzeroupper
	ret

	; Head and tail as in memset_avx_t, held in ymm0-7 across the loop;
	; r8 is the tail's dst, r9 the head's. The loop runs on dst from the
	; last 32-byte boundary at or before dst + 128, with src moved by the
	; same amount.
.over128:
	vmovdqu	ymm0, [rsi]
	vmovdqu	ymm1, [rsi + YMM]
	vmovdqu	ymm2, [rsi + 2 * YMM]
	vmovdqu	ymm3, [rsi + 3 * YMM]
	vmovdqu	ymm4, [rsi + rdx - 4 * YMM]
	vmovdqu	ymm5, [rsi + rdx - 3 * YMM]
	vmovdqu	ymm6, [rsi + rdx - 2 * YMM]
	vmovdqu	ymm7, [rsi + rdx - YMM]
	mov	r9, rdi
	lea	r8, [rdi + rdx - 4 * YMM]
	lea	rcx, [rdi + 4 * YMM]
	and	rcx, -YMM
	sub	rcx, rdi
	add	rsi, rcx
	add	rdi, rcx
	cmp	rdi, r8
	jae	.over128_store
align 16
.loop:
	vmovdqu	ymm8, [rsi]
	vmovdqu	ymm9, [rsi + YMM]
	vmovdqu	ymm10, [rsi + 2 * YMM]
	vmovdqu	ymm11, [rsi + 3 * YMM]
	vmovdqa	[rdi], ymm8
	vmovdqa	[rdi + YMM], ymm9
	vmovdqa	[rdi + 2 * YMM], ymm10
	vmovdqa	[rdi + 3 * YMM], ymm11
	sub	rsi, -4 * YMM		; imm8 -128; +128 would need imm32
	sub	rdi, -4 * YMM
	cmp	rdi, r8
	jb	.loop
.over128_store:
	vmovdqu	[r9], ymm0
	vmovdqu	[r9 + YMM], ymm1
	vmovdqu	[r9 + 2 * YMM], ymm2
	vmovdqu	[r9 + 3 * YMM], ymm3
	vmovdqu	[r8], ymm4
	vmovdqu	[r8 + YMM], ymm5
	vmovdqu	[r8 + 2 * YMM], ymm6
	vmovdqu	[r8 + 3 * YMM], ymm7
	vzeroupper
	ret

.under32:
	cmp	edx, XMM
	jb	.under16
	vmovdqu	xmm0, [rsi]
	vmovdqu	xmm1, [rsi + rdx - XMM]
	vmovdqu	[rdi], xmm0
	vmovdqu	[rdi + rdx - XMM], xmm1
	ret
.under16:
	COPY_UNDER16
.end:

; void *memcpy_avx512_t(void *dst, const void *src, size_t n)
;
; Needs AVX512BW. n up to 64 is one load and one store under the mask of
; its n low bits: masked-off bytes are neither read nor written and raise
; no fault, so this path has no size branch and cannot over-read. The
; load zeroes the masked-off lanes ({z}) rather than merging, which would
; make it wait for zmm16's old value. Larger n: an unaligned line at the
; head, then aligned stores on dst (unaligned loads), and the last 1..64
; bytes under a mask. zmm16-19 only, so no VZEROUPPER.
global memcpy_avx512_t:function (memcpy_avx512_t.end - memcpy_avx512_t)
align 16
memcpy_avx512_t:
	mov	rax, rdi
	cmp	rdx, ZMM
	ja	.over64

	mov	ecx, edx
	LOW_BITS_MASK r8
	test	rdx, rdx
	cmovz	r8, rdx			; n = 0: the shift gave all ones
	kmovq	k1, r8
	vmovdqu8 zmm16{k1}{z}, [rsi]
	vmovdqu8 [rdi]{k1}, zmm16
	ret

	; Step both pointers to dst's first line boundary past dst (1..64
	; bytes on); rdx keeps counting what is left, at least 1.
.over64:
	vmovdqu64 zmm16, [rsi]
	vmovdqu64 [rdi], zmm16
	lea	rcx, [rdi + ZMM]
	and	rcx, -ZMM
	sub	rcx, rdi
	add	rdi, rcx
	add	rsi, rcx
	sub	rdx, rcx
	cmp	rdx, 4 * ZMM
	jbe	.lines
align 16
.blocks:
	vmovdqu64 zmm16, [rsi]
	vmovdqu64 zmm17, [rsi + ZMM]
	vmovdqu64 zmm18, [rsi + 2 * ZMM]
	vmovdqu64 zmm19, [rsi + 3 * ZMM]
	vmovdqa64 [rdi], zmm16
	vmovdqa64 [rdi + ZMM], zmm17
	vmovdqa64 [rdi + 2 * ZMM], zmm18
	vmovdqa64 [rdi + 3 * ZMM], zmm19
	add	rsi, 4 * ZMM
	add	rdi, 4 * ZMM
	sub	rdx, 4 * ZMM
	cmp	rdx, 4 * ZMM
	ja	.blocks
.lines:
	cmp	rdx, ZMM
	jbe	.last
	vmovdqu64 zmm16, [rsi]
	vmovdqa64 [rdi], zmm16
	add	rsi, ZMM
	add	rdi, ZMM
	sub	rdx, ZMM
	jmp	.lines
.last:
	mov	ecx, edx
	LOW_BITS_MASK r8
	kmovq	k1, r8
	vmovdqu8 zmm16{k1}{z}, [rsi]
	vmovdqu8 [rdi]{k1}, zmm16
	ret
.end:

section .note.GNU-stack noalloc noexec nowrite progbits
