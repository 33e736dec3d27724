; SPDX-License-Identifier: MIT
;
; Clearing with AMD's CLZERO, which zeroes the whole cache line addressed
; by rAX without reading it first. The 2021 experiment's clear_clzero and
; the RFC's clear_clzero_all step 64 bytes, the line AMD documents;
; Xen's clear_clzero_sf steps by the CLFLUSH line size.

bits 64
default rel
%use smartalign
alignmode p6

section .text

; void clear_clzero(void *dst)
;
; As in the 2021 Xen experiment: no SFENCE. CLZERO is weakly ordered like
; a non-temporal store, so this measures it without the fence and is only
; safe where something later orders the stores anyway; clear_clzero_sf is
; the variant a real clear_page() could use.
global clear_clzero:function (clear_clzero.end - clear_clzero)
align 16
clear_clzero:
	mov	rax, rdi
	mov	ecx, 4096 / 64
align 16
.loop:
	clzero
	add	rax, 64
	dec	ecx
	jnz	.loop
	ret
.end:

; The line count and negated step of clear_clzero_sf: Xen patches them
; into its code at boot; pagebench's text is read-only in user space and
; in the module, so it reads them from here, where variants_configure()
; writes them. 64 bytes until then, AMD's CLZERO line.
section .data
align 8
global clear_clzero_neg_step:data 8
clear_clzero_neg_step:	dq -64
global clear_clzero_lines:data 4
clear_clzero_lines:	dd 4096 / 64

section .text

; void clear_clzero_sf(void *dst)
;
; Xen's clear_page_clzero, the clear_page_cold() of a CPU with CLZERO
; (xen/arch/x86/clear_page.S, xen-project/xen@2593def544, RELEASE-4.21.0;
; xen/arch/x86/lib/clear-page.S from ebddf34aab): CLZERO per line, the
; line being the CLFLUSH size of CPUID.1 EBX[15:8] capped at 128 as
; early_cpu_init() patches it (variants_configure()), then the SFENCE
; that makes the zeroes visible before the page is published. Where Xen
; has "sub $-size, %rax" and "mov $count, %ecx" with patched immediates,
; this subtracts and loads the same values from memory: the same
; instructions, one load more per line.
global clear_clzero_sf:function (clear_clzero_sf.end - clear_clzero_sf)
align 16
clear_clzero_sf:
	mov	rax, rdi
	mov	ecx, [rel clear_clzero_lines]
.loop:
	clzero
	sub	rax, [rel clear_clzero_neg_step]
	sub	ecx, 1
	jnz	.loop

	sfence
	ret
.end:

; void clear_clzero_all(void *dst, const void *unused, size_t bytes)
;
; The CLZERO range clear of Ankur Arora's 2022 huge-page RFC,
; clear_pages_clzero() ("[PATCH v3 10/21] x86/asm: add
; clear_pages_clzero()", linux-kernel, 2022-06-06, the patch after
; clear_pages_movnt()): CLZERO on every 64-byte line of the range, then
; the SFENCE that the RFC leaves to its caller. It takes bytes where the
; RFC takes pages, so no shift, and counts in RCX where the RFC counts in
; ECX. bytes is whole pages: never 0, a multiple of 64.
global clear_clzero_all:function (clear_clzero_all.end - clear_clzero_all)
align 16
clear_clzero_all:
	mov	rax, rdi
	mov	rcx, rdx
align 16
.loop:
	clzero
	add	rax, 64
	sub	rcx, 64
	ja	.loop

	sfence
	ret
.end:

section .note.GNU-stack noalloc noexec nowrite progbits
