/* SPDX-License-Identifier: MIT */
/*
 * The timed samples of a pass beyond their ticks. A window the host saw
 * disturbed (harness/measure/host.h, host_sample_end()) is timed again, the caller
 * redoing the whole sample, at most SAMPLE_RETIMES times; what that came
 * to goes on the pass's disturbance line (pagebench-linux). The cycles the
 * host counted beside the ticks are summed per variant and printed, after
 * each pass, as its cycles lines: the effective frequency.
 *
 * A sample's loop, in a suite:
 *
 *	struct sample_tries tries = { 0 };
 *	do {
 *		prepare, evict, ...;
 *		ok = time_guarded(op, ctx, &ticks, &host, &f);
 *	} while (ok && sample_again(&tries, ticks, &host, name));
 */
#ifndef PB_SAMPLE_H
#define PB_SAMPLE_H

#include <stdbool.h>
#include <stdint.h>
#include "harness/measure/host.h"
#include "harness/measure/plan.h"

/* Times a disturbed sample is timed again before it is kept as it is. */
#define SAMPLE_RETIMES	2

/* Once per run, before any sample: the cycles line (their source, or why none). */
void sample_start(const struct plan *p, uint64_t tsc_khz);

/* In place of host_pass_begin()/host_pass_end(): the pass's tally and cycles lines. */
void sample_pass_begin(void);
void sample_pass_end(const char *suite, const char *pass);

/*
 * Passes that take turns (the page suites' epochs): each counts in a slot
 * of its own, below SAMPLE_PASSES_MAX, selected before its samples; the
 * others use slot 0. sample_pass_reset() empties the selected slot,
 * sample_cycles_lines() prints its cycles lines, sample_tally_add() adds
 * its tally to *sum, for the one disturbance line the passes share.
 */
#define SAMPLE_PASSES_MAX	(OP_COUNT * PASS_COUNT)
void sample_pass_select(unsigned int slot);
void sample_pass_reset(void);
void sample_cycles_lines(const char *suite, const char *pass);
void sample_tally_add(struct sample_tally *sum);

struct sample_tries {
	unsigned int retimed;
};

/* A window that ran on CPU index cpu (host_cpus()): counted when disturbed. */
bool sample_window(unsigned int cpu, const struct host_sample *h);
/*
 * After one try of a sample: true when it was disturbed and may be timed
 * again; false when it stands (counted, and counted as kept disturbed
 * when the retimes ran out).
 */
bool sample_retry(struct sample_tries *t, bool disturbed);
/* Both, for a window on the calling CPU; a sample that stands adds its cycles under name. */
bool sample_again(struct sample_tries *t, uint64_t ticks,
		  const struct host_sample *h, const char *name);

/* ---- the arithmetic, for the hosts and the unit tests ---- */

/* a * b / c rounded to nearest, without overflowing 64 bits; c > 0. */
uint64_t sample_muldiv(uint64_t a, uint64_t b, uint64_t c);
/* TSC ticks as nanoseconds; 0 when the rate is unknown. */
uint64_t sample_ticks_ns(uint64_t ticks, uint64_t tsc_khz);
/*
 * Whether a second clock that ran over a span enclosing the window
 * (clock_ns) fell behind the window's ticks by more than the slack: the
 * time the second clock stops for (a switch away, steal, an interrupt)
 * happened inside the window.
 */
bool sample_clock_behind(uint64_t ticks, uint64_t tsc_khz, uint64_t clock_ns);
/* The same for reference cycles at the TSC's rate, counted around the window. */
bool sample_ref_behind(uint64_t ticks, uint64_t ref);

/* Slack of the two tests above: a fixed part and a part of the window. */
#define SAMPLE_SLACK_NS		500
#define SAMPLE_SLACK_TICKS	1000
/*
 * And 1/4000 of the window: the thread's CPU clock of a KVM guest ran
 * about 45 ppm faster than its TSC over 100 ms windows (this project's Intel
 * VM, family 6 model 0xcf); 250 ppm leaves room for either sign.
 */
#define SAMPLE_SLACK_PER	4000

/* The sums of one variant in one pass. */
struct cycle_sums {
	unsigned int n;		/* samples with cycles */
	uint64_t ticks, ref, cycles;
};
/* "ratio=R mhz=M": cycles per reference cycle, three decimals, and MHz ("?" unknown). */
void sample_cycles_text(const struct cycle_sums *c, uint64_t tsc_khz,
			char *buf, size_t len);

#endif
