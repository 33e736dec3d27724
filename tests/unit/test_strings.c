// SPDX-License-Identifier: MIT
/*
 * Host unit test of every short-string variant (variants/strings.def):
 * the memset and memcpy routines must behave exactly like libc's.
 *
 * For each variant the CPU can run, four checks:
 *   contents  every n from 0 to SMALL_MAX (640) and around each power of
 *             two up to 8 KiB, every dst misalignment 0..63 (memcpy: every src
 *             misalignment too, so every relative offset): the return
 *             value is dst, every byte of the range is right and the
 *             GUARD bytes on each side are untouched (memcpy: and the
 *             source too). memset runs with fill values whose high bit
 *             is set, passed as negative ints and with junk above them,
 *             and the bytes around the range never equal the fill, so a
 *             stray store always shows.
 *   abi       on every one of those calls: rbx, rbp, r12-r15 preserved
 *             and DF clear on return.
 *   bounds    ranges that end right before, or start right after, an
 *             unmapped page, and n = 0 pointing into one: any access
 *             outside [dst, dst + n) or [src, src + n) faults.
 *   vzeroupper the dirty-upper-state bits of XINUSE (XGETBV 1) are clear
 *             after the call, so SSE code after it pays no transition.
 * A variant whose feature is missing gets a "skip" line per check saying
 * so. `disable=feat[,feat]` on the command line treats features as
 * missing, to show that path on a CPU that has everything.
 *
 * Before the variants, deliberately broken routines must each fail the
 * check meant to catch them: a test that cannot fail proves nothing.
 *
 * Output: "ok NAME", "FAIL NAME: why" or "skip NAME: why" (check.h).
 */
#include <cpuid.h>
#include <setjmp.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "variants/string_variants.h"
#include "cpu/live.h"
#include "tests/unit/abi.h"
#include "tests/unit/check.h"

#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))

#define PAGE		4096u
#define GUARD		64u	/* bytes watched on each side of a range */
#define MISALIGN	64u	/* dst and src offsets 0..63 from a line start */
/*
 * Every n up to here: past the head (64 bytes), two trips of the widest
 * loop (4 zmm, 256 bytes) and a full masked tail (64) of memset_avx512_t
 * and memcpy_avx512_t, so every way in and out of every loop is taken.
 */
#define SMALL_MAX	640u

/* Beyond SMALL_MAX: each of these, one less and one more. */
static const size_t pow2_sizes[] = { 512, 1024, 2048, 4096, 8192 };
#define LARGEST		(8192u + 1)

/*
 * memset fill arguments: the int passed and the byte memset must store,
 * (unsigned char)c. 0x80 and 0xff have the high bit that a sign-extending
 * broadcast spreads into the other bytes; -1 and -128 are the same bytes
 * as negative ints; 0x15a has a bit above the low byte to be ignored.
 */
static const struct {
	int arg;
	uint8_t byte;
} fills[] = {
	{ 0x00, 0x00 }, { 0xff, 0xff }, { 0x80, 0x80 }, { -1, 0xff },
	{ -128, 0x80 }, { 0x7f, 0x7f }, { 0x15a, 0x5a },
};

/* The upper half of rsi under an int argument: the ABI leaves it junk. */
#define JUNK_HIGH	0xdeadbeef00000000ull

static size_t sizes[SMALL_MAX + 1 + 3 * ARRAY_SIZE(pow2_sizes)];
static unsigned int nsizes;

/* One window: GUARD, up to MISALIGN - 1 of offset, LARGEST, GUARD. */
#define WINDOW		(GUARD + MISALIGN + LARGEST + GUARD)
#define WINDOW_PAGES	((WINDOW + PAGE - 1) / PAGE)

/*
 * Page-aligned buffers, so an offset from them is a misalignment, and
 * dst - src modulo 4 KiB (which memcpy_orig looks at) is dst's offset
 * minus src's.
 */
static uint8_t *dbuf, *sbuf;	/* where the routines write and read */
static uint8_t *src_ref;	/* what sbuf holds, to see it unchanged */
static uint8_t *poison;		/* src_ref ^ nonzero noise: never the right byte */
static uint8_t *set_poison[ARRAY_SIZE(fills)];	/* fill ^ nonzero noise */
static uint8_t *set_want[ARRAY_SIZE(fills)];	/* the fill byte throughout */

/* ---- calling a routine and watching the ABI ---- */

/*
 * sc_call_xinuse(fn, a0, a1, a2): VZEROUPPER, call fn(a0, a1, a2), and
 * return XINUSE (XGETBV with ECX = 1) as the routine left it.
 */
uint64_t sc_call_xinuse(const void *fn, uint64_t a0, uint64_t a1, uint64_t a2);
__asm__(
	".pushsection .text\n"
	".globl sc_call_xinuse\n"
	".type sc_call_xinuse, @function\n"
	"sc_call_xinuse:\n"
	"	push	%rbx\n"		/* realigns rsp for the call */
	"	mov	%rdi, %rax\n"
	"	mov	%rsi, %rdi\n"
	"	mov	%rdx, %rsi\n"
	"	mov	%rcx, %rdx\n"
	"	vzeroupper\n"
	"	call	*%rax\n"
	"	mov	$1, %ecx\n"
	"	xgetbv\n"
	"	shl	$32, %rdx\n"
	"	or	%rdx, %rax\n"
	"	pop	%rbx\n"
	"	ret\n"
	".size sc_call_xinuse, . - sc_call_xinuse\n"
	".popsection\n");

/*
 * The call being made, kept up to date before each call so that a
 * failure (or a fault, which leaves no time to ask) can say which it was.
 */
static struct {
	const char *where;	/* placement, for the bounds check */
	size_t n, dmis, smis;
	int c;
	bool copy;
} cur;

static void describe_call(char *buf, size_t len)
{
	int k;

	k = snprintf(buf, len, "n=%zu", cur.n);
	if (cur.where)
		k += snprintf(buf + k, len - k, " %s", cur.where);
	k += snprintf(buf + k, len - k, " dst%%64=%zu", cur.dmis);
	if (cur.copy)
		snprintf(buf + k, len - k, " src%%64=%zu", cur.smis);
	else
		snprintf(buf + k, len - k, " c=%d", cur.c);
}

/* What one check collects over all its calls: the first ABI breach. */
struct abi {
	bool broken;
	char why[192];
};

static uint64_t call(const void *fn, uint64_t a0, uint64_t a1, uint64_t a2,
		     struct abi *abi)
{
	char what[96], why[160];
	uint64_t ret;

	if (abi_call_checked(fn, a0, a1, a2, &ret, why, sizeof(why)) || abi->broken)
		return ret;
	abi->broken = true;
	describe_call(what, sizeof(what));
	snprintf(abi->why, sizeof(abi->why), "%.90s: %.96s", what, why);
	return ret;
}

/* ---- faults become failures ---- */

static sigjmp_buf trap;
static volatile sig_atomic_t trap_armed;
static void *volatile fault_addr;

static void on_signal(int sig, siginfo_t *si, void *uc)
{
	(void)uc;
	if (!trap_armed) {
		signal(sig, SIG_DFL);
		raise(sig);
		return;
	}
	fault_addr = si->si_addr;
	siglongjmp(trap, sig);
}

static void catch_signals(void)
{
	static const int sigs[] = { SIGILL, SIGSEGV, SIGBUS, SIGFPE };
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = on_signal;
	sa.sa_flags = SA_SIGINFO;
	sigemptyset(&sa.sa_mask);
	for (unsigned int i = 0; i < ARRAY_SIZE(sigs); i++)
		sigaction(sigs[i], &sa, NULL);
}

/* ---- buffers ---- */

/*
 * bytes (whole pages) of read-write memory between two unmapped pages:
 * a routine that runs away faults at once, and fails its check, rather
 * than overwriting the test's own memory.
 */
static uint8_t *map(size_t bytes)
{
	uint8_t *p = mmap(NULL, bytes + 2 * PAGE, PROT_READ | PROT_WRITE,
			  MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED)
		return NULL;
	if (mprotect(p, PAGE, PROT_NONE) ||
	    mprotect(p + PAGE + bytes, PAGE, PROT_NONE))
		return NULL;
	return p + PAGE;
}

/* Noise that is never 0, so x ^ noise is never x. */
static uint8_t noise(uint64_t i)
{
	uint64_t x = i * 0x9e3779b97f4a7c15ull;

	x ^= x >> 29;
	x *= 0xbf58476d1ce4e5b9ull;
	x ^= x >> 32;
	return (uint8_t)x ? (uint8_t)x : 0xa5;
}

static bool setup(void)
{
	size_t bytes = WINDOW_PAGES * PAGE;

	nsizes = 0;
	for (size_t n = 0; n <= SMALL_MAX; n++)
		sizes[nsizes++] = n;
	for (unsigned int i = 0; i < ARRAY_SIZE(pow2_sizes); i++) {
		sizes[nsizes++] = pow2_sizes[i] - 1;
		sizes[nsizes++] = pow2_sizes[i];
		sizes[nsizes++] = pow2_sizes[i] + 1;
	}

	dbuf = map(bytes);
	sbuf = map(bytes);
	src_ref = map(bytes);
	poison = map(bytes);
	if (!dbuf || !sbuf || !src_ref || !poison)
		return false;
	for (size_t i = 0; i < bytes; i++) {
		/* Every byte value, at no fixed stride. */
		src_ref[i] = sbuf[i] = (uint8_t)(noise(i + bytes) + i);
		poison[i] = src_ref[i] ^ noise(i);
	}
	for (unsigned int f = 0; f < ARRAY_SIZE(fills); f++) {
		set_poison[f] = map(bytes);
		set_want[f] = map(bytes);
		if (!set_poison[f] || !set_want[f])
			return false;
		memset(set_want[f], fills[f].byte, bytes);
		for (size_t i = 0; i < bytes; i++)
			set_poison[f][i] = fills[f].byte ^ noise(i + 2 * bytes);
	}
	return true;
}

/* The first i < len with a[i] != b[i]; len if none. */
static size_t first_diff(const uint8_t *a, const uint8_t *b, size_t len)
{
	size_t i = 0;

	while (i < len && a[i] == b[i])
		i++;
	return i;
}

/*
 * Compare a window [start - GUARD, start + n + GUARD) with what it should
 * hold: guard_want for the guards, range_want inside. Says where the
 * first wrong byte is, relative to the range's start.
 */
static bool window_ok(const uint8_t *start, size_t n, const uint8_t *guard_want,
		      const uint8_t *range_want, const char *what,
		      char *why, size_t whylen)
{
	const uint8_t *lo = start - GUARD;
	const uint8_t *glo = guard_want;
	size_t i;

	if (memcmp(lo, glo, GUARD)) {
		i = first_diff(lo, glo, GUARD);
		snprintf(why, whylen, "%s: guard byte at %ld changed to 0x%02x",
			 what, (long)i - (long)GUARD, lo[i]);
		return false;
	}
	if (memcmp(start, range_want, n)) {
		i = first_diff(start, range_want, n);
		snprintf(why, whylen, "%s: byte %zu is 0x%02x, want 0x%02x",
			 what, i, start[i], range_want[i]);
		return false;
	}
	if (memcmp(start + n, glo + GUARD + n, GUARD)) {
		i = first_diff(start + n, glo + GUARD + n, GUARD);
		snprintf(why, whylen, "%s: guard byte at n+%zu changed to 0x%02x",
			 what, i, start[n + i]);
		return false;
	}
	return true;
}

/* ---- the checks ---- */

/* One check's verdict: ok, or the first thing that went wrong. */
struct verdict {
	bool ok;
	char why[256];
};

static bool memset_one(const struct string_variant *v, size_t n, size_t mis,
		       unsigned int f, struct abi *abi, struct verdict *out)
{
	uint8_t *d = dbuf + GUARD + mis;
	char what[96];
	uint64_t ret;

	cur = (typeof(cur)){ .n = n, .dmis = mis, .c = fills[f].arg };
	/* set_poison[f] is indexed from the window's start. */
	memcpy(d - GUARD, set_poison[f], n + 2 * GUARD);
	ret = call((const void *)v->set, (uintptr_t)d,
		   JUNK_HIGH | (uint32_t)fills[f].arg, n, abi);
	if (ret == (uintptr_t)d &&
	    !memcmp(d - GUARD, set_poison[f], GUARD) &&
	    !memcmp(d, set_want[f], n) &&
	    !memcmp(d + n, set_poison[f] + GUARD + n, GUARD))
		return true;

	describe_call(what, sizeof(what));
	if (ret != (uintptr_t)d)
		snprintf(out->why, sizeof(out->why), "%s: returned dst%+lld",
			 what, (long long)(ret - (uintptr_t)d));
	else
		window_ok(d, n, set_poison[f], set_want[f], what, out->why,
			  sizeof(out->why));
	return false;
}

static bool memcpy_one(const struct string_variant *v, size_t n, size_t dmis,
		       size_t smis, struct abi *abi, struct verdict *out)
{
	uint8_t *d = dbuf + GUARD + dmis;
	uint8_t *s = sbuf + GUARD + smis;
	const uint8_t *p = poison + GUARD + smis;
	const uint8_t *ref = src_ref + GUARD + smis;
	char what[96];
	uint64_t ret;
	size_t i;

	cur = (typeof(cur)){ .n = n, .dmis = dmis, .smis = smis, .copy = true };
	memcpy(d - GUARD, p - GUARD, n + 2 * GUARD);
	ret = call((const void *)v->copy, (uintptr_t)d, (uintptr_t)s, n, abi);
	if (ret == (uintptr_t)d &&
	    !memcmp(d - GUARD, p - GUARD, GUARD) &&
	    !memcmp(d, ref, n) &&
	    !memcmp(d + n, p + n, GUARD) &&
	    !memcmp(s - GUARD, ref - GUARD, n + 2 * GUARD))
		return true;

	describe_call(what, sizeof(what));
	if (ret != (uintptr_t)d) {
		snprintf(out->why, sizeof(out->why), "%s: returned dst%+lld",
			 what, (long long)(ret - (uintptr_t)d));
		return false;
	}
	if (!window_ok(d, n, p - GUARD, ref, what, out->why, sizeof(out->why)))
		return false;
	i = first_diff(s - GUARD, ref - GUARD, n + 2 * GUARD);
	snprintf(out->why, sizeof(out->why), "%s: source byte at %ld changed",
		 what, (long)i - (long)GUARD);
	/* Put it back, or every later case would fail on it. */
	memcpy(sbuf, src_ref, WINDOW_PAGES * PAGE);
	return false;
}

/* The contents and abi verdicts of one variant, from the same calls. */
static void run_contents(const struct string_variant *v, struct verdict *contents,
			 struct abi *abi)
{
	contents->ok = false;
	for (unsigned int i = 0; i < nsizes; i++) {
		size_t n = sizes[i];

		for (size_t dmis = 0; dmis < MISALIGN; dmis++) {
			if (v->op == STRING_MEMSET) {
				for (unsigned int f = 0; f < ARRAY_SIZE(fills); f++)
					if (!memset_one(v, n, dmis, f, abi, contents))
						return;
				continue;
			}
			for (size_t smis = 0; smis < MISALIGN; smis++)
				if (!memcpy_one(v, n, dmis, smis, abi, contents))
					return;
		}
	}
	contents->ok = true;
}

/*
 * Read-write pages between unmapped ones (map()): a range placed against
 * either end faults on any access past it.
 */
#define BOUNDS_PAGES	((GUARD + MISALIGN + LARGEST + PAGE - 1) / PAGE)

struct fenced {
	uint8_t *lo, *hi;	/* first and one past the last usable byte */
};

static bool fence(struct fenced *f)
{
	f->lo = map(BOUNDS_PAGES * PAGE);
	f->hi = f->lo + BOUNDS_PAGES * PAGE;
	return f->lo != NULL;
}

static struct fenced fd_dst, fd_src;

static struct abi bounds_abi;	/* the ABI is checked in contents already */

/*
 * memset: dst at each offset from an unmapped page before it, and ending
 * at each distance from one after it; then n = 0 pointing into one.
 */
static void memset_bounds(const struct string_variant *v)
{
	for (unsigned int i = 0; i < nsizes; i++) {
		size_t n = sizes[i];

		for (size_t mis = 0; mis < MISALIGN; mis++) {
			cur = (typeof(cur)){ .n = n, .dmis = mis, .c = 0xa5,
					     .where = "dst at unmapped + dst%64" };
			call((const void *)v->set, (uintptr_t)(fd_dst.lo + mis),
			     0xa5, n, &bounds_abi);

			cur.where = "dst ending dst%64 before unmapped";
			call((const void *)v->set, (uintptr_t)(fd_dst.hi - n - mis),
			     0xa5, n, &bounds_abi);
		}
	}
	cur = (typeof(cur)){ .where = "dst inside an unmapped page" };
	call((const void *)v->set, (uintptr_t)(fd_dst.hi + PAGE / 2), 0xa5, 0,
	     &bounds_abi);
}

/*
 * memcpy: src against either fence with every dst misalignment (the
 * vector forms align on dst, which moves where the last src load falls),
 * dst against either fence with every src misalignment, and n = 0 with
 * both pointing into unmapped pages.
 */
static void memcpy_bounds(const struct string_variant *v)
{
	const void *fn = (const void *)v->copy;

	for (unsigned int i = 0; i < nsizes; i++) {
		size_t n = sizes[i];

		for (size_t mis = 0; mis < MISALIGN; mis++) {
			uint8_t *d = fd_dst.lo + GUARD + mis;
			uint8_t *s = fd_src.lo + GUARD + mis;

			cur = (typeof(cur)){ .n = n, .dmis = mis, .copy = true,
					     .where = "src ending at unmapped" };
			call(fn, (uintptr_t)d, (uintptr_t)(fd_src.hi - n), n, &bounds_abi);
			cur.where = "src starting after unmapped";
			call(fn, (uintptr_t)d, (uintptr_t)fd_src.lo, n, &bounds_abi);

			cur = (typeof(cur)){ .n = n, .smis = mis, .copy = true,
					     .where = "dst ending at unmapped" };
			call(fn, (uintptr_t)(fd_dst.hi - n), (uintptr_t)s, n, &bounds_abi);
			cur.where = "dst starting after unmapped";
			call(fn, (uintptr_t)fd_dst.lo, (uintptr_t)s, n, &bounds_abi);
		}
	}
	cur = (typeof(cur)){ .copy = true,
			     .where = "dst and src inside unmapped pages" };
	call(fn, (uintptr_t)(fd_dst.hi + PAGE / 2),
	     (uintptr_t)(fd_src.hi + PAGE / 2), 0, &bounds_abi);
}

static bool run_bounds(const struct string_variant *v, struct verdict *out)
{
	char what[128];
	int sig;

	sig = sigsetjmp(trap, 1);
	if (sig) {
		trap_armed = 0;
		describe_call(what, sizeof(what));
		snprintf(out->why, sizeof(out->why), "%s: signal %d (%s) at %p",
			 what, sig, strsignal(sig), fault_addr);
		return false;
	}
	trap_armed = 1;
	if (v->op == STRING_MEMSET)
		memset_bounds(v);
	else
		memcpy_bounds(v);
	trap_armed = 0;
	return true;
}

/* XINUSE bits that say the upper halves of ymm/zmm 0-15 are not zero. */
#define XINUSE_YMM	(1ull << 2)
#define XINUSE_ZMM_HI256 (1ull << 6)
#define XINUSE_DIRTY_UPPER (XINUSE_YMM | XINUSE_ZMM_HI256)
#define XSAVE_LEAF	0xd
#define XSAVE_1_EAX_XGETBV1 (1u << 2)

/* Sizes reaching each path of the vector forms. */
static const size_t upper_sizes[] = { 0, 1, 17, 32, 64, 65, 128, 129, 4096 };

static bool run_upper(const struct string_variant *v, struct verdict *out)
{
	uint8_t *d = dbuf + GUARD, *s = sbuf + GUARD;
	int sig;

	sig = sigsetjmp(trap, 1);
	if (sig) {
		trap_armed = 0;
		snprintf(out->why, sizeof(out->why), "signal %d (%s)", sig,
			 strsignal(sig));
		return false;
	}
	trap_armed = 1;
	for (unsigned int i = 0; i < ARRAY_SIZE(upper_sizes); i++) {
		size_t n = upper_sizes[i];
		uint64_t x;

		if (v->op == STRING_MEMSET)
			x = sc_call_xinuse((const void *)v->set, (uintptr_t)d, 0x5a, n);
		else
			x = sc_call_xinuse((const void *)v->copy, (uintptr_t)d,
					   (uintptr_t)s, n);
		if (x & XINUSE_DIRTY_UPPER) {
			trap_armed = 0;
			snprintf(out->why, sizeof(out->why),
				 "n=%zu: upper vector state left dirty (XINUSE 0x%llx): no VZEROUPPER?",
				 n, (unsigned long long)x);
			return false;
		}
	}
	trap_armed = 0;
	return true;
}

/* For calibrating XINUSE: one routine dirties ymm0's upper half, one not. */
void sc_ymm_dirty(void);
__asm__(
	".pushsection .text\n"
	"sc_ymm_dirty:\n"
	"	vpcmpeqd %ymm0, %ymm0, %ymm0\n"
	"	ret\n"
	".popsection\n");

void sc_nothing(void);
__asm__(
	".pushsection .text\n"
	"sc_nothing:\n"
	"	ret\n"
	".popsection\n");

/*
 * Whether XINUSE tells dirty from clean upper state here: a CPU may
 * report a component in use when it is not, and then nothing can be
 * concluded. Returns NULL when it can, else why not.
 */
static const char *upper_check_unusable(const struct cpu_desc *d)
{
	unsigned int a, b, c, dx;

	if (!cpu_has(d, FEAT_AVX))
		return "no AVX: no upper state to leave dirty";
	__cpuid_count(XSAVE_LEAF, 1, a, b, c, dx);
	if (!(a & XSAVE_1_EAX_XGETBV1))
		return "no XGETBV with ECX=1 (CPUID 0xD.1 EAX[2])";
	if (sc_call_xinuse((const void *)sc_nothing, 0, 0, 0) & XINUSE_DIRTY_UPPER)
		return "XINUSE reports upper state in use right after VZEROUPPER";
	if (!(sc_call_xinuse((const void *)sc_ymm_dirty, 0, 0, 0) & XINUSE_DIRTY_UPPER))
		return "XINUSE does not report a dirty ymm upper half";
	return NULL;
}

/* Run one check with signals turned into its failure. */
typedef bool check_fn(const struct string_variant *v, struct verdict *out);

static bool guarded(check_fn *fn, const struct string_variant *v,
		    struct verdict *out)
{
	char what[96];
	int sig;

	out->ok = false;
	out->why[0] = '\0';
	sig = sigsetjmp(trap, 1);
	if (sig) {
		trap_armed = 0;
		describe_call(what, sizeof(what));
		snprintf(out->why, sizeof(out->why), "%s: signal %d (%s) at %p",
			 what, sig, strsignal(sig), fault_addr);
		return false;
	}
	trap_armed = 1;
	out->ok = fn(v, out);
	trap_armed = 0;
	return out->ok;
}

static struct abi last_abi;

static bool contents_check(const struct string_variant *v, struct verdict *out)
{
	/* A routine that wrote to src and then faulted left it changed. */
	memcpy(sbuf, src_ref, WINDOW_PAGES * PAGE);
	memset(&last_abi, 0, sizeof(last_abi));
	run_contents(v, out, &last_abi);
	return out->ok;
}

/* ---- the table ---- */

static void check_table(void)
{
	for (unsigned int i = 0; i < string_variant_count; i++) {
		const struct string_variant *v = &string_variants[i];

		if (!v->name || !*v->name || !v->what || !*v->what) {
			result(false, "strings/table", "entry %u has no name or description", i);
			return;
		}
		if ((v->op == STRING_MEMSET) != (v->set != NULL) ||
		    (v->op == STRING_MEMCPY) != (v->copy != NULL)) {
			result(false, "strings/table", "%s: routine does not match its op", v->name);
			return;
		}
		if ((unsigned int)v->need >= FEAT_COUNT) {
			result(false, "strings/table", "%s: need %d is not a feature",
			       v->name, v->need);
			return;
		}
		for (unsigned int j = 0; j < i; j++) {
			if (v->op == string_variants[j].op &&
			    !strcmp(v->name, string_variants[j].name)) {
				result(false, "strings/table", "%s %s appears twice",
				       string_op_name(v->op), v->name);
				return;
			}
		}
	}
	result(string_variant_count > 0, "strings/table", "empty");
}

/* ---- broken routines: each check must catch its own ---- */

void *bad_set_past_end(void *dst, int c, size_t n);	/* writes n + 1 bytes */
void *bad_set_before(void *dst, int c, size_t n);	/* and dst[-1] */
void *bad_set_signed(void *dst, int c, size_t n);	/* sign-extends c */
void *bad_set_ret_end(void *dst, int c, size_t n);	/* returns dst + n */
void *bad_set_rbx(void *dst, int c, size_t n);		/* clobbers rbx */
void *bad_set_df(void *dst, int c, size_t n);		/* returns with DF set */
void *bad_set_dirty(void *dst, int c, size_t n);	/* no VZEROUPPER */
void *bad_cpy_zero(void *dst, const void *src, size_t n);	/* n = 0 copies 1 */
void *bad_cpy_overread(void *dst, const void *src, size_t n);	/* reads src[n] */
void *bad_cpy_shift(void *dst, const void *src, size_t n);	/* src + 1 when n > 256 */
__asm__(
	".pushsection .text\n"
	"bad_set_past_end:\n"
	"	mov	%rdi, %r9\n"
	"	movzbl	%sil, %eax\n"
	"	lea	1(%rdx), %rcx\n"
	"	rep stosb\n"
	"	mov	%r9, %rax\n"
	"	ret\n"
	"bad_set_before:\n"
	"	mov	%sil, -1(%rdi)\n"
	"	mov	%rdi, %r9\n"
	"	movzbl	%sil, %eax\n"
	"	mov	%rdx, %rcx\n"
	"	rep stosb\n"
	"	mov	%r9, %rax\n"
	"	ret\n"
	"bad_set_signed:\n"
	"	mov	%rdi, %r9\n"
	"	movsbq	%sil, %rax\n"
	"	movabs	$0x0101010101010101, %r8\n"
	"	imul	%r8, %rax\n"
	"	mov	%rdx, %rcx\n"
	"	shr	$3, %rcx\n"
	"	rep stosq\n"
	"	mov	%edx, %ecx\n"
	"	and	$7, %ecx\n"
	"	rep stosb\n"
	"	mov	%r9, %rax\n"
	"	ret\n"
	"bad_set_ret_end:\n"
	"	movzbl	%sil, %eax\n"
	"	mov	%rdx, %rcx\n"
	"	rep stosb\n"
	"	mov	%rdi, %rax\n"
	"	ret\n"
	"bad_set_rbx:\n"
	"	mov	%rdi, %rbx\n"
	"	movzbl	%sil, %eax\n"
	"	mov	%rdx, %rcx\n"
	"	rep stosb\n"
	"	mov	%rbx, %rax\n"
	"	ret\n"
	"bad_set_df:\n"
	"	mov	%rdi, %r9\n"
	"	movzbl	%sil, %eax\n"
	"	mov	%rdx, %rcx\n"
	"	rep stosb\n"
	"	mov	%r9, %rax\n"
	"	std\n"
	"	ret\n"
	"bad_set_dirty:\n"
	"	vpcmpeqd %ymm0, %ymm0, %ymm0\n"
	"	mov	%rdi, %r9\n"
	"	movzbl	%sil, %eax\n"
	"	mov	%rdx, %rcx\n"
	"	rep stosb\n"
	"	mov	%r9, %rax\n"
	"	ret\n"
	"bad_cpy_zero:\n"
	"	mov	%rdi, %rax\n"
	"	mov	%rdx, %rcx\n"
	"	test	%rcx, %rcx\n"
	"	jnz	1f\n"
	"	inc	%rcx\n"
	"1:	rep movsb\n"
	"	ret\n"
	"bad_cpy_overread:\n"
	"	mov	%rdi, %rax\n"
	"	movzbl	(%rsi, %rdx), %ecx\n"
	"	mov	%rdx, %rcx\n"
	"	rep movsb\n"
	"	ret\n"
	"bad_cpy_shift:\n"
	"	mov	%rdi, %rax\n"
	"	mov	%rdx, %rcx\n"
	"	cmp	$256, %rdx\n"
	"	jbe	1f\n"
	"	inc	%rsi\n"
	"	dec	%rcx\n"
	"1:	rep movsb\n"
	"	ret\n"
	".popsection\n");

enum which { CONTENTS, ABI, BOUNDS, UPPER };

static const struct {
	const char *name;
	struct string_variant v;
	enum which caught_by;
} broken[] = {
	{ "writes_past_end", { STRING_MEMSET, "bad", bad_set_past_end, NULL, FEAT_NONE, "-", STORE_T, REGS_GPR }, CONTENTS },
	{ "writes_before", { STRING_MEMSET, "bad", bad_set_before, NULL, FEAT_NONE, "-", STORE_T, REGS_GPR }, CONTENTS },
	{ "sign_extends_fill", { STRING_MEMSET, "bad", bad_set_signed, NULL, FEAT_NONE, "-", STORE_T, REGS_GPR }, CONTENTS },
	{ "returns_end", { STRING_MEMSET, "bad", bad_set_ret_end, NULL, FEAT_NONE, "-", STORE_T, REGS_GPR }, CONTENTS },
	{ "clobbers_rbx", { STRING_MEMSET, "bad", bad_set_rbx, NULL, FEAT_NONE, "-", STORE_T, REGS_GPR }, ABI },
	{ "leaves_df_set", { STRING_MEMSET, "bad", bad_set_df, NULL, FEAT_NONE, "-", STORE_T, REGS_GPR }, ABI },
	{ "leaves_ymm_dirty", { STRING_MEMSET, "bad", bad_set_dirty, NULL, FEAT_AVX, "-", STORE_T, REGS_VEC }, UPPER },
	{ "copies_for_n0", { STRING_MEMCPY, "bad", NULL, bad_cpy_zero, FEAT_NONE, "-", STORE_T, REGS_GPR }, CONTENTS },
	{ "reads_src_n", { STRING_MEMCPY, "bad", NULL, bad_cpy_overread, FEAT_NONE, "-", STORE_T, REGS_GPR }, BOUNDS },
	{ "copies_shifted", { STRING_MEMCPY, "bad", NULL, bad_cpy_shift, FEAT_NONE, "-", STORE_T, REGS_GPR }, CONTENTS },
};

static bool run_check(enum which w, const struct string_variant *v,
		      struct verdict *out)
{
	switch (w) {
	case CONTENTS:
		return guarded(contents_check, v, out);
	case ABI:
		guarded(contents_check, v, out);
		snprintf(out->why, sizeof(out->why), "%s", last_abi.why);
		return !last_abi.broken;
	case BOUNDS:
		return run_bounds(v, out);
	case UPPER:
		return run_upper(v, out);
	}
	return false;
}

static void check_checker(const struct cpu_desc *d, const char *upper_unusable)
{
	char name[96];

	for (unsigned int i = 0; i < ARRAY_SIZE(broken); i++) {
		struct verdict out = { 0 };

		snprintf(name, sizeof(name), "checker/catches_%s", broken[i].name);
		if (!cpu_has(d, broken[i].v.need)) {
			skip(name, "the broken routine needs a feature that is missing or disabled");
			continue;
		}
		if (broken[i].caught_by == UPPER && upper_unusable) {
			skip(name, upper_unusable);
			continue;
		}
		result(!run_check(broken[i].caught_by, &broken[i].v, &out), name,
		       "the broken routine passed");
		if (out.why[0])
			printf("# %s: %s\n", name, out.why);
	}
}

/* ---- main ---- */

static void check_variant(const struct string_variant *v,
			  const struct cpu_desc *d, uint64_t disabled,
			  const char *upper_unusable)
{
	static const char *const checks[] = { "contents", "abi", "bounds", "vzeroupper" };
	char name[4][96], reason[96];
	struct verdict out;

	for (unsigned int c = 0; c < ARRAY_SIZE(checks); c++)
		snprintf(name[c], sizeof(name[c]), "%s/%s/%s",
			 string_op_name(v->op), v->name, checks[c]);

	if (!cpu_has(d, v->need)) {
		if ((disabled >> v->need) & 1)
			snprintf(reason, sizeof(reason), "needs %s (turned off by disable=%s)",
				 feat_name(v->need), feat_name(v->need));
		else
			snprintf(reason, sizeof(reason), "needs %s, which the host CPU lacks",
				 feat_name(v->need));
		for (unsigned int c = 0; c < ARRAY_SIZE(checks); c++)
			skip(name[c], reason);
		return;
	}

	guarded(contents_check, v, &out);
	result(out.ok, name[0], "%s", out.why);
	result(!last_abi.broken, name[1], "%s", last_abi.why);
	result(run_bounds(v, &out), name[2], "%s", out.why);
	if (upper_unusable)
		skip(name[3], upper_unusable);
	else
		result(run_upper(v, &out), name[3], "%s", out.why);
}

/* disable=feat[,feat...]: treat those features as absent. */
static bool parse_args(int argc, char **argv, struct cpu_desc *d,
		       uint64_t *disabled)
{
	for (int i = 1; i < argc; i++) {
		char *list, *tok, *save = NULL;

		static const char opt[] = "disable=";

		if (strncmp(argv[i], opt, sizeof(opt) - 1)) {
			fprintf(stderr, "usage: %s [disable=feat[,feat...]]\n", argv[0]);
			return false;
		}
		list = argv[i] + sizeof(opt) - 1;
		for (tok = strtok_r(list, ",", &save); tok;
		     tok = strtok_r(NULL, ",", &save)) {
			enum feat f;

			for (f = FEAT_NONE + 1; f < FEAT_COUNT; f++)
				if (!strcmp(tok, feat_name(f)))
					break;
			if (f == FEAT_COUNT) {
				fprintf(stderr, "%s: unknown feature \"%s\"\n", argv[0], tok);
				return false;
			}
			*disabled |= d->feats & (1ull << f);
			d->feats &= ~(1ull << f);
		}
	}
	return true;
}

int main(int argc, char **argv)
{
	struct cpu_desc d;
	uint64_t disabled = 0;
	const char *upper_unusable;

	setvbuf(stdout, NULL, _IOLBF, 0);
	cpu_describe_live(&d);
	/* Asked of the real CPU: disable= is about the variants only. */
	upper_unusable = upper_check_unusable(&d);
	if (!parse_args(argc, argv, &d, &disabled))
		return 2;
	if (!setup() || !fence(&fd_dst) || !fence(&fd_src)) {
		result(false, "setup", "mmap or mprotect failed");
		return 1;
	}
	catch_signals();

	check_table();
	check_checker(&d, upper_unusable);
	for (unsigned int i = 0; i < string_variant_count; i++)
		check_variant(&string_variants[i], &d, disabled, upper_unusable);

	return check_exit();
}
