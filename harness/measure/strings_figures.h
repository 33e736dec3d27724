/* SPDX-License-Identifier: MIT */
/*
 * suite=strings' figures as the memset and memcpy questions read them
 * (harness/decide/answer_strings.h): for each mode and size class, each
 * variant's rep-by-rep sum of its figures at every size of the class and
 * every alignment, in hundredths of a tick per call (a figure below 0,
 * the empty batch's overhead over-subtracted, counts as 0), and the
 * variants that failed. The suite adds them as it prints its lines;
 * pagebench-decide adds them as it reads those lines back.
 */
#ifndef PB_STRINGS_FIGURES_H
#define PB_STRINGS_FIGURES_H

#include <stdint.h>
#include "harness/options/options.h"
#include "harness/measure/strings_plan.h"
#include "variants/string_variants.h"

/* Rows of strings.def, counted at compile time to size the totals. */
enum {
#define STRING_VARIANT(op, name, store, need, regs, cite, what) STRINGS_FIGURES_ROW_##op##_##name,
#include "variants/strings.def"
#undef STRING_VARIANT
	STRINGS_FIGURES_ROWS
};

/*
 * The size classes of the questions, bytes, both ends in: where a
 * routine's cost changes shape (strings_figures.c says why).
 */
struct strings_class {
	unsigned int lo, hi;
};
#define STRINGS_CLASSES	5
extern const struct strings_class strings_classes[STRINGS_CLASSES];
/* The class of n bytes, or -1 beyond the last. */
int strings_class_of(unsigned int n);

struct strings_figures {
	unsigned int reps;		/* the fewest any figure had; 0: none yet */
	uint64_t failed;		/* by index in string_variants */
	unsigned int count[MODE_COUNT][STRINGS_CLASSES][STRINGS_FIGURES_ROWS];
	int64_t sum[MODE_COUNT][STRINGS_CLASSES][STRINGS_FIGURES_ROWS][STRINGS_REPS_MAX];
};

/* None yet (a run's start; pagebench-decide's next machine). */
void strings_figures_begin(struct strings_figures *f);

/*
 * One size and alignment of a block: variant vi of string_variants at n
 * bytes in mode, each rep's figure per call in hundredths of a tick.
 */
void strings_figures_add(struct strings_figures *f, enum strings_mode mode,
			 unsigned int n, unsigned int vi, const int64_t *fig,
			 unsigned int reps);

/* Variant vi had a verify FAILED or fault line: no candidate, no pick's figure. */
void strings_figures_failed(struct strings_figures *f, unsigned int vi);

#endif
