/* SPDX-License-Identifier: MIT */
/*
 * The verdict as the last page of the screen: the verdict lines of the
 * log (harness/verdict.h) for clear_page and copy_page, the times' view
 * (the paired view's lines are the log's alone), one row per pass,
 * in 80 columns: each function's winner, then a column per variant that
 * Linux or Xen picks on this CPU with what it costs there, and below a
 * row per function saying whose pick each column is.
 */
#ifndef PB_SCREEN_VERDICT_H
#define PB_SCREEN_VERDICT_H

#include "harness/verdict.h"

#define VERDICT_COLS	80
/* Two header rows, a row per pass, a legend row per function. */
#define VERDICT_ROWS	(2 + PASS_COUNT + 2)

/* The page's rows; 0 when the run made no clear_page or copy_page decision. */
unsigned int screen_verdict_page(const struct verdict *vd,
				 char (*rows)[VERDICT_COLS + 1], unsigned int max);

/* What the page's marks mean, for the rows above it. */
extern const char screen_verdict_legend[];

#endif
