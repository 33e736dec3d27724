; SPDX-License-Identifier: MIT
;
; Clearing with 32-byte AVX stores.
;
; Every routine ends with VZEROUPPER: leaving the upper halves of ymm0-15
; dirty makes later legacy-SSE code pay a state transition (or a false
; dependency) on many CPUs, and the caller does not know we used them.
; VPXOR on the xmm form zeroes the whole ymm register, needing only AVX.

bits 64
default rel
%use smartalign
alignmode p6

; Store ymm0 over 128 bytes at rdi with instruction %1 (vmovntdq or vmovdqa).
%macro STORE_128 1
	%1	[rdi], ymm0
	%1	[rdi + 32], ymm0
	%1	[rdi + 64], ymm0
	%1	[rdi + 96], ymm0
%endmacro

section .text

; void clear_avx(void *dst)
;
; The 2021 Xen experiment's AVX variant: non-temporal like clear_sse2 but
; four times wider per store, so fewer stores fill each write-combining
; buffer. SFENCE drains them before the page can be handed out.
global clear_avx:function (clear_avx.end - clear_avx)
align 16
clear_avx:
	mov	ecx, 4096 / 128
	vpxor	xmm0, xmm0, xmm0
align 16
.loop:
	STORE_128 vmovntdq
	sub	rdi, -128		; imm8 form; add would need imm32
	dec	ecx
	jnz	.loop

	sfence
	vzeroupper
	ret
.end:

; void clear_avx_t(void *dst)
;
; Temporal 32-byte stores: leaves the page in the cache, which is what a
; caller that is about to fill the page wants.
global clear_avx_t:function (clear_avx_t.end - clear_avx_t)
align 16
clear_avx_t:
	mov	ecx, 4096 / 128
	vpxor	xmm0, xmm0, xmm0
align 16
.loop:
	STORE_128 vmovdqa
	sub	rdi, -128
	dec	ecx
	jnz	.loop

	vzeroupper
	ret
.end:

; void clear_avx_all(void *dst, const void *unused, size_t bytes)
;
; clear_avx's stores over the whole range with one SFENCE at the end: the
; ymm form of the RFC's clear_pages_movnt() (see clear_sse2_all), which
; no kernel has proposed as such; it tells whether the store width or the
; per-page fence is what separates clear_avx from a streaming store loop.
; bytes is whole pages: never 0, a multiple of 128.
global clear_avx_all:function (clear_avx_all.end - clear_avx_all)
align 16
clear_avx_all:
	mov	rcx, rdx
	vpxor	xmm0, xmm0, xmm0
align 16
.loop:
	STORE_128 vmovntdq
	sub	rdi, -128
	add	rcx, -128
	jnz	.loop

	sfence
	vzeroupper
	ret
.end:

; void clear_avx_t_all(void *dst, const void *unused, size_t bytes)
;
; clear_avx_t's stores over the whole range: it differs from clear_avx_t
; only in the call per page, as clear_avx_all does from clear_avx, and is
; the same work as likwid-bench's store_avx, one loop over its buffer.
; bytes is whole pages: never 0, a multiple of 128.
global clear_avx_t_all:function (clear_avx_t_all.end - clear_avx_t_all)
align 16
clear_avx_t_all:
	mov	rcx, rdx
	vpxor	xmm0, xmm0, xmm0
align 16
.loop:
	STORE_128 vmovdqa
	sub	rdi, -128
	add	rcx, -128
	jnz	.loop

	vzeroupper
	ret
.end:

section .note.GNU-stack noalloc noexec nowrite progbits
