/* SPDX-License-Identifier: MIT */
/*
 * The answer of a run on one screen, as text: per suite a matrix of pass
 * (memset, memcpy: mode and size class; scrub: step) x kernel pick, each
 * cell what its answer line says (keep, "→ Y −Z% (a–b)", undecided, n/a,
 * or - where the pick is not judged in the pass), under them the bottom
 * row (each pick's bottom line: keep, "→ Y −Z% (a–b)", trade-off,
 * undecided), the picks each column stands for, then the caveats once,
 * as numbered footnotes. Drawn once, here: the kernel's screen page,
 * pagebench-linux's terminal and pagebench-decide --matrix (which
 * pagebench-report verdict shows). Nothing here decides: the records of
 * harness/decide/answers.h are the answer.
 */
#ifndef PB_ANSWER_MATRIX_H
#define PB_ANSWER_MATRIX_H

#include <stdbool.h>
#include "harness/decide/answers.h"

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
 * lines, whichever first fits style's height; then as many blocks as
 * fit, a line saying how many columns are left out: the footnotes are
 * never cut. Returns how many; 0 where the run made no answer.
 */
unsigned int answer_matrix(const struct answers *a, const struct matrix_style *style,
			   void (*put)(const char *line, void *ctx), void *ctx);

#endif
