/* SPDX-License-Identifier: MIT */
/*
 * The answer page (kernel/screen/answer_page.h): harness/render/matrix.h's
 * matrix, the one pagebench-linux and pagebench-report verdict draw, in
 * the ASCII the VGA font has ("->" for the arrow, "[1]" for a note's
 * mark), at the screen's width and rows; the legend is the progress
 * rows' (screen_answer_legend()).
 */
#include "harness/render/matrix.h"
#include "kernel/screen/answer_page.h"
#include "lib/fmt.h"

struct rows {
	char (*row)[ANSWER_PAGE_COLS + 1];
	unsigned int n;
};

static void put_row(const char *line, void *ctx)
{
	struct rows *r = ctx;

	fmt_snprintf(r->row[r->n++], ANSWER_PAGE_COLS + 1, "%s", line);
}

unsigned int screen_answer_page(const struct answers *a, unsigned int cols,
				char (*rows)[ANSWER_PAGE_COLS + 1], unsigned int max)
{
	struct matrix_style style = { .width = cols < ANSWER_PAGE_COLS ? cols : ANSWER_PAGE_COLS,
				      .height = max, .ascii = true, .no_legend = true };
	struct rows r = { rows, 0 };

	answer_matrix(a, &style, put_row, &r);
	return r.n;
}

const char *screen_answer_legend(const struct answers *a)
{
	return a->run.not_a_cpu ?
	       "not a CPU: no advice; n/a, the routine it would name, its time x the pick's" :
	       "-> Y -Z% (a-b): switch to Y, saving Z% (95% a-b); keep; undecided; n/a; -";
}
