// SPDX-License-Identifier: MIT
/*
 * Decoding CPUID into a struct cpu_desc. Every leaf is read through a
 * struct cpuid_source, so the same decisions are made on the live CPU and on
 * a recorded dump. A leaf is only read when the relevant max-leaf value
 * covers it: above the max, Intel returns the data of the highest basic leaf
 * and a dump has nothing, so reading it would decode garbage.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "cpu/cpu.h"

#define BIT(n)	(1u << (n))

/* Leaf 1 */
#define L1_ECX_AVX	BIT(28)
#define L1_ECX_HV	BIT(31)
#define L1_EDX_CLFLUSH	BIT(19)
#define L1_EDX_SSE2	BIT(26)

/* Leaf 6: thermal and power management */
#define L6_ECX_APERFMPERF BIT(0)	/* MSRs 0xE7 (MPERF) and 0xE8 (APERF) */

/* Leaf 7 subleaf 0 and 1 */
#define L7_EBX_AVX2	BIT(5)
#define L7_EBX_ERMS	BIT(9)
#define L7_EBX_AVX512F	BIT(16)
#define L7_EBX_CLFLUSHOPT BIT(23)
#define L7_EBX_CLWB	BIT(24)
#define L7_EBX_AVX512BW	BIT(30)
#define L7_ECX_MOVDIR64B BIT(28)
#define L7_EDX_FSRM	BIT(4)
#define L7_EDX_IBRS_IBPB BIT(26)
#define L7_1_EAX_FZRM	BIT(10)
#define L7_1_EAX_FSRS	BIT(11)
#define L7_1_EAX_FSRCS	BIT(12)

/* Extended leaves */
#define E1_ECX_TOPOEXT	BIT(22)
#define E7_EDX_INVTSC	BIT(8)
#define E8_EBX_CLZERO	BIT(0)
#define E8_EBX_IBPB	BIT(12)

#define HV_BASE		0x40000000u
#define HV_TSC_LEAF	0x40000010u

/* Deterministic cache leaves (4 and 0x8000001D) have no documented count. */
#define CACHE_SUBLEAF_MAX 16

struct reader {
	const struct cpuid_source *src;
	uint32_t max_basic, max_ext, max_hv;
};

static void raw(const struct cpuid_source *src, uint32_t leaf, uint32_t sub,
		struct cpuid_regs *r)
{
	r->eax = r->ebx = r->ecx = r->edx = 0;
	src->query(src->ctx, leaf, sub, r);
}

/*
 * A leaf above its range's max reads as zeros, whatever the source would
 * return: that is the one place the max-leaf rule is enforced.
 */
static bool rd(const struct reader *rdr, uint32_t leaf, uint32_t sub,
	       struct cpuid_regs *r)
{
	uint32_t max;

	if (leaf >= 0x80000000u)
		max = rdr->max_ext;
	else if (leaf >= HV_BASE)
		max = rdr->max_hv;
	else
		max = rdr->max_basic;

	/* max_ext and max_hv are 0 when their range is absent. */
	if (leaf > max) {
		r->eax = r->ebx = r->ecx = r->edx = 0;
		return false;
	}
	raw(rdr->src, leaf, sub, r);
	return true;
}

static void put_le32(char *p, uint32_t v)
{
	p[0] = (char)(v & 0xff);
	p[1] = (char)((v >> 8) & 0xff);
	p[2] = (char)((v >> 16) & 0xff);
	p[3] = (char)(v >> 24);
}

static bool same12(const char *a, const char *b)
{
	for (int i = 0; i < 12; i++)
		if (a[i] != b[i])
			return false;
	return true;
}

/*
 * Brand and hypervisor strings end up on a log line, and a dump can hold
 * anything: keep printable ASCII, drop padding at both ends.
 */
static void clean_string(char *dst, const char *src, size_t n)
{
	size_t start = 0, end, j = 0;

	while (start < n && (src[start] == ' ' || src[start] == '\0'))
		start++;
	for (end = start; end < n && src[end] != '\0'; end++)
		;
	while (end > start && src[end - 1] == ' ')
		end--;
	for (size_t i = start; i < end; i++) {
		char c = src[i];

		dst[j++] = (c >= 0x20 && c < 0x7f) ? c : '?';
	}
	dst[j] = '\0';
}

static void set_feat(struct cpu_desc *d, enum feat f, bool on)
{
	if (on)
		d->feats |= (uint64_t)1 << f;
}

/* CPUID reports f; whether it is usable is set_feat()'s business. */
static void set_offered(struct cpu_desc *d, enum feat f, bool on)
{
	if (on)
		d->offered |= (uint64_t)1 << f;
}

uint64_t cpu_xcr0_wanted(const struct cpuid_source *src)
{
	struct cpuid_regs r;
	uint32_t max_basic;
	uint64_t xcr0;

	raw(src, 0, 0, &r);
	max_basic = r.eax;
	if (max_basic < 1)
		return 0;
	raw(src, 1, 0, &r);
	if (!(r.ecx & CPUID1_ECX_XSAVE))
		return 0;

	xcr0 = XSTATE_X87 | XSTATE_SSE;
	if (max_basic < 0xd)
		return xcr0;
	raw(src, 0xd, 0, &r);
	if (r.eax & XSTATE_YMM) {
		xcr0 |= XSTATE_YMM;
		/* XSETBV faults on AVX-512 state without YMM, hence nested. */
		if ((r.eax & XSTATE_AVX512) == XSTATE_AVX512)
			xcr0 |= XSTATE_AVX512;
	}
	return xcr0;
}

static void decode_signature(struct cpu_desc *d, uint32_t eax)
{
	uint32_t base_family = (eax >> 8) & 0xf;
	uint32_t base_model = (eax >> 4) & 0xf;

	d->stepping = eax & 0xf;
	d->family = base_family;
	if (base_family == 0xf)
		d->family += (eax >> 20) & 0xff;
	d->model = base_model;
	if (base_family == 0x6 || base_family == 0xf)
		d->model += ((eax >> 16) & 0xf) << 4;
}

static void decode_basic(struct cpu_desc *d, const struct reader *rdr,
			 uint64_t xcr0)
{
	struct cpuid_regs r;
	bool avx_ok = false;

	if (!rd(rdr, 1, 0, &r))
		return;
	decode_signature(d, r.eax);
	set_feat(d, FEAT_SSE2, r.edx & L1_EDX_SSE2);
	set_feat(d, FEAT_CLFLUSH, r.edx & L1_EDX_CLFLUSH);
	/* EBX[15:8]: the line CLFLUSH flushes, in 8-byte units. */
	if (r.edx & L1_EDX_CLFLUSH)
		d->clflush_line = ((r.ebx >> 8) & 0xff) * 8;
	set_feat(d, FEAT_XSAVE, r.ecx & CPUID1_ECX_XSAVE);
	set_feat(d, FEAT_HYPERVISOR, r.ecx & L1_ECX_HV);
	/* AVX instructions fault unless the OS enabled the YMM state. */
	if ((r.ecx & L1_ECX_AVX) && (r.ecx & CPUID1_ECX_OSXSAVE) &&
	    (xcr0 & (XSTATE_SSE | XSTATE_YMM)) == (XSTATE_SSE | XSTATE_YMM))
		avx_ok = true;
	set_feat(d, FEAT_AVX, avx_ok);
	set_offered(d, FEAT_AVX, r.ecx & L1_ECX_AVX);

	if (rd(rdr, 6, 0, &r))
		set_feat(d, FEAT_APERFMPERF, r.ecx & L6_ECX_APERFMPERF);

	if (!rd(rdr, 7, 0, &r))
		return;
	set_feat(d, FEAT_AVX2, avx_ok && (r.ebx & L7_EBX_AVX2));
	set_feat(d, FEAT_AVX512F, avx_ok && (r.ebx & L7_EBX_AVX512F) &&
		 (xcr0 & XSTATE_AVX512) == XSTATE_AVX512);
	set_offered(d, FEAT_AVX2, r.ebx & L7_EBX_AVX2);
	set_offered(d, FEAT_AVX512F, r.ebx & L7_EBX_AVX512F);
	set_offered(d, FEAT_AVX512BW, r.ebx & L7_EBX_AVX512BW);
	/* Byte and word masking (VMOVDQU8): an extension of AVX512F, same state. */
	set_feat(d, FEAT_AVX512BW, cpu_has(d, FEAT_AVX512F) &&
		 (r.ebx & L7_EBX_AVX512BW));
	set_feat(d, FEAT_ERMS, r.ebx & L7_EBX_ERMS);
	set_feat(d, FEAT_CLFLUSHOPT, r.ebx & L7_EBX_CLFLUSHOPT);
	set_feat(d, FEAT_CLWB, r.ebx & L7_EBX_CLWB);
	set_feat(d, FEAT_MOVDIR64B, r.ecx & L7_ECX_MOVDIR64B);
	set_feat(d, FEAT_FSRM, r.edx & L7_EDX_FSRM);
	/* Linux too takes the SPEC_CTRL bit as IBPB on any vendor. */
	set_feat(d, FEAT_IBPB, r.edx & L7_EDX_IBRS_IBPB);

	/* EAX of subleaf 0 is the last valid subleaf. */
	if (r.eax < 1)
		return;
	rd(rdr, 7, 1, &r);
	set_feat(d, FEAT_FZRM, r.eax & L7_1_EAX_FZRM);
	set_feat(d, FEAT_FSRS, r.eax & L7_1_EAX_FSRS);
	set_feat(d, FEAT_FSRCS, r.eax & L7_1_EAX_FSRCS);
}

static void decode_ext(struct cpu_desc *d, const struct reader *rdr)
{
	struct cpuid_regs r;
	char brand[48];

	if (rd(rdr, 0x80000004u, 0, &r)) {
		for (uint32_t i = 0; i < 3; i++) {
			rd(rdr, 0x80000002u + i, 0, &r);
			put_le32(brand + 16 * i, r.eax);
			put_le32(brand + 16 * i + 4, r.ebx);
			put_le32(brand + 16 * i + 8, r.ecx);
			put_le32(brand + 16 * i + 12, r.edx);
		}
		clean_string(d->brand, brand, sizeof(brand));
	}
	if (rd(rdr, 0x80000007u, 0, &r))
		set_feat(d, FEAT_INVTSC, r.edx & E7_EDX_INVTSC);
	if (rd(rdr, 0x80000008u, 0, &r)) {
		set_feat(d, FEAT_CLZERO, r.ebx & E8_EBX_CLZERO);
		set_feat(d, FEAT_IBPB, r.ebx & E8_EBX_IBPB);
	}
}

static void decode_hv(struct cpu_desc *d, struct reader *rdr)
{
	struct cpuid_regs r;
	char name[12];

	if (!cpu_has(d, FEAT_HYPERVISOR))
		return;
	/*
	 * The range exists only when the hypervisor bit says so. Old KVM
	 * left EAX 0 here: then only the vendor leaf is known to be valid.
	 */
	raw(rdr->src, HV_BASE, 0, &r);
	if (r.eax >= HV_BASE && r.eax <= HV_BASE + 0xffff)
		rdr->max_hv = r.eax;
	else
		rdr->max_hv = HV_BASE;
	d->max_hv = rdr->max_hv;
	put_le32(name, r.ebx);
	put_le32(name + 4, r.ecx);
	put_le32(name + 8, r.edx);
	clean_string(d->hv_vendor, name, sizeof(name));
}

static uint32_t size_kib(uint64_t ways, uint64_t parts, uint64_t line,
			 uint64_t sets)
{
	uint64_t bytes = ways * parts * line;	/* each <= 4096: no overflow */

	if (__builtin_mul_overflow(bytes, sets, &bytes) ||
	    bytes / 1024 > UINT32_MAX)
		return UINT32_MAX;
	return (uint32_t)(bytes / 1024);
}

/*
 * Leaf 4 and leaf 0x8000001D share their layout: a list of caches ending at
 * the first subleaf of type 0 (null).
 */
static bool walk_deterministic(struct cpu_desc *d, const struct reader *rdr,
			       uint32_t leaf)
{
	bool found = false;

	for (uint32_t sub = 0; sub < CACHE_SUBLEAF_MAX; sub++) {
		struct cpuid_regs r;
		uint32_t type, level;
		struct cache_level c, *slot = NULL;

		rd(rdr, leaf, sub, &r);
		type = r.eax & 0x1f;
		if (type == 0)
			break;
		if (type != 1 && type != 3)	/* instruction caches */
			continue;
		level = (r.eax >> 5) & 0x7;
		c.ways = ((r.ebx >> 22) & 0x3ff) + 1;
		c.line = (r.ebx & 0xfff) + 1;
		c.size_kib = size_kib(c.ways, ((r.ebx >> 12) & 0x3ff) + 1,
				      c.line, (uint64_t)r.ecx + 1);
		if (level == 1)
			slot = &d->l1d;
		else if (level == 2)
			slot = &d->l2;
		else if (level == 3)
			slot = &d->l3;
		if (slot && slot->size_kib == 0) {
			*slot = c;
			found = true;
		}
	}
	return found;
}

/* Associativity field of 0x80000006 ECX[15:12] / EDX[15:12]; 0: unknown. */
static uint32_t legacy_ways(uint32_t code)
{
	static const uint8_t ways[16] = {
		[1] = 1, [2] = 2, [4] = 4, [6] = 8, [8] = 16,
		[0xa] = 32, [0xb] = 48, [0xc] = 64, [0xd] = 96, [0xe] = 128,
	};

	return ways[code & 0xf];
}

static bool legacy_caches(struct cpu_desc *d, const struct reader *rdr)
{
	struct cpuid_regs r;
	bool found = false;

	if (rd(rdr, 0x80000005u, 0, &r) && (r.ecx >> 24)) {
		d->l1d.size_kib = r.ecx >> 24;
		d->l1d.line = r.ecx & 0xff;
		d->l1d.ways = (r.ecx >> 16) & 0xff;
		found = true;
	}
	if (rd(rdr, 0x80000006u, 0, &r)) {
		if (r.ecx >> 16) {
			d->l2.size_kib = r.ecx >> 16;
			d->l2.line = r.ecx & 0xff;
			d->l2.ways = legacy_ways(r.ecx >> 12);
			found = true;
		}
		if (r.edx >> 18) {
			d->l3.size_kib = (r.edx >> 18) * 512;
			d->l3.line = r.edx & 0xff;
			d->l3.ways = legacy_ways(r.edx >> 12);
			found = true;
		}
	}
	return found;
}

static void decode_caches(struct cpu_desc *d, const struct reader *rdr)
{
	const char *v = d->vendor;
	struct cpuid_regs r;

	if (same12(v, "GenuineIntel") || same12(v, "CentaurHauls") ||
	    same12(v, "  Shanghai  ")) {
		if (rdr->max_basic >= 4 && walk_deterministic(d, rdr, 4))
			d->cache_src = CACHE_SRC_LEAF4;
	} else if (same12(v, "AuthenticAMD") || same12(v, "HygonGenuine")) {
		rd(rdr, 0x80000001u, 0, &r);
		if ((r.ecx & E1_ECX_TOPOEXT) && rdr->max_ext >= 0x8000001du &&
		    walk_deterministic(d, rdr, 0x8000001du))
			d->cache_src = CACHE_SRC_AMD_TOPOEXT;
	}
	if (d->cache_src == CACHE_SRC_NONE && legacy_caches(d, rdr))
		d->cache_src = CACHE_SRC_AMD_LEGACY;

	d->line_size = d->l1d.line ? d->l1d.line : 64;
}

static void decode_tsc(struct cpu_desc *d, const struct reader *rdr)
{
	bool intel = same12(d->vendor, "GenuineIntel");
	struct cpuid_regs r;

	/*
	 * A hypervisor's leaf comes first: it states the rate the guest's TSC
	 * runs at, which after TSC scaling or migration need not be the
	 * host's that 0x15/0x16 describe.
	 */
	if (rdr->max_hv >= HV_TSC_LEAF && rd(rdr, HV_TSC_LEAF, 0, &r) &&
	    r.eax) {
		d->tsc_khz = r.eax;
		d->tsc_src = TSC_SRC_HV;
		return;
	}
	if (!intel)
		return;
	/* EAX/EBX: TSC to crystal ratio; ECX: crystal Hz (0: not given). */
	if (rd(rdr, 0x15, 0, &r) && r.eax && r.ebx && r.ecx) {
		d->tsc_khz = (uint64_t)r.ecx * r.ebx / r.eax / 1000;
		d->tsc_src = TSC_SRC_CPUID15;
		return;
	}
	/* Base frequency in MHz: the TSC runs at it on these parts. */
	if (rd(rdr, 0x16, 0, &r) && (r.eax & 0xffff)) {
		d->tsc_khz = (uint64_t)(r.eax & 0xffff) * 1000;
		d->tsc_src = TSC_SRC_CPUID16;
	}
}

void cpu_decode(struct cpu_desc *d, const struct cpuid_source *src,
		uint64_t xcr0)
{
	struct reader rdr = { .src = src };
	struct cpuid_regs r;

	*d = (struct cpu_desc){ 0 };
	d->xcr0 = xcr0;

	raw(src, 0, 0, &r);
	rdr.max_basic = r.eax;
	put_le32(d->vendor, r.ebx);
	put_le32(d->vendor + 4, r.edx);
	put_le32(d->vendor + 8, r.ecx);
	d->vendor[12] = '\0';

	raw(src, 0x80000000u, 0, &r);
	/* Without the extended range, EAX holds whatever: Linux's test. */
	if ((r.eax & 0xffff0000u) == 0x80000000u)
		rdr.max_ext = r.eax;
	d->max_basic = rdr.max_basic;
	d->max_ext = rdr.max_ext;

	decode_basic(d, &rdr, xcr0);
	decode_ext(d, &rdr);
	set_feat(d, FEAT_CLZEROLINE, cpu_has(d, FEAT_CLZERO) && cpu_clzero_step(d));
	decode_hv(d, &rdr);
	decode_caches(d, &rdr);
	decode_tsc(d, &rdr);
	d->offered |= d->feats;
}

const char *feat_name(enum feat f)
{
	static const char *const names[FEAT_COUNT] = {
		[FEAT_NONE] = "none",
#define F_NAME(id, name) [FEAT_##id] = #name,
		FEATURES(F_NAME)
#undef F_NAME
	};

	if ((unsigned int)f >= FEAT_COUNT)
		return "?";
	return names[f];
}

const char *cache_source_name(enum cache_source s)
{
	switch (s) {
	case CACHE_SRC_LEAF4:
		return "leaf4";
	case CACHE_SRC_AMD_TOPOEXT:
		return "0x8000001d";
	case CACHE_SRC_AMD_LEGACY:
		return "legacy";
	case CACHE_SRC_NONE:
		break;
	}
	return "none";
}

const char *tsc_source_name(enum tsc_source s)
{
	switch (s) {
	case TSC_SRC_CPUID15:
		return "cpuid-0x15";
	case TSC_SRC_CPUID16:
		return "cpuid-0x16";
	case TSC_SRC_HV:
		return "hv-0x40000010";
	case TSC_SRC_AMD_P0:
		return "amd-p0";
	case TSC_SRC_HPET:
		return "hpet";
	case TSC_SRC_PMTIMER:
		return "pmtimer";
	case TSC_SRC_PIT:
		return "pit";
	case TSC_SRC_LINUX_CLOCK:
		return "linux-clock";
	case TSC_SRC_LINUX_KERNEL:
		return "linux-tsc_khz";
	case TSC_SRC_NONE:
		break;
	}
	return "none";
}
