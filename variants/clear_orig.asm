; SPDX-License-Identifier: MIT
;
; Linux clear_page_orig: the fallback for CPUs whose string instructions
; are slow (no REP_GOOD), one cache line of 8-byte stores per iteration.

bits 64
default rel
%use smartalign
alignmode p6
%include "variants/line_stores.inc"

section .text

; void clear_orig(void *dst)
global clear_orig:function (clear_orig.end - clear_orig)
align 16
clear_orig:
	xor	eax, eax
	mov	ecx, 4096 / 64
	STORE_LINES ecx, .loop
	nop			; as clear_page_orig has it before its return
	ret
.end:

; void clear_orig_all(void *dst, const void *unused, size_t bytes)
;
; Linux 7.0's __clear_pages_unrolled(), what clear_pages() calls on a CPU
; with neither ERMS nor REP_GOOD: clear_page_orig's loop run over the
; whole range at once, RCX = bytes / 64 lines (torvalds/linux@54a6b89a3db2,
; cb431accb36e). The caller there zeroes RAX; here the routine does.
; bytes is whole pages, so never 0 and a multiple of 64.
global clear_orig_all:function (clear_orig_all.end - clear_orig_all)
align 16
clear_orig_all:
	mov	rcx, rdx
	shr	rcx, 6
	xor	eax, eax
	STORE_LINES rcx, .loop
	nop			; as __clear_pages_unrolled has it
	ret
.end:

section .note.GNU-stack noalloc noexec nowrite progbits
