; SPDX-License-Identifier: MIT
;
; Copying with REP MOVS: microcode picks the width and protocol (fast
; strings, ERMS, FSRM), so these are the baseline for the hand-written
; loops. The direction flag is clear on entry both under the SysV ABI and
; in the kernel.

bits 64
default rel
%use smartalign
alignmode p6

section .text

; void copy_movsb(void *dst, const void *src)
;
; With ERMS the byte form is meant to match the wider ones; this is what
; Linux's memcpy uses on such CPUs.
global copy_movsb:function (copy_movsb.end - copy_movsb)
align 16
copy_movsb:
	mov	ecx, 4096
	rep movsb
	ret
.end:

; void copy_movsq(void *dst, const void *src)
;
; Linux copy_page on REP_GOOD CPUs (copy_page_c before ERMS existed).
global copy_movsq:function (copy_movsq.end - copy_movsq)
align 16
copy_movsq:
	mov	ecx, 4096 / 8
	rep movsq
	ret
.end:

; void copy_movsb_all(void *dst, const void *src, size_t bytes)
;
; One instruction for the whole region: the start-up cost is paid once, and
; long copies may switch to non-temporal stores inside the microcode.
global copy_movsb_all:function (copy_movsb_all.end - copy_movsb_all)
align 16
copy_movsb_all:
	mov	rcx, rdx
	rep movsb
	ret
.end:

; void copy_movsq_all(void *dst, const void *src, size_t bytes)
;
; As copy_movsb_all with quadwords; bytes is whole pages, so no tail.
global copy_movsq_all:function (copy_movsq_all.end - copy_movsq_all)
align 16
copy_movsq_all:
	mov	rcx, rdx
	shr	rcx, 3
	rep movsq
	ret
.end:

section .note.GNU-stack noalloc noexec nowrite progbits
