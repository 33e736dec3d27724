/* SPDX-License-Identifier: MIT */
/*
 * The unprivileged instructions the harness needs, as C: the same in the
 * kernel and in user space. Privileged ones are in kernel/x86/x86.h.
 */
#ifndef PB_INSN_H
#define PB_INSN_H

#include <stdint.h>

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

static inline void clflush(const void *p)
{
	asm volatile("clflush %0" : : "m"(*(const char *)p) : "memory");
}

static inline void clflushopt(const void *p)
{
	asm volatile(".byte 0x66; clflush %0" : : "m"(*(const char *)p) : "memory");
}

static inline uint64_t xgetbv(uint32_t idx)
{
	uint32_t lo, hi;

	asm volatile("xgetbv" : "=a"(lo), "=d"(hi) : "c"(idx));
	return ((uint64_t)hi << 32) | lo;
}

#endif
