/* SPDX-License-Identifier: MIT */
/*
 * The TSC rate from AMD's P-state 0 definition, where the family's layout
 * is documented. Pure: the caller reads the MSRs (they may fault under a
 * hypervisor), so tests/unit/test_tsc.c can feed recorded values.
 */
#ifndef PB_AMD_PSTATE_H
#define PB_AMD_PSTATE_H

#include <stdbool.h>
#include <stdint.h>

#define MSR_AMD_HWCR		0xc0010015u	/* MSRC001_0015 */
#define MSR_AMD_PSTATE_DEF0	0xc0010064u	/* MSRC001_0064: P-state 0 */
#define CPUID_AMD_APM		0x80000007u	/* advanced power management */
#define CPUID_APM_EDX_CPB	(1u << 9)	/* core performance boost */

/*
 * Whether this family's P0 can give the TSC rate at all (NULL: it can),
 * before any MSR is read. family and cpb as below.
 */
const char *amd_p0_family_why(uint32_t family, bool cpb);

/*
 * family: with the extended family folded in. cpb: CPUID 0x80000007
 * EDX[9]. hwcr, p0: the two MSRs as read. Returns NULL and sets *khz, or
 * says why P0 cannot give the TSC rate.
 */
const char *amd_p0_tsc_khz(uint32_t family, bool cpb, uint64_t hwcr,
			   uint64_t p0, uint64_t *khz);

#endif
