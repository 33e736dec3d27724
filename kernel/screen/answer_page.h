/* SPDX-License-Identifier: MIT */
/*
 * The answer as the screen's first page at the end of a run: the matrix
 * of harness/render/matrix.h (pass x kernel pick, the picks each column
 * stands for, the footnotes), the same pagebench-linux and
 * pagebench-report verdict draw, in ASCII.
 */
#ifndef PB_SCREEN_ANSWER_PAGE_H
#define PB_SCREEN_ANSWER_PAGE_H

#include "harness/decide/answers.h"

#define ANSWER_PAGE_COLS	160
#define ANSWER_PAGE_ROWS	(ANSWER_FNS * (PASS_COUNT + 3) + ANSWER_FNS + 1)

/*
 * The page's rows, at most cols wide (at least 80 is expected) and max
 * of them (the last says what is cut); 0 when the run made no answer.
 */
unsigned int screen_answer_page(const struct answers *a, unsigned int cols,
				char (*rows)[ANSWER_PAGE_COLS + 1], unsigned int max);

/* What the page's cells mean, for the rows above it; not_a_cpu: the run's. */
const char *screen_answer_legend(const struct answers *a);

#endif
