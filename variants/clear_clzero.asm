; SPDX-License-Identifier: MIT
;
; Clearing with AMD's CLZERO, which zeroes the whole cache line addressed
; by rAX without reading it first. AMD defines the line as 64 bytes on
; every CPU that has the instruction.

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

; void clear_clzero_sf(void *dst)
;
; The same with the SFENCE that makes the zeroes visible before the page is
; published, to show what the ordering costs.
global clear_clzero_sf:function (clear_clzero_sf.end - clear_clzero_sf)
align 16
clear_clzero_sf:
	mov	rax, rdi
	mov	ecx, 4096 / 64
align 16
.loop:
	clzero
	add	rax, 64
	dec	ecx
	jnz	.loop

	sfence
	ret
.end:

section .note.GNU-stack noalloc noexec nowrite progbits
