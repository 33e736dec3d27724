/* SPDX-License-Identifier: MIT */
/*
 * suite=strings (issue 12): memset and memcpy from 0 to 4096 bytes, the
 * routines of variants/strings.def timed in batches of calls, per size,
 * alignment and mode. docs/method.md ("The strings suite") says how and
 * why; docs/log-format.md gives the lines.
 */
#ifndef PB_STRINGS_RUN_H
#define PB_STRINGS_RUN_H

#include <stdint.h>
#include "cpu/cpu.h"
#include "harness/measure/buffers.h"
#include "harness/measure/plan.h"
#include "harness/measure/record.h"
#include "harness/measure/strings_plan.h"

/*
 * Runs the suite as the plan says; b->strings is STRINGS_BUFFER_BYTES.
 * rec, when not NULL, receives its figures by size class, for the
 * memset and memcpy decisions (harness/measure/strings_figures.h).
 */
void strings_run(const struct plan *p, const struct cpu_desc *d,
		 const struct buffers *b, uint64_t tsc_khz, struct run_record *rec);

#endif
