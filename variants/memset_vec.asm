; SPDX-License-Identifier: MIT
;
; memset with vector stores, the shape of glibc's memset-vec-unaligned and
; memset-evex: no string instruction anywhere, so no microcode start-up,
; and sizes handled by branches and by stores that overlap rather than by
; loops over bytes. void *memset(void *dst, int c, size_t n), System V.

bits 64
default rel
%use smartalign
alignmode p6
%include "variants/small_moves.inc"

BYTES_ONES_32	equ 0x01010101
YMM		equ 32
XMM		equ 16
ZMM		equ 64

section .text

; void *memset_avx_t(void *dst, int c, size_t n)
;
; Needs AVX only (the byte broadcast is built from VPSHUFD and
; VINSERTF128, not AVX2's VPBROADCASTB). AVX has no byte-masked store
; (VMASKMOVPS masks dwords), so the tails are overlapping unaligned
; stores: n in 32..64 is two ymm stores, one from each end; 65..128 four;
; above, four from each end and a loop of aligned 4-ymm stores between
; them. Below 32, two stores of the widest of 16/8/4/2/1 bytes that fits,
; from xmm0 and ecx. The ymm paths end with VZEROUPPER so that legacy SSE
; code in the caller pays no transition; the xmm paths leave the upper
; halves zero (VEX.128 writes clear them).
global memset_avx_t:function (memset_avx_t.end - memset_avx_t)
align 16
memset_avx_t:
	mov	rax, rdi
	movzx	ecx, sil
	imul	ecx, ecx, BYTES_ONES_32
	vmovd	xmm0, ecx
	vpshufd	xmm0, xmm0, 0
	cmp	rdx, YMM
	jb	.under32

	vinsertf128 ymm0, ymm0, xmm0, 1
	cmp	rdx, 2 * YMM
	ja	.over64
	vmovdqu	[rdi], ymm0
	vmovdqu	[rdi + rdx - YMM], ymm0
	vzeroupper
	ret

.over64:
	cmp	rdx, 4 * YMM
	ja	.over128
	vmovdqu	[rdi], ymm0
	vmovdqu	[rdi + YMM], ymm0
	vmovdqu	[rdi + rdx - 2 * YMM], ymm0
	vmovdqu	[rdi + rdx - YMM], ymm0
	vzeroupper
	ret

	; Four stores at each end, unaligned: [dst, dst + 128) and
	; [end - 128, end) in rcx. Between them, aligned blocks of four from
	; the last 32-byte boundary at or before dst + 128 (so no gap after
	; the head), while a block starts below rcx: each such block ends
	; before end, and the last one reaches rcx, so no gap before the tail.
.over128:
	lea	rcx, [rdi + rdx - 4 * YMM]
	vmovdqu	[rdi], ymm0
	vmovdqu	[rdi + YMM], ymm0
	vmovdqu	[rdi + 2 * YMM], ymm0
	vmovdqu	[rdi + 3 * YMM], ymm0
	vmovdqu	[rcx], ymm0
	vmovdqu	[rcx + YMM], ymm0
	vmovdqu	[rcx + 2 * YMM], ymm0
	vmovdqu	[rcx + 3 * YMM], ymm0
	add	rdi, 4 * YMM
	and	rdi, -YMM
	cmp	rdi, rcx
	jae	.over128_done
align 16
.loop:
	vmovdqa	[rdi], ymm0
	vmovdqa	[rdi + YMM], ymm0
	vmovdqa	[rdi + 2 * YMM], ymm0
	vmovdqa	[rdi + 3 * YMM], ymm0
	sub	rdi, -4 * YMM		; imm8 -128; +128 would need imm32
	cmp	rdi, rcx
	jb	.loop
.over128_done:
	vzeroupper
	ret

.under32:
	cmp	edx, XMM
	jb	.under16
	vmovdqu	[rdi], xmm0
	vmovdqu	[rdi + rdx - XMM], xmm0
	ret
.under16:
	cmp	edx, 8
	jb	.under8
	vmovq	[rdi], xmm0
	vmovq	[rdi + rdx - 8], xmm0
	ret
.under8:
	cmp	edx, 4
	jb	.under4
	mov	[rdi], ecx
	mov	[rdi + rdx - 4], ecx
	ret
.under4:
	test	edx, edx
	jz	.done
	mov	[rdi + rdx - 1], cl
	cmp	edx, 2
	jb	.done
	mov	[rdi], cx
.done:
	ret
.end:

; void *memset_avx512_t(void *dst, int c, size_t n)
;
; Needs AVX512BW: VPBROADCASTB from a general register and VMOVDQU8 with a
; byte mask. n up to 64 is a single store under a mask of its n low bits,
; with no branch on the size inside that range; a zero mask writes
; nothing and, masked stores suppressing faults, touches nothing. Larger
; n: one unaligned store at the head, aligned full lines, and the last
; 1..64 bytes under a mask. Only zmm16 is used: registers 16-31 exist
; only in EVEX encodings, so no VZEROUPPER is needed (clear_avx512.asm).
global memset_avx512_t:function (memset_avx512_t.end - memset_avx512_t)
align 16
memset_avx512_t:
	mov	rax, rdi
	vpbroadcastb zmm16, esi
	cmp	rdx, ZMM
	ja	.over64

	mov	ecx, edx
	LOW_BITS_MASK r8
	test	rdx, rdx
	cmovz	r8, rdx			; n = 0: the shift gave all ones
	kmovq	k1, r8
	vmovdqu8 [rdi]{k1}, zmm16
	ret

	; rdx becomes what is left from the first line boundary past dst:
	; 1..n-1, since dst + 64 < end.
.over64:
	vmovdqu64 [rdi], zmm16
	add	rdx, rdi
	add	rdi, ZMM
	and	rdi, -ZMM
	sub	rdx, rdi
	cmp	rdx, 4 * ZMM
	jbe	.lines
align 16
.blocks:
	vmovdqa64 [rdi], zmm16
	vmovdqa64 [rdi + ZMM], zmm16
	vmovdqa64 [rdi + 2 * ZMM], zmm16
	vmovdqa64 [rdi + 3 * ZMM], zmm16
	add	rdi, 4 * ZMM
	sub	rdx, 4 * ZMM
	cmp	rdx, 4 * ZMM
	ja	.blocks
.lines:
	cmp	rdx, ZMM
	jbe	.last
	vmovdqa64 [rdi], zmm16
	add	rdi, ZMM
	sub	rdx, ZMM
	jmp	.lines
.last:
	mov	ecx, edx
	LOW_BITS_MASK r8
	kmovq	k1, r8
	vmovdqu8 [rdi]{k1}, zmm16
	ret
.end:

section .note.GNU-stack noalloc noexec nowrite progbits
