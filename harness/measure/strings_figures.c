/* SPDX-License-Identifier: MIT */
/* suite=strings' figures by mode, size class and variant (harness/measure/strings_figures.h). */
#include "harness/measure/strings_figures.h"
#include "lib/sat.h"

/*
 * Where a routine's cost changes shape: n=0 (nothing to store: a REP
 * with rcx=0 against a branch around it), below 16 (a few stores, no
 * loop), to 127 (two cache lines), to 1023 (a loop, within the L1), to
 * 4096 (a page, STRINGS_SIZE_LIMIT).
 */
const struct strings_class strings_classes[STRINGS_CLASSES] = {
	{ 0, 0 }, { 1, 15 }, { 16, 127 }, { 128, 1023 }, { 1024, STRINGS_SIZE_LIMIT },
};

int strings_class_of(unsigned int n)
{
	unsigned int c;

	for (c = 0; c < STRINGS_CLASSES; c++)
		if (n >= strings_classes[c].lo && n <= strings_classes[c].hi)
			return (int)c;
	return -1;
}

void strings_figures_begin(struct strings_figures *f)
{
	f->reps = 0;
	f->failed = 0;
	for (unsigned int m = 0; m < MODE_COUNT; m++)
		for (unsigned int c = 0; c < STRINGS_CLASSES; c++)
			for (unsigned int v = 0; v < STRINGS_FIGURES_ROWS; v++) {
				f->count[m][c][v] = 0;
				for (unsigned int r = 0; r < STRINGS_REPS_MAX; r++)
					f->sum[m][c][v][r] = 0;
			}
}

void strings_figures_add(struct strings_figures *f, enum strings_mode mode,
			 unsigned int n, unsigned int vi, const int64_t *fig,
			 unsigned int reps)
{
	int c = strings_class_of(n);
	unsigned int r;

	if (c < 0 || mode >= MODE_COUNT || vi >= STRINGS_FIGURES_ROWS || !reps)
		return;
	if (reps > STRINGS_REPS_MAX)
		reps = STRINGS_REPS_MAX;
	if (!f->reps || reps < f->reps)
		f->reps = reps;
	for (r = 0; r < reps; r++)
		f->sum[mode][c][vi][r] = sat_add_i64(f->sum[mode][c][vi][r],
						     fig[r] > 0 ? fig[r] : 0);
	f->count[mode][c][vi]++;
}

void strings_figures_failed(struct strings_figures *f, unsigned int vi)
{
	if (vi < 64)
		f->failed |= 1ull << vi;
}
