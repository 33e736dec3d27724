/* SPDX-License-Identifier: MIT */
/*
 * The two suites. Each pass prints its header, then reps iterations of every
 * variant that runs, in table order: lines are grouped by iteration, as in
 * the 2021 experiment. Verification failures print a line and count.
 */
#ifndef PB_SUITE_H
#define PB_SUITE_H

#include <stdint.h>
#include "bench.h"
#include "plan.h"

struct buffers {
	uint8_t *fill;	/* plan.max_nr pages */
	uint8_t *work;	/* plan.max_nr / 2 + 3 pages: buf, or src and dst, between guards */
	uint8_t *cold;	/* 2 * COPY_COLD_BYTES: copy-cold's other data */
};

#define WORK_PAGES(max_nr) ((max_nr) / 2 + 3)

void suite_clear_pass(struct bench_env *env, const struct plan *p,
		      enum pass_id id, const struct buffers *b);
void suite_copy_pass(struct bench_env *env, const struct plan *p,
		     enum pass_id id, const struct buffers *b);
void suite_copy_hot_cold(const struct plan *p, enum pass_id id,
			 const struct buffers *b);

#endif
