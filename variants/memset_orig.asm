; SPDX-License-Identifier: MIT
;
; The shape of Linux's memset_orig, the memset of CPUs whose string
; instructions are slow (neither ERMS nor REP_GOOD): no microcode start-up
; at all, just general-register stores and branches on the size.

bits 64
default rel
%use smartalign
alignmode p6
%include "variants/line_stores.inc"

BYTES_ONES_64	equ 0x0101010101010101
QWORD_SHIFT	equ 3
QWORD_BYTES	equ 1 << QWORD_SHIFT
QWORD_MASK	equ QWORD_BYTES - 1
LINE_SHIFT	equ 6
LINE		equ 1 << LINE_SHIFT

section .text

; void *memset_orig(void *dst, int c, size_t n)
;
; One unaligned quadword store carries a misaligned dst to the next 8-byte
; boundary, so every later quadword store is aligned and none splits a
; line. Then a line per iteration of eight stores, then whole quadwords
; and single bytes in small loops: loops over a few iterations predict
; better than a jump table indexed by size. Counters are decremented
; before the stores and pointers advanced with LEA, which leaves the flags
; for the branch.
global memset_orig:function (memset_orig.end - memset_orig)
align 16
memset_orig:
	mov	r10, rdi
	movzx	eax, sil
	mov	r8, BYTES_ONES_64
	imul	rax, r8

	mov	ecx, edi
	and	ecx, QWORD_MASK
	jnz	.misaligned

.aligned:
	mov	rcx, rdx
	shr	rcx, LINE_SHIFT		; whole lines
	jz	.quads
	STORE_LINES rcx, .lines

.quads:
	mov	ecx, edx
	and	ecx, (LINE - 1) & ~QWORD_MASK	; bytes in whole quadwords left
	jz	.bytes
	shr	ecx, QWORD_SHIFT
align 16
.quad_loop:
	dec	ecx
	mov	[rdi], rax
	lea	rdi, [rdi + QWORD_BYTES]
	jnz	.quad_loop

.bytes:
	and	edx, QWORD_MASK
	jz	.done
align 16
.byte_loop:
	dec	edx
	mov	[rdi], al
	lea	rdi, [rdi + 1]
	jnz	.byte_loop

.done:
	mov	rax, r10
	ret

	; ecx = dst % 8, not 0. Fewer than 8 bytes would let the quadword
	; store reach past the end: those take the byte loop alone.
.misaligned:
	cmp	rdx, QWORD_BYTES
	jb	.bytes
	mov	[rdi], rax
	neg	ecx
	add	ecx, QWORD_BYTES		; bytes to the next boundary, 1..7
	add	rdi, rcx
	sub	rdx, rcx
	jmp	.aligned
.end:

section .note.GNU-stack noalloc noexec nowrite progbits
