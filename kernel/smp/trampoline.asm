; SPDX-License-Identifier: MIT
; An application processor's first instructions. kernel/smp/smp.c copies
; [trampoline, trampoline_end) to a free page below 1 MiB and starts the AP
; there with INIT-SIPI-SIPI: it begins in real mode at CS = page >> 4,
; IP = 0, caches off. From there: protected mode, long mode on the BSP's
; page tables, then the kernel's ap_entry on a stack of its own, which
; calls the C entry the params name (nothing here names C code). The code
; learns the page's address from CS, so it runs at any page.

CR0_PE		equ 1 << 0
CR0_PG		equ 1 << 31
CR4_PAE		equ 1 << 5
MSR_EFER	equ 0xC0000080

; The 64-bit code and data selectors are those of the kernel's GDT
; (kernel/x86/gdt.c), so CS stays valid when ap_entry loads that GDT.
SEL_CODE64	equ 0x08
SEL_DATA	equ 0x10
SEL_CODE32	equ 0x18

; struct trampoline_params in kernel/smp/smp.c: what the BSP fills in per AP.
TP_CR3		equ 0
TP_EFER		equ 8
TP_ENTRY	equ 16
TP_STACK	equ 24
TP_CPU		equ 32
TP_MAIN		equ 40
TP_COUNT	equ 6

global trampoline, trampoline_end, trampoline_params
global ap_entry
extern gdt_ptr64

; Copied, never executed in place: data to the kernel.
section .rodata
align 16
trampoline:
bits 16
	cli
	cld
	mov ax, cs
	mov ds, ax
	movzx ebx, ax
	shl ebx, 4			; ebx = the page's linear address
	; The GDT base and both far pointers are linear: fill them in here.
	lea eax, [ebx + gdt - trampoline]
	mov [gdtr + 2 - trampoline], eax
	lea eax, [ebx + prot32 - trampoline]
	mov [far32 - trampoline], eax
	lea eax, [ebx + long64 - trampoline]
	mov [far64 - trampoline], eax
	o32 lgdt [gdtr - trampoline]
	mov eax, cr0
	or eax, CR0_PE
	mov cr0, eax
	jmp far dword [far32 - trampoline]

bits 32
prot32:
	mov ax, SEL_DATA
	mov ds, ax
	mov es, ax
	mov ss, ax
	mov eax, cr4
	or eax, CR4_PAE
	mov cr4, eax
	mov eax, [ebx + params - trampoline + TP_CR3]
	mov cr3, eax
	mov ecx, MSR_EFER		; the BSP's: LME and whatever else it has
	mov eax, [ebx + params - trampoline + TP_EFER]
	xor edx, edx
	wrmsr
	mov eax, cr0
	or eax, CR0_PG			; with EFER.LME: compatibility mode
	mov cr0, eax
	jmp far [ebx + far64 - trampoline]

bits 64
long64:
	mov ebx, ebx			; the upper halves are undefined after the switch
	mov rsp, [rbx + params - trampoline + TP_STACK]
	mov rdi, [rbx + params - trampoline + TP_CPU]
	mov rsi, [rbx + params - trampoline + TP_MAIN]
	jmp [rbx + params - trampoline + TP_ENTRY]

align 8
gdt:
	dq 0
	dq 0x00AF9A000000FFFF		; SEL_CODE64: 64-bit code, ring 0
	dq 0x00CF92000000FFFF		; SEL_DATA: flat data
	dq 0x00CF9A000000FFFF		; SEL_CODE32: flat 32-bit code
gdt_end:
gdtr:
	dw gdt_end - gdt - 1
	dd 0
far32:
	dd 0
	dw SEL_CODE32
far64:
	dd 0
	dw SEL_CODE64
align 8
trampoline_params:
params:
	times TP_COUNT dq 0
trampoline_end:

; In the kernel image: the AP's first kernel code, on its own stack, rdi =
; its struct cpu, rsi = the C entry (ap_main(), which never returns).
section .text
bits 64
ap_entry:
	lgdt [gdt_ptr64]
	mov ax, SEL_DATA
	mov ds, ax
	mov es, ax
	mov ss, ax
	xor eax, eax
	mov fs, ax
	mov gs, ax			; ap_main() sets the GS base to its struct cpu
	call rsi
.halt:
	cli
	hlt
	jmp .halt
