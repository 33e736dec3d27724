; SPDX-License-Identifier: MIT
;
; Clearing with SSE2-era stores from plain and xmm registers.

bits 64
default rel
%use smartalign
alignmode p6

section .text

; void clear_sse2(void *dst)
;
; Xen's clear_page_sse2, the default before 2021: MOVNTI bypasses the
; caches, on the theory that a freshly cleared page is not touched again
; soon and should not evict anything. The write-combining buffers are only
; flushed by SFENCE, which also orders the stores before whatever publishes
; the page.
global clear_sse2:function (clear_sse2.end - clear_sse2)
align 16
clear_sse2:
	mov	ecx, 4096 / 32
	xor	eax, eax
align 16
.loop:
	movnti	[rdi], rax
	movnti	[rdi + 8], rax
	movnti	[rdi + 16], rax
	movnti	[rdi + 24], rax
	add	rdi, 32
	dec	ecx
	jnz	.loop

	sfence
	ret
.end:

; void clear_sse2_t(void *dst)
;
; The temporal counterpart with 16-byte stores: shows how much of clear_sse2's
; result comes from bypassing the cache and how much from store width.
global clear_sse2_t:function (clear_sse2_t.end - clear_sse2_t)
align 16
clear_sse2_t:
	mov	ecx, 4096 / 64
	pxor	xmm0, xmm0
align 16
.loop:
	movdqa	[rdi], xmm0
	movdqa	[rdi + 16], xmm0
	movdqa	[rdi + 32], xmm0
	movdqa	[rdi + 48], xmm0
	add	rdi, 64
	dec	ecx
	jnz	.loop
	ret
.end:

section .note.GNU-stack noalloc noexec nowrite progbits
