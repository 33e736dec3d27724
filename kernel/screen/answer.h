/* SPDX-License-Identifier: MIT */
/*
 * The answer as the screen's first page at the end of a run: the answer
 * lines (harness/answer.h) as a matrix, a row per pass, a column per
 * function and kernel pick (the variant that runs what the kernel picks:
 * the decision depends on the pick's variant and the pass alone), each
 * cell keep, NAME-Z% (switch to NAME, saving Z%), undecided, n/a, or
 * ~NAME-Z% where the run is not on a CPU (figures, no advice), NAME
 * marked * where it needs vector registers and the run could not time
 * kernel_fpu_begin/end (a footnote says so); a legend row per function
 * says whose pick each column is. The functions' columns go side by
 * side where the screen is wide enough, else in bands below each other.
 */
#ifndef PB_SCREEN_ANSWER_H
#define PB_SCREEN_ANSWER_H

#include "harness/answer.h"

#define ANSWER_PAGE_COLS	160
/* Each function's band and legend, a blank, and the FPU footnote. */
#define ANSWER_PAGE_ROWS	(ANSWER_FNS * (PASS_COUNT + 3) + ANSWER_FNS + 2)

/*
 * The page's rows, at most cols wide (at least 80 is expected); 0 when
 * the run made no answer.
 */
unsigned int screen_answer_page(const struct answers *a, unsigned int cols,
				char (*rows)[ANSWER_PAGE_COLS + 1], unsigned int max);

/* What the page's cells mean, for the rows above it; not_a_cpu: the run's. */
const char *screen_answer_legend(const struct answers *a);

#endif
