/* SPDX-License-Identifier: MIT */
/*
 * How suite=strings calls each routine: the plan prints these and
 * harness/measure/suites/strings.c does as they say (docs/method.md, "The strings
 * suite").
 */
#ifndef PB_STRINGS_PLAN_H
#define PB_STRINGS_PLAN_H

#include "harness/options/options.h"
#include "variants/variants.h"

/* The modes (docs/method.md): "tput", independent calls; "lat", each call waiting on the last. */
enum strings_mode { MODE_TPUT, MODE_LAT, MODE_COUNT };

static inline const char *strings_mode_name(enum strings_mode m)
{
	static const char *const names[MODE_COUNT] = { "tput", "lat" };

	return m < MODE_COUNT ? names[m] : "?";
}

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

#endif
