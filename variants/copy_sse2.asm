; SPDX-License-Identifier: MIT
;
; Copying through xmm registers, a cache line per iteration. Pages are
; 4 KiB aligned, so the aligned MOVDQA forms are always legal, and a fault
; on a misaligned pointer beats a silently slow copy.

bits 64
default rel
%use smartalign
alignmode p6

; Prefetch distance in lines, the same as copy_regs so the two compare.
PF_LINES	equ 5

; Load one line into xmm0-3. %1 non-zero: prefetch PF_LINES ahead.
%macro LOAD_LINE 1
	movdqa	xmm0, [rsi]
	movdqa	xmm1, [rsi + 16]
	movdqa	xmm2, [rsi + 32]
	movdqa	xmm3, [rsi + 48]
%if %1
	prefetcht0 [rsi + PF_LINES * 64]
%endif
%endmacro

; Store xmm0-3 as one line with instruction %1 (movdqa or movntdq).
%macro STORE_LINE 1
	%1	[rdi], xmm0
	%1	[rdi + 16], xmm1
	%1	[rdi + 32], xmm2
	%1	[rdi + 48], xmm3
%endmacro

section .text

; void copy_sse2_t(void *dst, const void *src)
;
; Temporal 16-byte loads and stores, relying on the hardware prefetchers.
global copy_sse2_t:function (copy_sse2_t.end - copy_sse2_t)
align 16
copy_sse2_t:
	mov	ecx, 4096 / 64
align 16
.loop:
	LOAD_LINE 0
	STORE_LINE movdqa
	add	rsi, 64
	add	rdi, 64
	dec	ecx
	jnz	.loop
	ret
.end:

; void copy_sse2_t_pf(void *dst, const void *src)
;
; As copy_sse2_t with software prefetch. As in copy_regs, the last PF_LINES
; lines go without it so nothing beyond the source page is fetched.
global copy_sse2_t_pf:function (copy_sse2_t_pf.end - copy_sse2_t_pf)
align 16
copy_sse2_t_pf:
	mov	ecx, 4096 / 64 - PF_LINES
align 16
.loop:
	LOAD_LINE 1
	STORE_LINE movdqa
	add	rsi, 64
	add	rdi, 64
	dec	ecx
	jnz	.loop

	mov	ecx, PF_LINES
align 16
.tail:
	LOAD_LINE 0
	STORE_LINE movdqa
	add	rsi, 64
	add	rdi, 64
	dec	ecx
	jnz	.tail
	ret
.end:

; void copy_sse2(void *dst, const void *src)
;
; Non-temporal stores write whole lines without reading the destination
; first and keep it out of the cache, which pays off when the copy is not
; read again soon. SFENCE drains the write-combining buffers and orders the
; copy before whatever publishes it.
global copy_sse2:function (copy_sse2.end - copy_sse2)
align 16
copy_sse2:
	mov	ecx, 4096 / 64
align 16
.loop:
	LOAD_LINE 0
	STORE_LINE movntdq
	add	rsi, 64
	add	rdi, 64
	dec	ecx
	jnz	.loop

	sfence
	ret
.end:

section .note.GNU-stack noalloc noexec nowrite progbits
