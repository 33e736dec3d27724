; SPDX-License-Identifier: MIT
; RDMSR/WRMSR that return false instead of dying on #GP. Hypervisors and
; emulators leave many MSRs out (e.g. 0x8B, the microcode revision, under
; TCG); trap_handler() resumes at the fault label when the #GP hit here.

global rdmsr_safe, wrmsr_safe
global msr_fixups, msr_fixups_end

section .text
bits 64
; bool rdmsr_safe(uint32_t msr, uint64_t *val)
rdmsr_safe:
	mov ecx, edi
.insn:
	rdmsr
	shl rdx, 32
	or rax, rdx
	mov [rsi], rax
	mov eax, 1
	ret
.fault:
	xor eax, eax
	ret

; bool wrmsr_safe(uint32_t msr, uint64_t val)
wrmsr_safe:
	mov ecx, edi
	mov eax, esi
	mov rdx, rsi
	shr rdx, 32
.insn:
	wrmsr
	mov eax, 1
	ret
.fault:
	xor eax, eax
	ret

section .rodata
align 8
msr_fixups:		; pairs: faulting instruction, where to resume
	dq rdmsr_safe.insn, rdmsr_safe.fault
	dq wrmsr_safe.insn, wrmsr_safe.fault
msr_fixups_end:
