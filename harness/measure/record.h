/* SPDX-License-Identifier: MIT */
/*
 * What a run measured, kept for after it: each pass's variants (and each
 * scrub step's) with their epochs, as the decision reads them
 * (harness/decide/answers.h), and their figures as their lines printed them, as
 * the screen's summary ranks them (harness/render/summary.h); suite=strings'
 * figures by size class (harness/measure/strings_figures.h). The suites add to it
 * as their passes end; once they are over, the run sequence hands it to
 * the decision (harness/sequence.h). Measuring decides nothing.
 */
#ifndef PB_RECORD_H
#define PB_RECORD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "harness/stats/interval.h"
#include "harness/measure/strings_figures.h"
#include "variants/passes.h"
#include "variants/variants.h"

/* Every pass of both tables, and suite=scrub's steps (1, 2, 4, ... 256 CPUs, and remote). */
#define RECORD_PASSES_MAX	(OP_COUNT * PASS_COUNT + 16)
/* The scrub steps' series, one per variant and step, kept here: the passes' stay in their figures. */
#define RECORD_SERIES_MAX	160

/* One variant that ran in a pass: what the decision weighs. */
struct record_input {
	const struct variant *v;
	bool failed;			/* a verify FAILED or fault line in the pass */
	struct epoch_series s;		/* s.epochs 0: no epochs (suite=xen) */
};

/* One variant's figure as its line printed it, doubled (exact for even counts). */
struct record_figure {
	const char *variant;
	uint64_t median2;
	uint64_t lo2, hi2;		/* with has_interval */
	bool has_interval;
};

struct record_pass {
	enum op op;
	enum pass_id id;		/* a page pass's */
	char step[16];			/* a scrub step's id ("cpus2_remote"); "" for a pass */
	char title[48];			/* a scrub step's title on the summary */
	size_t bytes;			/* a call's: cleared, or copied each way */
	unsigned int nin, nfig;
	struct record_input in[VARIANTS_MAX];
	struct record_figure fig[VARIANTS_MAX];
};

struct run_record {
	unsigned int n;
	struct record_pass pass[RECORD_PASSES_MAX];
	/* suite=strings: its figures, and their step (hundredths of a tick per call). */
	bool strings;
	uint64_t strings_quantum;
	struct strings_figures strings_figs;
	unsigned int nseries;
	uint64_t series[RECORD_SERIES_MAX][INTERVAL_EPOCHS_MAX];
};

/* Empty, for a run's start. */
void record_begin(struct run_record *r);

/* A page pass's entry, or NULL where the record is full (then the adds below do nothing). */
struct record_pass *record_add_pass(struct run_record *r, enum op op, enum pass_id id,
				    size_t bytes);
/* A scrub step's entry: step its id, title its summary's. */
struct record_pass *record_add_step(struct run_record *r, const char *step,
				    const char *title, size_t bytes);

void record_add_input(struct record_pass *p, const struct variant *v, bool failed,
		      struct epoch_series s);
/* A figure without an interval (median2 0: none, left out). */
void record_add_figure(struct record_pass *p, const char *variant, uint64_t median2);
void record_add_interval(struct record_pass *p, const char *variant, uint64_t median2,
			 uint64_t lo2, uint64_t hi2);

/*
 * A copy of med[0..n) (n at most INTERVAL_EPOCHS_MAX) that lasts as long
 * as r, for a series that must outlive its suite; NULL where r has no room.
 */
const uint64_t *record_keep_series(struct run_record *r, const uint64_t *med,
				   unsigned int n);

#endif
