// SPDX-License-Identifier: MIT
/*
 * The strings suite's driver (harness/measure/suites/strings.c) on a variant table
 * of this test's own, in place of variants/strings.def: two right routines
 * and four wrong ones, each wrong in a way the driver must report. The
 * harness's host interface is this file's too (faults become SIGILL
 * caught here), and every line the driver prints is collected.
 *
 * Checked: a memset that writes a byte too many, a memcpy that copies
 * nothing and a memset that writes for n = 0 each give "verify FAILED"
 * lines naming them, the block and what is wrong; a routine that faults
 * gives one "fault:" line and is left out of the rest of the run; the
 * right routines give none, and a value line per size, block and mode
 * with one figure per rep; the failures are counted.
 */
#define _GNU_SOURCE
#include <setjmp.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "harness/measure/host.h"
#include "lib/out.h"
#include "harness/measure/plan.h"
#include "lib/run.h"
#include "harness/measure/suites/strings.h"
#include "variants/string_variants.h"
#include "tests/unit/check.h"

/* ---- the routines ---- */

void *memset_stosb(void *dst, int c, size_t n);
void *memcpy_movsb(void *dst, const void *src, size_t n);
void *t_set_past_end(void *dst, int c, size_t n);	/* writes n + 1 bytes */
void *t_set_at_zero(void *dst, int c, size_t n);	/* writes dst[0] even for n = 0 */
void *t_cpy_nothing(void *dst, const void *src, size_t n);	/* copies nothing */
void *t_cpy_faults(void *dst, const void *src, size_t n);	/* ud2 */
__asm__(
	".pushsection .text\n"
	"t_set_past_end:\n"
	"	mov	%rdi, %r9\n"
	"	movzbl	%sil, %eax\n"
	"	lea	1(%rdx), %rcx\n"
	"	rep stosb\n"
	"	mov	%r9, %rax\n"
	"	ret\n"
	"t_set_at_zero:\n"
	"	mov	%sil, (%rdi)\n"
	"	mov	%rdi, %r9\n"
	"	movzbl	%sil, %eax\n"
	"	mov	%rdx, %rcx\n"
	"	rep stosb\n"
	"	mov	%r9, %rax\n"
	"	ret\n"
	"t_cpy_nothing:\n"
	"	mov	%rdi, %rax\n"
	"	ret\n"
	"t_cpy_faults:\n"
	"	ud2\n"
	".popsection\n");

/* What the driver sees instead of variants/strings.def. */
const struct string_variant string_variants[] = {
	{ STRING_MEMSET, "good_set", memset_stosb, NULL, FEAT_NONE, "REP STOSB", STORE_REP, REGS_GPR },
	{ STRING_MEMSET, "past_end", t_set_past_end, NULL, FEAT_NONE, "n + 1", STORE_T, REGS_GPR },
	{ STRING_MEMSET, "at_zero", t_set_at_zero, NULL, FEAT_NONE, "dst[0] always", STORE_T, REGS_GPR },
	{ STRING_MEMCPY, "good_cpy", NULL, memcpy_movsb, FEAT_NONE, "REP MOVSB", STORE_REP, REGS_GPR },
	{ STRING_MEMCPY, "nothing", NULL, t_cpy_nothing, FEAT_NONE, "no copy", STORE_T, REGS_GPR },
	{ STRING_MEMCPY, "faults", NULL, t_cpy_faults, FEAT_NONE, "ud2", STORE_T, REGS_GPR },
};
const unsigned int string_variant_count =
	sizeof(string_variants) / sizeof(string_variants[0]);

const char *string_op_name(enum string_op op)
{
	return op == STRING_MEMSET ? "memset" : "memcpy";
}

/* ---- the host ---- */

static sigjmp_buf guard_jmp;
static volatile sig_atomic_t guard_armed;

static void on_sigill(int sig)
{
	(void)sig;
	if (guard_armed) {
		guard_armed = 0;
		siglongjmp(guard_jmp, 1);
	}
	abort();
}

bool host_call_guarded(void (*fn)(void *ctx), void *ctx, struct fault *f)
{
	if (sigsetjmp(guard_jmp, 1)) {
		snprintf(f->what, sizeof(f->what), "SIGILL (illegal instruction)");
		f->rip = 0;
		return false;
	}
	guard_armed = 1;
	fn(ctx);
	guard_armed = 0;
	return true;
}

bool host_samples_start(const struct sample_plan *sp, char *what, size_t len)
{
	(void)sp;
	snprintf(what, len, "this test counts none");
	return false;
}

void host_sample_begin(struct host_sample *s)
{
	s->has_cycles = s->disturbed = false;
}

void host_sample_end(struct host_sample *s, uint64_t ticks)
{
	(void)s;
	(void)ticks;
}

void host_pass_begin(void)
{
}

void host_may_yield(void)
{
}

void host_pass_end(const char *suite, const char *pass,
		   const struct sample_tally *t)
{
	(void)suite;
	(void)pass;
	(void)t;
}

void host_progress(const struct progress *p)
{
	(void)p;
}

/* ---- the lines ---- */

#define LINES_MAX 4096
static char *lines[LINES_MAX];
static unsigned int nlines;

static void sink(const char *s, size_t len)
{
	if (nlines < LINES_MAX)
		lines[nlines++] = strndup(s, len);
}

/* Lines that contain every one of the words (NULL-terminated). */
static unsigned int count(const char *first, ...)
{
	unsigned int i, n = 0;

	for (i = 0; i < nlines; i++) {
		const char *w = first;
		bool all = true;
		va_list ap;

		va_start(ap, first);
		for (; w && all; w = va_arg(ap, const char *))
			all = strstr(lines[i], w) != NULL;
		va_end(ap);
		n += all;
	}
	return n;
}

int main(void)
{
	static struct options o;
	static struct plan p;
	struct cpu_desc d = { 0 };
	struct buffer_sizes bs;
	struct buffers b = { 0 };
	unsigned int faults, verifies, values;

	setvbuf(stdout, NULL, _IOLBF, 0);
	signal(SIGILL, on_sigill);
	out_add_sink(sink);
	options_parse(&o, PROGRAM_LINUX, "suite=strings sizes=0,1,64 reps=2");
	result(!o.nerrors, "run.options", "%s", o.nerrors ? o.errors[0] : "");
	plan_build(&p, &o, &d, UINT64_MAX, false);
	plan_buffer_sizes(&p, &bs);
	b.strings = aligned_alloc(PAGE_SIZE, bs.strings);
	if (!b.strings) {
		result(false, "run.buffer", "no memory");
		return check_exit();
	}
	plan_print(&p);
	strings_run(&p, &d, &b, 0, NULL);

	result(count("strings sizes=0,1,64 calls=", NULL) == 1, "run.plan_line",
	       "no strings plan line");
	result(count("variants memset: good_set past_end at_zero", NULL) == 1 &&
	       count("variants memcpy: good_cpy nothing faults", NULL) == 1,
	       "run.variants_lines", "variants lines missing");
	result(count("strings tsc step=", NULL) == 1, "run.tsc_line", "missing");
	/* memset: 2 modes x 3 alignments; memcpy: 2 x 9; and a zero block each. */
	result(count("strings memset ", NULL) == 6 && count("strings memcpy ", NULL) == 18 &&
	       count("strings zero memset", NULL) == 1 && count("strings zero memcpy", NULL) == 1,
	       "run.blocks", "memset %u memcpy %u", count("strings memset ", NULL),
	       count("strings memcpy ", NULL));
	result(count("strings overhead calls=256 ", NULL) == 24 &&
	       count("strings overhead calls=1024 ", NULL) == 2 &&
	       count("strings overhead calls=512 ", NULL) == 2,
	       "run.overhead_lines", "%u", count("strings overhead", NULL));

	result(count(" good_set n=", " all=", NULL) == 6 * 3 &&
	       count(" good_cpy n=", " all=", NULL) == 18 * 3,
	       "run.values_right", "good_set %u good_cpy %u",
	       count(" good_set n=", NULL), count(" good_cpy n=", NULL));
	result(count(" good_set n=64 min=", NULL) == 6, "run.value_per_block", "%u",
	       count(" good_set n=64 min=", NULL));
	result(count(" good_set pattern=zero ", NULL) == 1 &&
	       count(" good_cpy pattern=random ", NULL) == 1, "run.zero_values", "missing");
	result(count("variant=good_set", NULL) == 0 && count("variant=good_cpy", NULL) == 0,
	       "run.right_routines_pass", "a right routine was reported");

	result(count("verify FAILED: suite=memset pass=strings tput dst=0 n=1 variant=past_end ",
		     "offset=0x1 guard byte after dst written", NULL) == 2,
	       "run.catches_past_end", "%u", count("variant=past_end", NULL));
	result(count("verify FAILED: suite=memset pass=strings tput dst=0 n=0 variant=at_zero ",
		     "offset=0x0 guard byte after dst written", NULL) == 2,
	       "run.catches_write_at_n0", "%u", count("variant=at_zero n=0", NULL));
	result(count("verify FAILED: suite=memset pass=strings zero zero variant=at_zero ",
		     "byte past the calls' sizes written", NULL) == 2,
	       "run.catches_write_in_zero_block", "%u",
	       count("pass=strings zero zero variant=at_zero", NULL));
	result(count("verify FAILED: suite=memcpy pass=strings lat dst=7 src=1 n=64 variant=nothing ",
		     "wrong byte", NULL) == 2,
	       "run.catches_no_copy", "%u", count("variant=nothing", NULL));
	result(count("verify FAILED: suite=memcpy pass=strings tput dst=0 src=0 n=0 variant=nothing", NULL) == 0,
	       "run.no_copy_fine_at_n0", "n=0 copies nothing, rightly");

	faults = count("fault: suite=memcpy pass=strings tput dst=0 src=0 n=0 variant=faults ",
		       "SIGILL (illegal instruction) rip=0x", NULL);
	result(faults == 1 && count("fault:", NULL) == 1, "run.fault_once", "%u of %u",
	       faults, count("fault:", NULL));
	result(count(" faults n=", NULL) == 0 && count(" faults pattern=", NULL) == 0,
	       "run.fault_left_out", "values printed for the faulting routine");

	verifies = count("verify FAILED", NULL);
	result(run_failures() == verifies + count("fault:", NULL), "run.failures_counted",
	       "failures %u, verify lines %u", run_failures(), verifies);
	values = count(" n=", " min=", " median=", NULL);
	result(values > 0, "run.some_values", "%u", values);
	free(b.strings);
	return check_exit();
}
