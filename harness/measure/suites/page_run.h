/* SPDX-License-Identifier: MIT */
/*
 * One run of the page suites (clear, copy, xen), as suite_run() sets it
 * up and every file of theirs reads it: the plan, the buffers, where the
 * figures go, time='s questions, and what the run measures with. The
 * files and their calls flow one way: the driver (suite.c) lets the
 * passes take turns; a pass's epochs (pass.c, pass.h), Ma Ling's
 * copy-hot/copy-cold (copy_hot_cold.c) and the peers' hot buffer
 * (hot_buffer.c) call the timed call (call.h), the checks (verify.h),
 * the buffers' layout (layout.h) and, under time=, the race of the
 * questions still open (pass_race.h). Only these files include this;
 * the suites' interface is harness/measure/suites/suite.h.
 */
#ifndef PB_PAGE_RUN_H
#define PB_PAGE_RUN_H

#include <stdbool.h>
#include <stdint.h>
#include "harness/decide/race.h"
#include "harness/measure/bench.h"
#include "harness/measure/buffers.h"
#include "harness/measure/epochs.h"
#include "harness/measure/plan.h"
#include "harness/measure/progress.h"
#include "harness/measure/record.h"
#include "harness/measure/timer.h"
#include "variants/variants.h"

#define PAGE PAGE_SIZE

struct page_run {
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

static inline bool variant_runs(const struct page_run *s, unsigned int i,
				enum op op)
{
	return variants[i].op == op && ((s->runs >> i) & 1);
}

static inline variant_set op_runs(const struct page_run *s, enum op op)
{
	variant_set set = 0;
	unsigned int i;

	for (i = 0; i < variant_count; i++)
		if (variant_runs(s, i, op))
			set |= 1ull << i;
	return set;
}

#endif
