/* SPDX-License-Identifier: MIT */
#include <stdint.h>
#include "kernel/x86/gdt.h"
#include "kernel/x86/trap.h"
#include "kernel/x86/x86.h"
#include "lib/out.h"
#include "lib/run.h"

struct trap_frame {
	uint64_t r15, r14, r13, r12, r11, r10, r9, r8;
	uint64_t rbp, rdi, rsi, rdx, rcx, rbx, rax;
	uint64_t vector, error;
	uint64_t rip, cs, rflags, rsp, ss;	/* pushed by the CPU */
};

struct idt_entry {
	uint16_t off_lo, sel;
	uint8_t ist, type;
	uint16_t off_mid;
	uint32_t off_hi, zero;
} __attribute__((packed));

#define IDT_INTERRUPT	0x8e	/* present, ring 0, interrupt gate: IF stays 0 */
#define VEC_NMI		2
#define VEC_GP		13
#define VEC_EXCEPTIONS	32
#define VEC_COUNT	256

/* kernel/x86/isr.asm: its stubs call trap_entry. */
extern const uint64_t idt_stubs[VEC_EXCEPTIONS];
extern const char irq_ignore[];
extern void (*trap_entry)(struct trap_frame *f);
extern const uint64_t msr_fixups[], msr_fixups_end[];

static struct idt_entry idt[VEC_COUNT];
static struct trap_hooks hooks;

static const char *const names[32][2] = {
	{ "#DE", "divide error" }, { "#DB", "debug" },
	{ "#NMI", "non-maskable interrupt" }, { "#BP", "breakpoint" },
	{ "#OF", "overflow" }, { "#BR", "bound range exceeded" },
	{ "#UD", "invalid opcode" }, { "#NM", "device not available" },
	{ "#DF", "double fault" }, { "#CSO", "coprocessor segment overrun" },
	{ "#TS", "invalid TSS" }, { "#NP", "segment not present" },
	{ "#SS", "stack fault" }, { "#GP", "general protection" },
	{ "#PF", "page fault" }, { "#RES15", "reserved" },
	{ "#MF", "x87 floating point" }, { "#AC", "alignment check" },
	{ "#MC", "machine check" }, { "#XM", "SIMD floating point" },
	{ "#VE", "virtualization" }, { "#CP", "control protection" },
	{ "#RES22", "reserved" }, { "#RES23", "reserved" },
	{ "#RES24", "reserved" }, { "#RES25", "reserved" },
	{ "#RES26", "reserved" }, { "#RES27", "reserved" },
	{ "#HV", "hypervisor injection" }, { "#VC", "VMM communication" },
	{ "#SX", "security" }, { "#RES31", "reserved" },
};

static void set_gate(unsigned int v, uint64_t off, uint16_t cs)
{
	idt[v] = (struct idt_entry){
		.off_lo = off & 0xffff, .sel = cs,
		.type = IDT_INTERRUPT, .off_mid = (off >> 16) & 0xffff,
		.off_hi = off >> 32,
	};
}

static void trap_handler(struct trap_frame *f);

void trap_init(const struct trap_hooks *h)
{
	unsigned int v;
	uint16_t cs;

	/*
	 * The code selector in use: the kernel's GDT after boot/entry32.asm,
	 * the firmware's on UEFI (boot/entry_efi.asm keeps it). The other
	 * CPUs run on the kernel's GDT, which must then name a 64-bit code
	 * segment by that selector too.
	 */
	asm volatile("mov %%cs, %0" : "=r"(cs));
	if (cs != GDT_CODE64)
		gdt_alias_code64(cs);
	for (v = 0; v < VEC_EXCEPTIONS; v++)
		set_gate(v, idt_stubs[v], cs);
	for (; v < VEC_COUNT; v++)
		set_gate(v, (uintptr_t)irq_ignore, cs);
	hooks = *h;
	trap_entry = trap_handler;
	trap_load();
}

/* Every CPU loads the one IDT: the BSP in trap_init(), each AP as it starts. */
void trap_load(void)
{
	struct {
		uint16_t limit;
		uint64_t base;
	} __attribute__((packed)) idtr = { sizeof(idt) - 1, (uintptr_t)idt };

	asm volatile("lidt %0" : : "m"(idtr));
}

static void trap_handler(struct trap_frame *f)
{
	const uint64_t *fix;

	/* The watchdog's, or the end of the run's: this CPU is to stop. */
	if (f->vector == VEC_NMI && hooks.nmi)
		hooks.nmi(f->rip);

	/* An MSR that does not exist: rdmsr_safe()/wrmsr_safe() report it. */
	if (f->vector == VEC_GP) {
		for (fix = msr_fixups; fix < msr_fixups_end; fix += 2) {
			if (f->rip == fix[0]) {
				f->rip = fix[1];
				return;
			}
		}
	}

	/* A variant that faults is reported by the harness, which goes on. */
	if (hooks.guarded)
		hooks.guarded(names[f->vector & 31][0], names[f->vector & 31][1],
			      f->rip);

	out_line("exception: %s (%s) vector=%u error=0x%lx rip=0x%lx cr2=0x%lx during: %s",
		 names[f->vector & 31][0], names[f->vector & 31][1],
		 (unsigned int)f->vector, f->error, f->rip, read_cr2(),
		 run_step_now());
	run_fail();
	run_end();
}
