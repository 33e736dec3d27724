/* SPDX-License-Identifier: MIT */
/*
 * Host unit test of every clear and copy variant in the variants/ .asm files.
 *
 * Each variant runs on page-aligned buffers with a guard page on each side,
 * for several region sizes, and must leave exactly the right bytes in the
 * region and the guards untouched. A second check per variant calls it with
 * known values in the callee-saved registers and checks they survive and
 * that the direction flag is clear on return, as the SysV ABI requires.
 *
 * Output: one line per check, "ok NAME", "FAIL NAME: why" or
 * "skip NAME: why"; the exit status is 1 when anything failed.
 */
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "variants/variants.h"
#include "variants/string_variants.h"
#include "cpu/live.h"
#include "tests/unit/abi.h"

/* Region sizes in pages: one page, a few, and enough for a long REP. */
static const unsigned sizes[] = { 1, 3, 8 };
#define MAX_PAGES	8
#define BUF_BYTES	((MAX_PAGES + 2) * PAGE_SIZE)

/* Fill seeds, distinct so that dst before a copy never looks like src. */
#define SEED_CLEAR	1u
#define SEED_SRC	2u
#define SEED_DST	3u

static uint8_t *src, *dst, *want_src, *want_dst;
static int failures;

static void result(const char *verdict, const char *name, const char *fmt, ...)
{
	va_list ap;

	printf("%s %s", verdict, name);
	if (fmt) {
		printf(": ");
		va_start(ap, fmt);
		vprintf(fmt, ap);
		va_end(ap);
	}
	printf("\n");
	fflush(stdout);
	if (verdict[0] == 'F')
		failures++;
}

/*
 * A byte that depends on the seed and on its index in the buffer, so a byte
 * copied from the wrong page or offset differs from the right one (with
 * overwhelming probability over a page). Never 0, so a byte a clear routine
 * skipped is always seen.
 */
static uint8_t pattern(uint32_t seed, size_t i)
{
	uint64_t x = ((uint64_t)seed << 40) ^ i;

	x *= 0x9e3779b97f4a7c15ull;
	x ^= x >> 31;
	x *= 0xbf58476d1ce4e5b9ull;
	x ^= x >> 29;
	return (uint8_t)x ? (uint8_t)x : 0xa5;
}

static void fill(uint8_t *p, size_t len, uint32_t seed)
{
	for (size_t i = 0; i < len; i++)
		p[i] = pattern(seed, i);
}

/*
 * Compare a buffer of npages region pages between two guard pages with what
 * it should hold. On the first difference, say where it is in why.
 */
static bool same(const char *what, const uint8_t *got, const uint8_t *want,
		 unsigned npages, char *why, size_t whylen)
{
	size_t len = (npages + 2) * PAGE_SIZE;
	size_t i;

	for (i = 0; i < len && got[i] == want[i]; i++)
		;
	if (i == len)
		return true;

	if (i < PAGE_SIZE)
		snprintf(why, whylen, "%u pages: %s guard before, offset 0x%zx: 0x%02x, want 0x%02x",
			 npages, what, i, got[i], want[i]);
	else if (i >= (npages + 1) * PAGE_SIZE)
		snprintf(why, whylen, "%u pages: %s guard after, offset 0x%zx: 0x%02x, want 0x%02x",
			 npages, what, i - (npages + 1) * PAGE_SIZE, got[i], want[i]);
	else
		snprintf(why, whylen, "%u pages: %s page %zu offset 0x%zx: 0x%02x, want 0x%02x",
			 npages, what, i / PAGE_SIZE - 1, i % PAGE_SIZE, got[i], want[i]);
	return false;
}

static bool regs_survive(const void *fn, uintptr_t a0, uintptr_t a1, uintptr_t a2,
			 char *why, size_t whylen)
{
	uint64_t ret;

	return abi_call_checked(fn, a0, a1, a2, &ret, why, whylen);
}

/*
 * A routine that faults (say, an instruction the CPU lacks although
 * cpu_has() said otherwise) fails its check instead of ending the test.
 */
static sigjmp_buf trap;

static void on_signal(int sig)
{
	siglongjmp(trap, sig);
}

static void catch_signals(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGILL, &sa, NULL);
	sigaction(SIGSEGV, &sa, NULL);
	sigaction(SIGBUS, &sa, NULL);
	sigaction(SIGFPE, &sa, NULL);
}

typedef bool check_fn(const struct variant *v, char *why, size_t whylen);

/* Run one check, turning a signal into a failure. */
static void check(const char *name, check_fn *fn, const struct variant *variant)
{
	char why[256] = "";
	int sig;

	sig = sigsetjmp(trap, 1);
	if (sig) {
		result("FAIL", name, "killed by signal %d (%s)", sig, strsignal(sig));
		return;
	}
	if (fn(variant, why, sizeof(why)))
		result("ok", name, NULL);
	else
		result("FAIL", name, "%s", why);
}

/*
 * One variant over 1, 3 and 8 pages: a clear leaves zeros, a copy leaves
 * src's bytes, and nothing else changes (src included, guards included).
 */
static bool variant_ok(const struct variant *v, char *why, size_t whylen)
{
	for (unsigned s = 0; s < sizeof(sizes) / sizeof(sizes[0]); s++) {
		unsigned n = sizes[s];
		size_t len = (n + 2) * PAGE_SIZE;
		uint8_t *from = src + PAGE_SIZE, *to = dst + PAGE_SIZE;
		bool copy = v->op == OP_COPY;

		fill(src, len, SEED_SRC);
		fill(dst, len, copy ? SEED_DST : SEED_CLEAR);
		memcpy(want_src, src, len);
		memcpy(want_dst, dst, len);
		if (copy)
			memcpy(want_dst + PAGE_SIZE, from, n * PAGE_SIZE);
		else
			memset(want_dst + PAGE_SIZE, 0, n * PAGE_SIZE);

		variant_call(v, to, copy ? from : NULL, n * PAGE_SIZE);

		if (!same("dst", dst, want_dst, n, why, whylen) ||
		    !same("src", src, want_src, n, why, whylen))
			return false;
	}
	return true;
}

/* A page routine gets one page, a range routine two. */
static bool regs_ok(const struct variant *v, char *why, size_t whylen)
{
	uintptr_t to = (uintptr_t)(dst + PAGE_SIZE);
	uintptr_t from = v->op == OP_COPY ? (uintptr_t)(src + PAGE_SIZE) : 0;
	size_t bytes = v->shape == SHAPE_RANGE ? 2 * PAGE_SIZE : PAGE_SIZE;

	return regs_survive((const void *)v->fn, to, from, bytes, why, whylen);
}

/*
 * Each entry has a name unique within its table, a routine, a shape, a
 * known feature and a description.
 */
static void check_table(void)
{
	for (unsigned i = 0; i < variant_count; i++) {
		const struct variant *v = &variants[i];

		if (!v->name || !*v->name || !v->what || !*v->what) {
			result("FAIL", "table", "entry %u has no name or description", i);
			return;
		}
		if (!v->fn || (v->shape != SHAPE_PAGE && v->shape != SHAPE_RANGE) ||
		    (unsigned)v->op >= OP_COUNT) {
			result("FAIL", "table", "%s: no routine, or a bad shape or op", v->name);
			return;
		}
		if ((unsigned)v->need >= FEAT_COUNT) {
			result("FAIL", "table", "%s: need %d is not a feature", v->name, v->need);
			return;
		}
		for (unsigned j = 0; j < i; j++) {
			if (variants[j].op == v->op && !strcmp(v->name, variants[j].name)) {
				result("FAIL", "table", "%s appears twice in %s", v->name,
				       op_name(v->op));
				return;
			}
		}
	}
	result("ok", "table", NULL);
}

/* ---- variant_call()'s batches and variants_configure() ---- */

/* What the recording routine saw: each call's dst and bytes. */
#define MAX_CALLS 8
static struct { char *dst; size_t bytes; } calls[MAX_CALLS];
static unsigned ncalls;

static void record(void *d, const void *s, size_t bytes)
{
	(void)s;
	if (ncalls < MAX_CALLS)
		calls[ncalls].dst = d, calls[ncalls].bytes = bytes;
	ncalls++;
}

/*
 * A clear range routine gets at most CLEAR_RANGE_BATCH per call, in order
 * and back to back; a copy range routine gets the region in one call. The
 * routine records and writes nothing, so the addresses need no memory.
 */
static void check_batches(void)
{
	struct variant v = { "rec", OP_CLEAR, SHAPE_RANGE, STORE_T, record,
			     FEAT_NONE, REGS_GPR, false, "" };
	char *base = (char *)(uintptr_t)0x100000;
	size_t bytes = 2 * (size_t)CLEAR_RANGE_BATCH + 3 * PAGE_SIZE;
	size_t want[] = { CLEAR_RANGE_BATCH, CLEAR_RANGE_BATCH, 3 * PAGE_SIZE };
	int ok;

	ncalls = 0;
	variant_call(&v, base, NULL, bytes);
	ok = ncalls == 3;
	for (unsigned i = 0; ok && i < 3; i++)
		ok = calls[i].bytes == want[i] &&
		     calls[i].dst == base + i * (size_t)CLEAR_RANGE_BATCH;
	result(ok ? "ok" : "FAIL", "variant_call/clear_range_batches",
	       ok ? NULL : "%u calls, first %zu bytes", ncalls, calls[0].bytes);

	ncalls = 0;
	variant_call(&v, base, NULL, CLEAR_RANGE_BATCH);
	ok = ncalls == 1 && calls[0].bytes == CLEAR_RANGE_BATCH;
	result(ok ? "ok" : "FAIL", "variant_call/clear_range_one_batch",
	       ok ? NULL : "%u calls", ncalls);

	v.op = OP_COPY;
	ncalls = 0;
	variant_call(&v, base, base + bytes, bytes);
	ok = ncalls == 1 && calls[0].bytes == bytes && calls[0].dst == base;
	result(ok ? "ok" : "FAIL", "variant_call/copy_range_whole",
	       ok ? NULL : "%u calls", ncalls);
}

/*
 * variant_calls() counts the entries variant_call() makes: each shape and
 * op, a whole batch, a batch and a page over, and one page. The recording
 * routine writes nothing; page routines see the page they are given.
 */
static void check_calls(void)
{
	static const struct { enum op op; enum variant_shape shape; } kinds[] = {
		{ OP_CLEAR, SHAPE_PAGE }, { OP_COPY, SHAPE_PAGE },
		{ OP_CLEAR, SHAPE_RANGE }, { OP_COPY, SHAPE_RANGE },
	};
	static const size_t sizes[] = { PAGE_SIZE, 8 * PAGE_SIZE, CLEAR_RANGE_BATCH,
					CLEAR_RANGE_BATCH + PAGE_SIZE };
	char *base = (char *)(uintptr_t)0x100000;
	unsigned int k, i, bad = 0;

	for (k = 0; k < sizeof(kinds) / sizeof(kinds[0]); k++)
		for (i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
			struct variant v = { "rec", kinds[k].op, kinds[k].shape, STORE_T,
					     record, FEAT_NONE, REGS_GPR, false, "" };

			ncalls = 0;
			variant_call(&v, base, kinds[k].op == OP_COPY ? base : NULL, sizes[i]);
			bad += variant_calls(&v, sizes[i]) != ncalls;
		}
	result(bad ? "FAIL" : "ok", "variant_calls/as_variant_call_does",
	       bad ? "%u of 16 counts differ" : NULL, bad);
}

extern uint32_t clear_clzero_lines;
extern int64_t clear_clzero_neg_step;

/*
 * clear_clzero_sf's step from the CLFLUSH line size, as Xen's
 * early_cpu_init(): capped at 128; 64 (AMD's CLZERO line) where the size
 * is 0 or not a power of two and the variant runs only by force=.
 */
static void check_configure(void)
{
	static const struct { uint32_t line, lines; int64_t neg; } cases[] = {
		{ 64, 64, -64 }, { 32, 128, -32 }, { 128, 32, -128 },
		{ 2040, 32, -128 }, { 0, 64, -64 }, { 96, 64, -64 },
	};
	struct cpu_desc d = { 0 };
	char name[64];

	for (unsigned i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		d.clflush_line = cases[i].line;
		variants_configure(&d);
		snprintf(name, sizeof(name), "variants_configure/clflush_%u",
			 cases[i].line);
		if (clear_clzero_lines == cases[i].lines &&
		    clear_clzero_neg_step == cases[i].neg)
			result("ok", name, NULL);
		else
			result("FAIL", name, "%u lines, step %lld", clear_clzero_lines,
			       (long long)clear_clzero_neg_step);
	}
}

/* ---- memcpy_orig's direction, as Linux chooses it ---- */

/*
 * 64 bytes through an 8-byte overlap show which way memcpy_orig walked:
 * it loads each 32-byte block whole before storing it, so forward (blocks
 * 0 then 1) and backward (1 then 0) leave different bytes. Linux goes
 * backward when src's low address byte is below dst's as signed bytes
 * (cmp %dil,%sil; jl); the two cases below are ones where the (dst - src)
 * mod 4 KiB rule pagebench had before picks the other way.
 */
static void model_copy(uint8_t *buf, size_t d, size_t s, int backward)
{
	uint8_t blk[32];

	for (int k = 0; k < 2; k++) {
		size_t off = 32 * (size_t)(backward ? 1 - k : k);

		memcpy(blk, buf + s + off, 32);
		memcpy(buf + d + off, blk, 32);
	}
}

static void check_memcpy_orig_direction(void)
{
	static const struct { size_t src, dst; int backward; const char *name; } cases[] = {
		{ 0x00, 0x08, 1, "memcpy_orig/dst_ahead_low_bytes_0_8_backward" },
		{ 0x78, 0x80, 0, "memcpy_orig/dst_ahead_low_bytes_78_80_forward" },
		{ 0x08, 0x00, 0, "memcpy_orig/dst_behind_low_bytes_8_0_forward" },
		{ 0x80, 0x78, 1, "memcpy_orig/dst_behind_low_bytes_80_78_backward" },
	};
	uint8_t *buf = aligned_alloc(PAGE_SIZE, PAGE_SIZE), want[PAGE_SIZE];

	if (!buf) {
		result("FAIL", "memcpy_orig/direction", "out of memory");
		return;
	}
	for (unsigned i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		for (unsigned j = 0; j < PAGE_SIZE; j++)
			buf[j] = want[j] = (uint8_t)(j * 7 + 1);
		model_copy(want, cases[i].dst, cases[i].src, cases[i].backward);
		memcpy_orig(buf + cases[i].dst, buf + cases[i].src, 64);
		result(memcmp(buf, want, PAGE_SIZE) ? "FAIL" : "ok", cases[i].name,
		       memcmp(buf, want, PAGE_SIZE) ? "copied the other way" : NULL);
	}
	free(buf);
}

int main(void)
{
	struct cpu_desc d;
	char name[64];

	setvbuf(stdout, NULL, _IOLBF, 0);
	cpu_describe_live(&d);

	src = aligned_alloc(PAGE_SIZE, BUF_BYTES);
	dst = aligned_alloc(PAGE_SIZE, BUF_BYTES);
	want_src = malloc(BUF_BYTES);
	want_dst = malloc(BUF_BYTES);
	if (!src || !dst || !want_src || !want_dst) {
		result("FAIL", "setup", "out of memory");
		return 1;
	}
	catch_signals();

	check_table();
	check_batches();
	check_calls();
	check_configure();
	check_memcpy_orig_direction();
	variants_configure(&d);

	for (unsigned i = 0; i < variant_count; i++) {
		const struct variant *v = &variants[i];

		snprintf(name, sizeof(name), "%s/%s", op_name(v->op), v->name);
		if (!cpu_has(&d, v->need)) {
			result("skip", name, "host CPU lacks %s", feat_name(v->need));
			snprintf(name, sizeof(name), "%s/%s/abi", op_name(v->op), v->name);
			result("skip", name, "host CPU lacks %s", feat_name(v->need));
			continue;
		}
		check(name, variant_ok, v);
		snprintf(name, sizeof(name), "%s/%s/abi", op_name(v->op), v->name);
		check(name, regs_ok, v);
	}

	return failures ? 1 : 0;
}
