; SPDX-License-Identifier: MIT
; From multiboot's 32-bit protected mode to 64-bit C, top to bottom:
; check the magic, CPUID and long mode; build identity page tables with 2 MiB
; pages; enable PAE, EFER.LME and paging; load a GDT; far-jump to 64-bit code.
; A failed check prints a readable line on serial and VGA and halts: nothing
; here may triple-fault.

MB_BOOT_MAGIC	equ 0x2BADB002
MB_INFO_MMAP	equ 1 << 6
PD_POOL		equ 64			; page directories: 64 GiB of 2 MiB pages
GIB_MIN		equ 4			; always map the first 4 GiB (MMIO included)

extern long_entry, stack_top, boot_info, boot_magic
extern identity_mapped_gib, gdt_ptr64
global _start

section .text
bits 32
_start:
	cli
	cld
	mov esp, stack_top
	mov [boot_info], ebx

	cmp eax, MB_BOOT_MAGIC
	jne .no_multiboot
	mov [boot_magic], eax

	; CPUID exists when EFLAGS.ID (bit 21) can be toggled.
	pushfd
	pop eax
	mov ecx, eax
	xor eax, 1 << 21
	push eax
	popfd
	pushfd
	pop eax
	push ecx
	popfd
	cmp eax, ecx
	je .no_cpuid

	mov eax, 0x80000000
	cpuid
	cmp eax, 0x80000001
	jb .no_long_mode
	mov eax, 0x80000001
	cpuid
	test edx, 1 << 29		; LM
	jz .no_long_mode

	call count_gib
	mov [identity_mapped_gib], eax
	call build_page_tables

	mov eax, cr4
	or eax, 1 << 5			; PAE
	mov cr4, eax
	mov eax, pml4
	mov cr3, eax
	mov ecx, 0xC0000080		; EFER
	rdmsr
	or eax, 1 << 8			; LME
	wrmsr
	mov eax, cr0
	or eax, (1 << 31) | (1 << 0)	; PG, PE
	mov cr0, eax

	lgdt [gdt_ptr64]		; in 32-bit mode only its low 32 bits of base are read
	jmp GDT_CODE64:long_entry

.no_multiboot:
	mov esi, msg_no_multiboot
	jmp early_fail
.no_cpuid:
	mov esi, msg_no_cpuid
	jmp early_fail
.no_long_mode:
	mov esi, msg_no_long_mode
	jmp early_fail

; eax = how many GiB to map: the end of the highest usable RAM region,
; rounded up, at least GIB_MIN and at most PD_POOL. RAM above that stays
; unmapped; the C side never places buffers there.
count_gib:
	push ebx
	push esi
	push edi
	mov edi, GIB_MIN
	mov ebx, [boot_info]
	test dword [ebx], MB_INFO_MMAP
	jz .done
	mov esi, [ebx + 48]		; mmap_addr
	mov ecx, [ebx + 44]		; mmap_length
	add ecx, esi			; end of the map
.next:
	lea eax, [esi + 24]
	cmp eax, ecx			; a whole entry must fit
	ja .done
	cmp dword [esi + 20], 1		; usable RAM only
	jne .skip
	mov eax, [esi + 4]		; end = base + length, 64-bit
	mov edx, [esi + 8]
	add eax, [esi + 12]
	adc edx, [esi + 16]
	; GiB = ceil(end / 2^30) = (edx:eax + 2^30 - 1) >> 30
	add eax, (1 << 30) - 1
	adc edx, 0
	shrd eax, edx, 30
	shr edx, 30
	jnz .cap			; beyond 2^62 bytes: certainly over the pool
	cmp eax, edi
	jbe .skip
	mov edi, eax
.skip:
	mov eax, [esi]			; entry size, not counting the size field
	lea esi, [esi + eax + 4]
	jmp .next
.cap:
	mov edi, PD_POOL
.done:
	cmp edi, PD_POOL
	jbe .ret
	mov edi, PD_POOL
.ret:
	mov eax, edi
	pop edi
	pop esi
	pop ebx
	ret

; Identity-map [0, identity_mapped_gib GiB) with 2 MiB pages. The directories
; are consecutive pages, so their entries form one array of 2 MiB mappings.
build_page_tables:
	; A loader need not zero .bss: clear the two top levels ourselves.
	mov edi, pml4
	mov ecx, 2 * 4096 / 4
	xor eax, eax
	rep stosd

	mov eax, pdpt
	or eax, 0x3			; present, writable
	mov [pml4], eax

	mov ecx, [identity_mapped_gib]
	xor esi, esi
.pdpt:
	mov eax, esi
	shl eax, 12
	add eax, pd_pool
	or eax, 0x3
	mov [pdpt + esi * 8], eax
	inc esi
	cmp esi, ecx
	jb .pdpt

	shl ecx, 9			; 512 entries per GiB
	xor esi, esi
.pde:
	mov eax, esi
	shl eax, 21
	or eax, 0x83			; present, writable, 2 MiB page
	mov edx, esi
	shr edx, 11			; bits 32 and up of the address
	mov [pd_pool + esi * 8], eax
	mov [pd_pool + esi * 8 + 4], edx
	inc esi
	cmp esi, ecx
	jb .pde
	ret

; esi = message. Prints it on COM1 and on the VGA text screen, then halts
; for good. Nothing is known yet about the machine, so both are tried.
early_fail:
	; COM1 at 115200 8N1, unless the scratch register says there is no UART.
	mov dx, 0x3F8 + 7
	mov al, 0x5A
	out dx, al
	in al, dx
	cmp al, 0x5A
	jne .vga
	mov dx, 0x3F8 + 3
	mov al, 0x80			; DLAB
	out dx, al
	mov dx, 0x3F8
	mov al, 1			; divisor 1: 115200 baud
	out dx, al
	inc dx
	xor al, al
	out dx, al
	mov dx, 0x3F8 + 3
	mov al, 0x03			; 8N1
	out dx, al
	push esi
.serial:
	lodsb
	test al, al
	jz .serial_done
	mov ah, al
	mov ecx, 100000			; never wait forever for a stuck UART
.wait:
	mov dx, 0x3F8 + 5
	in al, dx
	test al, 0x20
	jnz .send
	loop .wait
.send:
	mov dx, 0x3F8
	mov al, ah
	out dx, al
	jmp .serial
.serial_done:
	pop esi
.vga:
	mov edi, 0xB8000
.vga_char:
	lodsb
	cmp al, 13
	je .halt
	test al, al
	jz .halt
	mov ah, 0x4F			; white on red
	stosw
	jmp .vga_char
.halt:
	cli
	hlt
	jmp .halt

section .rodata
msg_no_multiboot:
	db "(PB) boot failed: not started by a multiboot loader (bad magic in EAX)", 13, 10, 0
msg_no_cpuid:
	db "(PB) boot failed: this CPU has no CPUID instruction", 13, 10, 0
msg_no_long_mode:
	db "(PB) boot failed: this CPU has no long mode (not x86-64)", 13, 10, 0

GDT_CODE64 equ 0x08		; kernel/x86/gdt.h: the kernel's GDT is kernel/x86/gdt.c's

section .bss
align 4096
pml4:		resb 4096
pdpt:		resb 4096
pd_pool:	resb 4096 * PD_POOL
