; SPDX-License-Identifier: MIT
;
; Copying through ymm registers, 128 bytes (two lines) per iteration.
;
; Both routines end with VZEROUPPER: leaving the upper halves of ymm0-15
; dirty makes later legacy-SSE code pay a state transition (or a false
; dependency) on many CPUs, and the caller does not know we used them.

bits 64
default rel
%use smartalign
alignmode p6

; Load 128 bytes into ymm0-3.
%macro LOAD_128 0
	vmovdqa	ymm0, [rsi]
	vmovdqa	ymm1, [rsi + 32]
	vmovdqa	ymm2, [rsi + 64]
	vmovdqa	ymm3, [rsi + 96]
%endmacro

; Store ymm0-3 with instruction %1 (vmovdqa or vmovntdq).
%macro STORE_128 1
	%1	[rdi], ymm0
	%1	[rdi + 32], ymm1
	%1	[rdi + 64], ymm2
	%1	[rdi + 96], ymm3
%endmacro

section .text

; void copy_avx_t(void *dst, const void *src)
;
; Temporal 32-byte loads and stores: half as many instructions as
; copy_sse2_t, with the copy left in the cache.
global copy_avx_t:function (copy_avx_t.end - copy_avx_t)
align 16
copy_avx_t:
	mov	ecx, 4096 / 128
align 16
.loop:
	LOAD_128
	STORE_128 vmovdqa
	sub	rsi, -128		; imm8 form; add would need imm32
	sub	rdi, -128
	dec	ecx
	jnz	.loop

	vzeroupper
	ret
.end:

; void copy_avx(void *dst, const void *src)
;
; Non-temporal stores skip the read-for-ownership of the destination and
; keep it out of the cache; SFENCE drains the write-combining buffers and
; orders the copy before whatever publishes it.
global copy_avx:function (copy_avx.end - copy_avx)
align 16
copy_avx:
	mov	ecx, 4096 / 128
align 16
.loop:
	LOAD_128
	STORE_128 vmovntdq
	sub	rsi, -128
	sub	rdi, -128
	dec	ecx
	jnz	.loop

	sfence
	vzeroupper
	ret
.end:

; void copy_avx_all(void *dst, const void *src, size_t bytes)
;
; copy_avx's loads and stores over the whole region with one SFENCE at the
; end, as likwid-bench's copy_mem_avx streams: it differs from copy_avx
; only in the fence per page, so the two tell what that fence costs.
; bytes is whole pages: never 0, a multiple of 128.
global copy_avx_all:function (copy_avx_all.end - copy_avx_all)
align 16
copy_avx_all:
	mov	rcx, rdx
align 16
.loop:
	LOAD_128
	STORE_128 vmovntdq
	sub	rsi, -128
	sub	rdi, -128
	add	rcx, -128
	jnz	.loop

	sfence
	vzeroupper
	ret
.end:

section .note.GNU-stack noalloc noexec nowrite progbits
