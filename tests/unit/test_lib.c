// SPDX-License-Identifier: MIT
/*
 * Unit tests of the kernel's pure C code: the formatter (lib/fmt.c), the
 * command-line parser (harness/options/options.h) and the plan (harness/measure/plan.c). The
 * expectations are written from the headers' contracts and the documented
 * option syntax, not copied from the code's output. Also the one sort
 * (lib/sort.c), unsigned and signed. Prints "ok NAME", "FAIL NAME: why"
 * or "skip NAME: why" per check; exits 1 if anything failed.
 */
#include <limits.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include "cpu/cpu.h"
#include "lib/fmt.h"
#include "lib/sat.h"
#include "lib/sort.h"
#include "harness/options/options.h"
#include "harness/options/internal.h"	/* the table's rows, for their defaults */
#include "harness/measure/epochs.h"
#include "harness/measure/plan.h"
#include "variants/string_variants.h"
#include "variants/variants.h"
#include "tests/unit/check.h"

#define BIT(n) (1ull << (n))


static void expect_u(const char *name, uint64_t got, uint64_t want)
{
	result(got == want, name, "got %llu (0x%llx), want %llu (0x%llx)",
	       (unsigned long long)got, (unsigned long long)got,
	       (unsigned long long)want, (unsigned long long)want);
}

static void expect_s(const char *name, const char *got, const char *want)
{
	result(got && !strcmp(got, want), name, "got \"%s\", want \"%s\"",
	       got ? got : "(NULL)", want);
}

/* ---- fmt ---- */

/*
 * fmt_snprintf without the format attribute, for the formats gcc warns
 * about but fmt.c still has to handle.
 */
static size_t fmt_unchecked(char *buf, size_t size, const char *fmt, ...)
{
	va_list ap;
	size_t n;

	va_start(ap, fmt);
	n = fmt_vsnprintf(buf, size, fmt, ap);
	va_end(ap);
	return n;
}

/* One fmt call into a roomy buffer: output and return value. */
#define FMT_WITH(fn, name, want, ...)					\
	do {								\
		char buf_[128];						\
		size_t n_ = fn(buf_, sizeof(buf_), __VA_ARGS__);	\
									\
		result(!strcmp(buf_, want) && n_ == strlen(want), name,	\
		       "got \"%s\" (%zu), want \"%s\" (%zu)", buf_, n_,	\
		       want, strlen(want));				\
	} while (0)
#define FMT(name, want, ...) FMT_WITH(fmt_snprintf, name, want, __VA_ARGS__)

static void test_fmt(void)
{
	char buf[16];
	size_t n;

	FMT("fmt.d", "42", "%d", 42);
	FMT("fmt.d_negative", "-42", "%d", -42);
	FMT("fmt.d_int_min", "-2147483648", "%d", INT_MIN);
	FMT("fmt.d_int_max", "2147483647", "%d", INT_MAX);
	FMT("fmt.i_zero", "0", "%i", 0);
	FMT("fmt.ld_min", "-9223372036854775808", "%ld", LONG_MIN);
	FMT("fmt.u", "4294967295", "%u", UINT_MAX);
	FMT("fmt.x", "deadbeef", "%x", 0xdeadbeefu);
	FMT("fmt.X", "DEADBEEF", "%X", 0xdeadbeefu);
	FMT("fmt.x_zero", "0", "%x", 0u);
	FMT("fmt.lx_64", "123456789abcdef0", "%lx", 0x123456789abcdef0ul);
	FMT("fmt.llx_64", "fedcba9876543210", "%llx", 0xfedcba9876543210ull);
	FMT("fmt.lu_max", "18446744073709551615", "%lu", (unsigned long)UINT64_MAX);
	FMT("fmt.zu", "4096", "%zu", (size_t)4096);
	FMT("fmt.zu_max", "18446744073709551615", "%zu", SIZE_MAX);
	FMT("fmt.s", "a-b", "%s-%s", "a", "b");
	FMT_WITH(fmt_unchecked, "fmt.s_null", "(null)", "%s", (const char *)NULL);
	FMT("fmt.c", "xyz", "x%cz", 'y');
	FMT("fmt.p", "0x1000", "%p", (void *)0x1000);
	FMT("fmt.p_high", "0xffff800000000000", "%p", (void *)0xffff800000000000ul);
	FMT("fmt.percent", "100%", "%d%%", 100);
	FMT("fmt.zero_pad", "000000ff", "%08x", 0xffu);
	FMT("fmt.zero_pad_wide", "12345", "%03d", 12345);
	FMT("fmt.zero_pad_negative", "-0042", "%05d", -42);
	FMT("fmt.space_pad", "   42", "%5d", 42);
	FMT("fmt.left", "ab    |", "%-6s|", "ab");
	FMT_WITH(fmt_unchecked, "fmt.left_wins_over_zero", "7   |", "%-04d|", 7);
	FMT("fmt.s_width", "   ab", "%5s", "ab");
	FMT("fmt.lu_width", "      4096", "%10lu", 4096ul);
	FMT("fmt.plain", "no conversions", "no conversions");

	/* Truncated: as much as fits, NUL-terminated, full length returned. */
	memset(buf, 'Z', sizeof(buf));
	n = fmt_snprintf(buf, 6, "%s=%d", "hello", 12345);
	result(!strcmp(buf, "hello") && n == 11 && buf[6] == 'Z',
	       "fmt.truncate",
	       "got \"%.16s\" n=%zu byte6=%c, want \"hello\" n=11 byte6=Z",
	       buf, n, buf[6]);
	memset(buf, 'Z', sizeof(buf));
	n = fmt_snprintf(buf, 1, "%08x", 1u);
	result(buf[0] == '\0' && buf[1] == 'Z' && n == 8, "fmt.size_1",
	       "byte0=0x%x byte1=%c n=%zu, want 0, Z, 8", buf[0], buf[1], n);
	memset(buf, 'Z', sizeof(buf));
	n = fmt_snprintf(buf + 1, 0, "%d", -123);
	result(buf[0] == 'Z' && buf[1] == 'Z' && n == 4, "fmt.size_0",
	       "bytes %c%c n=%zu, want ZZ (untouched) and 4", buf[0], buf[1],
	       n);
	n = fmt_snprintf(NULL, 0, "%s", "abc");
	expect_u("fmt.size_0_null", n, 3);
	/* Exactly full: the last byte is the NUL. */
	n = fmt_snprintf(buf, 4, "%s", "abc");
	result(!strcmp(buf, "abc") && n == 3, "fmt.exact_fit",
	       "got \"%s\" n=%zu", buf, n);
}

/* ---- options ---- */

static struct options o;

static void parse(const char *cmdline)
{
	options_parse(&o, PROGRAM_KERNEL, cmdline);
}

static void parse_linux(const char *cmdline)
{
	options_parse(&o, PROGRAM_LINUX, cmdline);
}

/*
 * cmdline must give exactly one error, naming the option (key) and
 * mentioning extra (the bad value or the valid choices) when not NULL.
 */
static void expect_error(const char *name, const char *cmdline,
			 const char *key, const char *extra)
{
	parse(cmdline);
	result(o.nerrors == 1 && strstr(o.errors[0], key) &&
	       (!extra || strstr(o.errors[0], extra)), name,
	       "\"%s\": nerrors=%u, first \"%s\"; want one naming \"%s\"%s%s",
	       cmdline, o.nerrors, o.nerrors ? o.errors[0] : "",
	       key, extra ? " and \"" : "", extra ? extra : "");
}

/* The index of op's variant called name in the one table. */
static int variant_index(enum op op, const char *name)
{
	for (unsigned int i = 0; i < variant_count; i++)
		if (variants[i].op == op && !strcmp(variants[i].name, name))
			return (int)i;
	fprintf(stderr, "test_lib: no %s variant %s\n", op_name(op), name);
	return 63;
}

static int clear_index(const char *name)
{
	return variant_index(OP_CLEAR, name);
}

static int copy_index(const char *name)
{
	return variant_index(OP_COPY, name);
}

/* The variants of op among set. */
static uint64_t of_op(uint64_t set, enum op op)
{
	uint64_t m = 0;

	for (unsigned int i = 0; i < variant_count; i++)
		if (variants[i].op == op && ((set >> i) & 1))
			m |= BIT(i);
	return m;
}

static uint64_t all_of(enum op op)
{
	return of_op(~0ull, op);
}

/* What the options select, per table. */
static uint64_t selects(enum op op)
{
	uint64_t m = 0;

	for (unsigned int i = 0; i < variant_count; i++)
		if (option_selects(&o, i))
			m |= BIT(i);
	return of_op(m, op);
}

#define runs_clear() selects(OP_CLEAR)
#define runs_copy() selects(OP_COPY)

static uint64_t all_bits(unsigned int n)
{
	return n >= 64 ? ~0ull : BIT(n) - 1;
}

static void test_options_basic(void)
{
	char longword[300];

	parse(NULL);
	expect_s("opt.default.tag", o.tag, "PB");
	expect_u("opt.default.port", o.console_port, 0x3f8);
	expect_u("opt.default.baud", o.baud, 115200);
	expect_u("opt.default.exit", o.exit, EXIT_AUTO);
	expect_u("opt.default.selftest", o.selftest, SELFTEST_NONE);
	expect_u("opt.default.suite", o.suite, SUITE_ALL);
	expect_u("opt.default.reps", o.reps, 0);
	/* Finished options carry the suite's defaults. */
	/* The hot-buffer passes only when named. */
	expect_u("opt.default.passes", o.passes, suite_default_passes(SUITE_ALL));
	expect_u("opt.default.disable", o.disable, 0);
	expect_s("opt.default.variants", o.variants_arg, "");
	expect_u("opt.default.nerrors", o.nerrors, 0);
	parse("  \t ");
	expect_u("opt.blank.nerrors", o.nerrors, 0);

	parse("/boot/pagebench.elf tag=XEN");
	result(!strcmp(o.tag, "XEN") && !o.nerrors, "opt.image_path_skipped",
	       "tag=%s nerrors=%u", o.tag, o.nerrors);
	parse("tag=XEN");
	result(!strcmp(o.tag, "XEN") && !o.nerrors, "opt.first_word_option",
	       "tag=%s nerrors=%u", o.tag, o.nerrors);
	parse("tag=ABCDEFGHIJKLMNO");
	expect_s("opt.tag_15", o.tag, "ABCDEFGHIJKLMNO");
	expect_error("opt.tag_16", "tag=ABCDEFGHIJKLMNOP", "tag=", NULL);
	expect_s("opt.tag_16_default", o.tag, "PB");
	expect_error("opt.tag_bad_char", "tag=a-b", "tag=", "A-Z");
	expect_error("opt.tag_empty", "tag=", "tag=", NULL);

	parse("console=ttyS1,9600");
	result(o.console_port == 0x2f8 && o.baud == 9600 && !o.nerrors,
	       "opt.console_ttyS1_9600", "port=0x%x baud=%u nerrors=%u",
	       o.console_port, o.baud, o.nerrors);
	parse("console=ttyS3");
	result(o.console_port == 0x2e8 && o.baud == 115200 && !o.nerrors,
	       "opt.console_ttyS3", "port=0x%x baud=%u nerrors=%u",
	       o.console_port, o.baud, o.nerrors);
	parse("console=0x3e8");
	result(o.console_port == 0x3e8 && o.baud == 115200 && !o.nerrors,
	       "opt.console_io_address", "port=0x%x baud=%u nerrors=%u",
	       o.console_port, o.baud, o.nerrors);
	expect_error("opt.console_ttyS4", "console=ttyS4", "console=", "ttyS4");
	expect_error("opt.console_decimal", "console=1016", "console=", NULL);
	expect_error("opt.console_zero", "console=0x0", "console=", NULL);
	expect_error("opt.console_too_high", "console=0x10000", "console=", NULL);
	expect_error("opt.console_bad_baud", "console=ttyS1,9601", "console=",
		     "9601");
	result(o.console_port == 0x3f8 && o.baud == 115200,
	       "opt.console_bad_baud_default", "port=0x%x baud=%u",
	       o.console_port, o.baud);
	expect_error("opt.console_empty_baud", "console=ttyS1,", "console=",
		     NULL);
	expect_error("opt.console_bad_port_good_baud", "console=com1,9600",
		     "console=", "com1");
	result(o.console_port == 0x3f8 && o.baud == 115200,
	       "opt.console_bad_port_default", "port=0x%x baud=%u",
	       o.console_port, o.baud);

	parse("exit=qemu");
	expect_u("opt.exit_qemu", o.exit, EXIT_QEMU);
	parse("exit=halt");
	expect_u("opt.exit_halt", o.exit, EXIT_HALT);
	parse("exit=reboot");
	expect_u("opt.exit_reboot", o.exit, EXIT_REBOOT);
	expect_error("opt.exit_bad", "exit=poweroff", "exit=", "reboot");
	expect_u("opt.exit_bad_default", o.exit, EXIT_AUTO);
	parse("selftest=ud");
	expect_u("opt.selftest_ud", o.selftest, SELFTEST_UD);
	parse("selftest=map");
	expect_u("opt.selftest_map", o.selftest, SELFTEST_MAP);
	expect_error("opt.selftest_bad", "selftest=gp", "selftest=", "gp");

	parse("suite=xen");
	expect_u("opt.suite_xen", o.suite, SUITE_XEN);
	parse("suite=clear");
	expect_u("opt.suite_clear", o.suite, SUITE_CLEAR);
	parse("suite=copy");
	expect_u("opt.suite_copy", o.suite, SUITE_COPY);
	parse("suite=copy suite=all");
	expect_u("opt.suite_all", o.suite, SUITE_ALL);
	expect_error("opt.suite_bad", "suite=fill", "suite=", "fill");

	parse("");
	expect_u("opt.tsc_default", o.tsc, TSC_PICK_AUTO);
	parse("tsc=pmtimer");
	expect_u("opt.tsc_pmtimer", o.tsc, TSC_PICK_PMTIMER);
	expect_error("opt.tsc_bad", "tsc=tsc", "tsc=", "auto cpuid amd hpet pmtimer pit");

	parse("reps=1");
	expect_u("opt.reps_1", o.reps, 1);
	parse("reps=1000");
	expect_u("opt.reps_1000", o.reps, 1000);
	expect_error("opt.reps_0", "reps=0", "reps=", NULL);
	expect_error("opt.reps_1001", "reps=1001", "reps=", "1000");
	expect_error("opt.reps_abc", "reps=abc", "reps=", "abc");
	expect_error("opt.reps_empty", "reps=", "reps=", NULL);
	expect_error("opt.reps_overflow", "reps=18446744073709551617", "reps=",
		     NULL);
	expect_u("opt.reps_bad_default", o.reps, 0);

	parse("foo=1");
	result(o.nerrors == 1 && strstr(o.errors[0], "foo") &&
	       strstr(o.errors[0], "suite="), "opt.unknown_key",
	       "nerrors=%u \"%s\"", o.nerrors, o.nerrors ? o.errors[0] : "");
	expect_error("opt.malformed_word", "tag=X foo", "foo", "key=value");
	expect_error("opt.malformed_eq", "=x", "=x", "key=value");
	expect_error("opt.malformed_first_eq", "/boot/pb.elf =", "'='",
		     "key=value");

	memset(longword, 'a', sizeof(longword));
	memcpy(longword, "tag=", 4);
	longword[sizeof(longword) - 1] = '\0';
	parse(longword);
	result(o.nerrors == 1 && strstr(o.errors[0], "long") &&
	       !strcmp(o.tag, "PB"), "opt.word_too_long",
	       "nerrors=%u \"%s\" tag=%s", o.nerrors,
	       o.nerrors ? o.errors[0] : "", o.tag);

	/* Past OPT_MAX_ERRORS, the messages stop but the count goes on. */
	parse("a=1 b=2 c=3 d=4 e=5 f=6 g=7 h=8 i=9 j=10 k=11");
	result(o.nerrors == 11 && strstr(o.errors[OPT_MAX_ERRORS - 1], "'h'"),
	       "opt.many_errors", "nerrors=%u, last kept \"%s\"", o.nerrors,
	       o.errors[OPT_MAX_ERRORS - 1]);
	parse("exit=x tag=OK reps=5");
	result(o.nerrors == 1 && !strcmp(o.tag, "OK") && o.reps == 5,
	       "opt.error_does_not_stop", "nerrors=%u tag=%s reps=%u",
	       o.nerrors, o.tag, o.reps);
}

static void test_options_passes(void)
{
	parse("passes=l1,l2f");
	result(o.passes == (BIT(PASS_L1) | BIT(PASS_L2F)) && !o.nerrors,
	       "opt.passes_list", "passes=0x%x nerrors=%u", o.passes,
	       o.nerrors);
	parse("passes=mem,hot,cold");
	expect_u("opt.passes_mem_hot_cold", o.passes,
		 BIT(PASS_MEM) | BIT(PASS_HOT) | BIT(PASS_COLD));
	parse("passes=all");
	expect_u("opt.passes_all", o.passes, all_bits(PASS_COUNT));
	expect_error("opt.passes_bogus", "passes=l1,bogus", "passes=",
		     "l1 l1f l2 l2f l3 l3f mem hot cold");
	result(strstr(o.errors[0], "bogus") && o.passes == suite_default_passes(SUITE_ALL),
	       "opt.passes_bogus_default", "\"%s\" passes=0x%x", o.errors[0],
	       o.passes);
	expect_error("opt.passes_empty_name", "passes=l1,,l2", "passes=", NULL);
	expect_error("opt.passes_xen_l3", "suite=xen passes=l3", "passes=",
		     "xen");
	expect_u("opt.passes_xen_l3_default", o.passes, suite_passes(SUITE_XEN));
	parse("passes=l1,l1f,l2,l2f suite=xen");
	result(!o.nerrors && o.passes == 0xf, "opt.passes_xen_ok",
	       "nerrors=%u passes=0x%x", o.nerrors, o.passes);
	expect_error("opt.passes_clear_hot", "suite=clear passes=hot",
		     "passes=", "clear");
	expect_error("opt.passes_clear_cold", "passes=l1,cold suite=clear",
		     "passes=", "clear");
	parse("suite=copy passes=l2,hot,cold");
	result(!o.nerrors && o.passes == (BIT(PASS_L2) | BIT(PASS_HOT) |
					  BIT(PASS_COLD)),
	       "opt.passes_copy_ok", "nerrors=%u passes=0x%x", o.nerrors,
	       o.passes);
	expect_s("opt.pass_name_l2f", passes[PASS_L2F].id, "l2f");
	expect_s("opt.pass_header_l2f", passes[PASS_L2F].header, "L2 w/ flush");
	expect_s("opt.suite_name_xen", suite_name(SUITE_XEN), "xen");
	expect_s("opt.suite_name_bad", suite_name(SUITE_COUNT), "?");
}

/* Whether word is one of the space-separated words of s. */
static bool has_word(const char *s, const char *word)
{
	size_t n = strlen(word);

	for (const char *p = s; (p = strstr(p, word)); p += n)
		if ((p == s || p[-1] == ' ') && (p[n] == ' ' || !p[n]))
			return true;
	return false;
}

/* The first variant of the suite's tables that msg does not name, or NULL. */
static const char *missing_name(const char *msg, bool clear, bool xen_only,
				bool copy)
{
	for (unsigned int i = 0; i < variant_count; i++) {
		const struct variant *v = &variants[i];
		bool wanted = v->op == OP_CLEAR ? clear && (!xen_only || v->xen) : copy;

		if (wanted && !has_word(msg, v->name))
			return v->name;
	}
	return NULL;
}

static void expect_lists_all(const char *name, bool clear, bool xen_only,
			     bool copy)
{
	const char *m = o.nerrors ? missing_name(o.errors[0], clear, xen_only,
						 copy) : "(no error)";

	result(!m, name, "'%s' missing from \"%s\"", m,
	       o.nerrors ? o.errors[0] : "");
}

static void test_options_variants(void)
{
	const uint64_t all_clear = all_of(OP_CLEAR);
	const uint64_t all_copy = all_of(OP_COPY);
	uint64_t xen = 0;

	for (unsigned int i = 0; i < variant_count; i++)
		if (variants[i].xen)
			xen |= BIT(i);
	/* The 2021 experiment had exactly these seven. */
	expect_u("opt.xen_variant_count", __builtin_popcountll(xen), 7);

	parse(NULL);
	expect_u("opt.runs_all.clear", runs_clear(), all_clear);
	expect_u("opt.runs_all.copy", runs_copy(), all_copy);
	parse("suite=xen");
	expect_u("opt.runs_xen.clear", runs_clear(), xen);
	expect_u("opt.runs_xen.copy", runs_copy(), 0);
	parse("suite=copy");
	expect_u("opt.runs_copy.clear", runs_clear(), 0);
	expect_u("opt.runs_copy.copy", runs_copy(), all_copy);
	parse("suite=clear");
	expect_u("opt.runs_clear.clear", runs_clear(), all_clear);
	expect_u("opt.runs_clear.copy", runs_copy(), 0);

	parse("variants=stosb,movsb");
	result(!o.nerrors && runs_clear() == BIT(clear_index("stosb")) &&
	       runs_copy() == BIT(copy_index("movsb")),
	       "opt.variants_stosb_movsb", "nerrors=%u clear=0x%llx copy=0x%llx",
	       o.nerrors, (unsigned long long)runs_clear(),
	       (unsigned long long)runs_copy());
	parse("variants=sse2");
	result(!o.nerrors && runs_clear() == BIT(clear_index("sse2")) &&
	       runs_copy() == BIT(copy_index("sse2")),
	       "opt.variants_sse2_both", "nerrors=%u clear=0x%llx copy=0x%llx",
	       o.nerrors, (unsigned long long)runs_clear(),
	       (unsigned long long)runs_copy());
	/* The suite may come after variants=. */
	parse("variants=sse2,avx suite=clear");
	result(!o.nerrors && runs_clear() == (BIT(clear_index("sse2")) |
					      BIT(clear_index("avx"))) &&
	       runs_copy() == 0, "opt.variants_then_suite",
	       "nerrors=%u clear=0x%llx copy=0x%llx", o.nerrors,
	       (unsigned long long)runs_clear(),
	       (unsigned long long)runs_copy());
	parse("suite=xen variants=clzero");
	result(!o.nerrors && runs_clear() == BIT(clear_index("clzero")) &&
	       runs_copy() == 0, "opt.variants_xen_clzero",
	       "nerrors=%u clear=0x%llx copy=0x%llx", o.nerrors,
	       (unsigned long long)runs_clear(),
	       (unsigned long long)runs_copy());

	expect_error("opt.variants_unknown", "variants=stosb,nope", "variants=",
		     "nope");
	result(runs_clear() == all_clear && runs_copy() == all_copy,
	       "opt.variants_unknown_falls_back", "clear=0x%llx copy=0x%llx",
	       (unsigned long long)runs_clear(),
	       (unsigned long long)runs_copy());
	expect_lists_all("opt.variants_unknown_lists_all", true, false, true);
	expect_error("opt.variants_unknown_clear", "suite=clear variants=nope",
		     "variants=", "nope");
	expect_lists_all("opt.variants_unknown_clear_lists", true, false, false);
	expect_error("opt.variants_unknown_copy", "suite=copy variants=nope",
		     "variants=", "nope");
	expect_lists_all("opt.variants_unknown_copy_lists", false, false, true);
	expect_error("opt.variants_xen_orig", "suite=xen variants=orig",
		     "variants=", "orig");
	result(!strstr(o.errors[0], " orig") && runs_clear() == xen &&
	       runs_copy() == 0, "opt.variants_xen_orig_falls_back",
	       "\"%s\" clear=0x%llx copy=0x%llx", o.errors[0],
	       (unsigned long long)runs_clear(),
	       (unsigned long long)runs_copy());
	expect_lists_all("opt.variants_xen_lists", true, true, false);
	expect_error("opt.variants_clear_movsb", "suite=clear variants=movsb",
		     "variants=", "movsb");
	expect_error("opt.variants_empty", "variants=", "variants=", NULL);
	expect_u("opt.variants_empty_falls_back", runs_clear(), all_clear);
}

/* ---- plan ---- */

#define MIB (1024ull * 1024)

/* A Skylake-like CPU: no AVX-512, no CLZERO, no MOVDIR64B. */
static const struct cpu_desc skylake = {
	.feats = BIT(FEAT_SSE2) | BIT(FEAT_XSAVE) | BIT(FEAT_AVX) |
		 BIT(FEAT_AVX2) | BIT(FEAT_ERMS) | BIT(FEAT_CLFLUSH) |
		 BIT(FEAT_CLFLUSHOPT),
	.xcr0 = 7,
	.l1d = { 32, 64, 8 },
	.l2 = { 1024, 64, 16 },
	.l3 = { 32768, 64, 16 },
	.line_size = 64,
};

static void build(struct plan *p, const char *cmdline,
		  const struct cpu_desc *d, uint64_t mem)
{
	parse(cmdline);
	if (o.nerrors)
		printf("# test_lib: \"%s\": %s\n", cmdline ? cmdline : "", o.errors[0]);
	plan_build(p, &o, d, mem, false);
}

static bool starts_with(const char *s, const char *prefix)
{
	return s && !strncmp(s, prefix, strlen(prefix));
}

#define clear_runs(p) of_op((p)->runs, OP_CLEAR)
#define copy_runs(p) of_op((p)->runs, OP_COPY)

static void test_plan_sizes(void)
{
	struct cpu_desc d = skylake;
	struct buffer_sizes bs;
	unsigned int id;
	struct plan p;

	build(&p, NULL, &d, 1024 * MIB);
	expect_u("plan.nr_l1", p.nr[PASS_L1], 8);
	expect_u("plan.nr_l1f", p.nr[PASS_L1F], 8);
	expect_u("plan.nr_l2", p.nr[PASS_L2], 256);
	expect_u("plan.nr_l2f", p.nr[PASS_L2F], 256);
	expect_u("plan.nr_l3", p.nr[PASS_L3], 8192);
	expect_u("plan.nr_l3f", p.nr[PASS_L3F], 8192);
	expect_u("plan.nr_mem_2x_l3", p.nr[PASS_MEM], 16384);
	expect_u("plan.max_nr", p.max_nr, 16384);
	/* The hot-buffer passes (l1h..memh, last in passes.def) only when named. */
	expect_u("plan.passes_all", p.passes, all_bits(PASS_L1H));
	for (id = 0; id < PASS_COUNT && !p.pass_skip[id]; id++)
		;
	result(id == PASS_COUNT, "plan.nothing_skipped", "%s: %s",
	       id < PASS_COUNT ? passes[id].header : "",
	       id < PASS_COUNT ? p.pass_skip[id] : "");
	/* A clear pass clears half the cache, a copy pass copies a quarter each way. */
	expect_u("plan.bytes_l1_clear", pass_bytes(&p, PASS_L1, OP_CLEAR), 4 * 4096);
	expect_u("plan.bytes_l1_copy", pass_bytes(&p, PASS_L1, OP_COPY), 2 * 4096);
	/* With stats the MEM pass clears one of its placements a call, a huge page (below). */
	expect_u("plan.bytes_mem_clear", pass_bytes(&p, PASS_MEM, OP_CLEAR), HUGE_PAGE_BYTES);
	expect_u("plan.bytes_hot_copy", pass_bytes(&p, PASS_HOT, OP_COPY), 4096);
	expect_u("plan.bytes_hot_clear", pass_bytes(&p, PASS_HOT, OP_CLEAR), 0);
	plan_buffer_sizes(&p, &bs);
	/* Epochs move fill and the work area by up to EPOCH_SHIFT_PAGES. */
	result(bs.fill == (16384 + EPOCH_SHIFT_PAGES) * 4096ull &&
	       bs.work >= (8192 + 3 + EPOCH_SHIFT_PAGES) * 4096ull &&
	       bs.cold >= 2 * COPY_COLD_BYTES, "plan.buffer_sizes",
	       "fill=%zu work=%zu cold=%zu", bs.fill, bs.work, bs.cold);
	/* passes=l1: the work area holds a batch's buffers (half of L2) too. */
	build(&p, "passes=l1", &d, 1024 * MIB);
	plan_buffer_sizes(&p, &bs);
	result(bs.fill == (8 + EPOCH_SHIFT_PAGES) * 4096ull &&
	       bs.work == 512 * 1024 + (1 + EPOCH_SHIFT_PAGES) * 4096ull,
	       "plan.buffer_sizes_batch_room", "fill=%zu work=%zu", bs.fill, bs.work);
	build(&p, "suite=xen passes=l1", &d, 1024 * MIB);
	plan_buffer_sizes(&p, &bs);
	result(bs.fill == 8 * 4096ull && bs.work == (4 + 3) * 4096ull,
	       "plan.buffer_sizes_xen_as_2021", "fill=%zu work=%zu", bs.fill, bs.work);

	/*
	 * 16 MiB: after 2 MiB reserved, 3584 pages, of which 2/3 may be fill:
	 * L2 (256) fits, L3 (8192) and MEM do not.
	 */
	build(&p, NULL, &d, 16 * MIB);
	result(!(p.passes & BIT(PASS_MEM)) && p.nr[PASS_MEM] == 0 &&
	       p.pass_skip[PASS_MEM] && strstr(p.pass_skip[PASS_MEM], "memory"),
	       "plan.mem_skipped_small_ram", "passes=0x%x nr=%zu why=%s",
	       p.passes, p.nr[PASS_MEM], p.pass_skip[PASS_MEM]);
	result(!(p.passes & (BIT(PASS_L3) | BIT(PASS_L3F))) &&
	       p.pass_skip[PASS_L3] && strstr(p.pass_skip[PASS_L3], "memory") &&
	       p.pass_skip[PASS_L3F], "plan.l3_skipped_small_ram",
	       "passes=0x%x why=%s", p.passes, p.pass_skip[PASS_L3]);
	result((p.passes & BIT(PASS_L2)) && p.nr[PASS_L2] == 256 &&
	       !p.pass_skip[PASS_L2] && p.max_nr == 256,
	       "plan.l2_runs_small_ram", "passes=0x%x nr=%zu max_nr=%zu",
	       p.passes, p.nr[PASS_L2], p.max_nr);

	/*
	 * Room for 12000 fill pages, besides what epochs and batches take
	 * (two shifts, half of L2, a guard page): MEM shrinks to that, still
	 * above L3.
	 */
	build(&p, NULL, &d, 2 * MIB + (18000 + 2 * EPOCH_SHIFT_PAGES + 128 + 1) * 4096ull);
	result((p.passes & BIT(PASS_MEM)) && p.nr[PASS_MEM] == 12000 &&
	       p.nr[PASS_L3] == 8192, "plan.mem_capped",
	       "passes=0x%x mem nr=%zu l3 nr=%zu", p.passes, p.nr[PASS_MEM],
	       p.nr[PASS_L3]);

	/* No L3: the L3 passes are skipped, MEM is twice L2. */
	d.l3 = (struct cache_level){ 0 };
	build(&p, NULL, &d, 1024 * MIB);
	result(!(p.passes & (BIT(PASS_L3) | BIT(PASS_L3F))) &&
	       p.pass_skip[PASS_L3] && strstr(p.pass_skip[PASS_L3], "L3") &&
	       p.pass_skip[PASS_L3F], "plan.no_l3_skipped",
	       "passes=0x%x why=%s", p.passes, p.pass_skip[PASS_L3]);
	result((p.passes & BIT(PASS_MEM)) && p.nr[PASS_MEM] == 512 &&
	       !p.pass_skip[PASS_MEM], "plan.no_l3_mem_2x_l2",
	       "passes=0x%x nr=%zu why=%s", p.passes, p.nr[PASS_MEM],
	       p.pass_skip[PASS_MEM]);

	/* An L1D of 8 KiB is 2 pages: too small to measure. */
	d = skylake;
	d.l1d.size_kib = 8;
	build(&p, NULL, &d, 1024 * MIB);
	result(!(p.passes & BIT(PASS_L1)) && p.pass_skip[PASS_L1] &&
	       (p.passes & BIT(PASS_L2)), "plan.tiny_l1_skipped",
	       "passes=0x%x why=%s", p.passes, p.pass_skip[PASS_L1]);

	/* A pass that was not asked for is not reported as skipped. */
	d = skylake;
	d.l3 = (struct cache_level){ 0 };
	build(&p, "passes=l1", &d, 1024 * MIB);
	result(p.passes == BIT(PASS_L1) && !p.pass_skip[PASS_L3] &&
	       p.max_nr == 8, "plan.only_asked_passes",
	       "passes=0x%x why=%s max_nr=%zu", p.passes, p.pass_skip[PASS_L3],
	       p.max_nr);

	/* copy-hot alone: a page each way between guards. */
	build(&p, "suite=copy passes=hot", &skylake, 1024 * MIB);
	plan_buffer_sizes(&p, &bs);
	result(p.passes == BIT(PASS_HOT) && bs.work >= 5 * 4096,
	       "plan.hot_work_area", "passes=0x%x work=%zu", p.passes, bs.work);
}

/*
 * Placements (docs/method.md, "Placements"): with stats the L3 and MEM
 * passes' calls take PLACEMENTS placements of the 2021 region in turn,
 * each at most PLACEMENT_MAX_BYTES to clear, a guard page after each;
 * the work area holds them all, fill a share twice a clear's for each;
 * suite=xen and the other passes keep the 2021 sizes.
 */
static void test_plan_placements(void)
{
	struct cpu_desc d = skylake;
	struct buffer_sizes bs;
	unsigned int id;
	struct plan p;

	build(&p, NULL, &d, 1024 * MIB);
	for (id = 0; id < PASS_COUNT; id++)
		if (p.passes & (1u << id))	/* the hot-buffer passes run only when named */
			result(p.placements[id] == (id == PASS_L3 || id == PASS_L3F ||
						    id == PASS_MEM ? PLACEMENTS : 1),
			       "plan.placements_deep_passes_only", "%s: %u", passes[id].id,
			       p.placements[id]);
	/* L3 32 MiB: a clear placement is a huge page whatever the cache; a copy's its share. */
	expect_u("plan.placement_l3_clear", pass_bytes(&p, PASS_L3, OP_CLEAR), HUGE_PAGE_BYTES);
	expect_u("plan.placement_l3_copy", pass_bytes(&p, PASS_L3, OP_COPY), 63 * 4096ull);
	expect_u("plan.placement_mem_copy", pass_bytes(&p, PASS_MEM, OP_COPY), 127 * 4096ull);
	plan_buffer_sizes(&p, &bs);
	/* 32 placements of a huge page and its guard page; fill as in 2021. */
	result(bs.work == (PLACEMENTS * (HUGE_PAGE_BYTES / 4096 + 1) + 3 + EPOCH_SHIFT_PAGES) *
			  4096ull &&
	       bs.fill == (16384 + EPOCH_SHIFT_PAGES) * 4096ull,
	       "plan.placements_work_area", "work=%zu fill=%zu", bs.work, bs.fill);

	/* A 512 MiB L3 (this project's AMD VM under bhyve): a copy's placement at most 8 MiB. */
	d.l3.size_kib = 512 * 1024;
	build(&p, NULL, &d, 8192 * MIB);
	expect_u("plan.placement_capped_clear", pass_bytes(&p, PASS_MEM, OP_CLEAR),
		 HUGE_PAGE_BYTES);
	expect_u("plan.placement_capped_copy", pass_bytes(&p, PASS_MEM, OP_COPY),
		 PLACEMENT_MAX_BYTES / 2 - 4096ull);
	plan_buffer_sizes(&p, &bs);
	result(bs.work == (PLACEMENTS * (PLACEMENT_MAX_BYTES / 4096) + 3 + EPOCH_SHIFT_PAGES) * 4096ull,
	       "plan.placements_capped_work_area", "work=%zu", bs.work);

	/* A cache too small for placements of 2 pages to copy keeps the 2021 call. */
	d = skylake;
	d.l3.size_kib = 256;
	build(&p, NULL, &d, 1024 * MIB);
	result(p.placements[PASS_L3] == 1 &&
	       pass_bytes(&p, PASS_L3, OP_CLEAR) == 32 * 4096ull,
	       "plan.placements_small_cache", "placements=%u clear=%zu",
	       p.placements[PASS_L3], pass_bytes(&p, PASS_L3, OP_CLEAR));
	/* suite=xen runs no deep pass; asked for one it still has no placements. */
	build(&p, "suite=xen", &skylake, 1024 * MIB);
	for (id = 0; id < PASS_COUNT; id++)
		result(p.placements[id] <= 1, "plan.placements_not_xen", "%s: %u",
		       passes[id].id, p.placements[id]);
}

static void test_plan_choices(void)
{
	struct cpu_desc d = skylake;
	uint64_t xen = 0;
	struct plan p;

	for (unsigned int i = 0; i < variant_count; i++)
		if (variants[i].xen)
			xen |= BIT(i);

	build(&p, NULL, &d, 1024 * MIB);
	/* 0: epochs until precise (test_options_precision). */
	expect_u("plan.reps_default", p.reps, 0);
	build(&p, "suite=xen", &d, 1024 * MIB);
	expect_u("plan.reps_xen", p.reps, 3);
	expect_u("plan.passes_xen", p.passes, BIT(PASS_L1) | BIT(PASS_L1F) |
		 BIT(PASS_L2) | BIT(PASS_L2F));
	result((p.runs & ~xen) == 0 && (p.runs & BIT(clear_index("stosb"))),
	       "plan.xen_runs", "runs=0x%llx", (unsigned long long)p.runs);
	build(&p, "reps=5", &d, 1024 * MIB);
	expect_u("plan.reps_option", p.reps, 5);
	build(&p, "suite=xen reps=7", &d, 1024 * MIB);
	expect_u("plan.reps_option_xen", p.reps, 7);
	build(&p, "suite=clear", &d, 1024 * MIB);
	result(p.passes == all_bits(PASS_HOT) && copy_runs(&p) == 0,
	       "plan.clear_suite", "passes=0x%x copy=0x%llx", p.passes,
	       (unsigned long long)copy_runs(&p));
	build(&p, "suite=copy", &d, 1024 * MIB);
	result(p.passes == all_bits(PASS_L1H) && clear_runs(&p) == 0 &&
	       copy_runs(&p), "plan.copy_suite", "passes=0x%x clear=0x%llx",
	       p.passes, (unsigned long long)clear_runs(&p));
	/* Only clear variants chosen: the copy-only passes do not run. */
	build(&p, "variants=stosb", &d, 1024 * MIB);
	result(!(p.passes & (BIT(PASS_HOT) | BIT(PASS_COLD))) &&
	       (p.passes & BIT(PASS_L1)), "plan.no_copy_no_hot",
	       "passes=0x%x", p.passes);
	expect_u("plan.runs_op_copy", plan_runs_op(&p, OP_COPY), 0);
	expect_u("plan.runs_op_clear", plan_runs_op(&p, OP_CLEAR), 1);

	/* Variants whose feature is missing are left out, the rest run. */
	build(&p, NULL, &d, 1024 * MIB);
	result(!(p.runs & BIT(clear_index("avx512"))) &&
	       !(p.runs & BIT(clear_index("avx512_t"))) &&
	       !(p.runs & BIT(clear_index("clzero"))) &&
	       !(p.runs & BIT(clear_index("movdir64b"))),
	       "plan.clear_missing", "runs=0x%llx", (unsigned long long)p.runs);
	result((p.runs & BIT(clear_index("avx"))) &&
	       (p.runs & BIT(clear_index("sse2"))) &&
	       (p.runs & BIT(clear_index("stosb"))) &&
	       (p.runs & BIT(clear_index("orig"))),
	       "plan.clear_present", "runs=0x%llx", (unsigned long long)p.runs);
	result(!(p.runs & BIT(copy_index("avx512"))) &&
	       !(p.runs & BIT(copy_index("avx512_t"))) &&
	       (p.runs & BIT(copy_index("avx_t"))) &&
	       (p.runs & BIT(copy_index("movsb"))),
	       "plan.copy_runs", "runs=0x%llx", (unsigned long long)p.runs);
	result(p.selected == all_bits(variant_count) &&
	       (p.runs | p.selected) == p.selected &&
	       p.variant_skip[clear_index("avx512")] &&
	       !p.variant_skip[clear_index("avx")], "plan.selected_and_skipped",
	       "selected=0x%llx runs=0x%llx", (unsigned long long)p.selected,
	       (unsigned long long)p.runs);
	d.feats = all_bits(FEAT_COUNT) & ~1ull;
	build(&p, NULL, &d, 1024 * MIB);
	expect_u("plan.every_feature_every_variant", p.runs,
		 all_bits(variant_count));
	d.feats = 0;
	build(&p, "suite=xen", &d, 1024 * MIB);
	expect_u("plan.no_features_xen", p.runs,
		 BIT(clear_index("stosb")) | BIT(clear_index("stosl")) |
		 BIT(clear_index("stosq")));
	d = skylake;
	build(&p, "variants=stosb,movsb", &d, 1024 * MIB);
	expect_u("plan.variants_option", p.runs,
		 BIT(clear_index("stosb")) | BIT(copy_index("movsb")));
	build(&p, "variants=avx512,stosb suite=clear", &d, 1024 * MIB);
	expect_u("plan.variants_option_lacking", p.runs,
		 BIT(clear_index("stosb")));
	result(p.variant_skip[clear_index("avx512")] &&
	       !p.variant_skip[clear_index("avx")], "plan.skip_only_selected",
	       "avx512: %s, avx: %s", p.variant_skip[clear_index("avx512")],
	       p.variant_skip[clear_index("avx")]);
}

/* The reason a clear variant needing f gives on d with cmdline. */
static const char *why_skipped(const struct cpu_desc *d, const char *cmdline,
			       const char *variant)
{
	static struct plan p;

	build(&p, cmdline, d, 1024 * MIB);
	return p.variant_skip[clear_index(variant)];
}

static void test_skip_reasons(void)
{
	struct cpu_desc d = { 0 };
	char name[64];
	const char *why;

	/* Every variant of a CPU without features, except the plain ones. */
	for (unsigned int i = 0; i < variant_count; i++) {
		const struct variant *v = &variants[i];
		struct plan p;

		build(&p, NULL, &d, 1024 * MIB);
		why = p.variant_skip[i];
		snprintf(name, sizeof(name), "skip.%s.%s", op_name(v->op), v->name);
		if (v->need == FEAT_NONE)
			result(!why && ((p.runs >> i) & 1), name, "got \"%s\"", why);
		else
			result(starts_with(why, "needs ") &&
			       strstr(why, feat_name(v->need)), name,
			       "got \"%s\", want \"needs %s...\"",
			       why ? why : "(NULL)", feat_name(v->need));
	}
	d = skylake;
	why = why_skipped(&d, NULL, "avx512");
	result(starts_with(why, "needs avx512f"), "skip.avx512f_with_xsave",
	       "got \"%s\"", why);
	/* CPUID offers AVX, but nothing enabled its state. */
	d.feats &= ~(BIT(FEAT_XSAVE) | BIT(FEAT_AVX) | BIT(FEAT_AVX2));
	d.offered = BIT(FEAT_AVX) | BIT(FEAT_AVX2);
	why = why_skipped(&d, NULL, "avx");
	result(starts_with(why, "needs avx") && strstr(why, "xsave"),
	       "skip.avx_without_xsave", "got \"%s\"", why);
	d.feats |= BIT(FEAT_XSAVE);
	why = why_skipped(&d, NULL, "avx");
	result(starts_with(why, "needs avx") && strstr(why, "XCR0"),
	       "skip.avx_state_not_enabled", "got \"%s\"", why);
}

static void test_disable_force(void)
{
	struct cpu_desc d = skylake;
	const char *why;
	struct plan p;
	unsigned int f;

	parse("disable=erms,avx2");
	result(!o.nerrors && o.disable == (BIT(FEAT_ERMS) | BIT(FEAT_AVX2)),
	       "disable.list", "nerrors=%u disable=0x%llx", o.nerrors,
	       (unsigned long long)o.disable);
	expect_error("disable.unknown", "disable=erms,sse9", "disable=",
		     "sse9");
	for (f = FEAT_NONE + 1; f < FEAT_COUNT; f++)
		if (!has_word(o.errors[0], feat_name(f)))
			break;
	result(f == FEAT_COUNT && !o.disable, "disable.unknown_lists_all",
	       "'%s' missing from \"%s\", disable=0x%llx",
	       f < FEAT_COUNT ? feat_name(f) : "", o.errors[0],
	       (unsigned long long)o.disable);

	why = why_skipped(&d, "disable=avx", "avx");
	result(why && strstr(why, "disable=avx") &&
	       !why_skipped(&d, "disable=avx", "sse2"),
	       "disable.avx_reason", "avx: \"%s\"", why);
	build(&p, "disable=avx", &d, 1024 * MIB);
	result(!(p.runs & BIT(clear_index("avx"))) &&
	       !(p.runs & BIT(copy_index("avx_t"))) &&
	       (p.runs & BIT(clear_index("sse2"))), "disable.avx_plan",
	       "runs=0x%llx", (unsigned long long)p.runs);
	/* The description is what was printed: the plan alone acts on disable=. */
	result(d.feats == skylake.feats, "disable.desc_untouched",
	       "feats=0x%llx", (unsigned long long)d.feats);
	/* Without XSAVE state there is no AVX of any width. */
	why = why_skipped(&d, "disable=xsave", "avx");
	result(why && strstr(why, "disable=xsave"), "disable.xsave_takes_avx",
	       "avx: \"%s\"", why);
	build(&p, "disable=xsave", &d, 1024 * MIB);
	result(!(p.runs & BIT(copy_index("avx"))) &&
	       (p.runs & BIT(clear_index("stosb"))), "disable.xsave_plan",
	       "runs=0x%llx", (unsigned long long)p.runs);
	/* Disabling what the CPU lacks anyway: the usual reason. */
	expect_s("disable.absent_feature",
		 why_skipped(&d, "disable=clzero", "clzero"),
		 "needs clzero (turned off by disable=clzero)");

	/* force= runs what the CPU lacks, and the plan says so. */
	parse("force=movdir64b,clzero");
	result(!o.nerrors && o.force == (BIT(FEAT_MOVDIR64B) | BIT(FEAT_CLZERO)),
	       "force.list", "nerrors=%u force=0x%llx", o.nerrors,
	       (unsigned long long)o.force);
	build(&p, "force=movdir64b", &d, 1024 * MIB);
	result((p.runs & BIT(clear_index("movdir64b"))) &&
	       !p.variant_skip[clear_index("movdir64b")] &&
	       p.forced == BIT(FEAT_MOVDIR64B), "force.runs",
	       "runs=0x%llx forced=0x%llx", (unsigned long long)p.runs,
	       (unsigned long long)p.forced);
	build(&p, "force=avx", &d, 1024 * MIB);
	expect_u("force.present_not_reported", p.forced, 0);
	expect_error("force.unknown", "force=sse9", "force=", "sse9");
}

/* Which program parses decides which options exist. */
static void test_options_hosts(void)
{
	parse_linux("cpu=3 tag=LX");
	result(!o.nerrors && o.cpu == 3 && !strcmp(o.tag, "LX"),
	       "host.linux_cpu", "nerrors=%u cpu=%d \"%s\"", o.nerrors, o.cpu,
	       o.nerrors ? o.errors[0] : "");
	parse_linux(NULL);
	expect_u("host.linux_cpu_default", (uint64_t)(int64_t)o.cpu,
		 (uint64_t)(int64_t)CPU_DEFAULT);
	parse_linux("cpu=4096");
	result(o.nerrors == 1 && strstr(o.errors[0], "cpu=") && o.cpu == CPU_DEFAULT,
	       "host.linux_cpu_bad", "nerrors=%u \"%s\"", o.nerrors,
	       o.nerrors ? o.errors[0] : "");
	expect_error("host.kernel_cpu", "cpu=1", "cpu=", "the kernel");
	result(!strstr(o.errors[0], " cpu=") && strstr(o.errors[0], "suite="),
	       "host.kernel_valid_list", "\"%s\"", o.errors[0]);
	parse_linux("console=ttyS1");
	result(o.nerrors == 1 && strstr(o.errors[0], "console=") &&
	       strstr(o.errors[0], "pagebench-linux") && strstr(o.errors[0], " cpu=") &&
	       !strstr(o.errors[0], " console=") && o.console_port == 0x3f8,
	       "host.linux_console", "nerrors=%u \"%s\"", o.nerrors,
	       o.nerrors ? o.errors[0] : "");
	parse_linux("exit=halt");
	result(o.nerrors == 1 && o.exit == EXIT_AUTO, "host.linux_exit",
	       "nerrors=%u exit=%d", o.nerrors, o.exit);
	/* No image path in an argument vector: a bare first word is an error. */
	parse_linux("foo tag=X");
	result(o.nerrors == 1 && strstr(o.errors[0], "foo") &&
	       !strcmp(o.tag, "X"), "host.linux_no_image_path",
	       "nerrors=%u \"%s\"", o.nerrors, o.nerrors ? o.errors[0] : "");
	options_init(&o, PROGRAM_LINUX);
	options_word(&o, "reps=4");
	options_word(&o, "variants=avx");
	options_word(&o, "suite=copy");
	options_finish(&o);
	result(!o.nerrors && o.reps == 4 && runs_copy() == BIT(copy_index("avx")) &&
	       runs_clear() == 0, "host.words", "nerrors=%u reps=%u", o.nerrors,
	       o.reps);
}

/* What the kernel module takes: the run's options, none that would fault or flood. */
static void test_options_module(void)
{
	options_parse(&o, PROGRAM_MODULE, "suite=xen reps=3 cpu=1 tag=KM passes=l1 force=clzero");
	result(!o.nerrors && o.suite == SUITE_XEN && o.reps == 3 && o.cpu == 1 &&
	       !strcmp(o.tag, "KM") && o.force == BIT(FEAT_CLZERO), "host.module_run",
	       "nerrors=%u \"%s\"", o.nerrors, o.nerrors ? o.errors[0] : "");
	options_parse(&o, PROGRAM_MODULE, NULL);
	result(!o.nerrors && o.cpu == CPU_DEFAULT && o.suite == SUITE_ALL,
	       "host.module_defaults", "nerrors=%u cpu=%d", o.nerrors, o.cpu);
	/* The module spends a time budget as the others do, so it takes time= too. */
	options_parse(&o, PROGRAM_MODULE, "suite=clear time=5s");
	result(!o.nerrors && o.time_ms == 5000, "host.module_time",
	       "nerrors=%u ms=%llu", o.nerrors, (unsigned long long)o.time_ms);
	/* No image path comes first in args=: a bare word is an error. */
	options_parse(&o, PROGRAM_MODULE, "foo");
	result(o.nerrors == 1 && strstr(o.errors[0], "foo"), "host.module_bare_word",
	       "nerrors=%u \"%s\"", o.nerrors, o.nerrors ? o.errors[0] : "");
	static const char *const not_module[] = {
		"selftest=ud", "console=ttyS0", "exit=halt", "tsc=pit",
		"watchdog=5", "cpus=2", "scrub=64M",
	};
	for (unsigned int i = 0; i < sizeof(not_module) / sizeof(not_module[0]); i++) {
		char name[64];

		options_parse(&o, PROGRAM_MODULE, not_module[i]);
		snprintf(name, sizeof(name), "host.module_refuses.%.*s",
			 (int)strcspn(not_module[i], "="), not_module[i]);
		result(o.nerrors == 1 && strstr(o.errors[0], "not an option of the module") &&
		       strstr(o.errors[0], " cpu=") && !strstr(o.errors[0], " selftest="),
		       name, "nerrors=%u \"%s\"", o.nerrors, o.nerrors ? o.errors[0] : "");
	}
	/* suite=scrub is a suite, but not one for a shared machine. */
	options_parse(&o, PROGRAM_MODULE, "suite=scrub");
	result(o.nerrors == 1 && strstr(o.errors[0], "suite=scrub: not in the module") &&
	       o.suite == SUITE_ALL, "host.module_no_scrub", "nerrors=%u suite=%d \"%s\"",
	       o.nerrors, o.suite, o.nerrors ? o.errors[0] : "");
	parse_linux("suite=scrub");
	result(!o.nerrors && o.suite == SUITE_SCRUB, "host.linux_scrub_still", "nerrors=%u",
	       o.nerrors);
}

/*
 * A control character in a word is refused, and the error does not echo
 * it: a newline there would forge the next log line (issue 18).
 */
static void test_options_control(void)
{
	parse("tag=PB\n(PB)");
	result(o.nerrors == 1 && !strcmp(o.tag, "PB") &&
	       !strcmp(o.errors[0], "tag=: control character 0x0a in the value; "
			       "values are printable text"),
	       "opt.control_newline", "nerrors=%u tag=%s \"%s\"", o.nerrors, o.tag,
	       o.nerrors ? o.errors[0] : "");
	parse_linux("variants=avx\x1b[2J");
	result(o.nerrors == 1 && !o.variants_arg[0] && !strchr(o.errors[0], 0x1b),
	       "opt.control_escape", "nerrors=%u \"%s\"", o.nerrors,
	       o.nerrors ? o.errors[0] : "");
	parse_linux("\x7f=1");
	result(o.nerrors == 1 && strstr(o.errors[0], "(0x7f) refused") &&
	       !strchr(o.errors[0], 0x7f), "opt.control_in_key", "\"%s\"",
	       o.nerrors ? o.errors[0] : "");
	/* Bytes of UTF-8 are not control characters: an unknown suite. */
	expect_error("opt.control_utf8_not", "suite=\xc3\xa9", "suite=: unknown", NULL);
}

/*
 * --help's lines: every option of the program, and only those. The text
 * under an option is kept unwrapped, "  key=VALUE\n text...\n", so that a
 * check does not depend on where a line was cut.
 */
static char help_text[8192];
static size_t help_len;
static unsigned int help_long_lines;

static void help_put(const char *line)
{
	size_t n = strlen(line);
	bool under = !strncmp(line, "      ", 6);

	if (n > 78)
		help_long_lines++;
	if (under) {
		line += 5;	/* one space joins it to the line before */
		n -= 5;
		if (help_len && help_text[help_len - 1] == '\n')
			help_len--;
	}
	if (help_len + n + 2 < sizeof(help_text)) {
		memcpy(help_text + help_len, line, n);
		help_len += n;
		help_text[help_len++] = '\n';
		help_text[help_len] = '\0';
	}
}

static void help_of(enum program p)
{
	help_len = 0;
	help_text[0] = '\0';
	help_long_lines = 0;
	options_help(p, help_put);
}

static void test_options_help(void)
{
	help_of(PROGRAM_LINUX);
	result(strstr(help_text, "\n  cpus=N ") && strstr(help_text, "\n  scrub=SIZE ") &&
	       strstr(help_text, "\n  cpu=N ") && strstr(help_text, "\n  selftest=ud ") &&
	       !strstr(help_text, "  console=") && !strstr(help_text, "  watchdog="),
	       "help.linux_keys", "%s", help_text);
	result(strstr(help_text, "\n  suite=all|xen|clear|copy|scrub|strings ") &&
	       strstr(help_text, "Default: epochs until time= is spent (xen 3, scrub 3, strings 11).") &&
	       strstr(help_text, "\n  precision=P% ") &&
	       strstr(help_text, "Default: 1000ms where given without time=.") &&
	       strstr(help_text, "\n  time=T ") && strstr(help_text, "Default: 30s.") &&
	       strstr(help_text, "PASS: l1 l1f l2 l2f l3 l3f mem hot cold l1h l2h l3h memh all."),
	       "help.generated", "%s", help_text);
	expect_u("help.linux_width", help_long_lines, 0);
	help_of(PROGRAM_KERNEL);
	result(strstr(help_text, "\n  selftest=ud|map|smp|nosipi|hang|hang-ap|ud-ap ") &&
	       strstr(help_text, "\n  tsc=auto|cpuid|amd|hpet|pmtimer|pit ") &&
	       strstr(help_text, "Default: 120.") && !strstr(help_text, "  cpu=N"),
	       "help.kernel_keys", "%s", help_text);
	expect_u("help.kernel_width", help_long_lines, 0);
	result(!strstr(help_text, "  stall_limit_ms="), "help.kernel_no_stall_limit",
	       "%s", help_text);
	help_of(PROGRAM_MODULE);
	result(strstr(help_text, "\n  stall_limit_ms=MS ") && strstr(help_text, "Default: 20.") &&
	       strstr(help_text, "\n  cpu=N ") && !strstr(help_text, "  precision="),
	       "help.module_keys", "%s", help_text);
	expect_u("help.module_width", help_long_lines, 0);
}

/* Every field of two options, compared one by one (padding is not). */
static bool same_options(const struct options *a, const struct options *b)
{
	return a->program == b->program && !strcmp(a->tag, b->tag) &&
	       a->console_port == b->console_port && a->baud == b->baud &&
	       a->exit == b->exit && a->selftest == b->selftest &&
	       a->disable == b->disable && a->force == b->force &&
	       a->suite == b->suite && a->tsc == b->tsc && a->reps == b->reps &&
	       a->precision_bp == b->precision_bp && a->budget_ms == b->budget_ms &&
	       a->time_ms == b->time_ms && a->time_over == b->time_over &&
	       a->worth_bp == b->worth_bp && a->passes == b->passes &&
	       !strcmp(a->variants_arg, b->variants_arg) &&
	       a->variants == b->variants && a->str_variants == b->str_variants &&
	       a->nsizes == b->nsizes &&
	       !memcmp(a->sizes, b->sizes, a->nsizes * sizeof(a->sizes[0])) &&
	       a->cpu == b->cpu && a->cpus == b->cpus &&
	       a->scrub_bytes == b->scrub_bytes && a->watchdog_s == b->watchdog_s &&
	       a->stall_limit_ms == b->stall_limit_ms &&
	       a->cycles_off == b->cycles_off && a->nerrors == b->nerrors;
}

/*
 * The defaults of the option table (harness/options/table.c): each row
 * has one; giving a value default as a word changes nothing the parser
 * finishes with (so it is the one the parser applies), and --help says it
 * as the row has it, whole.
 */
static void test_option_defaults(void)
{
	/* A default that depends on other options: words under which it applies. */
	static const struct { const char *key, *with; } applies_with[] = {
		{ "precision", "budget=500ms" }, { "budget", "precision=2%" },
		{ "sizes", "suite=strings" },
	};
	static const enum program programs[] = {
		PROGRAM_KERNEL, PROGRAM_LINUX, PROGRAM_MODULE,
	};
	struct options a, b;
	char name[96], words[160], said[200];
	unsigned int i, j, k;
	size_t n;

	for (i = 0; i < option_def_count; i++) {
		const struct option_def *d = &option_defs[i];
		const char *with = "";	/* time=: where none of the others is given */

		snprintf(name, sizeof(name), "default.one.%s", d->key);
		result(!!d->dflt + !!d->dflt_is + !!d->dflt_fn == 1 &&
		       (!d->dflt_when || d->dflt_applies), name,
		       "dflt=%s dflt_is=%s dflt_fn=%d when=%s", d->dflt, d->dflt_is,
		       !!d->dflt_fn, d->dflt_when);
		for (j = 0; j < sizeof(applies_with) / sizeof(applies_with[0]); j++)
			if (!strcmp(applies_with[j].key, d->key))
				with = applies_with[j].with;
		for (k = 0; k < sizeof(programs) / sizeof(programs[0]); k++) {
			if (!(d->programs & programs[k]))
				continue;
			if (d->dflt) {
				options_parse(&a, programs[k], with);
				snprintf(words, sizeof(words), "%s %s=%s", with, d->key, d->dflt);
				options_parse(&b, programs[k], words);
				snprintf(name, sizeof(name), "default.applied.%s.%u", d->key,
					 programs[k]);
				result(!a.nerrors && !b.nerrors && same_options(&a, &b), name,
				       "\"%s\" and \"%s\" differ: %s", with, words,
				       a.nerrors ? a.errors[0] : b.nerrors ? b.errors[0] : "");
			}
			if (d->dflt_fn)
				continue;
			help_of(programs[k]);
			n = snprintf(said, sizeof(said), ". Default: ");
			for (j = 0; d->dflt && option_is_list(d) && d->dflt[j]; j++)
				n += snprintf(said + n, sizeof(said) - n, "%c%s", d->dflt[j],
					      d->dflt[j] == ',' ? " " : "");
			snprintf(said + n, sizeof(said) - n, "%s%s%s.\n",
				 d->dflt && option_is_list(d) ? "" :
				 d->dflt ? d->dflt : d->dflt_is, d->dflt_when ? " " : "",
				 d->dflt_when ? d->dflt_when : "");
			/* The option's line, "  key=VALUE text...\n" (help_put()). */
			snprintf(words, sizeof(words), "\n  %s=", d->key);
			{
				const char *at = !strncmp(help_text, words + 1, strlen(words + 1)) ?
						 help_text : strstr(help_text, words);
				const char *end = at ? strchr(at + 1, '\n') : NULL;

				n = strlen(said);
				snprintf(name, sizeof(name), "default.help.%s.%u", d->key,
					 programs[k]);
				result(end && (size_t)(end + 1 - at) >= n &&
				       !strncmp(end + 1 - n, said, n), name,
				       "no \"%.*s\" at the end of %s's text", (int)n - 1,
				       said, d->key);
			}
		}
	}
}

/* How many sizes suite=strings measures where sizes= does not say. */
static unsigned int strings_default_nsizes(void)
{
	struct options d;

	options_parse(&d, PROGRAM_LINUX, "suite=strings");
	return d.nsizes;
}

/* stall_limit_ms=: the module's alone, a count of ms with its default. */
static void test_stall_limit_option(void)
{
	struct options m;

	options_parse(&m, PROGRAM_MODULE, "");
	expect_u("stall_limit.default", m.stall_limit_ms, 20);
	options_parse(&m, PROGRAM_MODULE, "stall_limit_ms=5");
	result(!m.nerrors && m.stall_limit_ms == 5, "stall_limit.set", "%u %s",
	       m.stall_limit_ms, m.nerrors ? m.errors[0] : "");
	options_parse(&m, PROGRAM_MODULE, "stall_limit_ms=0");
	result(m.nerrors == 1 && m.stall_limit_ms == 20 &&
	       strstr(m.errors[0], "stall_limit_ms=: bad time '0'; valid: milliseconds from 1 to 10000"),
	       "stall_limit.zero", "%s", m.nerrors ? m.errors[0] : "no error");
	options_parse(&m, PROGRAM_LINUX, "stall_limit_ms=5");
	result(m.nerrors == 1, "stall_limit.not_linux", "%u", m.nerrors);
}

/* suite=scrub's options: cpus= and scrub=, and the plan's region. */
static void test_scrub_options(void)
{
	struct cpu_desc d = skylake;
	struct buffer_sizes bs;
	struct plan p;

	parse("suite=scrub cpus=2 scrub=64M");
	result(!o.nerrors && o.cpus == 2 && o.scrub_bytes == 64 * MIB,
	       "scrub.options", "nerrors=%u cpus=%u bytes=%llu \"%s\"", o.nerrors,
	       o.cpus, (unsigned long long)o.scrub_bytes, o.nerrors ? o.errors[0] : "");
	parse("suite=scrub scrub=1g");
	expect_u("scrub.size_g", o.scrub_bytes, 1024 * MIB);
	parse("suite=scrub scrub=4096K");
	expect_u("scrub.size_k", o.scrub_bytes, 4 * MIB);
	expect_error("scrub.size_small", "suite=scrub scrub=4K", "scrub=", "1M");
	expect_error("scrub.size_not_pages", "suite=scrub scrub=1000000", "scrub=", "4 KiB");
	expect_error("scrub.size_junk", "suite=scrub scrub=12Q", "scrub=", "12Q");
	expect_error("scrub.size_overflow", "suite=scrub scrub=99999999999999T", "scrub=", NULL);
	expect_error("scrub.other_suite", "suite=clear scrub=64M", "scrub=", "suite=scrub");
	expect_u("scrub.other_suite_default", o.scrub_bytes, 0);
	expect_error("scrub.cpus_zero", "cpus=0", "cpus=", "1 to");
	expect_error("scrub.cpus_many", "cpus=257", "cpus=", NULL);
	parse_linux("suite=scrub cpus=3");
	expect_u("scrub.cpus_linux", o.cpus, 3);

	/* The region: the MEM pass's size by default, scrub= when given, memory permitting. */
	build(&p, "suite=scrub", &d, 1024 * MIB);
	result(p.scrub_bytes == 64 * MIB && !p.passes && !p.scrub_skip &&
	       (p.runs & BIT(clear_index("stosb"))) && !(p.runs & BIT(copy_index("movsb"))),
	       "scrub.plan_default", "bytes=%llu passes=0x%x skip=%s",
	       (unsigned long long)p.scrub_bytes, p.passes, p.scrub_skip);
	plan_buffer_sizes(&p, &bs);
	result(bs.scrub == 64 * MIB + 2 * 4096 && !bs.fill && !bs.work && !bs.cold,
	       "scrub.buffers", "scrub=%zu fill=%zu work=%zu cold=%zu", bs.scrub,
	       bs.fill, bs.work, bs.cold);
	build(&p, "suite=scrub scrub=16M cpus=2", &d, 1024 * MIB);
	result(p.scrub_bytes == 16 * MIB && p.cpus == 2, "scrub.plan_given",
	       "bytes=%llu cpus=%u", (unsigned long long)p.scrub_bytes, p.cpus);
	build(&p, "suite=scrub scrub=2G", &d, 1024 * MIB);
	result(!p.scrub_bytes && p.scrub_skip && strstr(p.scrub_skip, "memory"),
	       "scrub.plan_too_big", "bytes=%llu skip=%s",
	       (unsigned long long)p.scrub_bytes, p.scrub_skip);
	build(&p, "suite=clear", &d, 1024 * MIB);
	expect_u("scrub.none_in_other_suites", p.scrub_bytes, 0);
}

/* ---- suite=strings: sizes=, and its variants in options and plan ---- */

/* The index of op's string variant called name. */
static int string_index(enum string_op op, const char *name)
{
	for (unsigned int i = 0; i < string_variant_count; i++)
		if (string_variants[i].op == op && !strcmp(string_variants[i].name, name))
			return (int)i;
	fprintf(stderr, "test_lib: no %s variant %s\n", string_op_name(op), name);
	return 63;
}

static bool sizes_are(const uint16_t *got, unsigned int n, const uint16_t *want,
		      unsigned int nwant)
{
	return n == nwant && !memcmp(got, want, n * sizeof(*got));
}

static void test_options_strings(void)
{
	static const uint16_t sorted[] = { 0, 7, 64, 4096 };
	char word[OPT_WORD_MAX];
	size_t n;

	parse("suite=strings sizes=64,0,4096,7");
	result(!o.nerrors && sizes_are(o.sizes, o.nsizes, sorted, 4),
	       "strings.sizes_sorted", "nerrors=%u nsizes=%u first=%u",
	       o.nerrors, o.nsizes, o.nsizes ? o.sizes[0] : 0);
	parse("sizes=0x10 suite=strings");
	result(!o.nerrors && o.nsizes == 1 && o.sizes[0] == 16,
	       "strings.sizes_hex_any_order", "nerrors=%u nsizes=%u", o.nerrors,
	       o.nsizes);
	expect_error("strings.sizes_4097", "suite=strings sizes=1,4097", "sizes=",
		     "4096");
	expect_u("strings.sizes_bad_default", o.nsizes, strings_default_nsizes());
	expect_error("strings.sizes_word", "suite=strings sizes=abc", "sizes=", "abc");
	expect_error("strings.sizes_negative", "suite=strings sizes=-1", "sizes=", "-1");
	expect_error("strings.sizes_twice", "suite=strings sizes=8,16,8", "sizes=",
		     "twice");
	expect_error("strings.sizes_empty_name", "suite=strings sizes=1,,2",
		     "sizes=", NULL);
	expect_error("strings.sizes_empty", "suite=strings sizes=", "sizes=", NULL);
	n = (size_t)snprintf(word, sizeof(word), "suite=strings sizes=0");
	for (unsigned int i = 1; i < STRINGS_SIZES_MAX; i++)
		n += (size_t)snprintf(word + n, sizeof(word) - n, ",%u", i);
	parse(word);
	result(!o.nerrors && o.nsizes == STRINGS_SIZES_MAX, "strings.sizes_max",
	       "nerrors=%u nsizes=%u", o.nerrors, o.nsizes);
	snprintf(word + n, sizeof(word) - n, ",%u", STRINGS_SIZES_MAX);
	expect_error("strings.sizes_too_many", word, "sizes=", "more than");
	expect_u("strings.sizes_too_many_default", o.nsizes, strings_default_nsizes());
	expect_error("strings.sizes_other_suite", "sizes=8", "sizes=", "suite=strings");
	expect_u("strings.sizes_other_suite_default", o.nsizes, 0);
	parse_linux("suite=strings sizes=8");
	result(!o.nerrors && o.nsizes == 1, "strings.sizes_linux",
	       "nerrors=%u", o.nerrors);

	parse("suite=strings reps=31");
	expect_u("strings.reps_31", o.reps, STRINGS_REPS_MAX);
	expect_error("strings.reps_32", "suite=strings reps=32", "reps=", "31");
	expect_u("strings.reps_32_default", o.reps, suites[SUITE_STRINGS].reps);
	parse("reps=1000");
	expect_u("strings.reps_other_suite_1000", o.reps, 1000);
	expect_error("strings.passes", "suite=strings passes=l1", "passes=",
		     "no passes");

	parse("suite=strings variants=stosb,avx_t");
	result(!o.nerrors && !o.variants &&
	       o.str_variants == (BIT(string_index(STRING_MEMSET, "stosb")) |
				  BIT(string_index(STRING_MEMSET, "avx_t")) |
				  BIT(string_index(STRING_MEMCPY, "avx_t"))),
	       "strings.variants_both_tables", "nerrors=%u variants=0x%llx str=0x%llx",
	       o.nerrors, (unsigned long long)o.variants,
	       (unsigned long long)o.str_variants);
	result(option_selects_string(&o, string_index(STRING_MEMCPY, "avx_t")) &&
	       !option_selects_string(&o, string_index(STRING_MEMCPY, "movsb")),
	       "strings.selects", "str=0x%llx", (unsigned long long)o.str_variants);
	expect_error("strings.variants_page_name", "suite=strings variants=clzero",
		     "variants=", "clzero");
	for (unsigned int i = 0; i < string_variant_count; i++)
		if (!has_word(o.errors[0], string_variants[i].name)) {
			result(false, "strings.variants_lists_all", "'%s' missing from \"%s\"",
			       string_variants[i].name, o.errors[0]);
			break;
		} else if (i + 1 == string_variant_count) {
			result(true, "strings.variants_lists_all", "-");
		}
	expect_error("strings.variants_not_in_clear", "suite=clear variants=stosb_br",
		     "variants=", "stosb_br");
	parse(NULL);
	result(!option_selects_string(&o, 0), "strings.not_in_all", "selected");
}

static void test_plan_strings(void)
{
	/* The issue's default list, from its text. */
	static const uint16_t issue[] = {
		0, 1, 2, 3, 4, 7, 8, 15, 16, 31, 32, 63, 64, 127, 128, 255,
		256, 511, 512, 1023, 1024, 2048, 4095, 4096,
	};
	static const uint16_t given[] = { 1, 3 };
	const int set512 = string_index(STRING_MEMSET, "avx512_t");
	const int cpy512 = string_index(STRING_MEMCPY, "avx512_t");
	struct buffer_sizes bs;
	struct plan p;

	build(&p, "suite=strings", &skylake, 1024 * MIB);
	result(sizes_are(p.sizes, p.nsizes, issue, sizeof(issue) / sizeof(issue[0])),
	       "plan.strings_default_sizes", "nsizes=%u", p.nsizes);
	expect_u("plan.strings_reps", p.reps, 11);
	result(!p.passes && !p.runs && p.str_runs, "plan.strings_no_pages",
	       "passes=0x%x runs=0x%llx str=0x%llx", p.passes,
	       (unsigned long long)p.runs, (unsigned long long)p.str_runs);
	/* Skylake has no AVX-512: both avx512_t routines skipped, with the reason. */
	result(!(p.str_runs & (BIT(set512) | BIT(cpy512))) &&
	       starts_with(p.str_skip[set512], "needs avx512bw") &&
	       starts_with(p.str_skip[cpy512], "needs avx512bw"),
	       "plan.strings_gated", "runs=0x%llx why=%s",
	       (unsigned long long)p.str_runs, p.str_skip[set512]);
	result((p.str_runs & BIT(string_index(STRING_MEMSET, "avx_t"))) &&
	       (p.str_runs & BIT(string_index(STRING_MEMCPY, "movsb"))),
	       "plan.strings_present", "runs=0x%llx", (unsigned long long)p.str_runs);
	plan_buffer_sizes(&p, &bs);
	result(bs.strings >= 7 * 4096, "plan.strings_buffer", "strings=%zu", bs.strings);

	build(&p, "suite=strings disable=avx", &skylake, 1024 * MIB);
	expect_s("plan.strings_disable_reason",
		 p.str_skip[string_index(STRING_MEMCPY, "avx_t")],
		 "needs avx (turned off by disable=avx)");
	build(&p, "suite=strings sizes=3,1", &skylake, 1024 * MIB);
	result(sizes_are(p.sizes, p.nsizes, given, 2), "plan.strings_sizes_option",
	       "nsizes=%u", p.nsizes);
	build(&p, "suite=strings variants=movsb", &skylake, 1024 * MIB);
	expect_u("plan.strings_variants", p.str_runs,
		 BIT(string_index(STRING_MEMCPY, "movsb")));
	build(&p, "suite=strings variants=avx512_t", &skylake, 1024 * MIB);
	plan_buffer_sizes(&p, &bs);
	result(!p.str_runs && bs.strings == 0, "plan.strings_nothing_runs",
	       "runs=0x%llx strings=%zu", (unsigned long long)p.str_runs, bs.strings);
	build(&p, NULL, &skylake, 1024 * MIB);
	plan_buffer_sizes(&p, &bs);
	result(!p.str_runs && bs.strings == 0, "plan.all_no_strings",
	       "runs=0x%llx strings=%zu", (unsigned long long)p.str_runs, bs.strings);
}

/* precision= and budget= (harness/measure/epochs.h): parsing, errors, the plan. */
static void test_options_precision(void)
{
	static const struct { const char *arg; unsigned int bp; } good[] = {
		{ "precision=1%", 100 }, { "precision=0.5%", 50 },
		{ "precision=2", 200 }, { "precision=1.25%", 125 },
		{ "precision=0.1%", 10 }, { "precision=50%", 5000 },
	};
	static const char *const bad[] = {
		"precision=0%", "precision=0.05%", "precision=51%", "precision=abc",
		"precision=1.%", "precision=.5%", "precision=1.234%", "precision=1%%",
		"precision=-1", "precision=", "precision=99999999999999999999",
	};
	static const struct { const char *arg; uint64_t ms; } budgets[] = {
		{ "budget=500ms", 500 }, { "budget=2s", 2000 }, { "budget=10ms", 10 },
		{ "budget=3600s", 3600000 },
	};
	static const char *const bad_budgets[] = {
		"budget=5ms", "budget=3601s", "budget=2", "budget=2m", "budget=ms",
		"budget=1.5s", "budget=",
	};
	static const struct { const char *arg; unsigned int bp; } worths[] = {
		{ "worth=3%", 300 }, { "worth=0.5%", 50 }, { "worth=2.5", 250 },
		{ "worth=0.1%", 10 }, { "worth=50%", 5000 },
	};
	static const char *const bad_worths[] = {
		"worth=0%", "worth=0.05%", "worth=2.25%", "worth=51%", "worth=abc",
		"worth=", "worth=3%%",
	};
	struct plan p;
	unsigned int i;
	char name[80];

	for (i = 0; i < sizeof(good) / sizeof(good[0]); i++) {
		parse(good[i].arg);
		snprintf(name, sizeof(name), "opt.precision.%s", good[i].arg + 10);
		result(!o.nerrors && o.precision_bp == good[i].bp, name,
		       "bp=%u errors=%u %s", o.precision_bp, o.nerrors,
		       o.nerrors ? o.errors[0] : "");
	}
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		snprintf(name, sizeof(name), "opt.precision_bad.%s", bad[i] + 10);
		expect_error(name, bad[i], "precision=", "valid: a per cent from 0.1% to 50%");
		result(o.precision_bp == 0, name, "kept %u", o.precision_bp);
	}
	for (i = 0; i < sizeof(budgets) / sizeof(budgets[0]); i++) {
		parse(budgets[i].arg);
		snprintf(name, sizeof(name), "opt.budget.%s", budgets[i].arg + 7);
		result(!o.nerrors && o.budget_ms == budgets[i].ms, name,
		       "ms=%llu errors=%u", (unsigned long long)o.budget_ms, o.nerrors);
	}
	for (i = 0; i < sizeof(bad_budgets) / sizeof(bad_budgets[0]); i++) {
		snprintf(name, sizeof(name), "opt.budget_bad.%s", bad_budgets[i] + 7);
		expect_error(name, bad_budgets[i], "budget=", "like 500ms or 2s");
	}
	/* worth= (harness/decide/answer.h): one decimal, as the answer lines print it. */
	parse("");
	result(o.worth_bp == 300, "opt.worth.default",
	       "bp=%u", o.worth_bp);
	for (i = 0; i < sizeof(worths) / sizeof(worths[0]); i++) {
		parse(worths[i].arg);
		snprintf(name, sizeof(name), "opt.worth.%s", worths[i].arg + 6);
		result(!o.nerrors && o.worth_bp == worths[i].bp, name,
		       "bp=%u errors=%u %s", o.worth_bp, o.nerrors,
		       o.nerrors ? o.errors[0] : "");
	}
	for (i = 0; i < sizeof(bad_worths) / sizeof(bad_worths[0]); i++) {
		snprintf(name, sizeof(name), "opt.worth_bad.%s", bad_worths[i] + 6);
		expect_error(name, bad_worths[i], "worth=",
			     "valid: a per cent from 0.1% to 50% in steps of 0.1%");
		result(o.worth_bp == 300, name, "kept %u", o.worth_bp);
	}
	/* One or the other: fixed reps, or epochs until precise. */
	expect_error("opt.precision_and_reps", "reps=5 precision=2%", "reps=", "give one of them");
	result(o.reps == 5 && !o.precision_bp, "opt.precision_and_reps_keeps_reps",
	       "reps=%u bp=%u", o.reps, o.precision_bp);
	expect_error("opt.budget_and_reps", "budget=2s reps=5", "reps=", "budget=");
	expect_error("opt.precision_xen", "suite=xen precision=2%", "precision=",
		     "suite xen runs a fixed number of reps");
	expect_error("opt.budget_strings", "suite=strings budget=1s", "budget=",
		     "suite strings");
	expect_error("opt.precision_scrub", "suite=scrub precision=1%", "precision=", NULL);

	/* time=: its values, and the errors of the other budgets. */
	parse("time=30s");
	result(!o.nerrors && o.time_ms == 30000, "opt.time.30s", "ms=%llu",
	       (unsigned long long)o.time_ms);
	parse("time=1500ms");
	result(!o.nerrors && o.time_ms == 1500, "opt.time.1500ms", "ms=%llu",
	       (unsigned long long)o.time_ms);
	expect_error("opt.time_bad.999ms", "time=999ms", "time=", "from 1s to 86400s");
	expect_error("opt.time_bad.unitless", "time=30", "time=", "like 30s");
	expect_error("opt.time_bad.86401s", "time=86401s", "time=", NULL);
	expect_error("opt.time_and_reps", "time=5s reps=5", "reps=", "time=");
	expect_error("opt.time_xen", "suite=xen time=5s", "time=",
		     "suite xen runs a fixed number of reps");

	/* The plan: the run's time budget by default, or the options. */
	build(&p, NULL, &skylake, 1024 * MIB);
	result(!p.reps && p.stats && p.time_ms == 30000 && !p.time_over &&
	       !p.time_not_a_cpu && !p.precision_bp && !p.budget_ms &&
	       p.batch_room == 512 * 1024,
	       "plan.time_default", "reps=%u stats=%d time=%llu bp=%u ms=%llu room=%zu",
	       p.reps, p.stats, (unsigned long long)p.time_ms, p.precision_bp,
	       (unsigned long long)p.budget_ms, p.batch_room);
	build(&p, "precision=0.5% budget=250ms", &skylake, 1024 * MIB);
	result(!p.reps && !p.time_ms && p.precision_bp == 50 && p.budget_ms == 250,
	       "plan.precision_given", "bp=%u ms=%llu", p.precision_bp,
	       (unsigned long long)p.budget_ms);
	build(&p, "precision=2%", &skylake, 1024 * MIB);
	result(!p.time_ms && p.precision_bp == 200 && p.budget_ms == 1000,
	       "plan.precision_alone", "bp=%u ms=%llu", p.precision_bp,
	       (unsigned long long)p.budget_ms);
	build(&p, "budget=250ms time=10s", &skylake, 1024 * MIB);
	result(p.time_ms == 10000 && p.time_over && !p.budget_ms && !p.precision_bp,
	       "plan.time_wins", "time=%llu over=%d ms=%llu", (unsigned long long)p.time_ms,
	       p.time_over, (unsigned long long)p.budget_ms);
	/* No CPU runs it: time='s default is the first round; a given time= stands. */
	parse(NULL);
	plan_build(&p, &o, &skylake, 1024 * MIB, true);
	result(p.time_ms == TIME_NOT_A_CPU_MS && p.time_not_a_cpu,
	       "plan.time_not_a_cpu_default", "time=%llu not_a_cpu=%d",
	       (unsigned long long)p.time_ms, p.time_not_a_cpu);
	parse("time=30s");
	plan_build(&p, &o, &skylake, 1024 * MIB, true);
	result(p.time_ms == 30000 && !p.time_not_a_cpu, "plan.time_not_a_cpu_given",
	       "time=%llu not_a_cpu=%d", (unsigned long long)p.time_ms, p.time_not_a_cpu);
	parse("time=3s time=abc");
	plan_build(&p, &o, &skylake, 1024 * MIB, true);
	result(o.nerrors && !p.time_not_a_cpu, "plan.time_not_a_cpu_bad_word_counts_as_given",
	       "errors=%u time=%llu not_a_cpu=%d", o.nerrors, (unsigned long long)p.time_ms,
	       p.time_not_a_cpu);
	build(&p, "reps=7", &skylake, 1024 * MIB);
	result(p.reps == 7 && p.stats && !p.precision_bp, "plan.reps_fixed",
	       "reps=%u bp=%u", p.reps, p.precision_bp);
	/* suite=xen: the 2021 experiment, no epochs, no batches, no room for them. */
	build(&p, "suite=xen", &skylake, 1024 * MIB);
	result(p.reps == 3 && !p.stats && !p.precision_bp && !p.batch_room,
	       "plan.xen_no_stats", "reps=%u stats=%d bp=%u", p.reps, p.stats,
	       p.precision_bp);
}

/* ---- sort ---- */

static bool u64_equal(const uint64_t *a, const uint64_t *b, unsigned int n)
{
	return !memcmp(a, b, n * sizeof(*a));
}

static bool i64_equal(const int64_t *a, const int64_t *b, unsigned int n)
{
	return !memcmp(a, b, n * sizeof(*a));
}

/* Sums that stop at the type's ends (lib/sat.h), and are exact below them. */
static void test_sat(void)
{
	result(sat_add_u64(UINT64_MAX - 1, 1) == UINT64_MAX &&
	       sat_add_u64(UINT64_MAX - 1, 2) == UINT64_MAX &&
	       sat_add_u64(UINT64_MAX, UINT64_MAX) == UINT64_MAX &&
	       sat_add_u64(40, 2) == 42, "lib.sat_add_u64", "%llu",
	       (unsigned long long)sat_add_u64(UINT64_MAX - 1, 2));
	result(sat_add_i64(INT64_MAX, INT64_MAX) == INT64_MAX &&
	       sat_add_i64(INT64_MAX, 1) == INT64_MAX &&
	       sat_add_i64(INT64_MIN, -1) == INT64_MIN &&
	       sat_add_i64(INT64_MAX, INT64_MIN) == -1 &&
	       sat_add_i64(-40, -2) == -42, "lib.sat_add_i64", "%lld",
	       (long long)sat_add_i64(INT64_MAX, 1));
}

static void test_sort(void)
{
	/* Values past 2^63 show a sort that compares as signed. */
	uint64_t u[] = { 7, UINT64_MAX, 0, 1ull << 63, 7, 3, (1ull << 63) - 1, 1 };
	static const uint64_t u_want[] = {
		0, 1, 3, 7, 7, (1ull << 63) - 1, 1ull << 63, UINT64_MAX,
	};
	/* Negative values show a signed sort that compares as unsigned. */
	int64_t v[] = { 5, -1, INT64_MAX, 0, INT64_MIN, -7, 5, -1, 1 };
	static const int64_t v_want[] = {
		INT64_MIN, -7, -1, -1, 0, 1, 5, 5, INT64_MAX,
	};
	/* Sorting the first 3 leaves the rest as it was, sign bits too. */
	int64_t part[] = { 2, -2, 0, -5, INT64_MIN };
	static const int64_t part_want[] = { -2, 0, 2, -5, INT64_MIN };
	uint64_t one = UINT64_MAX, none = 42;
	static uint64_t down[300];
	unsigned int i, misplaced = 0;

	sort_u64(u, 8);
	result(u64_equal(u, u_want, 8), "sort.u64",
	       "got %llu,%llu,%llu,%llu,%llu,%llu,%llu,%llu",
	       (unsigned long long)u[0], (unsigned long long)u[1],
	       (unsigned long long)u[2], (unsigned long long)u[3],
	       (unsigned long long)u[4], (unsigned long long)u[5],
	       (unsigned long long)u[6], (unsigned long long)u[7]);
	sort_u64(&one, 1);
	sort_u64(&none, 0);
	result(one == UINT64_MAX && none == 42, "sort.u64_one_and_none",
	       "one=%llu none=%llu", (unsigned long long)one,
	       (unsigned long long)none);
	for (i = 0; i < 300; i++)
		down[i] = 299 - i;
	sort_u64(down, 300);
	for (i = 0; i < 300; i++)
		misplaced += down[i] != i;
	result(!misplaced, "sort.u64_reversed", "%u of 300 misplaced", misplaced);

	sort_i64(v, 9);
	result(i64_equal(v, v_want, 9), "sort.i64",
	       "got %lld,%lld,%lld,%lld,%lld,%lld,%lld,%lld,%lld",
	       (long long)v[0], (long long)v[1], (long long)v[2],
	       (long long)v[3], (long long)v[4], (long long)v[5],
	       (long long)v[6], (long long)v[7], (long long)v[8]);
	sort_i64(part, 3);
	result(i64_equal(part, part_want, 5), "sort.i64_prefix",
	       "got %lld,%lld,%lld,%lld,%lld", (long long)part[0],
	       (long long)part[1], (long long)part[2], (long long)part[3],
	       (long long)part[4]);
}

int main(void)
{
	/* Every line out before a crash, should a check crash. */
	setvbuf(stdout, NULL, _IOLBF, 0);
	test_fmt();
	test_sort();
	test_sat();
	test_options_basic();
	test_options_passes();
	test_options_variants();
	test_options_hosts();
	test_options_module();
	test_options_control();
	test_options_help();
	test_option_defaults();
	test_stall_limit_option();
	test_plan_sizes();
	test_plan_placements();
	test_plan_choices();
	test_skip_reasons();
	test_disable_force();
	test_scrub_options();
	test_options_strings();
	test_plan_strings();
	test_options_precision();
	return failures ? 1 : 0;
}
