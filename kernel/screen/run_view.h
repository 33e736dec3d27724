/* SPDX-License-Identifier: MIT */
/* The run on the screen: progress while it measures, the summary after. */
#ifndef PB_SCREEN_RUN_VIEW_H
#define PB_SCREEN_RUN_VIEW_H

#include "harness/decide/answers.h"
#include "harness/measure/host.h"
#include "harness/render/summary.h"

/* The progress rows (called through host_progress()). */
void screen_run_progress(const struct progress *p);

/* The answer's page in place of the messages; the summary's pages after it. */
void screen_run_summary(const struct summary *sum, const struct answers *answers,
			uint64_t tsc_khz);

/*
 * With more than one page: turn them every few seconds, through the
 * summary's pages and back to the answer's, which stays; without an
 * answer, for ever.
 */
void screen_run_hold(void);

#endif
