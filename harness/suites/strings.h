/* SPDX-License-Identifier: MIT */
/*
 * suite=strings (issue 12): memset and memcpy from 0 to 4096 bytes, the
 * routines of variants/strings.def timed in batches of calls, per size,
 * alignment and mode. docs/method.md ("The strings suite") says how and
 * why; docs/log-format.md gives the lines.
 */
#ifndef PB_STRINGS_RUN_H
#define PB_STRINGS_RUN_H

#include <stddef.h>
#include <stdint.h>
#include "cpu/cpu.h"
#include "harness/buffers.h"
#include "harness/plan.h"
#include "harness/strings_plan.h"
#include "variants/variants.h"

struct strings_batch {
	void *fn;		/* a memset or memcpy of variants/strings.def */
	uint8_t *dst;
	uintptr_t arg2;		/* memset: the fill byte; memcpy: src */
	const size_t *ns;	/* the size of each call */
	size_t calls;		/* at least 1 */
};

/* Independent calls, all on dst: throughput. */
void strings_loop_tput(const struct strings_batch *b);
/* Each call's dst waits for the previous one's return value and first and last byte. */
void strings_loop_lat(const struct strings_batch *b);
/* The empty routine: the call shape of memset and memcpy, returning dst. */
void *strings_empty(void *dst, uintptr_t arg2, size_t n);

/* Runs the suite as the plan says; b->strings is STRINGS_BUFFER_BYTES. */
void strings_run(const struct plan *p, const struct cpu_desc *d,
		 const struct buffers *b, uint64_t tsc_khz);

#endif
