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
#include "harness/cpu.h"
#include "harness/suite.h"
#include "variants/variants.h"

/*
 * Calls per timed batch. Independent short calls overlap down to a few
 * ticks each, while a timed region resolves only to the TSC's step (26
 * ticks on this project's VM): a batch of 256 resolves a call to a tenth
 * of a tick there, and its longest batch (4 KiB byte by byte) stays near
 * 20 microseconds, short beside a scheduler tick.
 */
#define STRINGS_CALLS		256
/* The zero-length section: longer batches, half their calls of ZERO_MIX_N bytes. */
#define STRINGS_ZERO_CALLS	1024
#define STRINGS_ZERO_MIX_N	64
/* How far dst (and memcpy's src) lie past a 64-byte boundary. */
#define STRINGS_MISALIGNS	{ 0, 1, 7 }
#define STRINGS_NMISALIGN	3
#define STRINGS_MISALIGN_MAX	7

/*
 * The strings buffer (struct buffers.strings), page-aligned: a guard page,
 * dst's window, a guard page, src's window, a guard page. A window holds
 * the largest size at the largest misalignment.
 */
#define STRINGS_WINDOW_PAGES	2
#define STRINGS_BUFFER_BYTES	((3 + 2 * STRINGS_WINDOW_PAGES) * PAGE_SIZE)

_Static_assert(STRINGS_SIZE_LIMIT + STRINGS_MISALIGN_MAX <=
	       STRINGS_WINDOW_PAGES * PAGE_SIZE, "a window holds every range");

/* The timed loops' argument (harness/strings_loop.asm has its offsets). */
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
