// SPDX-License-Identifier: MIT
#include <stdio.h>
#include "tests/unit/abi.h"

#define CALLEE_SAVED	6
#define RFLAGS_DF	(1u << 10)

/*
 * abi_call(fn, a0, a1, a2, regs): load rbx, rbp, r12-r15 from regs[0..5],
 * call fn(a0, a1, a2), store those registers back into regs[0..5] and the
 * flags after the call into regs[6]; returns fn's rax. Our own values of
 * them are saved around it, so a routine that clobbers one fails its check
 * rather than crashing the test somewhere else.
 */
uint64_t abi_call(const void *fn, uint64_t a0, uint64_t a1, uint64_t a2,
		  uint64_t regs[CALLEE_SAVED + 1]);
__asm__(
	".pushsection .text\n"
	".globl abi_call\n"
	".type abi_call, @function\n"
	"abi_call:\n"
	"	push	%rbx\n"
	"	push	%rbp\n"
	"	push	%r12\n"
	"	push	%r13\n"
	"	push	%r14\n"
	"	push	%r15\n"
	"	push	%r8\n"		/* regs; 7 pushes also realign rsp */
	"	mov	0(%r8), %rbx\n"
	"	mov	8(%r8), %rbp\n"
	"	mov	16(%r8), %r12\n"
	"	mov	24(%r8), %r13\n"
	"	mov	32(%r8), %r14\n"
	"	mov	40(%r8), %r15\n"
	"	mov	%rdi, %rax\n"
	"	mov	%rsi, %rdi\n"
	"	mov	%rdx, %rsi\n"
	"	mov	%rcx, %rdx\n"
	"	call	*%rax\n"
	"	mov	%rax, %r10\n"
	"	pushf\n"
	"	pop	%rax\n"
	"	cld\n"			/* so a failing routine breaks only its check */
	"	pop	%r8\n"
	"	mov	%rbx, 0(%r8)\n"
	"	mov	%rbp, 8(%r8)\n"
	"	mov	%r12, 16(%r8)\n"
	"	mov	%r13, 24(%r8)\n"
	"	mov	%r14, 32(%r8)\n"
	"	mov	%r15, 40(%r8)\n"
	"	mov	%rax, 48(%r8)\n"
	"	mov	%r10, %rax\n"
	"	pop	%r15\n"
	"	pop	%r14\n"
	"	pop	%r13\n"
	"	pop	%r12\n"
	"	pop	%rbp\n"
	"	pop	%rbx\n"
	"	ret\n"
	".size abi_call, . - abi_call\n"
	".popsection\n");

bool abi_call_checked(const void *fn, uint64_t a0, uint64_t a1, uint64_t a2,
		      uint64_t *ret, char *why, size_t whylen)
{
	static const char *const names[CALLEE_SAVED] = {
		"rbx", "rbp", "r12", "r13", "r14", "r15"
	};
	uint64_t regs[CALLEE_SAVED + 1], sent[CALLEE_SAVED];
	unsigned int i;

	for (i = 0; i < CALLEE_SAVED; i++)
		regs[i] = sent[i] = 0x5a5a000000000000ull ^ (0x0101010101ull * (i + 1));
	regs[CALLEE_SAVED] = 0;
	*ret = abi_call(fn, a0, a1, a2, regs);
	for (i = 0; i < CALLEE_SAVED; i++) {
		if (regs[i] != sent[i]) {
			snprintf(why, whylen, "%s is 0x%llx after the call, was 0x%llx",
				 names[i], (unsigned long long)regs[i],
				 (unsigned long long)sent[i]);
			return false;
		}
	}
	if (regs[CALLEE_SAVED] & RFLAGS_DF) {
		snprintf(why, whylen, "direction flag set on return");
		return false;
	}
	return true;
}
