; SPDX-License-Identifier: MIT
;
; A way back to a point the run's thread passed before, with the stack
; and callee-saved registers it had there: setjmp and longjmp, which a
; kernel module has no library for. module/host.c uses it twice: the die
; notifier resumes a guarded call that faulted at pbk_jump_back (through
; the trap frame's RIP, so the exception returns as usual first), and an
; unload ends the run from a yield point. Neither is reached with a lock
; held or the FPU taken: host.c gives back what it holds first.
;
; Nasm, like the variants: objtool never sees it (module/Kbuild), which
; would refuse a return that does not match its call.

bits 64
default rel

section .text

; The layout of struct pbk_jump (module/kernel.h).
%define J_RBX	0
%define J_RBP	8
%define J_R12	16
%define J_R13	24
%define J_R14	32
%define J_R15	40
%define J_RSP	48
%define J_RIP	56

; int pbk_jump_set(struct pbk_jump *j)
;
; 0 now; 1 when pbk_jump_back(j) comes back here later, from a callee of
; the caller (the caller's frame must still be live).
global pbk_jump_set:function (pbk_jump_set.end - pbk_jump_set)
pbk_jump_set:
	mov	[rdi + J_RBX], rbx
	mov	[rdi + J_RBP], rbp
	mov	[rdi + J_R12], r12
	mov	[rdi + J_R13], r13
	mov	[rdi + J_R14], r14
	mov	[rdi + J_R15], r15
	lea	rdx, [rsp + 8]		; the caller's stack pointer after our RET
	mov	[rdi + J_RSP], rdx
	mov	rdx, [rsp]		; our return address
	mov	[rdi + J_RIP], rdx
	xor	eax, eax
	ret
.end:

; void pbk_jump_back(struct pbk_jump *j): does not return.
global pbk_jump_back:function (pbk_jump_back.end - pbk_jump_back)
pbk_jump_back:
	mov	rbx, [rdi + J_RBX]
	mov	rbp, [rdi + J_RBP]
	mov	r12, [rdi + J_R12]
	mov	r13, [rdi + J_R13]
	mov	r14, [rdi + J_R14]
	mov	r15, [rdi + J_R15]
	mov	rsp, [rdi + J_RSP]
	mov	eax, 1
	jmp	[rdi + J_RIP]
.end:
