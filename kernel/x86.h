/* SPDX-License-Identifier: MIT */
/* The few privileged or ordering instructions the kernel needs, as C. */
#ifndef PB_X86_H
#define PB_X86_H

#include <stdbool.h>
#include <stdint.h>

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

static inline void cpuid_count(uint32_t leaf, uint32_t sub, uint32_t r[4])
{
	asm volatile("cpuid"
		     : "=a"(r[0]), "=b"(r[1]), "=c"(r[2]), "=d"(r[3])
		     : "a"(leaf), "c"(sub));
}

/*
 * LFENCE keeps RDTSC from running ahead of earlier instructions, so the
 * timed region is what lies between two of these (as Xen and Linux do).
 */
static inline uint64_t rdtsc_ordered(void)
{
	uint32_t lo, hi;

	asm volatile("lfence; rdtsc" : "=a"(lo), "=d"(hi) : : "memory");
	return ((uint64_t)hi << 32) | lo;
}

static inline void mfence(void)
{
	asm volatile("mfence" : : : "memory");
}

static inline void wbinvd(void)
{
	asm volatile("wbinvd" : : : "memory");
}

static inline void clflush(const void *p)
{
	asm volatile("clflush %0" : : "m"(*(const char *)p) : "memory");
}

static inline void clflushopt(const void *p)
{
	asm volatile(".byte 0x66; clflush %0" : : "m"(*(const char *)p) : "memory");
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

static inline uint64_t xgetbv(uint32_t idx)
{
	uint32_t lo, hi;

	asm volatile("xgetbv" : "=a"(lo), "=d"(hi) : "c"(idx));
	return ((uint64_t)hi << 32) | lo;
}

static inline void xsetbv(uint32_t idx, uint64_t v)
{
	asm volatile("xsetbv" : : "c"(idx), "a"((uint32_t)v),
		     "d"((uint32_t)(v >> 32)));
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
