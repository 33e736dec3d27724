// SPDX-License-Identifier: MIT
/*
 * harness/measure/sample.c: the arithmetic of the cycles lines and of the
 * disturbed-window tests, on figures worked out by hand; the gating of
 * APERF/MPERF in the plan; and the retiming of disturbed samples through
 * the real suites (harness/measure/suites/suite.c, scrub.c) on a host of this
 * file's own whose counters say "disturbed" when the test wants them to.
 *
 * Checked: a disturbed window is timed again, its sample's preparation
 * redone first (the clear's destination holds the pattern again), and
 * counted; a sample still disturbed after SAMPLE_RETIMES retimes is kept
 * and counted as such, so no sample is timed more than 1 + SAMPLE_RETIMES
 * times; in suite=scrub a step with one disturbed CPU runs again and the
 * disturbance is counted on that CPU; the cycles line sums only the
 * samples that stood, and its ratio and MHz are cycles / ref and ratio x
 * the TSC rate; cycles=off reaches the host and gives the "none" line.
 */
#define _GNU_SOURCE
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "harness/measure/host.h"
#include "harness/measure/plan.h"
#include "harness/measure/sample.h"
#include "harness/measure/suites/suite.h"
#include "lib/out.h"
#include "lib/run.h"
#include "tests/unit/check.h"

#define TSC_KHZ		2000000u	/* 2 GHz: MHz = ratio x 2000 */
#define PASSES_MAX	8

/* ---- the fake host ---- */

static struct {
	bool (*disturb)(unsigned int window, unsigned int cpu);
	bool cycles;			/* host_samples_start() says yes */
	bool saw_cycles_on;		/* what the plan asked for */
	unsigned int windows;		/* host_sample_end() calls */
	unsigned int cpu;		/* index of the CPU fn runs as */
	const uint8_t *dst;		/* the clear's destination, when checked */
	size_t dst_bytes;
	unsigned int unprepared;	/* windows that began on a cleared dst */
	uint64_t stood_ticks;		/* of windows the harness did not retime */
	unsigned int npasses;
	char pass[PASSES_MAX][32];
	struct sample_tally tally[PASSES_MAX];
} fake;

bool host_call_guarded(void (*fn)(void *ctx), void *ctx, struct fault *f)
{
	(void)f;
	fn(ctx);
	return true;
}

void host_progress(const struct progress *p)
{
	(void)p;
}

void host_cpus(struct host_cpus *c)
{
	c->n = 2;
	c->id[0] = 7;
	c->id[1] = 9;
	c->node[0] = c->node[1] = 0;
	c->nodes = 1;
}

/* One CPU after the other: each spins to the same deadline, then clears. */
bool host_run_on_cpus(unsigned int n, uint64_t start_tsc,
		      void (*fn)(void *ctx, unsigned int i), void *ctx,
		      char *why, size_t whylen)
{
	unsigned int i;

	(void)start_tsc;
	(void)why;
	(void)whylen;
	for (i = 0; i < n; i++) {
		fake.cpu = i;
		fn(ctx, i);
	}
	fake.cpu = 0;
	return true;
}

bool host_samples_start(const struct sample_plan *sp, char *what, size_t len)
{
	fake.saw_cycles_on = sp->cycles;
	if (!sp->cycles || !fake.cycles) {
		snprintf(what, len, "%s", sp->cycles ? "the fake has none" : "cycles=off");
		return false;
	}
	snprintf(what, len, "source=perf-cycles ref=perf-ref-cycles");
	return true;
}

static bool bytes_nonzero(const uint8_t *p, size_t n)
{
	return p[0] && p[n / 2] && p[n - 1];
}

void host_sample_begin(struct host_sample *s)
{
	s->has_cycles = s->disturbed = false;
	if (fake.dst && !bytes_nonzero(fake.dst, fake.dst_bytes))
		fake.unprepared++;
}

/* 3 cycles per 2 reference cycles, and 2 reference cycles per tick. */
void host_sample_end(struct host_sample *s, uint64_t ticks)
{
	unsigned int w = fake.windows++;

	s->has_cycles = true;
	s->ref = 2 * ticks;
	s->cycles = 3 * ticks;
	s->disturbed = fake.disturb && fake.disturb(w, fake.cpu);
}

void host_pause(uint64_t until_tsc)
{
	(void)until_tsc;
}

void host_may_yield(void)
{
}

void host_pass_begin(void)
{
}

void host_pass_end(const char *suite, const char *pass,
		   const struct sample_tally *t)
{
	if (fake.npasses == PASSES_MAX)
		return;
	snprintf(fake.pass[fake.npasses], sizeof(fake.pass[0]), "%s/%s", suite, pass);
	fake.tally[fake.npasses++] = *t;
}

/* ---- the lines ---- */

#define LINES_MAX 2048
static char *lines[LINES_MAX];
static unsigned int nlines;

/* Kept without the tag and the line end, as docs/log-format.md's expressions see them. */
static void sink(const char *s, size_t len)
{
	const char *tag_end = memchr(s, ')', len);

	if (s[0] == '(' && tag_end && tag_end + 1 < s + len && tag_end[1] == ' ') {
		len -= (size_t)(tag_end + 2 - s);
		s = tag_end + 2;
	}
	while (len && (s[len - 1] == '\n' || s[len - 1] == '\r'))
		len--;
	if (nlines < LINES_MAX)
		lines[nlines++] = strndup(s, len);
}

static void forget_lines(void)
{
	while (nlines)
		free(lines[--nlines]);
}

static unsigned int count_prefix(const char *prefix)
{
	unsigned int i, n = 0;

	for (i = 0; i < nlines; i++)
		n += !strncmp(lines[i], prefix, strlen(prefix));
	return n;
}

static const char *find_prefix(const char *prefix)
{
	unsigned int i;

	for (i = 0; i < nlines; i++)
		if (!strncmp(lines[i], prefix, strlen(prefix)))
			return lines[i];
	return NULL;
}

/* ---- the arithmetic ---- */

static void test_muldiv(void)
{
	result(sample_muldiv(7, 3, 2) == 11, "muldiv.round_half_up", "7*3/2 = %lu, want 11",
	       (unsigned long)sample_muldiv(7, 3, 2));
	result(sample_muldiv(10, 1, 4) == 3, "muldiv.round_down", "10/4 = %lu, want 3",
	       (unsigned long)sample_muldiv(10, 1, 4));
	/* 2^40 * 2^40 = 2^80 overflows 64 bits; / 2^20 = 2^60 does not. */
	result(sample_muldiv(1ull << 40, 1ull << 40, 1ull << 20) == 1ull << 60,
	       "muldiv.wide_product", "%lu",
	       (unsigned long)sample_muldiv(1ull << 40, 1ull << 40, 1ull << 20));
	result(sample_muldiv(1ull << 63, 4, 1) == UINT64_MAX, "muldiv.saturates", "%lu",
	       (unsigned long)sample_muldiv(1ull << 63, 4, 1));
	result(sample_muldiv(5, 5, 0) == UINT64_MAX, "muldiv.by_zero", "%lu",
	       (unsigned long)sample_muldiv(5, 5, 0));
	/* 2,300,000 ticks at 2.3 GHz: 1 ms. */
	result(sample_ticks_ns(2300000, 2300000) == 1000000, "ticks_ns.one_ms", "%lu",
	       (unsigned long)sample_ticks_ns(2300000, 2300000));
	result(sample_ticks_ns(12345, 0) == 0, "ticks_ns.rate_unknown", "%lu",
	       (unsigned long)sample_ticks_ns(12345, 0));
}

static void test_behind(void)
{
	/* A 1 ms window: slack 500 ns + 1/4000 of 1 ms = 750 ns. */
	const uint64_t ticks = 2300000, khz = 2300000;

	result(!sample_clock_behind(ticks, khz, 1000000 + 800), "behind.clock_enclosing",
	       "a clock that ran longer than the window");
	result(!sample_clock_behind(ticks, khz, 1000000 - 750), "behind.clock_within_slack",
	       "750 ns short is within the slack");
	result(sample_clock_behind(ticks, khz, 1000000 - 751), "behind.clock_past_slack",
	       "751 ns short is past the slack");
	result(sample_clock_behind(ticks, khz, 400000), "behind.clock_switched_away",
	       "a clock that ran 40%% of the window");
	result(!sample_clock_behind(ticks, 0, 0), "behind.clock_rate_unknown",
	       "no rate, no test");
	/* 1,000,000 ticks: slack 1000 + 250 ticks. */
	result(!sample_ref_behind(1000000, 1000000 - 1250), "behind.ref_within_slack",
	       "1250 reference cycles short is within the slack");
	result(sample_ref_behind(1000000, 1000000 - 1251), "behind.ref_past_slack",
	       "1251 short is past it");
	result(!sample_ref_behind(1000000, 1000100), "behind.ref_enclosing",
	       "reference cycles around the window outnumber its ticks");
}

static void expect_text(const char *name, uint64_t n, uint64_t cycles,
			uint64_t ref, uint64_t khz, const char *want)
{
	struct cycle_sums c = { (unsigned int)n, 0, ref, cycles };
	char buf[64];

	sample_cycles_text(&c, khz, buf, sizeof(buf));
	result(!strcmp(buf, want), name, "'%s', want '%s'", buf, want);
}

static void test_cycles_text(void)
{
	/* 1.5e9 cycles over 1e9 reference cycles at 2 GHz: 3000 MHz. */
	expect_text("text.turbo", 10, 1500000000, 1000000000, 2000000,
		    "ratio=1.500 mhz=3000");
	/* 2/3 = 0.6667 -> 0.667; x 2.3 GHz = 1533.3 MHz -> 1533. */
	expect_text("text.rounds", 1, 2, 3, 2300000, "ratio=0.667 mhz=1533");
	/* 0.85 x 2.6 GHz: the AVX-512 drop the issue is after. */
	expect_text("text.avx512_drop", 4, 850, 1000, 2600000, "ratio=0.850 mhz=2210");
	/* Sums near 2^62: cycles x kHz overflows 64 bits on its way. */
	expect_text("text.large_sums", 1, 1ull << 62, 1ull << 62, 4000000,
		    "ratio=1.000 mhz=4000");
	expect_text("text.rate_unknown", 3, 3, 2, 0, "ratio=1.500 mhz=?");
	expect_text("text.no_samples", 0, 0, 0, 2000000, "ratio=? mhz=?");
}

/* ---- the plan's gate for APERF/MPERF ---- */

static void expect_gate(const char *name, const char *words, bool has,
			const char *want)
{
	static struct options o;
	static struct plan p;
	struct cpu_desc d = { 0 };

	d.l1d.size_kib = 32;
	d.line_size = 64;
	if (has)
		d.feats |= 1ull << FEAT_APERFMPERF;
	options_parse(&o, PROGRAM_KERNEL, words);
	plan_build(&p, &o, &d, UINT64_MAX, false);
	result(!o.nerrors && ((!want && !p.no_aperfmperf) ||
			      (want && p.no_aperfmperf && !strcmp(p.no_aperfmperf, want))),
	       name, "'%s': got '%s', want '%s'%s", words,
	       p.no_aperfmperf ? p.no_aperfmperf : "(may)", want ? want : "(may)",
	       o.nerrors ? " (option error)" : "");
}

static void test_gate(void)
{
	expect_gate("gate.present", "suite=clear", true, NULL);
	expect_gate("gate.absent", "suite=clear", false, "CPUID.06H:ECX[0] is 0");
	expect_gate("gate.disabled", "disable=aperfmperf", true,
		    "turned off by disable=aperfmperf");
	expect_gate("gate.forced", "force=aperfmperf", false, NULL);
}

/* ---- the suites on the fake host ---- */

static bool disturb_first_two(unsigned int w, unsigned int cpu)
{
	(void)cpu;
	return w < 2;
}

static bool disturb_all(unsigned int w, unsigned int cpu)
{
	(void)w;
	(void)cpu;
	return true;
}

/* CPU index 1's first window of the whole run. */
static bool disturb_cpu1_once(unsigned int w, unsigned int cpu)
{
	static bool done;

	(void)w;
	if (cpu != 1 || done)
		return false;
	done = true;
	return true;
}

static void *page_alloc(size_t bytes)
{
	size_t n = (bytes + PAGE_SIZE - 1) / PAGE_SIZE * PAGE_SIZE;

	return n ? aligned_alloc(PAGE_SIZE, n) : NULL;
}

struct run {
	struct options o;
	struct plan p;
	struct buffers b;
};

/* check_dst: every window must begin on the l1 clear's prepared destination. */
static bool run_suite(struct run *r, const char *words, bool check_dst)
{
	struct cpu_desc d = { 0 };
	struct buffer_sizes bs;

	d.l1d.size_kib = 32;
	d.l2.size_kib = 256;
	d.line_size = 64;
	options_parse(&r->o, PROGRAM_LINUX, words);
	if (r->o.nerrors) {
		result(false, "run.options", "'%s': %s", words, r->o.errors[0]);
		return false;
	}
	plan_build(&r->p, &r->o, &d, UINT64_MAX, false);
	plan_buffer_sizes(&r->p, &bs);
	r->b = (struct buffers){ page_alloc(bs.fill), page_alloc(bs.work),
				 page_alloc(bs.cold), { page_alloc(bs.scrub) }, NULL };
	if ((bs.fill && !r->b.fill) || (bs.work && !r->b.work) ||
	    (bs.cold && !r->b.cold) || (bs.scrub && !r->b.scrub[0])) {
		result(false, "run.buffers", "no memory");
		return false;
	}
	fake.dst = check_dst ? r->b.work + PAGE_SIZE : NULL;
	fake.dst_bytes = check_dst ? pass_bytes(&r->p, PASS_L1, OP_CLEAR) : 0;
	fake.windows = fake.npasses = fake.unprepared = 0;
	forget_lines();
	suite_run(&r->p, &d, &r->b, TSC_KHZ, NULL, NULL);
	return true;
}

static void free_run(struct run *r)
{
	free(r->b.fill);
	free(r->b.work);
	free(r->b.cold);
	free(r->b.scrub[0]);
}

/* "cycles suite=clear pass=l1 variant=stosb samples=N ticks=T ref=R cycles=C ratio=X mhz=M" */
static void check_cycles_line(const char *name, unsigned int want_n, uint64_t want_ticks)
{
	const char *l = find_prefix("cycles suite=clear pass=l1 variant=stosb ");
	unsigned long long ticks, ref, cyc;
	unsigned int n;
	char ratio[16], mhz[16];

	if (!l || sscanf(l, "cycles suite=clear pass=l1 variant=stosb samples=%u ticks=%llu ref=%llu cycles=%llu ratio=%15s mhz=%15s",
			 &n, &ticks, &ref, &cyc, ratio, mhz) != 6) {
		result(false, name, "no cycles line to read: %s", l ? l : "(none)");
		return;
	}
	result(n == want_n && ticks == want_ticks && ref == 2 * ticks && cyc == 3 * ticks &&
	       !strcmp(ratio, "1.500") && !strcmp(mhz, "3000"), name,
	       "samples=%u ticks=%llu ref=%llu cycles=%llu ratio=%s mhz=%s; want samples=%u ticks=%llu ref=2x cycles=3x ratio=1.500 mhz=3000",
	       n, ticks, ref, cyc, ratio, mhz, want_n, (unsigned long long)want_ticks);
}

/* Sums the ticks of the windows that stood, from the value lines' hex ticks. */
static uint64_t value_ticks(void)
{
	uint64_t sum = 0;
	unsigned int i;

	for (i = 0; i < nlines; i++) {
		unsigned long pre, t, post;

		if (sscanf(lines[i], " pre=%lx stosb=%lx post=%lx", &pre, &t, &post) == 3)
			sum += t;
	}
	return sum;
}

static void test_retime_clear(void)
{
	static struct run r;
	const struct sample_tally *t = &fake.tally[0];

	fake.disturb = disturb_first_two;
	fake.cycles = true;
	/* suite=xen: one pass, its reps one after another, no epochs or batches. */
	if (!run_suite(&r, "suite=xen passes=l1 reps=3 variants=stosb", true))
		return;
	result(count_prefix(" pre=") == 3, "retime.values", "%u value lines, want 3 (one per rep)",
	       count_prefix(" pre="));
	result(fake.windows == 3 + 2, "retime.windows", "%u windows timed, want 5",
	       fake.windows);
	result(fake.npasses == 1 && !strcmp(fake.pass[0], "clear/l1") && t->samples == 3 &&
	       t->retimed == 2 && t->kept == 0 && t->cpus == 1 && t->disturbed[0] == 2,
	       "retime.tally", "pass %s: samples=%u retimed=%u kept=%u cpus=%u disturbed=%u; want clear/l1 3 2 0 1 2",
	       fake.npasses ? fake.pass[0] : "(none)", t->samples, t->retimed, t->kept,
	       t->cpus, t->disturbed[0]);
	result(fake.unprepared == 0, "retime.prepared_again",
	       "%u windows began on a destination already cleared", fake.unprepared);
	result(!strcmp(find_prefix("cycles ") ? find_prefix("cycles ") : "",
		       "cycles source=perf-cycles ref=perf-ref-cycles"),
	       "retime.cycles_source", "%s", find_prefix("cycles ") ? find_prefix("cycles ") : "(none)");
	check_cycles_line("retime.cycles_line", 3, value_ticks());
	result(run_failures() == 0, "retime.verified", "%u failures", run_failures());
	free_run(&r);
}

static void test_retime_bounded(void)
{
	static struct run r;
	const struct sample_tally *t = &fake.tally[0];

	fake.disturb = disturb_all;
	fake.cycles = true;
	if (!run_suite(&r, "suite=xen passes=l1 reps=4 variants=stosb", true))
		return;
	result(count_prefix(" pre=") == 4, "bounded.values", "%u value lines, want 4",
	       count_prefix(" pre="));
	result(fake.windows == 4 * (1 + SAMPLE_RETIMES), "bounded.windows",
	       "%u windows, want %u", fake.windows, 4 * (1 + SAMPLE_RETIMES));
	result(t->samples == 4 && t->retimed == 4 * SAMPLE_RETIMES && t->kept == 4 &&
	       t->disturbed[0] == 4 * (1 + SAMPLE_RETIMES), "bounded.tally",
	       "samples=%u retimed=%u kept=%u disturbed=%u", t->samples, t->retimed,
	       t->kept, t->disturbed[0]);
	result(fake.unprepared == 0, "bounded.prepared_again",
	       "%u windows began on a destination already cleared", fake.unprepared);
	check_cycles_line("bounded.cycles_line", 4, value_ticks());
	free_run(&r);
}

static void test_copy_hot(void)
{
	static struct run r;
	const struct sample_tally *t = &fake.tally[0];

	fake.disturb = disturb_first_two;
	fake.cycles = false;
	/*
	 * Ma Ling's copies, then reps=1: one epoch of one batched sample. The
	 * page suites' passes take turns in epochs, so one disturbance line,
	 * all/all, counts every pass's samples.
	 */
	if (!run_suite(&r, "suite=copy passes=hot variants=movsb reps=1", false))
		return;
	result(fake.npasses == 1 && !strcmp(fake.pass[0], "all/all") &&
	       t->samples == COPY_HOT_N + 1 && t->retimed == 2 &&
	       t->kept == 0 && fake.windows == COPY_HOT_N + 1 + 2, "hot.tally",
	       "pass %s samples=%u retimed=%u kept=%u windows=%u; want all/all %u 2 0 %u",
	       fake.npasses ? fake.pass[0] : "(none)", t->samples, t->retimed, t->kept,
	       fake.windows, COPY_HOT_N + 1, COPY_HOT_N + 1 + 2);
	result(!strcmp(find_prefix("cycles") ? find_prefix("cycles") : "",
		       "cycles: none (the fake has none)") && !find_prefix("cycles suite="),
	       "hot.no_cycles_lines", "%s", find_prefix("cycles") ? find_prefix("cycles") : "(none)");
	free_run(&r);
}

static void test_cycles_off(void)
{
	static struct run r;

	fake.disturb = NULL;
	fake.cycles = true;
	if (!run_suite(&r, "suite=clear passes=l1 reps=1 variants=stosb cycles=off", false))
		return;
	result(!fake.saw_cycles_on && find_prefix("cycles: none (cycles=off)") &&
	       !find_prefix("cycles suite="), "off.reaches_host",
	       "host asked for cycles: %d; line: %s", fake.saw_cycles_on,
	       find_prefix("cycles") ? find_prefix("cycles") : "(none)");
	free_run(&r);
}

static void test_scrub_every_cpu(void)
{
	static struct run r;
	unsigned int i, found = PASSES_MAX;

	fake.disturb = disturb_cpu1_once;
	fake.cycles = false;
	if (!run_suite(&r, "suite=scrub scrub=1M reps=2 variants=stosb", false))
		return;
	for (i = 0; i < fake.npasses; i++)
		if (!strcmp(fake.pass[i], "scrub/cpus2"))
			found = i;
	if (found == PASSES_MAX) {
		result(false, "scrub.passes", "no scrub/cpus2 pass among %u", fake.npasses);
		free_run(&r);
		return;
	}
	{
		const struct sample_tally *t = &fake.tally[found];

		result(t->samples == 2 && t->retimed == 1 && t->kept == 0 && t->cpus == 2 &&
		       t->disturbed[0] == 0 && t->disturbed[1] == 1, "scrub.cpu1_counted",
		       "samples=%u retimed=%u kept=%u cpus=%u disturbed=%u,%u; want 2 1 0 2 0,1",
		       t->samples, t->retimed, t->kept, t->cpus, t->disturbed[0],
		       t->disturbed[1]);
	}
	/* cpus=1: 2 steps of 1 window; cpus=2: 3 steps (one again) of 2 windows. */
	result(fake.windows == 2 * 1 + 3 * 2, "scrub.windows", "%u windows, want 8",
	       fake.windows);
	result(count_prefix("scrub variant=stosb cpus=2 ") == 2, "scrub.step_lines",
	       "%u step lines for 2 CPUs, want 2 (the retimed step once)",
	       count_prefix("scrub variant=stosb cpus=2 "));
	result(run_failures() == 0, "scrub.verified", "%u failures", run_failures());
	free_run(&r);
}

int main(void)
{
	setvbuf(stdout, NULL, _IOLBF, 0);
	out_add_sink(sink);
	test_muldiv();
	test_behind();
	test_cycles_text();
	test_gate();
	test_retime_clear();
	test_retime_bounded();
	test_copy_hot();
	test_cycles_off();
	test_scrub_every_cpu();
	forget_lines();
	return check_exit();
}
