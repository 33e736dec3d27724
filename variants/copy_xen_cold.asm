; SPDX-License-Identifier: MIT
;
; Xen's copy for pages not expected to be read again soon, instruction for
; instruction: copy_page_sse2 in xen/arch/x86/copy_page.S from
; RELEASE-4.15.0 to 4.20, the same loop renamed copy_page_cold in 4.21
; (xen-project/xen@fc1556a1a6; xen/arch/x86/lib/copy-page.S from
; ebddf34aab). 32 bytes per step through four scratch registers, MOVNTI
; stores, PREFETCHNTA on the source.

bits 64
default rel
%use smartalign
alignmode p6

STEP		equ 32		; four quadwords
PF_AHEAD	equ 3		; prefetch distance, in steps

section .text

; void copy_xen_cold(void *dst, const void *src)
;
; The loads run one step ahead of the stores: the first step is loaded
; before the loop, the last stored after it. One DEC counts the steps and
; two branches read its flags: JG while steps with a prefetch remain,
; then JPE, the parity of the count's low byte, which holds for 0 and
; for -1 (0x00, 0xff: even) and not for -2 (0xfe): two more steps without
; a prefetch, which would otherwise reach past the source page. SFENCE
; drains and orders the MOVNTI stores.
global copy_xen_cold:function (copy_xen_cold.end - copy_xen_cold)
align 16
copy_xen_cold:
	mov	ecx, 4096 / STEP - PF_AHEAD

	prefetchnta [rsi + 2 * STEP]
	mov	r8, [rsi]
	mov	r9, [rsi + 8]
	mov	r10, [rsi + 16]
	mov	r11, [rsi + 24]

.prefetch:
	prefetchnta [rsi + PF_AHEAD * STEP]
.step:
	add	rsi, STEP
	movnti	[rdi], r8
	mov	r8, [rsi]
	dec	ecx
	movnti	[rdi + 8], r9
	mov	r9, [rsi + 8]
	movnti	[rdi + 16], r10
	mov	r10, [rsi + 16]
	movnti	[rdi + 24], r11
	lea	rdi, [rdi + STEP]	; LEA keeps the DEC's flags for both branches
	mov	r11, [rsi + 24]
	jg	.prefetch
	jpe	.step

	movnti	[rdi], r8
	movnti	[rdi + 8], r9
	movnti	[rdi + 16], r10
	movnti	[rdi + 24], r11

	sfence
	ret
.end:

section .note.GNU-stack noalloc noexec nowrite progbits
