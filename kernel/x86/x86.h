/* SPDX-License-Identifier: MIT */
/* The privileged instructions the kernel needs, as C; the rest are in cpu/insn.h. */
#ifndef PB_X86_H
#define PB_X86_H

#include <stdbool.h>
#include <stdint.h>
#include "cpu/insn.h"

static inline void outb(uint16_t port, uint8_t v)
{
	asm volatile("outb %0, %1" : : "a"(v), "Nd"(port));
}

static inline uint8_t inb(uint16_t port)
{
	uint8_t v;

	asm volatile("inb %1, %0" : "=a"(v) : "Nd"(port));
	return v;
}

static inline void outl(uint16_t port, uint32_t v)
{
	asm volatile("outl %0, %1" : : "a"(v), "Nd"(port));
}

static inline uint32_t inl(uint16_t port)
{
	uint32_t v;

	asm volatile("inl %1, %0" : "=a"(v) : "Nd"(port));
	return v;
}

static inline void wbinvd(void)
{
	asm volatile("wbinvd" : : : "memory");
}

static inline uint64_t read_cr0(void)
{
	uint64_t v;

	asm volatile("mov %%cr0, %0" : "=r"(v));
	return v;
}

static inline void write_cr0(uint64_t v)
{
	asm volatile("mov %0, %%cr0" : : "r"(v) : "memory");
}

static inline uint64_t read_cr2(void)
{
	uint64_t v;

	asm volatile("mov %%cr2, %0" : "=r"(v));
	return v;
}

static inline uint64_t read_cr3(void)
{
	uint64_t v;

	asm volatile("mov %%cr3, %0" : "=r"(v));
	return v;
}

static inline void write_cr3(uint64_t v)
{
	asm volatile("mov %0, %%cr3" : : "r"(v) : "memory");
}

static inline uint64_t read_cr4(void)
{
	uint64_t v;

	asm volatile("mov %%cr4, %0" : "=r"(v));
	return v;
}

static inline void write_cr4(uint64_t v)
{
	asm volatile("mov %0, %%cr4" : : "r"(v) : "memory");
}

static inline void xsetbv(uint32_t idx, uint64_t v)
{
	asm volatile("xsetbv" : : "c"(idx), "a"((uint32_t)v),
		     "d"((uint32_t)(v >> 32)));
}

static inline uint64_t rdmsr(uint32_t msr)
{
	uint32_t lo, hi;

	asm volatile("rdmsr" : "=a"(lo), "=d"(hi) : "c"(msr));
	return ((uint64_t)hi << 32) | lo;
}

static inline void wrmsr(uint32_t msr, uint64_t v)
{
	asm volatile("wrmsr" : : "c"(msr), "a"((uint32_t)v),
		     "d"((uint32_t)(v >> 32)) : "memory");
}

static inline void cpu_relax(void)
{
	asm volatile("pause" : : : "memory");
}

static inline void __attribute__((noreturn)) halt_forever(void)
{
	for (;;)
		asm volatile("cli; hlt");
}

/* MSR access that survives a #GP: false when the MSR does not exist. */
bool rdmsr_safe(uint32_t msr, uint64_t *val);
bool wrmsr_safe(uint32_t msr, uint64_t val);

#endif
