/* SPDX-License-Identifier: MIT */
/*
 * The one driver of the clear and copy tables, as perf bench's
 * mem-functions.c drives its one table. Each pass prints its header, then
 * reps iterations of every variant that runs, in table order: lines are
 * grouped by iteration, as in the 2021 experiment. Every result is
 * verified; failures print a line and count. A variant that faults is
 * reported once and left out of the rest of the run.
 */
#ifndef PB_SUITE_H
#define PB_SUITE_H

#include <stdint.h>
#include "cpu/cpu.h"
#include "harness/measure/host.h"
#include "harness/measure/buffers.h"
#include "harness/measure/plan.h"
#include "harness/decide/race.h"
#include "harness/measure/record.h"

/*
 * b: allocated by the host with the sizes plan_buffer_sizes() gives.
 * tsc_khz may be 0 (unknown): progress then gives no times. q: time='s
 * questions (harness/decide/race.h); NULL races none. rec, when not NULL,
 * receives what each pass measured (harness/measure/record.h).
 */
void suite_run(const struct plan *p, const struct cpu_desc *d,
	       const struct buffers *b, uint64_t tsc_khz,
	       const struct race_questions *q, struct run_record *rec);

#endif
