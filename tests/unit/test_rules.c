// SPDX-License-Identifier: MIT
/*
 * Unit tests of harness/decide/rules.c on build/gen/rules.c, the selection rules
 * of rules/ as C tables.
 *
 * Without arguments: the picks of CPUs described here, worked out from
 * the rows by hand (the K8 steppings of Linux's REP_GOOD, an Intel CPU
 * with and without MISC_ENABLE.FAST_STRING and with it unknown, an AMD
 * CPU with ERMS, the 2021 file's machines that name no CPU), and the eras'
 * labels. Prints "ok NAME" or "FAIL NAME:
 * why" (tests/unit/check.h).
 *
 * With --picks DUMP [0|1]: decodes a recorded CPUID dump (fast_string as
 * given, else unknown) and prints every pick of every entry point of both
 * kernels, one line each, for a person checking a row against a CPU:
 *     KERNEL|ENTRY|VERSION|VARIANT CELL or ?|NEEDS|ASSUMING=CELL;...
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cpu/cpu.h"
#include "harness/decide/rules.h"
#include "tests/unit/check.h"
#include "tools/cpuid_dump.h"

#define PICKS_MAX 16

static struct cpu_desc cpu(const char *vendor, unsigned int family,
			   unsigned int model, unsigned int stepping,
			   uint64_t feats)
{
	struct cpu_desc d = { .family = family, .model = model,
			      .stepping = stepping, .feats = feats };

	snprintf(d.vendor, sizeof(d.vendor), "%s", vendor);
	return d;
}

/* The variant cell of a row as rules/selection.rules writes it. */
static const char *cell(const struct pick_rule *r, char *buf, size_t len)
{
	if (r->needs_variant)
		snprintf(buf, len, "needs %s", r->needs_variant);
	else
		snprintf(buf, len, "%s", r->variant);
	return buf;
}

/* "VERSION=CELL" of every pick, "VERSION=?(fast_string=1:CELL,...)" when unknown. */
static void picks_text(char *out, size_t len, enum rule_kernel k, const char *entry,
		       const struct rule_facts *f)
{
	struct rule_pick p[PICKS_MAX];
	unsigned int n, i, a;
	size_t at = 0;
	char c[64];

	n = rule_picks(k, entry, f, p, PICKS_MAX);
	out[0] = '\0';
	for (i = 0; i < n; i++) {
		at += snprintf(out + at, len - at, "%s%s=", i ? " " : "", p[i].version);
		if (p[i].rule) {
			at += snprintf(out + at, len - at, "%s", cell(p[i].rule, c, sizeof(c)));
			continue;
		}
		at += snprintf(out + at, len - at, "?(");
		for (a = 0; a < p[i].nalts; a++)
			at += snprintf(out + at, len - at, "%s%s:%s", a ? "," : "",
				       p[i].alt[a].assuming,
				       cell(p[i].alt[a].rule, c, sizeof(c)));
		at += snprintf(out + at, len - at, ")");
	}
}

static void expect(const char *name, enum rule_kernel k, const char *entry,
		   const struct cpu_desc *d, int fast_string, const char *want)
{
	char got[512];
	struct rule_facts f;

	rule_facts_init(&f, d, fast_string);
	picks_text(got, sizeof(got), k, entry, &f);
	result(!strcmp(got, want), name, "got \"%s\", want \"%s\"", got, want);
}

#define BIT(f) (1ull << FEAT_##f)

/* picks_text() on facts that name no CPU (pagebench-decide's cpu vendor=?). */
static void expect_unnamed(const char *name, enum rule_kernel k, const char *entry,
			   uint64_t feats, uint64_t known, int fast_string,
			   const char *want)
{
	struct cpu_desc d = { .feats = feats };
	struct rule_facts f;
	char got[512];

	rule_facts_init(&f, &d, fast_string);
	f.cpu_known = false;
	f.feats_known = known;
	picks_text(got, sizeof(got), k, entry, &f);
	result(!strcmp(got, want), name, "got \"%s\", want \"%s\"", got, want);
}

/*
 * Jan Beulich's 2021 file: erms= and fsrm= etc. per machine, no vendor,
 * family or model, no MSR. ERMS=1 picks REP STOSB before REP_GOOD is
 * read, with fast strings on (the default); where ERMS is 0, REP_GOOD
 * decides, and it hangs on the vendor: unknown.
 */
static void check_unnamed(void)
{
	uint64_t known = BIT(ERMS) | BIT(FSRM) | BIT(FSRS);

	expect_unnamed("2021.erms.clear_page", RULE_LINUX, "clear_page", BIT(ERMS), known,
		       FACT_UNKNOWN, ">=5.4=?(fast_string=1:stosb)");
	expect_unnamed("2021.erms.clear_pages", RULE_LINUX, "clear_pages", BIT(ERMS), known,
		       FACT_UNKNOWN, ">=7.0=?(fast_string=1:stosb_all)");
	expect_unnamed("2021.erms.fast_strings_on", RULE_LINUX, "clear_page", BIT(ERMS),
		       known, 1, ">=5.4 <7.0=stosb >=7.0=stosb");
	expect_unnamed("2021.no_erms.clear_page", RULE_LINUX, "clear_page", 0, known,
		       FACT_UNKNOWN, ">=5.4=?()");
	/* memset from 6.4: no FSRS, no FSRM, so no vendor matters: known. */
	expect_unnamed("2021.erms.memset", RULE_LINUX, "memset", BIT(ERMS), known,
		       FACT_UNKNOWN, ">=5.4 <6.4=?(fast_string=1:stosb) >=6.4=orig");
}

static void check_builtin(void)
{
	/* Linux REP_GOOD on K8: CPUID.1 EAX in [0x0f48, 0x0f50) or >= 0x0f58. */
	struct cpu_desc k8c = cpu("AuthenticAMD", 0xf, 0x4, 8, 0);
	struct cpu_desc k8b = cpu("AuthenticAMD", 0xf, 0x4, 7, 0);
	struct cpu_desc k8e = cpu("AuthenticAMD", 0xf, 0x27, 2, 0);
	/* An Intel Haswell (family 6, model 0x3c): ERMS, no FSRM. */
	struct cpu_desc hsw = cpu("GenuineIntel", 0x6, 0x3c, 3, BIT(ERMS) | BIT(CLFLUSH));
	/* An AMD Zen 4: ERMS, FSRM, CLZERO with a 64-byte CLFLUSH line. */
	struct cpu_desc zen = cpu("AuthenticAMD", 0x19, 0x11, 1,
				  BIT(ERMS) | BIT(FSRM) | BIT(CLZERO) | BIT(CLFLUSH) |
				  BIT(CLZEROLINE));
	/* The same with a CLFLUSH line that is not a power of two. */
	struct cpu_desc zen96 = cpu("AuthenticAMD", 0x19, 0x11, 1,
				    BIT(ERMS) | BIT(FSRM) | BIT(CLZERO) | BIT(CLFLUSH));
	struct cpu_desc odd = cpu("  Shanghai  ", 0x7, 0x1b, 0, BIT(ERMS));

	expect("k8.stepping_c", RULE_LINUX, "clear_page", &k8c, FACT_UNKNOWN,
	       ">=5.4 <7.0=stosq >=7.0=stosq");
	expect("k8.stepping_b", RULE_LINUX, "clear_page", &k8b, FACT_UNKNOWN,
	       ">=5.4 <7.0=orig >=7.0=orig");
	expect("k8.rev_e", RULE_LINUX, "copy_page", &k8e, FACT_UNKNOWN, ">=5.4=movsq");
	/*
	 * Fast strings off clear REP_GOOD and ERMS from Dothan on, before 6.15
	 * (the cleared-caps mask outlives init_intel()'s family 6 REP_GOOD) as
	 * after: a Haswell picks alike in every era.
	 */
	expect("intel.fast_string_unknown", RULE_LINUX, "clear_page", &hsw, FACT_UNKNOWN,
	       ">=5.4=?(fast_string=1:stosb,fast_string=0:orig)");
	expect("intel.fast_string_1", RULE_LINUX, "clear_page", &hsw, 1,
	       ">=5.4 <7.0=stosb >=7.0=stosb");
	expect("intel.fast_string_0", RULE_LINUX, "clear_page", &hsw, 0,
	       ">=5.4 <7.0=orig >=7.0=orig");
	expect("intel.copy_page", RULE_LINUX, "copy_page", &hsw, 0, ">=5.4=regs");
	expect("intel.copy_page_fast_strings", RULE_LINUX, "copy_page", &hsw, 1,
	       ">=5.4=movsq");
	expect("intel.xen_cold", RULE_XEN, "clear_page_cold", &hsw, 1, ">=4.21=sse2");
	/* 4.21.0 (ERMS) and 4.21.1 on (XEN_REP_MOVSB) pick alike on Intel: one era. */
	expect("intel.xen_memcpy", RULE_XEN, "memcpy", &hsw, FACT_UNKNOWN,
	       "4.15-4.20=movsq >=4.21=?(fast_string=1:movsb,fast_string=0:movsq_br)");
	expect("amd.xen_cold", RULE_XEN, "clear_page_cold", &zen, FACT_UNKNOWN,
	       ">=4.21=clzero_sf");
	/* Xen drops CLZERO where the line is 0 or not a power of two. */
	expect("amd.xen_cold_odd_line", RULE_XEN, "clear_page_cold", &zen96,
	       FACT_UNKNOWN, ">=4.21=sse2");
	expect("amd.xen_2021", RULE_XEN, "clear_page", &zen, FACT_UNKNOWN, "4.15-4.20=sse2");
	/*
	 * Family 0x19: no XEN_REP_MOVSB from 4.21.1. The era 4.21 to 4.21.1 is
	 * no row's own range (4.21.0 is 4.21.0 to 4.21.1), so it is named as an era.
	 */
	expect("amd.xen_memcpy", RULE_XEN, "memcpy", &zen, FACT_UNKNOWN,
	       "4.15-4.20=movsq >=4.21 <4.21.1=movsb >=4.21.1=movsq_br");
	expect("amd.memset_fsrs", RULE_LINUX, "memset", &zen, FACT_UNKNOWN,
	       ">=5.4 <6.4=stosb >=6.4=stosb");
	/*
	 * Zhaoxin's vendor string has spaces (the cpu line drops them). No rule
	 * gives it REP_GOOD: copy_page is unknown, not guessed, and has no
	 * alternatives (no MSR bit would settle it).
	 */
	expect("other_vendor", RULE_LINUX, "clear_page", &odd, 1,
	       ">=5.4 <7.0=stosb >=7.0=stosb");
	expect("other_vendor.no_erms", RULE_LINUX, "copy_page",
	       &odd, 1, ">=5.4=?()");
	/* Xen's shanghai.c sets no XEN_REP_MOVSB: known, not unknown. */
	expect("shanghai.xen_memcpy", RULE_XEN, "memcpy", &odd, FACT_UNKNOWN,
	       "4.15-4.20=movsq >=4.21 <4.21.1=movsb >=4.21.1=movsq_br");
	check_unnamed();
}

/* Every entry point of both kernels, in table order. */
static int print_picks(const char *path, int fast_string)
{
	struct cpuid_dump dump = { 0 };
	struct cpuid_source src;
	struct cpu_desc d;
	struct rule_facts f;
	const char *seen[64];
	unsigned int nseen = 0, i, j, n, a, k;
	char c[64];

	if (cpuid_dump_load(&dump, path, stderr))
		return 2;
	cpuid_dump_source(&src, &dump);
	cpu_decode(&d, &src, cpu_xcr0_wanted(&src));
	rule_facts_init(&f, &d, fast_string);
	for (i = 0; i < pick_rule_count; i++) {
		const struct pick_rule *r = &pick_rules[i];
		struct rule_pick p[PICKS_MAX];

		for (j = 0; j < nseen && strcmp(seen[j], r->entry); j++)
			;
		if (j < nseen || nseen == 64)
			continue;
		seen[nseen++] = r->entry;
		for (k = 0; k < RULE_KERNELS; k++) {
			n = rule_picks(k, r->entry, &f, p, PICKS_MAX);
			for (j = 0; j < n; j++) {
				printf("%s|%s|%s|%s|", rule_kernel_name(k), r->entry,
				       p[j].version, p[j].rule ? cell(p[j].rule, c, sizeof(c)) : "?");
				for (a = 0; !p[j].rule && a < p[j].unknown.n; a++)
					printf("%s%s", a ? "," : "", p[j].unknown.name[a]);
				printf("|");
				for (a = 0; a < p[j].nalts; a++)
					printf("%s%s=%s", a ? ";" : "", p[j].alt[a].assuming,
					       cell(p[j].alt[a].rule, c, sizeof(c)));
				printf("\n");
			}
		}
	}
	cpuid_dump_free(&dump);
	return 0;
}

int main(int argc, char **argv)
{
	if (argc > 2 && !strcmp(argv[1], "--picks"))
		return print_picks(argv[2], argc > 3 ? atoi(argv[3]) : FACT_UNKNOWN);
	check_builtin();
	return check_exit();
}
