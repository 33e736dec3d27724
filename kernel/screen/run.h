/* SPDX-License-Identifier: MIT */
/* The run on the screen: progress while it measures, the summary after. */
#ifndef PB_SCREEN_RUN_H
#define PB_SCREEN_RUN_H

#include "harness/host.h"
#include "harness/summary.h"

/* The progress rows (called through host_progress()). */
void screen_run_progress(const struct progress *p);

/* The summary in place of the messages, its first page shown; the verdict's last. */
void screen_run_summary(const struct summary *sum, uint64_t tsc_khz);

/*
 * With more than one page: turn them every few seconds, up to the
 * verdict's page, which stays; without a verdict, for ever.
 */
void screen_run_hold(void);

#endif
