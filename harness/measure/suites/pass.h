/* SPDX-License-Identifier: MIT */
/*
 * One pass of a page suite's table (pass.c): where its buffers are this
 * epoch, its reps, its figures, and its turns among the run's passes;
 * the driver (suite.c) begins it, asks it for its epochs and stops it,
 * and its reps are one of pass.c's, copy_hot_cold.c's or hot_buffer.c's.
 */
#ifndef PB_PASS_H
#define PB_PASS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "harness/measure/epochs.h"
#include "harness/measure/record.h"
#include "harness/measure/suites/figures.h"
#include "harness/measure/suites/layout.h"
#include "harness/measure/suites/page_run.h"
#include "harness/measure/suites/pass_race.h"

/*
 * Placements (the L3 and MEM passes with stats; docs/method.md,
 * "Placements"): the layout has one slot per placement, and call number
 * next takes slot next % n, its fill the same share of fill; primed: the
 * first call of this rep's primed placements, nprimed of them, one per
 * variant in the order they run.
 */
struct placements {
	unsigned int n;
	unsigned long next, primed;
	unsigned int nprimed;
};

struct pass_state;
/* A pass's reps of every variant it still measures, reps of them shown by progress. */
typedef void pass_reps_fn(struct page_run *s, struct pass_state *ps, unsigned int reps);

struct pass_state {
	enum op op;
	enum pass_id id;
	const char *header;
	/* Where its data is this epoch. */
	size_t nr;		/* fill's pages */
	uint8_t *fill;
	uint8_t *base;		/* of the work area's layout */
	struct layout l;
	struct placements place;
	/* Its reps and figures. */
	pass_reps_fn *rep_fn;
	unsigned int rep;	/* reps so far, over the epochs */
	unsigned int reps;	/* in each epoch; 0 until the first rep's time says */
	unsigned int batch;	/* calls per sample, for every variant (stats) */
	bool use;		/* a use probe each epoch */
	struct pass_figures figs;
	variant_set failed;	/* printed a verify FAILED or fault line */
	variant_set printed;	/* have stat lines: the variants at its stop */
	unsigned int aggregate_n; /* copy-hot, copy-cold: Ma Ling's copies */
	struct record_pass *rec;	/* suite=xen: where its figures go; may be NULL */
	/* Its turns among the run's passes. */
	unsigned int slot;	/* its place among the passes of the run */
	unsigned int epoch;	/* epochs run */
	uint64_t own, last;	/* ticks of its epochs, and of the last */
	struct pass_race race;	/* time= */
	bool ended;		/* its stat lines are printed */
};

void pass_begin(struct page_run *s, struct pass_state *ps, enum op op,
		enum pass_id id, unsigned int slot);
/*
 * The pass's next epoch. With time= it returns EPOCH_GO_ON and leaves
 * the stop to the run's budget (harness/measure/budget.h); otherwise its own
 * rule (harness/measure/epochs.h) stops it, and its stat lines are printed.
 */
enum epoch_stop pass_epoch(struct page_run *s, struct pass_state *ps);
/* The pass has stopped for stop: its stat and ratio lines. */
void pass_stop(struct page_run *s, struct pass_state *ps, enum epoch_stop stop);

/* Whether variant i is measured in the pass's epochs: it runs, and time= has not stopped it. */
static inline bool variant_measured(const struct page_run *s,
				    const struct pass_state *ps, unsigned int i)
{
	return variant_runs(s, i, ps->op) && ((ps->race.active >> i) & 1);
}

#endif
