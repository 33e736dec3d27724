; SPDX-License-Identifier: MIT
;
; vector_make_live(mask): gives each vector state component of mask a
; value other than its initial one, so that an XSAVE of them saves what a
; task that used them would have saved (harness/measure/vector_price.c). The
; optimised saves skip a component still in its initial state, and a
; task that ran an AVX-512 memcpy leaves ZMM_Hi256 and Hi16_ZMM live.
; In assembly so that no compiler holds a value in these registers
; across it: every one of them is caller-saved in the System V ABI.
; x87 is left alone: a value pushed there would outlive the call.

bits 64
default rel

XSTATE_SSE		equ 1 << 1
XSTATE_YMM		equ 1 << 2
XSTATE_OPMASK		equ 1 << 5
XSTATE_ZMM_HI256	equ 1 << 6
XSTATE_HI16_ZMM		equ 1 << 7

section .text

global vector_make_live
vector_make_live:
	test	edi, XSTATE_SSE
	jz	.ymm
%assign r 0
%rep 16
	pcmpeqd	xmm %+ r, xmm %+ r
%assign r r + 1
%endrep
.ymm:
	test	edi, XSTATE_YMM
	jz	.opmask
%assign r 0
%rep 16
	vpcmpeqd ymm %+ r, ymm %+ r, ymm %+ r
%assign r r + 1
%endrep
.opmask:
	test	edi, XSTATE_OPMASK
	jz	.zmm
%assign r 1
%rep 7
	kxnorw	k %+ r, k0, k0
%assign r r + 1
%endrep
.zmm:
	test	edi, XSTATE_ZMM_HI256
	jz	.hi16
%assign r 0
%rep 16
	vpternlogd zmm %+ r, zmm %+ r, zmm %+ r, 0xff
%assign r r + 1
%endrep
.hi16:
	test	edi, XSTATE_HI16_ZMM
	jz	.done
%assign r 16
%rep 16
	vpternlogd zmm %+ r, zmm %+ r, zmm %+ r, 0xff
%assign r r + 1
%endrep
.done:
	ret

; vector_leave(mask): what the caller's code expects after a live YMM
; state: VZEROUPPER, so that legacy SSE code that follows pays no
; transition (Intel); the ZMM and opmask values stay, as no code reads them.
global vector_leave
vector_leave:
	test	edi, XSTATE_YMM
	jz	.out
	vzeroupper
.out:
	ret

section .note.GNU-stack noalloc noexec nowrite progbits
