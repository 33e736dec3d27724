// SPDX-License-Identifier: MIT
/*
 * Unit tests of kernel/time/amd_pstate.c: the TSC rate from AMD's P-state 0.
 * The register values were recorded on real machines and published; each
 * comes with where it is from. No MSR is in shared/cpuid (those are CPUID
 * dumps), but the CPUID 0x80000007 EDX values below are from there.
 * Prints "ok NAME" / "FAIL NAME: why" per check; exits 1 on a failure.
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include "kernel/time/amd_pstate.h"
#include "tests/unit/check.h"

#define PSTATE_EN		(1ull << 63)
#define HWCR_LOCK_TSC_TO_P0	(1ull << 21)
#define HWCR_TSC_FREQ_SEL	(1ull << 24)
#define PPM			1000000ll

/*
 * Ryzen 9 5900X (family 19h, model 21h), from the LibreHardwareMonitor
 * report in github.com/Rem0o/FanControl.Releases issue 383: every core
 * reads these, and the report measured the TSC at 3700.02 MHz.
 */
#define R5900X_HWCR		0x0000000189000011ull
#define R5900X_P0		0x8000000049520894ull
#define R5900X_MEASURED_KHZ	3700020ull

/*
 * CPUID 0x80000007 EDX of shared/cpuid/AuthenticAMD0800F12_K17_Zen.txt
 * (EPYC 7551P: boost, bit 9, is set) and ..._K10_Shanghai.txt (no boost).
 */
#define ZEN_APM_EDX		0x00006799u
#define SHANGHAI_APM_EDX	0x000001f9u

/*
 * A family 15h APU ("Richland Kaveri" in github.com/kevinlekiller/amdctl
 * issue 8): P0 and P3 of CPU 3. It has core performance boost.
 */
#define KAVERI_P0		0x8000018900002c17ull
#define KAVERI_P3		0x8000019600004c13ull

/*
 * Ryzen 5 2500U (family 17h, Raven Ridge): P0 as amdctl printed it in
 * amdctl issue 27: CpuFid 100, CpuDfsId 10, CpuVid 53. Its rated base
 * clock is 2.0 GHz.
 */
#define R2500U_P0 (PSTATE_EN | 53ull << 14 | 10ull << 8 | 100ull)

static void expect_khz(const char *name, uint32_t family, uint32_t apm_edx,
		       uint64_t hwcr, uint64_t p0, uint64_t want)
{
	uint64_t khz = 0;
	const char *why = amd_p0_tsc_khz(family, apm_edx & CPUID_APM_EDX_CPB,
					 hwcr, p0, &khz);

	result(!why && khz == want, name, "got %llu kHz (%s), want %llu",
	       (unsigned long long)khz, why ? why : "no reason",
	       (unsigned long long)want);
}

static void expect_refused(const char *name, uint32_t family,
			   uint32_t apm_edx, uint64_t hwcr, uint64_t p0,
			   const char *words)
{
	uint64_t khz = 0;
	const char *why = amd_p0_tsc_khz(family, apm_edx & CPUID_APM_EDX_CPB,
					 hwcr, p0, &khz);

	result(why && strstr(why, words), name,
	       "got %s (%llu kHz), want a reason with \"%s\"",
	       why ? why : "no reason", (unsigned long long)khz, words);
}

static void test_recorded(void)
{
	uint64_t khz = 0;
	long long ppm;

	/* 148 * 25 MHz: the decode agrees with the measured TSC. */
	expect_khz("amd.5900x", 0x19, ZEN_APM_EDX, R5900X_HWCR, R5900X_P0,
		   3700000);
	amd_p0_tsc_khz(0x19, true, R5900X_HWCR, R5900X_P0, &khz);
	ppm = ((long long)khz - (long long)R5900X_MEASURED_KHZ) * PPM /
	      (long long)R5900X_MEASURED_KHZ;
	result(ppm > -100 && ppm < 100, "amd.5900x_vs_measured",
	       "decoded %llu kHz is %lld ppm from the measured %llu",
	       (unsigned long long)khz, ppm,
	       (unsigned long long)R5900X_MEASURED_KHZ);

	/* 200 MHz * 100 / 10; boost on a Zen part is no obstacle. */
	expect_khz("amd.2500u", 0x17, ZEN_APM_EDX, R5900X_HWCR, R2500U_P0,
		   2000000);

	/* 100 MHz * (17h + 10h) / 2^0, but its P0 is a boosted state. */
	expect_refused("amd.kaveri_boost", 0x15, ZEN_APM_EDX,
		       HWCR_TSC_FREQ_SEL, KAVERI_P0, "boost");
	expect_khz("amd.kaveri_p0_layout", 0x15, 0, HWCR_TSC_FREQ_SEL,
		   KAVERI_P0, 3900000);
	expect_khz("amd.kaveri_p3_layout", 0x15, 0, HWCR_TSC_FREQ_SEL,
		   KAVERI_P3, 3500000);
	/* Family 11h counts CpuFid from 08h, not 10h. */
	expect_khz("amd.f11_offset", 0x11, 0, HWCR_TSC_FREQ_SEL, KAVERI_P0,
		   3100000);
}

static void test_families(void)
{
	result(!amd_p0_family_why(0x10, SHANGHAI_APM_EDX & CPUID_APM_EDX_CPB),
	       "amd.shanghai_family", "family 10h without boost refused");
	result(!amd_p0_family_why(0x17, ZEN_APM_EDX & CPUID_APM_EDX_CPB),
	       "amd.zen_family", "family 17h with boost refused");
	result(amd_p0_family_why(0x10, true) != NULL, "amd.k10_boost",
	       "family 10h with boost accepted");
	/* K8 (QEMU's -cpu max under TCG), Bobcat, Hygon, a future family. */
	expect_refused("amd.k8", 0x0f, 0, R5900X_HWCR, R5900X_P0,
		       "no documented");
	expect_refused("amd.f14", 0x14, 0, R5900X_HWCR, R5900X_P0, "PLL");
	expect_refused("amd.hygon", 0x18, 0, R5900X_HWCR, R5900X_P0,
		       "no documented");
	expect_refused("amd.f1b", 0x1b, 0, R5900X_HWCR, R5900X_P0,
		       "no documented");
}

static void test_refusals(void)
{
	/* Xen and some VMMs return HWCR as 0. */
	expect_refused("amd.tscfreqsel_0", 0x19, 0,
		       R5900X_HWCR & ~HWCR_TSC_FREQ_SEL, R5900X_P0,
		       "TscFreqSel");
	expect_refused("amd.lock_tsc", 0x19, 0,
		       R5900X_HWCR | HWCR_LOCK_TSC_TO_P0, R5900X_P0,
		       "LockTscToCurrentP0");
	expect_refused("amd.pstate_disabled", 0x19, 0, R5900X_HWCR,
		       R5900X_P0 & ~PSTATE_EN, "not enabled");
	/* CpuDfsId 1Bh and 1Dh are reserved; 0 is "off". */
	expect_refused("amd.dfsid_1b", 0x19, 0, R5900X_HWCR,
		       (R5900X_P0 & ~(0x3full << 8)) | 0x1bull << 8, "CpuDfsId");
	expect_refused("amd.dfsid_0", 0x19, 0, R5900X_HWCR,
		       R5900X_P0 & ~(0x3full << 8), "CpuDfsId");
	expect_refused("amd.fid_reserved", 0x19, 0, R5900X_HWCR,
		       R5900X_P0 & ~0xffull, "CpuFid");
	/* CpuDid 5-7 are reserved on 10h-16h. */
	expect_refused("amd.did_reserved", 0x15, 0, HWCR_TSC_FREQ_SEL,
		       KAVERI_P0 | 5ull << 6, "divisor");
}

int main(void)
{
	test_recorded();
	test_families();
	test_refusals();
	return check_exit();
}
