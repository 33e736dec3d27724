; SPDX-License-Identifier: MIT
;
; The shape of Xen's page copy for pages not expected to be read again soon
; (copy_page_sse2 in xen/arch/x86/copy_page.S): 32 bytes per step through
; four scratch registers, MOVNTI stores, PREFETCHNTA on the source.

bits 64
default rel
%use smartalign
alignmode p6

; Prefetch distance in 32-byte steps, as in Xen.
PF_STEPS	equ 3

; Store the 32 bytes held in r8-r11 and load the next 32 in their place:
; each load goes right behind the store that freed its register, so the
; loads of step n+1 are in flight while step n drains. %1 non-zero:
; prefetch PF_STEPS steps ahead.
%macro STEP 1
%if %1
	prefetchnta [rsi + PF_STEPS * 32]
%endif
	add	rsi, 32
	movnti	[rdi], r8
	mov	r8, [rsi]
	movnti	[rdi + 8], r9
	mov	r9, [rsi + 8]
	movnti	[rdi + 16], r10
	mov	r10, [rsi + 16]
	movnti	[rdi + 24], r11
	mov	r11, [rsi + 24]
	add	rdi, 32
%endmacro

section .text

; void copy_xen_cold(void *dst, const void *src)
;
; The loads run one step ahead of the stores, so the first step is loaded
; before the loop and the last stored after it. PREFETCHNTA brings the
; source in without displacing the caller's working set. The last
; PF_STEPS - 1 steps skip the prefetch, which would otherwise reach past
; the source page. MOVNTI needs the SFENCE to drain and order its stores.
global copy_xen_cold:function (copy_xen_cold.end - copy_xen_cold)
align 16
copy_xen_cold:
	prefetchnta [rsi + 2 * 32]
	mov	r8, [rsi]
	mov	r9, [rsi + 8]
	mov	r10, [rsi + 16]
	mov	r11, [rsi + 24]

	mov	ecx, 4096 / 32 - PF_STEPS
align 16
.loop:
	STEP 1
	dec	ecx
	jnz	.loop

	mov	ecx, PF_STEPS - 1
align 16
.tail:
	STEP 0
	dec	ecx
	jnz	.tail

	movnti	[rdi], r8
	movnti	[rdi + 8], r9
	movnti	[rdi + 16], r10
	movnti	[rdi + 24], r11
	sfence
	ret
.end:

section .note.GNU-stack noalloc noexec nowrite progbits
