/* SPDX-License-Identifier: MIT */
/*
 * CPU description: everything pagebench needs to know about the CPU, decoded
 * from CPUID alone. The same source is compiled into the kernel (CPUID
 * executed live) and into build/bin/pagebench-cpuid (CPUID read from a
 * recorded dump), so what the host tool predicts is what the kernel decides.
 */
#ifndef PB_CPU_H
#define PB_CPU_H

#include <stdbool.h>
#include <stdint.h>
#include "lib/str.h"

struct cpuid_regs {
	uint32_t eax, ebx, ecx, edx;
};

/* Where CPUID values come from: the CPU itself, or a dump. */
struct cpuid_source {
	void (*query)(void *ctx, uint32_t leaf, uint32_t subleaf,
		      struct cpuid_regs *out);
	void *ctx;
};

/* Features pagebench uses. FEAT_NONE is "always there". */
#define FEATURES(F)			\
	F(SSE2, sse2)			\
	F(XSAVE, xsave)			\
	F(AVX, avx)			\
	F(AVX2, avx2)			\
	F(AVX512F, avx512f)		\
	F(AVX512BW, avx512bw)		\
	F(ERMS, erms)			\
	F(FSRM, fsrm)			\
	F(FZRM, fzrm)			\
	F(FSRS, fsrs)			\
	F(FSRCS, fsrcs)			\
	F(CLFLUSH, clflush)		\
	F(CLFLUSHOPT, clflushopt)	\
	F(CLWB, clwb)			\
	F(MOVDIR64B, movdir64b)		\
	F(CLZERO, clzero)		\
	F(CLZEROLINE, clzeroline)	\
	F(INVTSC, invtsc)		\
	F(APERFMPERF, aperfmperf)	\
	F(IBPB, ibpb)			\
	F(HYPERVISOR, hypervisor)

enum feat {
	FEAT_NONE,
#define F_ENUM(id, name) FEAT_##id,
	FEATURES(F_ENUM)
#undef F_ENUM
	FEAT_COUNT
};

/* Leaf 1 ECX: the CPU has XSAVE; the OS turned it on (CR4.OSXSAVE). */
#define CPUID1_ECX_XSAVE	(1u << 26)
#define CPUID1_ECX_OSXSAVE	(1u << 27)

/* Bits of XCR0 */
#define XSTATE_X87	(1u << 0)
#define XSTATE_SSE	(1u << 1)
#define XSTATE_YMM	(1u << 2)
#define XSTATE_OPMASK	(1u << 5)
#define XSTATE_ZMM_HI256 (1u << 6)
#define XSTATE_HI16_ZMM	(1u << 7)
#define XSTATE_AVX512	(XSTATE_OPMASK | XSTATE_ZMM_HI256 | XSTATE_HI16_ZMM)

enum cache_source {
	CACHE_SRC_NONE,
	CACHE_SRC_LEAF4,	/* Intel, Centaur, Zhaoxin: deterministic cache parameters */
	CACHE_SRC_AMD_TOPOEXT,	/* AMD, Hygon with TOPOEXT: leaf 0x8000001D */
	CACHE_SRC_AMD_LEGACY,	/* leaves 0x80000005 and 0x80000006 */
};

enum tsc_source {
	TSC_SRC_NONE,		/* no leaf gives it: the kernel calibrates */
	TSC_SRC_CPUID15,	/* Intel only */
	TSC_SRC_CPUID16,	/* Intel only */
	TSC_SRC_HV,		/* hypervisor leaf 0x40000010 */
	/* Set by the kernel (kernel/time/tsc.c), never by cpu_decode(): */
	TSC_SRC_AMD_P0,		/* AMD P-state 0 definition MSR */
	TSC_SRC_HPET,		/* measured against the HPET */
	TSC_SRC_PMTIMER,	/* ... the ACPI PM timer */
	TSC_SRC_PIT,		/* ... PIT channel 2 */
	TSC_SRC_LINUX_CLOCK,	/* calibrated by pagebench-linux against CLOCK_MONOTONIC_RAW */
	TSC_SRC_LINUX_KERNEL,	/* the module: the running kernel's tsc_khz */
};

struct cache_level {
	uint32_t size_kib;	/* 0: this level does not exist */
	uint32_t line;		/* bytes */
	uint32_t ways;
};

struct cpu_desc {
	char vendor[13];
	char brand[49];
	char hv_vendor[13];	/* empty when no hypervisor */
	uint32_t max_basic, max_ext, max_hv;
	uint32_t family, model, stepping;	/* extended fields folded in */
	uint64_t xcr0;
	uint64_t feats;		/* bit n set: feature n present (and usable) */
	uint64_t offered;	/* what CPUID reports, usable or not (XSAVE state) */
	struct cache_level l1d, l2, l3;
	uint32_t line_size;	/* cache line size in bytes, never 0 */
	uint32_t clflush_line;	/* CPUID.1 EBX[15:8] x 8 where CLFLUSH is, else 0 */
	enum cache_source cache_src;
	uint64_t tsc_khz;	/* 0 unless a CPUID leaf gives it */
	enum tsc_source tsc_src;
};

/*
 * The XCR0 value the boot code enables: x87|SSE|AVX, plus the three AVX-512
 * states when the CPU supports all of them; 0 when the CPU has no XSAVE.
 */
uint64_t cpu_xcr0_wanted(const struct cpuid_source *src);

/* Fill *d from CPUID. xcr0 is the live XCR0 (0 when XSAVE is off). */
void cpu_decode(struct cpu_desc *d, const struct cpuid_source *src,
		uint64_t xcr0);

static inline bool cpu_has(const struct cpu_desc *d, enum feat f)
{
	return f == FEAT_NONE || ((d->feats >> f) & 1);
}

/* The vendor strings of leaf 0x40000000 that QEMU's two accelerators give. */
#define HV_VENDOR_KVM	"KVMKVMKVM"
#define HV_VENDOR_TCG	"TCGTCGTCGTCG"

static inline bool cpu_hv_is(const struct cpu_desc *d, const char *vendor)
{
	return str_eq(d->hv_vendor, vendor);
}

/*
 * The step Xen's clear_page_clzero() patches in (xen/arch/x86/cpu/common.c
 * early_cpu_init(), RELEASE-4.21.0 on): the CLFLUSH line size capped at
 * 128 bytes; 0 where that is 0 or not a power of two, when Xen drops
 * CLZERO instead. FEAT_CLZEROLINE is CLZERO with a step that is not 0.
 */
static inline uint32_t cpu_clzero_step(const struct cpu_desc *d)
{
	uint32_t s = d->clflush_line > 128 ? 128 : d->clflush_line;

	return s && !(s & (s - 1)) ? s : 0;
}

const char *feat_name(enum feat f);
const char *cache_source_name(enum cache_source s);
const char *tsc_source_name(enum tsc_source s);

#endif
