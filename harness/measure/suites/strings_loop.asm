; SPDX-License-Identifier: MIT
;
; The timed loops of suite=strings (harness/measure/suites/strings_time.c): one
; batch of calls of a memset or memcpy routine, each call's size read from
; an array.
; In assembly so that the kernel and pagebench-linux time the very same
; instructions, and so that no compiler moves anything across a call.
;
; Both ops go through one loop: memset's second argument is the fill byte
; (it reads only sil), memcpy's the source, both taken from arg2 into rsi.
; What a batch costs beyond its routines (this loop, the call, the return)
; is measured by running it with strings_empty, and subtracted.

bits 64
default rel
%use smartalign
alignmode p6

; struct strings_batch, harness/measure/suites/strings_loop.h (checked by offsetof
; in harness/measure/suites/strings_time.c).
B_FN		equ 0
B_DST		equ 8
B_ARG2		equ 16
B_NS		equ 24
B_CALLS		equ 32

SIZE_SHIFT	equ 3			; the ns array holds 8-byte size_t

section .text

; Callee-saved registers the loops keep their state in; one more slot of
; 8 bytes keeps rsp 16-byte aligned at each call, as the ABI wants.
%macro LOOP_ENTER 0
	push	rbx
	push	rbp
	push	r12
	push	r13
	push	r14
	push	r15
	sub	rsp, 8
	mov	rbx, [rdi + B_FN]
	mov	rbp, [rdi + B_DST]
	mov	r12, [rdi + B_ARG2]
	mov	r13, [rdi + B_NS]
	mov	r14, [rdi + B_CALLS]
	shl	r14, SIZE_SHIFT
	add	r14, r13		; one past the last size
%endmacro

%macro LOOP_LEAVE 0
	add	rsp, 8
	pop	r15
	pop	r14
	pop	r13
	pop	r12
	pop	rbp
	pop	rbx
	ret
%endmacro

; void strings_loop_tput(const struct strings_batch *b)
;
; Throughput: every call gets the same dst and nothing of one call feeds
; the next, so the core may overlap them as far as it can.
global strings_loop_tput:function (strings_loop_tput.end - strings_loop_tput)
align 16
strings_loop_tput:
	LOOP_ENTER
align 16
.call:
	mov	rdi, rbp
	mov	rsi, r12
	mov	rdx, [r13]
	call	rbx
	add	r13, 8
	cmp	r13, r14
	jb	.call
	LOOP_LEAVE
.end:

; void strings_loop_lat(const struct strings_batch *b)
;
; Latency: the next call's dst is this call's dst plus a zero computed from
; the pointer it returned and the first and last byte it wrote. AND with 0
; is no zero idiom (XOR and SUB of a register with itself are), so the sum
; waits for the return value and both loads, and each load for the store
; it reads, which it gets by forwarding or from the cache. The next call
; can therefore not form an address before this call has returned and
; written its first and last bytes: a consumer's view of memset and
; memcpy. Stores in between (a vector loop's) may still drain as the next
; call starts. The loads go to the dst that was passed, not the pointer
; returned, so a routine returning a wrong pointer cannot steer the next
; call elsewhere. For n = 0 the loads read the guard bytes either side of
; dst, which no call writes, and the chain goes through the return value.
global strings_loop_lat:function (strings_loop_lat.end - strings_loop_lat)
align 16
strings_loop_lat:
	LOOP_ENTER
align 16
.call:
	mov	rdi, rbp
	mov	rsi, r12
	mov	r15, [r13]
	mov	rdx, r15
	call	rbx
	movzx	ecx, byte [rbp]
	movzx	edx, byte [rbp + r15 - 1]
	add	ecx, edx
	sub	rax, rbp		; 0 from a routine that returns dst
	add	rcx, rax
	and	ecx, 0			; also clears rcx's upper half
	add	rbp, rcx
	add	r13, 8
	cmp	r13, r14
	jb	.call
	LOOP_LEAVE
.end:

; void *strings_empty(void *dst, uintptr_t arg2, size_t n)
;
; What a routine that does nothing costs in these loops: it returns dst,
; as memset and memcpy do, so the latency loop's chain is the same.
global strings_empty:function (strings_empty.end - strings_empty)
align 16
strings_empty:
	mov	rax, rdi
	ret
.end:

section .note.GNU-stack noalloc noexec nowrite progbits
