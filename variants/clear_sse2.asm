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
; Instruction for instruction as xen/arch/x86/clear_page.S has it from
; RELEASE-4.15.0 to 4.22.0: SUB rather than DEC, and no alignment of the
; loop.
global clear_sse2:function (clear_sse2.end - clear_sse2)
align 16
clear_sse2:
	mov	ecx, 4096 / 32
	xor	eax, eax
.loop:
	movnti	[rdi], rax
	movnti	[rdi + 8], rax
	movnti	[rdi + 16], rax
	movnti	[rdi + 24], rax
	add	rdi, 32
	sub	ecx, 1
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

; void clear_sse2_all(void *dst, const void *unused, size_t bytes)
;
; The huge-page candidate of Ankur Arora's 2022 RFC, clear_pages_movnt()
; ("[PATCH v3 09/21] x86/asm: add clear_pages_movnt()", linux-kernel,
; 2022-06-06, <20220606203725.1313715-5-ankur.a.arora@oracle.com>):
; eight MOVNTI per 64-byte line over the whole range, and the one SFENCE
; the RFC leaves to its caller issued here, once, at the end. Against
; clear_sse2 called per page it shows what 4 KiB's SFENCE and call cost.
; The RFC counts in ECX; RCX here, so a range of 4 GiB or more is cleared
; too. bytes is whole pages: never 0, a multiple of 64.
global clear_sse2_all:function (clear_sse2_all.end - clear_sse2_all)
align 16
clear_sse2_all:
	xor	eax, eax
	mov	rcx, rdx
align 16
.loop:
	movnti	[rdi], rax
	movnti	[rdi + 8], rax
	movnti	[rdi + 16], rax
	movnti	[rdi + 24], rax
	movnti	[rdi + 32], rax
	movnti	[rdi + 40], rax
	movnti	[rdi + 48], rax
	movnti	[rdi + 56], rax
	add	rdi, 64
	sub	rcx, 64
	ja	.loop

	sfence
	ret
.end:

section .note.GNU-stack noalloc noexec nowrite progbits
