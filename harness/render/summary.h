/* SPDX-License-Identifier: MIT */
/*
 * The run's results as a person reads them: per pass, each variant's median
 * time, ranked. The rules are pagebench-report's (docs/report.md): the
 * median of a variant's samples (the mean of the two middle ones for an
 * even count), the quickest the lowest median, ties to the earlier variant in
 * the table, the runner-up's margin its median over the quickest's, less one.
 * The kernel shows it on the screen at the end of a run.
 */
#ifndef PB_SUMMARY_H
#define PB_SUMMARY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "harness/stats/interval.h"
#include "harness/measure/record.h"
#include "variants/passes.h"
#include "variants/variants.h"

struct summary_row {
	const char *variant;
	uint64_t median2;	/* twice the median ticks per call: exact for even counts */
	uint64_t lo2, hi2;	/* twice its interval's ends, with has_interval */
	bool has_interval;
};

struct summary_pass {
	char title[48];		/* when set, in place of the pass's header */
	enum op op;
	enum pass_id id;
	size_t bytes;		/* one call's: cleared, or copied each way */
	unsigned int n;
	struct summary_row row[VARIANTS_MAX];	/* fastest first, once ranked */
};

struct summary {
	unsigned int n;
	struct summary_pass pass[RECORD_PASSES_MAX];
};

/* Every pass and scrub step of a run's record, each ranked. */
void summary_of_record(struct summary *s, const struct run_record *r);

/* Starts a pass's block; its rows follow with summary_add(). */
void summary_begin(struct summary *s, enum op op, enum pass_id id, size_t bytes);
/* The same for a block that is not a pass's (suite=scrub's counts). */
void summary_begin_titled(struct summary *s, const char *title, size_t bytes);
void summary_add(struct summary *s, const char *variant, uint64_t median2);
/* A row whose figure has an interval (harness/stats/interval.h), all doubled. */
void summary_add_interval(struct summary *s, const char *variant,
			  uint64_t median2, uint64_t lo2, uint64_t hi2);
/* Ranks the rows of the last pass begun. */
void summary_end(struct summary *s);

#define SUMMARY_COLS 80

/*
 * The text of one pass's block: a title line, then one line per variant
 * (ticks and, when tsc_khz is known, ns per 4 KiB page, bytes per tick,
 * and the margin to the quickest). Where rows have intervals, one whose
 * interval overlaps the first's is as good as it: its margin is marked
 * "~", and the first is "tied" rather than "quickest": a description of
 * the figures, the decision being the answer's. Returns the
 * number of lines, at most max.
 */
unsigned int summary_block(const struct summary_pass *p, uint64_t tsc_khz,
			   char (*lines)[SUMMARY_COLS], unsigned int max);

#endif
