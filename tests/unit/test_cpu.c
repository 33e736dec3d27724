// SPDX-License-Identifier: MIT
/*
 * Unit tests of cpu/cpu.c and tools/cpuid_dump.c. The register values are
 * copied by hand from the InstLatx64 dumps in shared/cpuid (file names in
 * the comments), so the expectations come from real CPUs, not from the code
 * under test. Prints "ok NAME", "FAIL NAME: why" or "skip NAME: why" per
 * check; exits 1 if anything failed.
 */
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cpu/cpu.h"
#include "tools/cpuid_dump.h"
#include "cpu/live.h"
#include "tests/unit/check.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))


static void expect_u(const char *cpu, const char *what, uint64_t got,
		     uint64_t want)
{
	char name[128];

	snprintf(name, sizeof(name), "%s.%s", cpu, what);
	result(got == want, name, "got %llu (0x%llx), want %llu (0x%llx)",
	       (unsigned long long)got, (unsigned long long)got,
	       (unsigned long long)want, (unsigned long long)want);
}

static void expect_s(const char *cpu, const char *what, const char *got,
		     const char *want)
{
	char name[128];

	snprintf(name, sizeof(name), "%s.%s", cpu, what);
	result(strcmp(got, want) == 0, name, "got \"%s\", want \"%s\"", got,
	       want);
}

/* ---- a table-driven cpuid_source ---- */

struct rec {
	uint32_t leaf, sub, a, b, c, d;
};

#define MAX_RECS 64

/*
 * With `garbage`, the source answers reads that real CPUID would not
 * answer meaningfully (above a max leaf, leaf 7 past its last subleaf,
 * 0x8000001D without TOPOEXT) with all-ones and counts them.
 */
struct tsrc {
	struct rec r[MAX_RECS];
	size_t n;
	bool garbage;
	unsigned int bad_reads;
};

static void tsrc_set(struct tsrc *t, uint32_t leaf, uint32_t sub, uint32_t a,
		     uint32_t b, uint32_t c, uint32_t d)
{
	for (size_t i = 0; i < t->n; i++)
		if (t->r[i].leaf == leaf && t->r[i].sub == sub) {
			t->r[i] = (struct rec){ leaf, sub, a, b, c, d };
			return;
		}
	if (t->n == MAX_RECS) {
		fprintf(stderr, "test_cpu: MAX_RECS too small\n");
		exit(2);
	}
	t->r[t->n++] = (struct rec){ leaf, sub, a, b, c, d };
}

static void tsrc_init(struct tsrc *t, const struct rec *r, size_t n)
{
	*t = (struct tsrc){ 0 };
	for (size_t i = 0; i < n; i++)
		tsrc_set(t, r[i].leaf, r[i].sub, r[i].a, r[i].b, r[i].c,
			 r[i].d);
}

static bool tsrc_get(const struct tsrc *t, uint32_t leaf, uint32_t sub,
		     struct cpuid_regs *out)
{
	for (size_t i = 0; i < t->n; i++)
		if (t->r[i].leaf == leaf && t->r[i].sub == sub) {
			*out = (struct cpuid_regs){ t->r[i].a, t->r[i].b,
						    t->r[i].c, t->r[i].d };
			return true;
		}
	*out = (struct cpuid_regs){ 0 };
	return false;
}

static bool tsrc_valid(const struct tsrc *t, uint32_t leaf, uint32_t sub)
{
	struct cpuid_regs r;

	if (leaf == 0 || leaf == 0x80000000u)
		return true;
	if (leaf < 0x40000000u) {
		tsrc_get(t, 0, 0, &r);
		if (leaf > r.eax)
			return false;
		if (leaf == 7) {
			tsrc_get(t, 7, 0, &r);
			return sub <= r.eax;
		}
		return true;
	}
	if (leaf < 0x80000000u) {
		tsrc_get(t, 1, 0, &r);
		if (!(r.ecx & (1u << 31)))
			return false;
		if (leaf == 0x40000000u)
			return true;
		tsrc_get(t, 0x40000000u, 0, &r);
		return leaf <= r.eax;
	}
	tsrc_get(t, 0x80000000u, 0, &r);
	if (leaf > r.eax)
		return false;
	if (leaf == 0x8000001du) {
		tsrc_get(t, 0x80000001u, 0, &r);
		return r.ecx & (1u << 22);
	}
	return true;
}

static void tsrc_query(void *ctx, uint32_t leaf, uint32_t sub,
		       struct cpuid_regs *out)
{
	struct tsrc *t = ctx;

	if (t->garbage && !tsrc_valid(t, leaf, sub)) {
		t->bad_reads++;
		*out = (struct cpuid_regs){ ~0u, ~0u, ~0u, ~0u };
		return;
	}
	tsrc_get(t, leaf, sub, out);
}

static struct cpuid_source tsrc_source(struct tsrc *t)
{
	return (struct cpuid_source){ .query = tsrc_query, .ctx = t };
}

static void decode(struct cpu_desc *d, struct tsrc *t)
{
	struct cpuid_source s = tsrc_source(t);

	cpu_decode(d, &s, cpu_xcr0_wanted(&s));
}

/* ---- recorded CPUs ---- */

/* GenuineIntel0050654_SkylakeX.txt: Core i9-7900X */
static const struct rec skylakex[] = {
	{ 0x00000000, 0, 0x00000016, 0x756E6547, 0x6C65746E, 0x49656E69 },
	{ 0x00000001, 0, 0x00050654, 0x00200800, 0x7FFEFBBF, 0xBFEBFBFF },
	{ 0x00000004, 0, 0x3C004121, 0x01C0003F, 0x0000003F, 0x00000000 },
	{ 0x00000004, 1, 0x3C004122, 0x01C0003F, 0x0000003F, 0x00000000 },
	{ 0x00000004, 2, 0x3C004143, 0x03C0003F, 0x000003FF, 0x00000000 },
	{ 0x00000004, 3, 0x3C07C163, 0x0280003F, 0x00004FFF, 0x00000004 },
	{ 0x00000007, 0, 0x00000000, 0xD39FFFFB, 0x00000000, 0x00000000 },
	{ 0x0000000D, 0, 0x000000FF, 0x00000A80, 0x00000A80, 0x00000000 },
	{ 0x00000015, 0, 0x00000002, 0x00000114, 0x00000000, 0x00000000 },
	{ 0x00000016, 0, 0x00000CE4, 0x00000FA0, 0x00000064, 0x00000000 },
	{ 0x80000000, 0, 0x80000008, 0x00000000, 0x00000000, 0x00000000 },
	{ 0x80000001, 0, 0x00000000, 0x00000000, 0x00000121, 0x2C100000 },
	{ 0x80000002, 0, 0x65746E49, 0x2952286C, 0x726F4320, 0x4D542865 },
	{ 0x80000003, 0, 0x39692029, 0x3039372D, 0x43205830, 0x40205550 },
	{ 0x80000004, 0, 0x332E3320, 0x7A484730, 0x00000000, 0x00000000 },
	{ 0x80000006, 0, 0x00000000, 0x00000000, 0x01006040, 0x00000000 },
	{ 0x80000007, 0, 0x00000000, 0x00000000, 0x00000000, 0x00000100 },
	{ 0x80000008, 0, 0x0000302E, 0x00000000, 0x00000000, 0x00000000 },
};

/* GenuineIntel00806F8_SapphireRapids_05.txt: Xeon w7-2475X */
static const struct rec sapphire[] = {
	{ 0x00000000, 0, 0x00000020, 0x756E6547, 0x6C65746E, 0x49656E69 },
	{ 0x00000001, 0, 0x000806F8, 0x00800800, 0x7FFEFBFF, 0xBFEBFBFF },
	{ 0x00000004, 0, 0xFC004121, 0x02C0003F, 0x0000003F, 0x00000000 },
	{ 0x00000004, 1, 0xFC004122, 0x01C0003F, 0x0000003F, 0x00000000 },
	{ 0x00000004, 2, 0xFC004143, 0x03C0003F, 0x000007FF, 0x00000000 },
	{ 0x00000004, 3, 0xFC1FC163, 0x0380003F, 0x00009FFF, 0x00000004 },
	{ 0x00000007, 0, 0x00000002, 0xF3BFBFFB, 0xBB417FEE, 0xFFDD4430 },
	{ 0x00000007, 1, 0x00001C30, 0x00000000, 0x00000000, 0x00000000 },
	{ 0x00000007, 2, 0x00000000, 0x00000000, 0x00000000, 0x00000017 },
	{ 0x0000000D, 0, 0x000602E7, 0x00002B00, 0x00002B00, 0x00000000 },
	{ 0x00000015, 0, 0x00000002, 0x000000D8, 0x016E3600, 0x00000000 },
	{ 0x00000016, 0, 0x00000A28, 0x000012C0, 0x00000064, 0x00000000 },
	{ 0x80000000, 0, 0x80000008, 0x00000000, 0x00000000, 0x00000000 },
	{ 0x80000001, 0, 0x00000000, 0x00000000, 0x00000121, 0x2C100000 },
	{ 0x80000002, 0, 0x65746E49, 0x2952286C, 0x6F655820, 0x2952286E },
	{ 0x80000003, 0, 0x2D377720, 0x35373432, 0x00000058, 0x00000000 },
	{ 0x80000004, 0, 0x00000000, 0x00000000, 0x00000000, 0x00000000 },
	{ 0x80000006, 0, 0x00000000, 0x00000000, 0x08007040, 0x00000000 },
	{ 0x80000007, 0, 0x00000000, 0x00000000, 0x00000000, 0x00000100 },
	{ 0x80000008, 0, 0x00003934, 0x00000200, 0x00000000, 0x00000000 },
};

/* GenuineIntel0000F68_P4_Tulsa.txt: Xeon 7100, NetBurst */
static const struct rec tulsa[] = {
	{ 0x00000000, 0, 0x00000006, 0x756E6547, 0x6C65746E, 0x49656E69 },
	{ 0x00000001, 0, 0x00000F68, 0x00040800, 0x0000E5BD, 0xBFEBFBFF },
	{ 0x00000004, 0, 0x04004121, 0x01C0003F, 0x0000001F, 0x00000000 },
	{ 0x00000004, 1, 0x04004143, 0x01C0103F, 0x000003FF, 0x00000000 },
	{ 0x00000004, 2, 0x0400C963, 0x03C0003F, 0x00003FFF, 0x00000000 },
	{ 0x80000000, 0, 0x80000008, 0x00000000, 0x00000000, 0x00000000 },
	{ 0x80000001, 0, 0x00000000, 0x00000000, 0x00000001, 0x20100000 },
	{ 0x80000002, 0, 0x20202020, 0x20202020, 0x20202020, 0x20202020 },
	{ 0x80000003, 0, 0x6E492020, 0x286C6574, 0x58202952, 0x286E6F65 },
	{ 0x80000004, 0, 0x20294D54, 0x20555043, 0x30342E33, 0x007A4847 },
	{ 0x80000006, 0, 0x00000000, 0x00000000, 0x04006040, 0x00000000 },
	{ 0x80000008, 0, 0x00003028, 0x00000000, 0x00000000, 0x00000000 },
};

/* GenuineIntel00206C2_Gulftown.txt: Core i7 X 990, no XSAVE */
static const struct rec gulftown[] = {
	{ 0x00000000, 0, 0x0000000B, 0x756E6547, 0x6C65746E, 0x49656E69 },
	{ 0x00000001, 0, 0x000206C2, 0x00200800, 0x029AE3BF, 0xBFEBFBFF },
	{ 0x00000004, 0, 0x3C004121, 0x01C0003F, 0x0000003F, 0x00000000 },
	{ 0x00000004, 1, 0x3C004122, 0x00C0003F, 0x0000007F, 0x00000000 },
	{ 0x00000004, 2, 0x3C004143, 0x01C0003F, 0x000001FF, 0x00000000 },
	{ 0x00000004, 3, 0x3C07C163, 0x03C0003F, 0x00002FFF, 0x00000002 },
	{ 0x00000007, 0, 0x00000000, 0x00000000, 0x00000000, 0x00000000 },
	{ 0x80000000, 0, 0x80000008, 0x00000000, 0x00000000, 0x00000000 },
	{ 0x80000006, 0, 0x00000000, 0x00000000, 0x01006040, 0x00000000 },
};

/* AuthenticAMD0830F10_K17_Rome.txt: EPYC 7742 */
static const struct rec rome[] = {
	{ 0x00000000, 0, 0x00000010, 0x68747541, 0x444D4163, 0x69746E65 },
	{ 0x00000001, 0, 0x00830F10, 0x00800800, 0x7EF8320B, 0x178BFBFF },
	{ 0x00000007, 0, 0x00000000, 0x219C91A9, 0x00400004, 0x00000000 },
	{ 0x0000000D, 0, 0x00000207, 0x00000340, 0x00000380, 0x00000000 },
	{ 0x80000000, 0, 0x80000020, 0x68747541, 0x444D4163, 0x69746E65 },
	{ 0x80000001, 0, 0x00830F10, 0x40000000, 0x75C237FF, 0x2FD3FBFF },
	{ 0x80000002, 0, 0x20444D41, 0x43595045, 0x34373720, 0x34362032 },
	{ 0x80000003, 0, 0x726F432D, 0x72502065, 0x7365636F, 0x20726F73 },
	{ 0x80000004, 0, 0x20202020, 0x20202020, 0x20202020, 0x00202020 },
	{ 0x80000005, 0, 0xFF40FF40, 0xFF40FF40, 0x20080140, 0x20080140 },
	{ 0x80000006, 0, 0x48006400, 0x68006400, 0x02006140, 0x08009140 },
	{ 0x80000007, 0, 0x00000000, 0x0000001B, 0x00000000, 0x00006799 },
	{ 0x80000008, 0, 0x00003030, 0x018EF757, 0x0000707F, 0x00010000 },
	{ 0x8000001D, 0, 0x00004121, 0x01C0003F, 0x0000003F, 0x00000000 },
	{ 0x8000001D, 1, 0x00004122, 0x01C0003F, 0x0000003F, 0x00000000 },
	{ 0x8000001D, 2, 0x00004143, 0x01C0003F, 0x000003FF, 0x00000002 },
	{ 0x8000001D, 3, 0x0001C163, 0x03C0003F, 0x00003FFF, 0x00000001 },
};

/* AuthenticAMD0A10F11_K19_Genoa_01.txt: EPYC 9654 */
static const struct rec genoa[] = {
	{ 0x00000000, 0, 0x00000010, 0x68747541, 0x444D4163, 0x69746E65 },
	{ 0x00000001, 0, 0x00A10F11, 0x00C00800, 0x7EFA320B, 0x178BFBFF },
	{ 0x00000007, 0, 0x00000001, 0xF1BF97A9, 0x00415FCE, 0x10000010 },
	{ 0x00000007, 1, 0x00000020, 0x00000000, 0x00000000, 0x00000000 },
	{ 0x0000000D, 0, 0x000002E7, 0x00000980, 0x00000988, 0x00000000 },
	{ 0x80000000, 0, 0x80000028, 0x68747541, 0x444D4163, 0x69746E65 },
	{ 0x80000001, 0, 0x00A10F11, 0x40000000, 0x75C237FF, 0x2FD3FBFF },
	{ 0x80000005, 0, 0xFF48FF40, 0xFF48FF40, 0x20080140, 0x20080140 },
	{ 0x80000006, 0, 0x5C002200, 0x6C004200, 0x04006140, 0x0C009140 },
	{ 0x80000007, 0, 0x00000000, 0x0000003B, 0x00000000, 0x00006799 },
	{ 0x80000008, 0, 0x00003934, 0x79BEF25F, 0x000080BF, 0x00010007 },
	{ 0x8000001D, 0, 0x00004121, 0x01C0003F, 0x0000003F, 0x00000000 },
	{ 0x8000001D, 1, 0x00004122, 0x01C0003F, 0x0000003F, 0x00000000 },
	{ 0x8000001D, 2, 0x00004143, 0x01C0003F, 0x000007FF, 0x00000002 },
	{ 0x8000001D, 3, 0x0003C163, 0x03C0003F, 0x00007FFF, 0x00000001 },
};

/* AuthenticAMD0100F42_K10_Shanghai.txt: Opteron 2378, no TOPOEXT */
static const struct rec shanghai[] = {
	{ 0x00000000, 0, 0x00000005, 0x68747541, 0x444D4163, 0x69746E65 },
	{ 0x00000001, 0, 0x00100F42, 0x00040800, 0x00802009, 0x178BFBFF },
	{ 0x80000000, 0, 0x8000001B, 0x68747541, 0x444D4163, 0x69746E65 },
	{ 0x80000001, 0, 0x00100F42, 0x00000CEF, 0x000037FF, 0xEFD3FBFF },
	{ 0x80000005, 0, 0xFF30FF10, 0xFF30FF20, 0x40020140, 0x40020140 },
	{ 0x80000006, 0, 0x20800000, 0x42004200, 0x02008140, 0x0030B140 },
	{ 0x80000007, 0, 0x00000000, 0x00000000, 0x00000000, 0x000001F9 },
	{ 0x80000008, 0, 0x00003030, 0x00000000, 0x00002003, 0x00000000 },
};

/* A KVM guest: `cpuid -r -1` on an AMD host (leaf 0x40000000 "KVMKVMKVM"). */
static const struct rec kvm_guest[] = {
	{ 0x00000000, 0, 0x0000001c, 0x68747541, 0x444d4163, 0x69746e65 },
	{ 0x00000001, 0, 0x00b00f21, 0x01020800, 0xfffa3203, 0x178bfbff },
	{ 0x40000000, 0, 0x40000001, 0x4b4d564b, 0x564b4d56, 0x0000004d },
	{ 0x40000001, 0, 0x01007efb, 0x00000000, 0x00000000, 0x00000000 },
	{ 0x80000000, 0, 0x80000021, 0x68747541, 0x444d4163, 0x69746e65 },
	{ 0x80000002, 0, 0x20444d41, 0x43595045, 0x00000000, 0x00000000 },
	{ 0x80000003, 0, 0x00000000, 0x00000000, 0x00000000, 0x00000000 },
	{ 0x80000004, 0, 0x00000000, 0x00000000, 0x00000000, 0x00000000 },
};

struct cpu_case {
	const char *name;
	const struct rec *recs;
	size_t n;
};

#define CASE(x) { #x, x, ARRAY_SIZE(x) }
static const struct cpu_case cases[] = {
	CASE(skylakex), CASE(sapphire), CASE(tulsa), CASE(gulftown),
	CASE(rome), CASE(genoa), CASE(shanghai), CASE(kvm_guest),
};

static const struct cpu_case *find_case(const char *name)
{
	for (size_t i = 0; i < ARRAY_SIZE(cases); i++)
		if (!strcmp(cases[i].name, name))
			return &cases[i];
	abort();
}

static void decode_case(struct cpu_desc *d, const char *name)
{
	const struct cpu_case *c = find_case(name);
	struct tsrc t;

	tsrc_init(&t, c->recs, c->n);
	decode(d, &t);
}

/* ---- checks ---- */

static void test_signature(void)
{
	static const struct {
		const char *cpu;
		uint32_t family, model, stepping;
	} want[] = {
		{ "tulsa", 0xf, 0x6, 8 },	/* base family F, ext 0 */
		{ "skylakex", 0x6, 0x55, 4 },
		{ "sapphire", 0x6, 0x8f, 8 },
		{ "shanghai", 0x10, 0x4, 2 },	/* K10: F + 1 */
		{ "rome", 0x17, 0x31, 0 },
		{ "genoa", 0x19, 0x11, 1 },
		{ "kvm_guest", 0x1a, 0x2, 1 },
	};

	for (size_t i = 0; i < ARRAY_SIZE(want); i++) {
		struct cpu_desc d;

		decode_case(&d, want[i].cpu);
		expect_u(want[i].cpu, "family", d.family, want[i].family);
		expect_u(want[i].cpu, "model", d.model, want[i].model);
		expect_u(want[i].cpu, "stepping", d.stepping, want[i].stepping);
	}

	/* Extended model counts only for families 6 and F. */
	struct tsrc t;
	struct cpu_desc d;

	tsrc_init(&t, NULL, 0);
	tsrc_set(&t, 0, 0, 1, 0, 0, 0);
	tsrc_set(&t, 1, 0, 0x000f0543, 0, 0, 0);
	decode(&d, &t);
	expect_u("family5_ext_model_ignored", "model", d.model, 0x4);
	expect_u("family5_ext_model_ignored", "family", d.family, 0x5);
}

static void test_vendor_brand(void)
{
	struct cpu_desc d;

	decode_case(&d, "tulsa");
	expect_s("tulsa", "vendor", d.vendor, "GenuineIntel");
	/* 0x80000002 is all spaces: leading padding is trimmed. */
	expect_s("tulsa", "brand", d.brand, "Intel(R) Xeon(TM) CPU 3.40GHz");
	decode_case(&d, "sapphire");
	/* NULs in the middle of 0x80000003 end the string. */
	expect_s("sapphire", "brand", d.brand, "Intel(R) Xeon(R) w7-2475X");
	decode_case(&d, "rome");
	expect_s("rome", "vendor", d.vendor, "AuthenticAMD");
	expect_s("rome", "brand", d.brand, "AMD EPYC 7742 64-Core Processor");
	decode_case(&d, "gulftown");
	expect_s("gulftown", "brand_absent", d.brand, "");

	struct tsrc t;

	tsrc_init(&t, skylakex, ARRAY_SIZE(skylakex));
	tsrc_set(&t, 0x80000002u, 0, 0x07414141, 0x20202020, 0, 0);
	tsrc_set(&t, 0x80000003u, 0, 0, 0, 0, 0);
	tsrc_set(&t, 0x80000004u, 0, 0, 0, 0, 0);
	decode(&d, &t);
	expect_s("brand_control_char", "brand", d.brand, "AAA?");
}

static void test_leaf4(void)
{
	struct cpu_desc d;

	decode_case(&d, "skylakex");
	expect_u("skylakex", "l1d_kib", d.l1d.size_kib, 32);
	expect_u("skylakex", "l1d_ways", d.l1d.ways, 8);
	expect_u("skylakex", "l2_kib", d.l2.size_kib, 1024);
	expect_u("skylakex", "l2_ways", d.l2.ways, 16);
	expect_u("skylakex", "l3_kib", d.l3.size_kib, 14080);
	expect_u("skylakex", "l3_ways", d.l3.ways, 11);
	expect_u("skylakex", "line", d.line_size, 64);
	expect_u("skylakex", "cache_src", d.cache_src, CACHE_SRC_LEAF4);

	decode_case(&d, "sapphire");
	expect_u("sapphire", "l1d_kib", d.l1d.size_kib, 48);
	expect_u("sapphire", "l2_kib", d.l2.size_kib, 2048);
	expect_u("sapphire", "l3_kib", d.l3.size_kib, 38400);

	/* Tulsa: partitions field 1 in L2 (2 partitions), 16 KiB L1d. */
	decode_case(&d, "tulsa");
	expect_u("tulsa", "l1d_kib", d.l1d.size_kib, 16);
	expect_u("tulsa", "l2_kib", d.l2.size_kib, 1024);
	expect_u("tulsa", "l3_kib", d.l3.size_kib, 16384);
	expect_u("tulsa", "cache_src", d.cache_src, CACHE_SRC_LEAF4);

	decode_case(&d, "gulftown");
	expect_u("gulftown", "l1d_kib", d.l1d.size_kib, 32);
	expect_u("gulftown", "l2_kib", d.l2.size_kib, 256);
	expect_u("gulftown", "l3_kib", d.l3.size_kib, 12288);

	/* Zhaoxin reports caches in leaf 4 like Intel. */
	struct tsrc t;

	tsrc_init(&t, skylakex, ARRAY_SIZE(skylakex));
	tsrc_set(&t, 0, 0, 0x16, 0x68532020, 0x20206961, 0x68676e61);
	decode(&d, &t);
	expect_s("zhaoxin", "vendor", d.vendor, "  Shanghai  ");
	expect_u("zhaoxin", "cache_src", d.cache_src, CACHE_SRC_LEAF4);
	expect_u("zhaoxin", "l2_kib", d.l2.size_kib, 1024);

	/* Absurd values saturate instead of wrapping. */
	tsrc_init(&t, skylakex, ARRAY_SIZE(skylakex));
	tsrc_set(&t, 4, 2, 0x3C004143, 0xffffffff, 0xffffffff, 0);
	decode(&d, &t);
	expect_u("leaf4_overflow", "l2_kib", d.l2.size_kib, UINT32_MAX);

	/* The walk stops by itself on a source that never says "null". */
	tsrc_init(&t, skylakex, ARRAY_SIZE(skylakex));
	for (uint32_t s = 4; s < 40; s++)
		tsrc_set(&t, 4, s, 0x3C004122, 0x01C0003F, 0x3F, 0);
	decode(&d, &t);
	expect_u("leaf4_endless", "l3_kib", d.l3.size_kib, 14080);
}

static void test_amd(void)
{
	struct cpu_desc d;
	struct tsrc t;

	decode_case(&d, "rome");
	expect_u("rome", "l1d_kib", d.l1d.size_kib, 32);
	expect_u("rome", "l2_kib", d.l2.size_kib, 512);
	expect_u("rome", "l3_kib", d.l3.size_kib, 16384);	/* one CCX */
	expect_u("rome", "cache_src", d.cache_src, CACHE_SRC_AMD_TOPOEXT);

	decode_case(&d, "genoa");
	expect_u("genoa", "l2_kib", d.l2.size_kib, 1024);
	expect_u("genoa", "l3_kib", d.l3.size_kib, 32768);

	/* Without TOPOEXT Rome falls back to 0x80000006 (whole socket). */
	tsrc_init(&t, rome, ARRAY_SIZE(rome));
	tsrc_set(&t, 0x80000001u, 0, 0x00830F10, 0x40000000,
		 0x75C237FF & ~(1u << 22), 0x2FD3FBFF);
	t.garbage = true;
	decode(&d, &t);
	expect_u("rome_no_topoext", "cache_src", d.cache_src,
		 CACHE_SRC_AMD_LEGACY);
	expect_u("rome_no_topoext", "l1d_kib", d.l1d.size_kib, 32);
	expect_u("rome_no_topoext", "l2_kib", d.l2.size_kib, 512);
	expect_u("rome_no_topoext", "l3_kib", d.l3.size_kib, 262144);
	expect_u("rome_no_topoext", "l2_ways", d.l2.ways, 8);
	expect_u("rome_no_topoext", "bad_reads", t.bad_reads, 0);

	decode_case(&d, "shanghai");
	expect_u("shanghai", "l1d_kib", d.l1d.size_kib, 64);
	expect_u("shanghai", "l2_kib", d.l2.size_kib, 512);
	expect_u("shanghai", "l3_kib", d.l3.size_kib, 6144);
	expect_u("shanghai", "line", d.line_size, 64);
	expect_u("shanghai", "cache_src", d.cache_src, CACHE_SRC_AMD_LEGACY);

	/* Hygon is an AMD design. */
	tsrc_init(&t, rome, ARRAY_SIZE(rome));
	tsrc_set(&t, 0, 0, 0x10, 0x6f677948, 0x656e6975, 0x6e65476e);
	decode(&d, &t);
	expect_s("hygon", "vendor", d.vendor, "HygonGenuine");
	expect_u("hygon", "cache_src", d.cache_src, CACHE_SRC_AMD_TOPOEXT);
}

static void test_fallback(void)
{
	struct cpu_desc d;
	struct tsrc t;

	/* An Intel CPU that stops before leaf 4: its L2 is in 0x80000006. */
	tsrc_init(&t, skylakex, ARRAY_SIZE(skylakex));
	tsrc_set(&t, 0, 0, 3, 0x756E6547, 0x6C65746E, 0x49656E69);
	t.garbage = true;
	decode(&d, &t);
	expect_u("intel_no_leaf4", "cache_src", d.cache_src,
		 CACHE_SRC_AMD_LEGACY);
	expect_u("intel_no_leaf4", "l2_kib", d.l2.size_kib, 256);
	expect_u("intel_no_leaf4", "l1d_kib", d.l1d.size_kib, 0);
	expect_u("intel_no_leaf4", "line", d.line_size, 64);
	expect_u("intel_no_leaf4", "bad_reads", t.bad_reads, 0);

	/* Nothing anywhere: sizes 0, line still usable. */
	tsrc_init(&t, NULL, 0);
	tsrc_set(&t, 0, 0, 1, 0x756E6547, 0x6C65746E, 0x49656E69);
	decode(&d, &t);
	expect_u("no_cache_info", "cache_src", d.cache_src, CACHE_SRC_NONE);
	expect_u("no_cache_info", "line", d.line_size, 64);
	expect_u("no_cache_info", "l2_kib", d.l2.size_kib, 0);
}

static bool has(const struct cpu_desc *d, enum feat f)
{
	return cpu_has(d, f);
}

static void test_features(void)
{
	static const struct {
		const char *cpu;
		enum feat f;
		bool want;
	} want[] = {
		{ "skylakex", FEAT_ERMS, 1 }, { "skylakex", FEAT_FSRM, 0 },
		{ "skylakex", FEAT_AVX512F, 1 }, { "skylakex", FEAT_CLWB, 1 },
		{ "skylakex", FEAT_AVX512BW, 1 },	/* 7.0 EBX[30] */
		{ "skylakex", FEAT_MOVDIR64B, 0 }, { "skylakex", FEAT_INVTSC, 1 },
		{ "sapphire", FEAT_FSRM, 1 }, { "sapphire", FEAT_FZRM, 1 },
		{ "sapphire", FEAT_FSRS, 1 }, { "sapphire", FEAT_FSRCS, 1 },
		{ "sapphire", FEAT_MOVDIR64B, 1 }, { "sapphire", FEAT_IBPB, 1 },
		{ "sapphire", FEAT_CLZERO, 0 },
		{ "tulsa", FEAT_SSE2, 1 }, { "tulsa", FEAT_CLFLUSH, 1 },
		{ "tulsa", FEAT_XSAVE, 0 }, { "tulsa", FEAT_AVX, 0 },
		{ "tulsa", FEAT_INVTSC, 0 },
		{ "gulftown", FEAT_AVX, 0 }, { "gulftown", FEAT_ERMS, 0 },
		{ "rome", FEAT_ERMS, 0 }, { "rome", FEAT_CLZERO, 1 },
		{ "rome", FEAT_AVX2, 1 }, { "rome", FEAT_AVX512F, 0 },
		{ "rome", FEAT_AVX512BW, 0 },
		{ "rome", FEAT_IBPB, 1 },	/* 0x80000008 EBX[12] */
		{ "genoa", FEAT_ERMS, 1 }, { "genoa", FEAT_FSRM, 1 },
		{ "genoa", FEAT_FZRM, 0 }, { "genoa", FEAT_AVX512F, 1 },
		{ "genoa", FEAT_AVX512BW, 1 },
		{ "genoa", FEAT_CLZERO, 1 },
		{ "shanghai", FEAT_CLZERO, 0 }, { "shanghai", FEAT_INVTSC, 1 },
		{ "shanghai", FEAT_HYPERVISOR, 0 },
		{ "kvm_guest", FEAT_HYPERVISOR, 1 },
	};

	for (size_t i = 0; i < ARRAY_SIZE(want); i++) {
		struct cpu_desc d;

		decode_case(&d, want[i].cpu);
		expect_u(want[i].cpu, feat_name(want[i].f), has(&d, want[i].f),
			 want[i].want);
	}
}

static void test_xcr0(void)
{
	static const struct {
		const char *cpu;
		uint64_t want;
	} want[] = {
		{ "skylakex", 0xe7 }, { "genoa", 0xe7 }, { "sapphire", 0xe7 },
		{ "rome", 0x07 }, { "gulftown", 0 }, { "tulsa", 0 },
		{ "shanghai", 0 },
	};

	for (size_t i = 0; i < ARRAY_SIZE(want); i++) {
		const struct cpu_case *c = find_case(want[i].cpu);
		struct tsrc t;
		struct cpuid_source s;

		tsrc_init(&t, c->recs, c->n);
		s = tsrc_source(&t);
		expect_u(want[i].cpu, "xcr0_wanted", cpu_xcr0_wanted(&s),
			 want[i].want);
	}

	/* AVX and AVX-512 follow what XCR0 enables, not just CPUID. */
	static const struct {
		const char *name;
		uint64_t xcr0;
		bool osxsave, avx, avx2, avx512f, avx512bw;
	} gate[] = {
		{ "xcr0_none", 0, 1, 0, 0, 0, 0 },
		{ "xcr0_sse", 0x3, 1, 0, 0, 0, 0 },
		{ "xcr0_ymm", 0x7, 1, 1, 1, 0, 0 },
		{ "xcr0_ymm_opmask", 0x27, 1, 1, 1, 0, 0 },
		{ "xcr0_all", 0xe7, 1, 1, 1, 1, 1 },
		{ "xcr0_all_no_osxsave", 0xe7, 0, 0, 0, 0, 0 },
	};

	for (size_t i = 0; i < ARRAY_SIZE(gate); i++) {
		struct tsrc t;
		struct cpuid_source s;
		struct cpu_desc d;

		tsrc_init(&t, genoa, ARRAY_SIZE(genoa));
		if (gate[i].osxsave)
			tsrc_set(&t, 1, 0, 0x00A10F11, 0x00C00800, 0x7EFA320B,
				 0x178BFBFF);
		else
			tsrc_set(&t, 1, 0, 0x00A10F11, 0x00C00800,
				 0x7EFA320B & ~(1u << 27), 0x178BFBFF);
		s = tsrc_source(&t);
		cpu_decode(&d, &s, gate[i].xcr0);
		expect_u(gate[i].name, "avx", has(&d, FEAT_AVX), gate[i].avx);
		expect_u(gate[i].name, "avx2", has(&d, FEAT_AVX2), gate[i].avx2);
		expect_u(gate[i].name, "avx512f", has(&d, FEAT_AVX512F),
			 gate[i].avx512f);
		expect_u(gate[i].name, "avx512bw", has(&d, FEAT_AVX512BW),
			 gate[i].avx512bw);
		expect_u(gate[i].name, "xcr0", d.xcr0, gate[i].xcr0);
	}

	/* BW is an extension of F: its bit alone (a broken VM) is not enough. */
	{
		struct tsrc t;
		struct cpuid_source s;
		struct cpu_desc d;

		tsrc_init(&t, genoa, ARRAY_SIZE(genoa));
		tsrc_set(&t, 7, 0, 0x00000001, 0xF1BF97A9 & ~(1u << 16),
			 0x00415FCE, 0x10000010);
		s = tsrc_source(&t);
		cpu_decode(&d, &s, 0xe7);
		expect_u("bw_without_f", "avx512f", has(&d, FEAT_AVX512F), 0);
		expect_u("bw_without_f", "avx512bw", has(&d, FEAT_AVX512BW), 0);
	}
}

static void test_tsc(void)
{
	struct cpu_desc d;
	struct tsrc t;

	/* 24 MHz crystal * 216 / 2 */
	decode_case(&d, "sapphire");
	expect_u("sapphire", "tsc_khz", d.tsc_khz, 2592000);
	expect_u("sapphire", "tsc_src", d.tsc_src, TSC_SRC_CPUID15);
	/* 0x15 has no crystal frequency: 0x16 base MHz. */
	decode_case(&d, "skylakex");
	expect_u("skylakex", "tsc_khz", d.tsc_khz, 3300000);
	expect_u("skylakex", "tsc_src", d.tsc_src, TSC_SRC_CPUID16);
	decode_case(&d, "rome");
	expect_u("rome", "tsc_src", d.tsc_src, TSC_SRC_NONE);
	expect_u("rome", "tsc_khz", d.tsc_khz, 0);

	/* 0x40000010 only counts when the hypervisor range reaches it. */
	tsrc_init(&t, kvm_guest, ARRAY_SIZE(kvm_guest));
	tsrc_set(&t, 0x40000010u, 0, 2095078, 1000000, 0, 0);
	t.garbage = true;
	decode(&d, &t);
	expect_u("kvm_short_range", "tsc_src", d.tsc_src, TSC_SRC_NONE);
	expect_u("kvm_short_range", "bad_reads", t.bad_reads, 0);
	tsrc_set(&t, 0x40000000u, 0, 0x40000010, 0x4b4d564b, 0x564b4d56,
		 0x0000004d);
	decode(&d, &t);
	expect_u("kvm_tsc_leaf", "tsc_src", d.tsc_src, TSC_SRC_HV);
	expect_u("kvm_tsc_leaf", "tsc_khz", d.tsc_khz, 2095078);
	expect_u("kvm_tsc_leaf", "max_hv", d.max_hv, 0x40000010);

	/* A CPU without the hypervisor bit has no hypervisor range at all. */
	tsrc_init(&t, rome, ARRAY_SIZE(rome));
	tsrc_set(&t, 0x40000000u, 0, 0x40000010, 0x4b4d564b, 0x564b4d56, 0x4d);
	tsrc_set(&t, 0x40000010u, 0, 2095078, 1000000, 0, 0);
	decode(&d, &t);
	expect_u("no_hv_bit", "tsc_src", d.tsc_src, TSC_SRC_NONE);
	expect_s("no_hv_bit", "hv_vendor", d.hv_vendor, "");
	expect_u("no_hv_bit", "max_hv", d.max_hv, 0);
}

static void test_hypervisor(void)
{
	struct cpu_desc d;

	decode_case(&d, "kvm_guest");
	expect_s("kvm_guest", "hv_vendor", d.hv_vendor, "KVMKVMKVM");
	expect_u("kvm_guest", "max_hv", d.max_hv, 0x40000001);
	expect_s("kvm_guest", "brand", d.brand, "AMD EPYC");
	decode_case(&d, "skylakex");
	expect_s("skylakex", "hv_vendor", d.hv_vendor, "");
}

static bool desc_equal(const struct cpu_desc *a, const struct cpu_desc *b)
{
	return !strcmp(a->vendor, b->vendor) && !strcmp(a->brand, b->brand) &&
	       !strcmp(a->hv_vendor, b->hv_vendor) &&
	       a->max_basic == b->max_basic && a->max_ext == b->max_ext &&
	       a->max_hv == b->max_hv && a->family == b->family &&
	       a->model == b->model && a->stepping == b->stepping &&
	       a->xcr0 == b->xcr0 && a->feats == b->feats &&
	       !memcmp(&a->l1d, &b->l1d, sizeof(a->l1d)) &&
	       !memcmp(&a->l2, &b->l2, sizeof(a->l2)) &&
	       !memcmp(&a->l3, &b->l3, sizeof(a->l3)) &&
	       a->line_size == b->line_size && a->cache_src == b->cache_src &&
	       a->tsc_khz == b->tsc_khz && a->tsc_src == b->tsc_src;
}

/*
 * Every recorded CPU decodes the same when everything CPUID would not
 * answer reads as all-ones, and nothing of that kind is read at all.
 */
static void test_max_leaf(void)
{
	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		struct tsrc t;
		struct cpu_desc plain, hostile;

		tsrc_init(&t, cases[i].recs, cases[i].n);
		decode(&plain, &t);
		t.garbage = true;
		decode(&hostile, &t);
		expect_u(cases[i].name, "garbage_reads", t.bad_reads, 0);
		expect_u(cases[i].name, "garbage_same", desc_equal(&plain, &hostile),
			 1);
	}

	/* Leaf 7 is out of range when max basic is 6: no ERMS, no AVX2. */
	struct tsrc t;
	struct cpu_desc d;

	tsrc_init(&t, skylakex, ARRAY_SIZE(skylakex));
	tsrc_set(&t, 0, 0, 6, 0x756E6547, 0x6C65746E, 0x49656E69);
	t.garbage = true;
	decode(&d, &t);
	expect_u("skylakex_max6", "erms", has(&d, FEAT_ERMS), 0);
	expect_u("skylakex_max6", "avx2", has(&d, FEAT_AVX2), 0);
	expect_u("skylakex_max6", "avx", has(&d, FEAT_AVX), 0);	/* no 0xD */
	expect_u("skylakex_max6", "tsc_src", d.tsc_src, TSC_SRC_NONE);
	expect_u("skylakex_max6", "l2_kib", d.l2.size_kib, 1024);
	expect_u("skylakex_max6", "bad_reads", t.bad_reads, 0);

	/* Leaf 7 subleaf 1 holds FZRM only when 7.0 EAX says it exists. */
	tsrc_init(&t, sapphire, ARRAY_SIZE(sapphire));
	tsrc_set(&t, 7, 0, 0x00000000, 0xF3BFBFFB, 0xBB417FEE, 0xFFDD4430);
	t.garbage = true;
	decode(&d, &t);
	expect_u("sapphire_7_eax0", "fzrm", has(&d, FEAT_FZRM), 0);
	expect_u("sapphire_7_eax0", "erms", has(&d, FEAT_ERMS), 1);
	expect_u("sapphire_7_eax0", "bad_reads", t.bad_reads, 0);

	/* 0x80000000 not naming an extended leaf: no extended range. */
	tsrc_init(&t, tulsa, ARRAY_SIZE(tulsa));
	tsrc_set(&t, 0x80000000u, 0, 0x00000006, 0, 0, 0);
	decode(&d, &t);
	expect_u("tulsa_no_ext", "max_ext", d.max_ext, 0);
	expect_s("tulsa_no_ext", "brand", d.brand, "");

	/* Rome capped below 0x8000001D: legacy leaves, no 0x8000001D read. */
	tsrc_init(&t, rome, ARRAY_SIZE(rome));
	tsrc_set(&t, 0x80000000u, 0, 0x80000008, 0x68747541, 0x444D4163,
		 0x69746E65);
	t.garbage = true;
	decode(&d, &t);
	expect_u("rome_max_ext_8", "cache_src", d.cache_src,
		 CACHE_SRC_AMD_LEGACY);
	expect_u("rome_max_ext_8", "bad_reads", t.bad_reads, 0);
}

static void test_names(void)
{
	expect_s("names", "feat_erms", feat_name(FEAT_ERMS), "erms");
	expect_s("names", "feat_movdir64b", feat_name(FEAT_MOVDIR64B),
		 "movdir64b");
	expect_s("names", "feat_out_of_range", feat_name(FEAT_COUNT), "?");
	expect_s("names", "cache_topoext",
		 cache_source_name(CACHE_SRC_AMD_TOPOEXT), "0x8000001d");
	expect_s("names", "cache_leaf4", cache_source_name(CACHE_SRC_LEAF4),
		 "leaf4");
	expect_s("names", "cache_legacy",
		 cache_source_name(CACHE_SRC_AMD_LEGACY), "legacy");
	expect_s("names", "tsc_15", tsc_source_name(TSC_SRC_CPUID15),
		 "cpuid-0x15");
	expect_s("names", "tsc_hv", tsc_source_name(TSC_SRC_HV),
		 "hv-0x40000010");
	expect_s("names", "tsc_pit", tsc_source_name(TSC_SRC_PIT), "pit");
}

/* ---- the dump parser ---- */

static int parse(struct cpuid_dump *dump, const char *text, FILE *err)
{
	return cpuid_dump_parse(dump, text, strlen(text), "test", err);
}

static void expect_regs(const char *name, const struct cpuid_dump *dump,
			uint32_t leaf, uint32_t sub, uint32_t eax, uint32_t edx)
{
	struct cpuid_regs r;
	bool found = cpuid_dump_get(dump, leaf, sub, &r);

	result(found && r.eax == eax && r.edx == edx, name,
	       "leaf 0x%x.%u: found=%d eax=0x%x edx=0x%x, want eax=0x%x edx=0x%x",
	       leaf, sub, found, r.eax, r.edx, eax, edx);
}

static void test_dump_parser(void)
{
	static const char aida[] =
		"------[ Logical CPU #0 ]------\n"
		"CPUID Manufacturer : GenuineIntel\n"
		"CPUID CPU Name     : Intel(R) Core(TM)\n"
		"CPUID 00000000: 0000000D-756E6547-6C65746E-49656E69 [GenuineIntel]\r\n"
		"CPUID 00000001: 000306C3-00100800-3FFAFBFF-BFEBFBFF\n"
		"CPUID 00000004: 1C004121-01C0003F-0000003F-00000000\n"
		"CPUID 00000004: 1C004122-01C0003F-0000003F-00000000\n"
		"CPUID 00000004: 1C004143-01C0003F-000001FF-00000000\n"
		"CPUID 00000005: 00000040-00000040-00000003\n"
		"CPUID 0000000D: 00000007-00000340-00000340-00000000 [SL 00]\n"
		"CPUID 0000000D: 00000100-00000240-00000000-00000007 [SL 0B] [x]\n"
		"CPUID 00000010: 00000001-00000002-00000003-00000004\n"
		"CPUID 80000000: 80000008-00000000-00000000-00000000\n"
		"CPUID 80000001: 00000000-00000000-00000021-2C1\n"
		"L1    Data Cache:    32 KB,  8-way Associative, 64-byte Line\n"
		"CPUID 00000000: 0000000D-756E6547-6C65746E-49656E69\n"
		"CPUID 00000001: 11111111-00100800-7FFAFBFF-BFEBFBFF\n";
	struct cpuid_dump dump;
	struct cpuid_source src;
	struct cpuid_regs r;
	FILE *devnull = fopen("/dev/null", "w");

	result(parse(&dump, aida, devnull) == 0, "dump.aida_parses", "-1");
	expect_regs("dump.unlabelled_subleaf0", &dump, 4, 0, 0x1C004121, 0);
	expect_regs("dump.unlabelled_subleaf2", &dump, 4, 2, 0x1C004143, 0);
	expect_regs("dump.label_hex", &dump, 0xd, 0xb, 0x100, 7);
	/* The second CPU's leaf 1 must not replace the first's. */
	expect_regs("dump.first_cpu_only", &dump, 1, 0, 0x000306C3, 0xBFEBFBFF);
	expect_u("dump", "rejected_lines", dump.rejected, 2);
	result(!cpuid_dump_get(&dump, 5, 0, &r), "dump.three_regs_dropped",
	       "leaf 5 was kept");

	cpuid_dump_source(&src, &dump);
	src.query(src.ctx, 1, 0, &r);
	/* The file has OSXSAVE clear; pagebench's boot would set it. */
	expect_u("dump", "osxsave_follows_xsave", (r.ecx >> 27) & 1, 1);
	/* Leaf 0x10 is in the file but above max basic 0xD. */
	src.query(src.ctx, 0x10, 0, &r);
	expect_u("dump", "above_max_reads_zero", r.eax | r.ebx | r.ecx | r.edx,
		 0);
	src.query(src.ctx, 0x80000006u, 0, &r);
	expect_u("dump", "absent_reads_zero", r.eax | r.ebx | r.ecx | r.edx, 0);
	cpuid_dump_free(&dump);

	static const char tool[] =
		"CPU:\n"
		"   0x00000000 0x00: eax=0x0000001c ebx=0x68747541 ecx=0x444d4163 edx=0x69746e65\n"
		"   0x00000001 0x00: eax=0x00b00f21 ebx=0x01020800 ecx=0xf3fa3203 edx=0x178bfbff\n"
		"   0x00000007 0x01: eax=0x00000030 ebx=0x00000000 ecx=0x00000000 edx=0x00000000\n"
		"   0x00000007 0x00: eax=0x00000001 ebx=0xf1bf07ab ecx=0x00405fc6 edx=0x00000110\n"
		"   0x0000000b 0x02: eax=0x00000000 ebx=0x00000000 ecx=0x00000002\n";

	result(parse(&dump, tool, devnull) == 0, "dump.cpuid_tool_parses", "-1");
	expect_regs("dump.tool_subleaf", &dump, 7, 1, 0x30, 0);
	expect_regs("dump.tool_subleaf0", &dump, 7, 0, 1, 0x110);
	expect_u("dump", "tool_rejected", dump.rejected, 1);
	cpuid_dump_source(&src, &dump);
	src.query(src.ctx, 1, 0, &r);
	/* XSAVE clear in the file: OSXSAVE reads clear too. */
	expect_u("dump", "osxsave_cleared", (r.ecx >> 27) & 1, 0);
	cpuid_dump_free(&dump);

	result(parse(&dump, "hello\nworld\n", devnull) < 0, "dump.not_a_dump",
	       "accepted");
	result(parse(&dump, "", devnull) < 0, "dump.empty", "accepted");
	result(parse(&dump, "CPUID 00000001: 00000001-00000002-00000003-00000004\n", devnull) < 0,
	       "dump.no_leaf0", "accepted");
	static const char bin[] = "CPUID 00000000: 0000000D-756E\0\xff\n";
	result(cpuid_dump_parse(&dump, bin, sizeof(bin), "test", devnull) < 0,
	       "dump.binary", "accepted");
	if (devnull)
		fclose(devnull);
}

/* ---- the host CPU, against what Linux says about it ---- */

static bool cpuinfo_flag(const char *flags, const char *name)
{
	size_t n = strlen(name);

	for (const char *p = flags; (p = strstr(p, name)); p += n)
		if ((p == flags || p[-1] == ' ') &&
		    (p[n] == ' ' || p[n] == '\n' || p[n] == '\0'))
			return true;
	return false;
}

static void test_live(void)
{
	static const struct {
		const char *flag;
		enum feat f;
	} map[] = {
		{ "sse2", FEAT_SSE2 }, { "clflush", FEAT_CLFLUSH },
		{ "xsave", FEAT_XSAVE }, { "avx", FEAT_AVX },
		{ "avx2", FEAT_AVX2 }, { "avx512f", FEAT_AVX512F },
		{ "avx512bw", FEAT_AVX512BW },
		{ "erms", FEAT_ERMS }, { "fsrm", FEAT_FSRM },
		{ "clflushopt", FEAT_CLFLUSHOPT }, { "clwb", FEAT_CLWB },
		{ "movdir64b", FEAT_MOVDIR64B }, { "clzero", FEAT_CLZERO },
		{ "hypervisor", FEAT_HYPERVISOR },
	};
	char line[8192], flags[8192] = "", vendor[64] = "";
	struct cpu_desc d;
	FILE *f = fopen("/proc/cpuinfo", "r");

	if (!f) {
		skip("live.cpuinfo", "no /proc/cpuinfo");
		return;
	}
	while (fgets(line, sizeof(line), f)) {
		if (!flags[0] && !strncmp(line, "flags", 5) && strchr(line, ':'))
			snprintf(flags, sizeof(flags), "%s", strchr(line, ':') + 2);
		if (!vendor[0] && !strncmp(line, "vendor_id", 9) &&
		    strchr(line, ':'))
			sscanf(strchr(line, ':') + 1, " %63s", vendor);
	}
	fclose(f);
	if (!flags[0]) {
		skip("live.cpuinfo", "no flags line in /proc/cpuinfo");
		return;
	}

	cpu_describe_live(&d);
	expect_s("live", "vendor", d.vendor, vendor);
	for (size_t i = 0; i < ARRAY_SIZE(map); i++)
		expect_u("live", map[i].flag, has(&d, map[i].f),
			 cpuinfo_flag(flags, map[i].flag));
	result(d.l1d.size_kib > 0 && d.l2.size_kib > 0, "live.caches_found",
	       "l1d=%u l2=%u source=%s", d.l1d.size_kib, d.l2.size_kib,
	       cache_source_name(d.cache_src));
	result(d.line_size >= 32 && d.line_size <= 256, "live.line_size",
	       "line=%u", d.line_size);
}

int main(void)
{
	test_signature();
	test_vendor_brand();
	test_leaf4();
	test_amd();
	test_fallback();
	test_features();
	test_xcr0();
	test_tsc();
	test_hypervisor();
	test_max_leaf();
	test_names();
	test_dump_parser();
	test_live();
	return failures ? 1 : 0;
}
