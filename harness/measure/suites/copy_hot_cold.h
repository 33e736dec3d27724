/* SPDX-License-Identifier: MIT */
/* Ma Ling's 2011 copy-hot and copy-cold (copy_hot_cold.c). */
#ifndef PB_COPY_HOT_COLD_H
#define PB_COPY_HOT_COLD_H

#include <stdbool.h>
#include "harness/measure/suites/pass.h"

static inline bool ma_ling_pass(enum pass_id id)
{
	return passes[id].kind == KIND_HOT || passes[id].kind == KIND_COLD;
}

/* Before the pass's first epoch: Ma Ling's own copies, and the pass's batch from them. */
void ma_ling(struct page_run *s, struct pass_state *ps);
pass_reps_fn hot_cold_reps;

#endif
