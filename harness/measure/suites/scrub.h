/* SPDX-License-Identifier: MIT */
/*
 * suite=scrub: every CPU clearing at once, as Xen scrubs free memory and
 * Linux zeroes huge pages. For each clear variant and for 1, 2, 4, ... up
 * to all CPUs, the CPUs clear their shares of one region beyond the last
 * cache level, all starting at one TSC deadline; where memory bandwidth,
 * not the core, is the limit, the winner may change (docs/method.md).
 */
#ifndef PB_SCRUB_H
#define PB_SCRUB_H

#include <stdint.h>
#include "cpu/cpu.h"
#include "harness/measure/host.h"
#include "harness/measure/plan.h"
#include "harness/measure/buffers.h"
#include "harness/measure/record.h"

/*
 * b->scrub[node] is one region of plan_buffer_sizes()'s scrub bytes (the
 * region between two guard pages) for each NUMA node of host_cpus().
 * rec, when not NULL, receives each step's figures.
 */
void scrub_run(const struct plan *p, const struct cpu_desc *d,
	       const struct buffers *b, uint64_t tsc_khz, struct run_record *rec);

#endif
