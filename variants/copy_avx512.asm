; SPDX-License-Identifier: MIT
;
; Copying through zmm registers, 256 bytes (four lines) per iteration, one
; load and one store per cache line.
;
; Both routines use zmm16-19 only. Registers 16-31 exist only in EVEX
; encodings, so legacy-SSE and VEX code never sees them and they cause no
; SSE/AVX transition penalty: no VZEROUPPER is needed on the way out.

bits 64
default rel
%use smartalign
alignmode p6

; Load 256 bytes into zmm16-19.
%macro LOAD_256 0
	vmovdqa64 zmm16, [rsi]
	vmovdqa64 zmm17, [rsi + 64]
	vmovdqa64 zmm18, [rsi + 128]
	vmovdqa64 zmm19, [rsi + 192]
%endmacro

; Store zmm16-19 with instruction %1 (vmovdqa64 or vmovntdq).
%macro STORE_256 1
	%1	[rdi], zmm16
	%1	[rdi + 64], zmm17
	%1	[rdi + 128], zmm18
	%1	[rdi + 192], zmm19
%endmacro

section .text

; void copy_avx512_t(void *dst, const void *src)
;
; Temporal full-line stores: CPUs that see a whole line written can skip
; reading it first while still leaving the copy in the cache.
global copy_avx512_t:function (copy_avx512_t.end - copy_avx512_t)
align 16
copy_avx512_t:
	mov	ecx, 4096 / 256
align 16
.loop:
	LOAD_256
	STORE_256 vmovdqa64
	add	rsi, 256
	add	rdi, 256
	dec	ecx
	jnz	.loop
	ret
.end:

; void copy_avx512(void *dst, const void *src)
;
; Full-line non-temporal stores, each one filling a write-combining buffer
; at once; SFENCE drains them and orders the copy before whatever
; publishes it.
global copy_avx512:function (copy_avx512.end - copy_avx512)
align 16
copy_avx512:
	mov	ecx, 4096 / 256
align 16
.loop:
	LOAD_256
	STORE_256 vmovntdq
	add	rsi, 256
	add	rdi, 256
	dec	ecx
	jnz	.loop

	sfence
	ret
.end:

section .note.GNU-stack noalloc noexec nowrite progbits
