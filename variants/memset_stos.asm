; SPDX-License-Identifier: MIT
;
; memset with REP STOS: the forms a kernel chooses between by CPUID
; (ERMS, FSRS). void *memset(void *dst, int c, size_t n), System V: the
; fill byte is the low byte of esi, whatever the bits above it hold, and
; dst comes back in rax. Only rax, rcx, rdx, rdi, r8, r9 are touched. The
; direction flag is clear on entry under the ABI and in the kernel.
;
; The question of the issue is what a zero count costs: REP with rcx = 0
; does nothing, but the microcode may still pay its start-up. The _br
; forms branch around it instead, so the two can be measured side by side.

bits 64
default rel
%use smartalign
alignmode p6

; The byte 0x01 in every lane: multiplying a byte by it copies the byte
; into every byte of the register.
BYTES_ONES_32	equ 0x01010101
BYTES_ONES_64	equ 0x0101010101010101

; Element sizes as shifts: count = n >> SHIFT, tail = n & MASK.
DWORD_SHIFT	equ 2
DWORD_MASK	equ (1 << DWORD_SHIFT) - 1
QWORD_SHIFT	equ 3
QWORD_MASK	equ (1 << QWORD_SHIFT) - 1

section .text

; void *memset_stosb(void *dst, int c, size_t n)
;
; Bare REP STOSB, Linux memset_erms: with ERMS the microcode picks the
; store width itself, and Andrew Cooper's position is that this alone is
; the right memset there. n = 0 goes through the REP too.
global memset_stosb:function (memset_stosb.end - memset_stosb)
align 16
memset_stosb:
	mov	r9, rdi
	mov	al, sil		; REP STOSB reads AL alone, as Linux's MOVB
	mov	rcx, rdx
	rep stosb
	mov	rax, r9
	ret
.end:

; void *memset_stosb_br(void *dst, int c, size_t n)
;
; The same REP STOSB behind a branch that skips n = 0: the extra compare
; is paid by every call, the REP start-up is saved only on empty ones.
global memset_stosb_br:function (memset_stosb_br.end - memset_stosb_br)
align 16
memset_stosb_br:
	mov	r9, rdi
	test	rdx, rdx
	jz	.done
	movzx	eax, sil
	mov	rcx, rdx
	rep stosb
.done:
	mov	rax, r9
	ret
.end:

; void *memset_stosq(void *dst, int c, size_t n)
;
; Linux's memset before ERMS (REP_GOOD): quadwords for the bulk, where
; older fast-string microcode was quickest, then REP STOSB for the last
; n % 8 bytes, run even when there are none.
global memset_stosq:function (memset_stosq.end - memset_stosq)
align 16
memset_stosq:
	mov	r9, rdi
	movzx	eax, sil
	mov	r8, BYTES_ONES_64
	imul	rax, r8
	mov	rcx, rdx
	shr	rcx, QWORD_SHIFT
	rep stosq
	mov	ecx, edx
	and	ecx, QWORD_MASK
	rep stosb
	mov	rax, r9
	ret
.end:

; void *memset_stosq_br(void *dst, int c, size_t n)
;
; As memset_stosq, but the tail REP STOSB is skipped when n is a multiple
; of 8: Jan Beulich's question of whether a zero-length trailing REP is
; worth a branch.
global memset_stosq_br:function (memset_stosq_br.end - memset_stosq_br)
align 16
memset_stosq_br:
	mov	r9, rdi
	movzx	eax, sil
	mov	r8, BYTES_ONES_64
	imul	rax, r8
	mov	rcx, rdx
	shr	rcx, QWORD_SHIFT
	rep stosq
	mov	ecx, edx
	and	ecx, QWORD_MASK
	jz	.done
	rep stosb
.done:
	mov	rax, r9
	ret
.end:

; void *memset_stosl(void *dst, int c, size_t n)
;
; Doublewords for the bulk, then REP STOSB for n % 4: Jan Beulich
; reported REP STOSL faster than the other widths in a number of cases,
; which is why Xen's 2021 experiment measured it.
global memset_stosl:function (memset_stosl.end - memset_stosl)
align 16
memset_stosl:
	mov	r9, rdi
	movzx	eax, sil
	imul	eax, eax, BYTES_ONES_32
	mov	rcx, rdx
	shr	rcx, DWORD_SHIFT
	rep stosd
	mov	ecx, edx
	and	ecx, DWORD_MASK
	rep stosb
	mov	rax, r9
	ret
.end:

section .note.GNU-stack noalloc noexec nowrite progbits
