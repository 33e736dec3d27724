; SPDX-License-Identifier: MIT
;
; Clearing with REP STOS.
;
; The string instructions leave the choice of store width and protocol to
; microcode (fast strings, ERMS, FSRS/FZRM), so they are the baseline every
; hand-written loop has to beat. The direction flag is clear on entry both
; under the SysV ABI and in the kernel, so none of these touches it.

bits 64
default rel
%use smartalign
alignmode p6

section .text

; void clear_stosb(void *dst)
;
; Byte count: with ERMS the microcode is meant to be as fast as the wider
; forms, and this is what Linux uses as clear_page_erms.
global clear_stosb:function (clear_stosb.end - clear_stosb)
align 16
clear_stosb:
	mov	ecx, 4096
	xor	eax, eax
	rep stosb
	ret
.end:

; void clear_stosl(void *dst)
;
; The dword form was one of the points of the 2021 Xen experiment: older
; fast-string microcode was tuned for it rather than for bytes.
global clear_stosl:function (clear_stosl.end - clear_stosl)
align 16
clear_stosl:
	mov	ecx, 4096 / 4
	xor	eax, eax
	rep stosd
	ret
.end:

; void clear_stosq(void *dst)
;
; Linux clear_page_rep: the choice for CPUs with fast strings but no ERMS,
; where the per-iteration cost makes the widest element the cheapest.
global clear_stosq:function (clear_stosq.end - clear_stosq)
align 16
clear_stosq:
	mov	ecx, 4096 / 8
	xor	eax, eax
	rep stosq
	ret
.end:

; void clear_stosb_all(void *dst, const void *unused, size_t bytes)
;
; One instruction over the whole region, as Linux clear_pages() does for
; huge pages: the microcode start-up cost is paid once instead of per page,
; and long strings may switch to non-temporal stores internally.
global clear_stosb_all:function (clear_stosb_all.end - clear_stosb_all)
align 16
clear_stosb_all:
	mov	rcx, rdx
	xor	eax, eax
	rep stosb
	ret
.end:

; void clear_stosq_all(void *dst, const void *unused, size_t bytes)
;
; As clear_stosb_all with quadwords; bytes is whole pages, so no tail.
global clear_stosq_all:function (clear_stosq_all.end - clear_stosq_all)
align 16
clear_stosq_all:
	mov	rcx, rdx
	shr	rcx, 3
	xor	eax, eax
	rep stosq
	ret
.end:

section .note.GNU-stack noalloc noexec nowrite progbits
