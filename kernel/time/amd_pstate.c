/* SPDX-License-Identifier: MIT */
/*
 * Where AMD documents it, the TSC counts at the core current operating
 * frequency (COF) of P-state 0 when HWCR.TscFreqSel is set. The P-state
 * register layouts, by family:
 *
 *   10h, 15h, 16h  BKDG 31116, 42301, 48751: COF = 100 MHz * (CpuFid + 10h)
 *                  / 2^CpuDid, CpuFid [5:0], CpuDid [8:6]
 *   11h            BKDG 41256: as 10h but CpuFid + 08h
 *   12h            BKDG 41131: COF = 100 MHz * (CpuFid + 10h) / divisor,
 *                  CpuDid [3:0] indexes a table, CpuFid [8:4]
 *   17h, 19h       PPR 54945, 56214: COF = 200 MHz * CpuFid / CpuDfsId,
 *                  CpuFid [7:0], CpuDfsId [13:8]
 *   1Ah            AMD's own EDK2 TSC timer library for Zen 5 computes the
 *                  TSC rate as 5 MHz * CpuFid [11:0] of P-state 0
 *
 * Family 14h divides a main PLL frequency held in PCI config space, which
 * pagebench does not read. On 10h-16h parts with core performance boost,
 * the boosted P-states come first in the MSRs and the TSC runs at the
 * first unboosted one, whose index is also in PCI config space
 * (D18F4x15C[NumBoostStates]): those are refused too. From 17h on, boost
 * is outside the P-state MSRs and P0 is the base frequency.
 */
#include <stddef.h>
#include "kernel/time/amd_pstate.h"

#define BIT64(n)		(1ull << (n))

#define HWCR_LOCK_TSC_TO_P0	BIT64(21)	/* TSC fixed at P0 as it was */
#define HWCR_TSC_FREQ_SEL	BIT64(24)	/* TSC counts at the P0 COF */
#define PSTATE_EN		BIT64(63)

#define REFCLK_KHZ		100000u		/* 10h-12h, 15h, 16h */

#define K10_FID(v)		((uint32_t)(v) & 0x3f)
#define K10_DID(v)		((uint32_t)((v) >> 6) & 0x7)
#define K10_DID_MAX		4		/* divide by 16; 5-7 reserved */
#define K10_FID_OFFSET		0x10
#define F11_FID_OFFSET		0x08

#define F12_DID(v)		((uint32_t)(v) & 0xf)
#define F12_FID(v)		((uint32_t)((v) >> 4) & 0x1f)

#define ZEN_FID(v)		((uint32_t)(v) & 0xff)
#define ZEN_DFSID(v)		((uint32_t)((v) >> 8) & 0x3f)
#define ZEN_FID_MIN		0x10		/* 00h-0Fh reserved */
#define ZEN_COF_UNIT_KHZ	200000u		/* COF = unit * fid / dfsid */
#define ZEN_DFS_DIV1		0x08		/* VCO/1 */
#define ZEN_DFS_FINE_MAX	0x1a		/* every step up to here ... */
#define ZEN_DFS_EVEN_MAX	0x2c		/* ... then even steps only */

#define ZEN5_FID(v)		((uint32_t)(v) & 0xfff)
#define ZEN5_FID_MIN		0x10		/* 000h-00Fh reserved */
#define ZEN5_FID_UNIT_KHZ	5000u

/* Family 12h CpuDid -> divisor, in halves (1, 1.5, 2, 3, ... 16). */
static const uint8_t f12_div_halves[] = { 2, 3, 4, 6, 8, 12, 16, 24, 32 };

static const char *k10_khz(uint64_t p0, uint32_t fid_offset, uint64_t *khz)
{
	if (K10_DID(p0) > K10_DID_MAX)
		return "P-state 0 has a reserved divisor";
	*khz = ((uint64_t)REFCLK_KHZ * (K10_FID(p0) + fid_offset)) >> K10_DID(p0);
	return NULL;
}

static const char *f12_khz(uint64_t p0, uint64_t *khz)
{
	uint32_t did = F12_DID(p0);

	if (did >= sizeof(f12_div_halves))
		return "P-state 0 has a reserved divisor";
	*khz = (uint64_t)REFCLK_KHZ * (F12_FID(p0) + K10_FID_OFFSET) * 2 /
	       f12_div_halves[did];
	return NULL;
}

static const char *zen_khz(uint64_t p0, uint64_t *khz)
{
	uint32_t fid = ZEN_FID(p0), dfs = ZEN_DFSID(p0);

	if (fid < ZEN_FID_MIN)
		return "P-state 0 has a reserved CpuFid";
	if (dfs < ZEN_DFS_DIV1 || dfs > ZEN_DFS_EVEN_MAX ||
	    (dfs > ZEN_DFS_FINE_MAX && (dfs & 1)))
		return "P-state 0 has a reserved CpuDfsId";
	*khz = (uint64_t)ZEN_COF_UNIT_KHZ * fid / dfs;
	return NULL;
}

const char *amd_p0_family_why(uint32_t family, bool cpb)
{
	bool boost_in_msrs = family == 0x10 || family == 0x12 ||
			     family == 0x15 || family == 0x16;

	if (family < 0x10 || family > 0x1a || family == 0x13 || family == 0x18)
		return "no documented P-state layout for this family";
	if (family == 0x14)
		return "family 14h P-states divide a PLL rate in PCI config space";
	if (boost_in_msrs && cpb)
		return "boosted P-states precede the base one, whose index is in PCI config space";
	return NULL;
}

const char *amd_p0_tsc_khz(uint32_t family, bool cpb, uint64_t hwcr,
			   uint64_t p0, uint64_t *khz)
{
	const char *why = amd_p0_family_why(family, cpb);

	if (why)
		return why;
	if (!(hwcr & HWCR_TSC_FREQ_SEL))
		return "HWCR.TscFreqSel is 0: the TSC does not count at P0";
	if (hwcr & HWCR_LOCK_TSC_TO_P0)
		return "HWCR.LockTscToCurrentP0 is set: P0 may have changed since";
	if (!(p0 & PSTATE_EN))
		return "P-state 0 is not enabled";

	switch (family) {
	case 0x10:
	case 0x15:
	case 0x16:
		return k10_khz(p0, K10_FID_OFFSET, khz);
	case 0x11:
		return k10_khz(p0, F11_FID_OFFSET, khz);
	case 0x12:
		return f12_khz(p0, khz);
	case 0x17:
	case 0x19:
		return zen_khz(p0, khz);
	case 0x1a:
		if (ZEN5_FID(p0) < ZEN5_FID_MIN)
			return "P-state 0 has a reserved CpuFid";
		*khz = (uint64_t)ZEN5_FID_UNIT_KHZ * ZEN5_FID(p0);
		return NULL;
	}
	return "no documented P-state layout for this family";
}
