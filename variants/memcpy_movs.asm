; SPDX-License-Identifier: MIT
;
; memcpy with REP MOVS: the forms a kernel chooses between by CPUID
; (ERMS, FSRM, FZRM). void *memcpy(void *dst, const void *src, size_t n),
; System V: dst comes back in rax; only rax, rcx, rsi, rdi are touched.
; The direction flag is clear on entry under the ABI and in the kernel.
;
; As with memset_stos.asm, each count that may be zero either goes through
; the REP (which then does nothing, at the cost of its start-up) or, in
; the _br forms, is branched around. FZRM says the former is cheap.

bits 64
default rel
%use smartalign
alignmode p6

QWORD_SHIFT	equ 3
QWORD_MASK	equ (1 << QWORD_SHIFT) - 1

section .text

; void *memcpy_movsb(void *dst, const void *src, size_t n)
;
; Bare REP MOVSB: Linux's memcpy on FSRM CPUs, where short copies are
; meant to be as quick in microcode as in any open-coded sequence.
global memcpy_movsb:function (memcpy_movsb.end - memcpy_movsb)
align 16
memcpy_movsb:
	mov	rax, rdi
	mov	rcx, rdx
	rep movsb
	ret
.end:

; void *memcpy_movsb_br(void *dst, const void *src, size_t n)
;
; REP MOVSB behind a branch that skips n = 0: what a CPU without FZRM
; would want if empty copies are common.
global memcpy_movsb_br:function (memcpy_movsb_br.end - memcpy_movsb_br)
align 16
memcpy_movsb_br:
	mov	rax, rdi
	test	rdx, rdx
	jz	.done
	mov	rcx, rdx
	rep movsb
.done:
	ret
.end:

; void *memcpy_movsq(void *dst, const void *src, size_t n)
;
; Linux's memcpy on REP_GOOD CPUs without ERMS: REP MOVSQ for the bulk,
; REP MOVSB for the last n % 8 bytes, run even when there are none.
global memcpy_movsq:function (memcpy_movsq.end - memcpy_movsq)
align 16
memcpy_movsq:
	mov	rax, rdi
	mov	rcx, rdx
	shr	rcx, QWORD_SHIFT
	and	edx, QWORD_MASK		; Linux's order: the tail count first
	rep movsq
	mov	ecx, edx
	rep movsb
	ret
.end:

; void *memcpy_movsq_br(void *dst, const void *src, size_t n)
;
; As memcpy_movsq, with the tail REP MOVSB skipped when n is a multiple of
; 8: memset_stosq_br's question asked of the copy.
global memcpy_movsq_br:function (memcpy_movsq_br.end - memcpy_movsq_br)
align 16
memcpy_movsq_br:
	mov	rax, rdi
	mov	rcx, rdx
	shr	rcx, QWORD_SHIFT
	rep movsq
	mov	ecx, edx
	and	ecx, QWORD_MASK
	jz	.done
	rep movsb
.done:
	ret
.end:

section .note.GNU-stack noalloc noexec nowrite progbits
