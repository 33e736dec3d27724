/* SPDX-License-Identifier: MIT */
/*
 * What the files of the page suites (clear, copy, xen) share, and the calls
 * between them, which flow one way: the driver (suite.c) lets the passes
 * take turns; a pass's epochs (pass.c), Ma Ling's copy-hot/copy-cold
 * (copy_hot_cold.c) and the peers' hot buffer (hot_buffer.c) call the timed call (call.c), the checks
 * (verify.c), the buffers' layout (layout.c) and, under time=, the
 * race of the questions still open (pass_race.c). Only these files include
 * this; the suites' interface is harness/measure/suites/suite.h.
 */
#ifndef PB_SUITE_INTERNAL_H
#define PB_SUITE_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "harness/measure/bench.h"
#include "harness/measure/buffers.h"
#include "harness/measure/epochs.h"
#include "harness/measure/host.h"
#include "harness/measure/plan.h"
#include "harness/measure/progress.h"
#include "harness/decide/race.h"
#include "harness/measure/record.h"
#include "harness/measure/timer.h"
#include "harness/measure/suites/figures.h"
#include "variants/variants.h"

#define PAGE PAGE_SIZE

struct pass_state;
struct cpu_desc;

struct suite_run {
	const struct plan *p;
	const struct buffers *b;
	struct run_record *rec;		/* may be NULL */
	const struct race_questions *q;	/* time='s questions; may be NULL */
	struct bench_env env;
	variant_set runs;		/* the plan's, less what faulted */
	struct progress_clock clock;	/* in pages touched */
	struct timer_res timer;		/* with the plan's stats */
	struct buffer_sizes sizes;	/* of b, as the plan asked for them */
	uint64_t ticks_per_ms;
	struct epoch_rule rule;
};

static inline bool variant_runs(const struct suite_run *s, unsigned int i,
				enum op op)
{
	return variants[i].op == op && ((s->runs >> i) & 1);
}

static inline variant_set op_runs(const struct suite_run *s, enum op op)
{
	variant_set set = 0;
	unsigned int i;

	for (i = 0; i < variant_count; i++)
		if (variant_runs(s, i, op))
			set |= 1ull << i;
	return set;
}

/* layout.c */

/*
 * Where a pass's data lives in the work area, from base: a guard page,
 * then per slot src, guard, dst, guard for a copy, dst, guard for a clear
 * (src is NULL). A batch of calls uses one slot per call.
 */
struct layout {
	uint8_t *src, *dst;	/* slot 0's */
	size_t bytes;
	size_t stride;		/* from one slot to the next */
	unsigned int slots;
};

struct layout layout_of(const struct plan *p, uint8_t *base, enum op op,
			size_t bytes);
/* Pass id's layout from base: with placements, one slot per placement. */
struct layout pass_layout(const struct plan *p, uint8_t *base, enum op op,
			  enum pass_id id);
struct layout layout_slot(const struct layout *l, unsigned int j);
size_t layout_span(const struct layout *l, const uint8_t *base);
uint64_t iteration_pages(const struct plan *p, enum pass_id id);

/* call.c */

struct call {
	const struct variant *v;
	const struct layout *l;
	unsigned int calls;	/* a batch: over slots 0 .. calls - 1 */
	bool same_slot;		/* copy-hot: every call on slot 0 */
};

void call_variant(void *arg, size_t off, size_t len);
void call_whole(void *arg);
void call_batch(void *arg);

/* verify.c */

void prepare_slot(const struct layout *l, unsigned int rep, unsigned int i);
void verify_slots(struct pass_state *ps, unsigned int i, const struct layout *l,
		  unsigned int n);
void variant_fault(struct suite_run *s, struct pass_state *ps, unsigned int i,
		   const struct fault *f);

/* pass.c */

/* One pass of a table: where its buffers are this epoch, and its figures. */
struct pass_state {
	enum op op;
	enum pass_id id;
	const char *header;
	size_t nr;		/* fill's pages */
	uint8_t *fill;
	uint8_t *base;		/* of the work area's layout */
	struct layout l;
	struct pass_figures figs;
	unsigned int rep;	/* reps so far, over the epochs */
	unsigned int batch;	/* calls per sample, for every variant (stats) */
	unsigned int slot;	/* its place among the passes of the run */
	unsigned int epoch;	/* epochs run */
	unsigned int reps;	/* in each epoch; 0 until the first rep's time says */
	unsigned int expect;	/* epochs it is expected to take */
	uint64_t own, last;	/* ticks of its epochs, and of the last */
	bool use;		/* a use probe each epoch */
	variant_set failed;	/* printed a verify FAILED or fault line */
	variant_set printed;	/* have stat lines: the variants at its stop */
	unsigned int aggregate_n; /* copy-hot, copy-cold: Ma Ling's copies */
	struct record_pass *rec;	/* suite=xen: where its figures go; may be NULL */
	/*
	 * Placements (the L3 and MEM passes with stats; docs/method.md,
	 * "Placements"): l has one slot per placement, and call number
	 * next takes slot next % placements, its fill the same share of
	 * fill; primed: the first call of this rep's primed placements,
	 * nprimed of them, one per variant in the order they run.
	 */
	unsigned int placements;
	unsigned long next, primed;
	unsigned int nprimed;
	void (*rep_fn)(struct suite_run *s, struct pass_state *ps, unsigned int reps);
	/* time= (harness/decide/race.h) */
	variant_set active;	/* still measured */
	bool open;		/* some question of its race is open */
	unsigned int need;	/* epochs its open questions are projected to need */
	bool ended;		/* its stat lines are printed */
};

void pass_begin(struct suite_run *s, struct pass_state *ps, enum op op,
		enum pass_id id, unsigned int slot);
/*
 * The pass's next epoch. With time= it returns EPOCH_GO_ON and leaves
 * the stop to the run's budget (harness/measure/budget.h); otherwise its own
 * rule (harness/measure/epochs.h) stops it, and its stat lines are printed.
 */
enum epoch_stop pass_epoch(struct suite_run *s, struct pass_state *ps);
/* The pass has stopped for stop: its stat and ratio lines. */
void pass_stop(struct suite_run *s, struct pass_state *ps, enum epoch_stop stop);

/* Whether variant i is measured in the pass's epochs: it runs, and time= has not stopped it. */
static inline bool variant_measured(const struct suite_run *s,
				    const struct pass_state *ps, unsigned int i);

static inline bool variant_measured(const struct suite_run *s,
				    const struct pass_state *ps, unsigned int i)
{
	return variant_runs(s, i, ps->op) && ((ps->active >> i) & 1);
}

/* pass_race.c */

/* Epochs a pass runs under time= before it may stop settled. */
unsigned int pass_floor(enum pass_id id);
/*
 * time=: after an odd count of epochs from the first round on, the race
 * of the pass's questions says what it still measures: below its floor
 * every variant an answer names, from it those of the open questions. A
 * variant it stops measuring stops for good (stop=out).
 */
void pass_race(struct suite_run *s, struct pass_state *ps);

/* copy_hot_cold.c */

void ma_ling(struct suite_run *s, struct pass_state *ps);
void hot_cold_reps(struct suite_run *s, struct pass_state *ps,
		   unsigned int reps);

static inline bool ma_ling_pass(enum pass_id id)
{
	return passes[id].kind == KIND_HOT || passes[id].kind == KIND_COLD;
}

/* hot_buffer.c */

void hot_buffer_reps(struct suite_run *s, struct pass_state *ps,
		     unsigned int reps);

#endif
