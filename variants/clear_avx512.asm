; SPDX-License-Identifier: MIT
;
; Clearing with 64-byte AVX-512 stores: one store per cache line.
;
; Every routine uses zmm16 only. Registers 16-31 exist only in EVEX
; encodings, so legacy-SSE and VEX code never sees them and they cause no
; SSE/AVX transition penalty: no VZEROUPPER is needed on the way out.

bits 64
default rel
%use smartalign
alignmode p6

; Store zmm16 over 256 bytes at rdi with instruction %1 (vmovntdq or vmovdqa64).
%macro STORE_256 1
	%1	[rdi], zmm16
	%1	[rdi + 64], zmm16
	%1	[rdi + 128], zmm16
	%1	[rdi + 192], zmm16
%endmacro

section .text

; void clear_avx512(void *dst)
;
; The 2021 Xen experiment's AVX-512 variant: a full-line non-temporal store
; lets the CPU write the line without reading it first. SFENCE drains the
; write-combining buffers before the page can be handed out.
global clear_avx512:function (clear_avx512.end - clear_avx512)
align 16
clear_avx512:
	mov	ecx, 4096 / 256
	vpxord	zmm16, zmm16, zmm16
align 16
.loop:
	STORE_256 vmovntdq
	add	rdi, 256
	dec	ecx
	jnz	.loop

	sfence
	ret
.end:

; void clear_avx512_t(void *dst)
;
; Temporal full-line stores: on CPUs that detect a whole-line write this
; avoids the read-for-ownership while keeping the page cached.
global clear_avx512_t:function (clear_avx512_t.end - clear_avx512_t)
align 16
clear_avx512_t:
	mov	ecx, 4096 / 256
	vpxord	zmm16, zmm16, zmm16
align 16
.loop:
	STORE_256 vmovdqa64
	add	rdi, 256
	dec	ecx
	jnz	.loop
	ret
.end:

; void clear_avx512_all(void *dst, const void *unused, size_t bytes)
;
; clear_avx512's full-line stores over the whole range, one SFENCE at the
; end: the zmm form of the RFC's clear_pages_movnt() (see clear_sse2_all),
; and the same work as likwid-bench's store_mem_avx512 stream. bytes is
; whole pages: never 0, a multiple of 256.
global clear_avx512_all:function (clear_avx512_all.end - clear_avx512_all)
align 16
clear_avx512_all:
	mov	rcx, rdx
	vpxord	zmm16, zmm16, zmm16
align 16
.loop:
	STORE_256 vmovntdq
	add	rdi, 256
	sub	rcx, 256
	jnz	.loop

	sfence
	ret
.end:

; void clear_avx512_t_all(void *dst, const void *unused, size_t bytes)
;
; clear_avx512_t's stores over the whole range: it differs from
; clear_avx512_t only in the call per page, as clear_avx512_all does from
; clear_avx512, and is the same work as likwid-bench's store_avx512, one
; loop over its buffer. bytes is whole pages: never 0, a multiple of 256.
global clear_avx512_t_all:function (clear_avx512_t_all.end - clear_avx512_t_all)
align 16
clear_avx512_t_all:
	mov	rcx, rdx
	vpxord	zmm16, zmm16, zmm16
align 16
.loop:
	STORE_256 vmovdqa64
	add	rdi, 256
	sub	rcx, 256
	jnz	.loop
	ret
.end:

section .note.GNU-stack noalloc noexec nowrite progbits
