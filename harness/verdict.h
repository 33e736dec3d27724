/* SPDX-License-Identifier: MIT */
/*
 * The run's verdict, made as pagebench-report verdict makes it of the log
 * (docs/report.md, "verdict"): for clear_page (the page variants),
 * clear_pages (every clear variant, the range ones too) and copy_page,
 * per pass, the winner, the variants as good as it, whether the data can
 * decide, and what Linux and Xen select on this CPU (harness/rules.h) and
 * what that costs. The suites hand each pass's samples over through the
 * summary (harness/summary.h); the decision is made when the pass ends,
 * while they are still there. verdict_report() prints the "verdict"
 * lines of docs/log-format.md before done:, and keeps what the kernel's
 * screen shows.
 */
#ifndef PB_VERDICT_H
#define PB_VERDICT_H

#include <stdbool.h>
#include <stdint.h>
#include "harness/judge.h"
#include "harness/rules.h"
#include "variants/variants.h"

/* The decisions and picks it keeps are harness/judge.h's. */

/*
 * The hosts that print a verdict attach its arithmetic first
 * (judge_attach(), harness/judge.h); without it the passes are handed
 * over for nothing and no line is printed. verdict_off(): no verdict in
 * this run, and why (a line says so at the end): the kernel with
 * disable=sse2, where the statistics' SSE registers must stay unused.
 */
void verdict_off(struct verdict *vd, const char *why);

void verdict_begin_pass(struct verdict *vd, enum op op, enum pass_id pass);
/* t (n samples) must stay as it is until verdict_end_pass(). */
void verdict_add(struct verdict *vd, const struct variant *v, uint64_t *t,
		 unsigned int n, bool failed);
/* copy-hot, copy-cold: only the printed median of n copies is known. */
void verdict_add_aggregate(struct verdict *vd, const struct variant *v,
			   uint64_t median, unsigned int n, bool failed);
/*
 * A figure over epochs, as its stat line prints it (struct verdict_figure,
 * harness/judge.h): the report decides on the interval, not on samples.
 */
void verdict_add_figure(struct verdict *vd, const struct variant *v,
			const struct verdict_figure *fig, bool failed);
/*
 * Variant v's ratio line over ref, the op's reference, as it prints it:
 * after v's verdict_add_figure(). A pass with ratio lines is decided
 * paired against the reference as well (scripts/pbreport/paired.py).
 */
void verdict_add_ratio(struct verdict *vd, const struct variant *v,
		       const struct variant *ref, const struct verdict_ratio *r);
void verdict_end_pass(struct verdict *vd);

/* Judges the picks on these facts and prints the verdict lines. */
void verdict_report(struct verdict *vd, const struct rule_facts *f);

#endif
