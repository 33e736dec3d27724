/* SPDX-License-Identifier: MIT */
/*
 * The figures of one pass of the clear and copy tables: each variant's
 * timed samples, gathered into epochs (harness/measure/epochs.h), the median of
 * each epoch, the interval over them (harness/stats/interval.h), and the `stat`
 * lines that print them (docs/log-format.md). The use probe's figures
 * (one per epoch) go the same way, on stat lines of their own; each
 * variant's time over the op's reference variant's, epoch by epoch, on
 * ratio lines.
 */
#ifndef PB_FIGURES_H
#define PB_FIGURES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "harness/measure/epochs.h"
#include "harness/stats/interval.h"
#include "harness/options/options.h"
#include "variants/passes.h"
#include "harness/measure/record.h"
#include "variants/variants.h"

/* Passes whose figures are kept at once: every pass of every table. */
#define FIGURES_PASSES_MAX	(OP_COUNT * PASS_COUNT)
/* Samples in one epoch, at most: reps= of REPS_MAX over its fewest epochs. */
#define FIGURES_EPOCH_REPS_MAX	(REPS_MAX / (INTERVAL_EPOCHS_MAX - 2) + 1)

struct variant_figures;

struct pass_figures {
	enum op op;
	const char *suite;		/* its name: "clear", "copy" */
	const char *pass;		/* the pass id, "l1" */
	uint64_t step;			/* the timer's, in ticks */
	unsigned int epochs;		/* ended so far */
	bool use;			/* the pass takes use samples */
	struct variant_figures *v;	/* per variant, in the pass's slot */
	variant_set out;		/* time=: stopped early, stop=out */
};

/* A pass's figures, in slot (below FIGURES_PASSES_MAX) of the storage. */
void figures_begin(struct pass_figures *pf, unsigned int slot, enum op op,
		   const char *pass, uint64_t step, bool use);

/* Calls in each of variant i's samples; 1 unless set. */
void figures_set_batch(struct pass_figures *pf, unsigned int i,
		       unsigned int batch);

/* A sample of variant i: ticks for its batch of calls. */
void figures_add(struct pass_figures *pf, unsigned int i, uint64_t ticks);
/* The use probe of variant i in this epoch, in ticks. */
void figures_add_use(struct pass_figures *pf, unsigned int i, uint64_t ticks);

/*
 * Ends an epoch of the variants in runs: each one's median of it, and
 * its interval so far. Returns whether every interval is within
 * precision_bp (hundredths of a per cent) of its median.
 */
bool figures_end_epoch(struct pass_figures *pf, variant_set runs,
		       unsigned int precision_bp);

/* Variant i's figure and interval so far (its time; its use probe with use). */
const struct interval *figures_interval(const struct pass_figures *pf,
					unsigned int i, bool use);

/* Variant i's epochs so far: the pass's, less those after time= stopped it. */
unsigned int figures_epochs(const struct pass_figures *pf, unsigned int i);
/* The epochs both i and ref ran: the first ones, as a variant stops for good. */
unsigned int figures_common_epochs(const struct pass_figures *pf, unsigned int i,
				   unsigned int ref);

/*
 * Variant i's time over variant ref's, in millionths (RATIO_ONE): the
 * median of the epochs' ratios and its interval, interval_of_ratio()'s
 * (harness/stats/interval.h), over the epochs both ran. False where either
 * lacks epochs.
 */
bool figures_ratio(const struct pass_figures *pf, unsigned int i,
		   unsigned int ref, struct interval *iv);

/* Variant i's epochs as interval_of_ratio() and the answer read them. */
struct epoch_series figures_series(const struct pass_figures *pf, unsigned int i);

/*
 * The stat lines of the variants in runs, in table order, then their
 * ratio lines where the op's reference variant (op_ratio_ref()) is in runs.
 */
void figures_print(const struct pass_figures *pf, variant_set runs,
		   enum epoch_stop stop);

/*
 * What the pass measured, into p (NULL: nothing): each variant of runs
 * with its epochs, failed or not, for the decision; each one's figure and
 * interval as its stat line prints them, for the summary.
 */
void figures_record(const struct pass_figures *pf, variant_set runs,
		    variant_set failed, struct record_pass *p);

#endif
