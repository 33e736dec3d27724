/* SPDX-License-Identifier: MIT */
/*
 * The answer of a run on one screen, as text: per suite a matrix of pass
 * x kernel pick, each cell what its answer line says (keep, "→ Y −Z%
 * (a–b)", undecided, n/a, or - where the pick is not judged in the
 * pass), the picks each column stands for, then the caveats once, as
 * numbered footnotes. The layout is scripts/pbreport/matrix.py's, cell
 * for cell (tests/test_linux_log.py compares them): the kernel's
 * screen page and pagebench-linux's terminal both draw it from here.
 * Nothing here decides: the records of harness/answer.h are the answer.
 */
#ifndef PB_ANSWER_MATRIX_H
#define PB_ANSWER_MATRIX_H

#include <stdbool.h>
#include "harness/answers.h"

/* The widest line it makes, in bytes (UTF-8: up to 3 bytes a column). */
#define MATRIX_LINE_MAX		512

struct matrix_style {
	unsigned int width;	/* columns a line may take */
	unsigned int height;	/* lines it may take; the last says what is cut */
	bool ascii;		/* "->", "-", "x", "[1]" for "→", "−", "×", "¹": the VGA font */
	bool no_legend;		/* no "cells:" line: the screen says it below the page */
};

/*
 * The lines, each given to put() without its newline: first full cells
 * with blank lines between the blocks, then compact ones, then no blank
 * lines, whichever first fits style's height. Returns how many; 0 where
 * the run made no answer.
 */
unsigned int answer_matrix(const struct answers *a, const struct matrix_style *style,
			   void (*put)(const char *line, void *ctx), void *ctx);

#endif
