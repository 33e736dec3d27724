/* SPDX-License-Identifier: MIT */
/*
 * Which variants of a pass are still worth measuring under time=: the
 * questions of the decision (docs/method.md, "One time budget"). A
 * question is a function's pick on this CPU, a variant some kernel rule
 * selects, against its candidates (the function's other variants that a
 * kernel could take as they are): keep the pick, or switch to which
 * candidate, for a saving of at least worth. Each candidate's time over
 * the pick's, epoch by epoch, with its 95% interval (in millionths of 1),
 * says where the question stands:
 *
 *   - a candidate is out when it cannot save worth over the pick (its
 *     lo >= 1 - worth), or, once a candidate is named (of those whose
 *     hi < 1 - worth, the one prefer_named() names, harness/decide/prefer.h),
 *     when it cannot take the name: one later in the order of preference
 *     cannot beat the named one by worth (its time over that one's,
 *     epoch by epoch, has lo >= 1 - worth), or the named one surely
 *     beats one earlier by worth;
 *   - the question is settled (keep) when every candidate is out, or
 *     (switch) when one is left and its hi < 1 - worth;
 *   - otherwise it is open: its pick and the candidates left are measured.
 *
 * Pure and in integers: the kernel runs it, and tests/unit/test_race.c
 * runs it on synthetic figures.
 */
#ifndef PB_RACE_H
#define PB_RACE_H

#include <stdbool.h>
#include <stdint.h>
#include "harness/stats/interval.h"
#include "variants/variants.h"

#define RACE_QUESTIONS_MAX	16

/*
 * The question list a run hands its passes: each function a kernel
 * calls whose picks time= races (clear_page, clear_pages, copy_page), by
 * the op and shape of the variants that measure it, with every variant
 * some era of Linux or Xen picks for it on this CPU. The rules make it
 * (race_questions_of(), harness/decide/questions.h); the passes read no rule.
 */
#define RACE_FNS_MAX		4

struct race_fn {
	enum op op;
	enum variant_shape shape;
	variant_set picks;		/* by index in variants[] */
};

struct race_questions {
	unsigned int n;
	struct race_fn fn[RACE_FNS_MAX];
};

struct race_question {
	unsigned int pick;		/* a variant's index */
	variant_set cands;		/* its candidates; never the pick */
};

struct race {
	unsigned int worth_bp;
	unsigned int n;
	struct race_question q[RACE_QUESTIONS_MAX];
};

/*
 * num's time over den's, epoch by epoch over the epochs both ran, in
 * millionths; false where there is none yet.
 */
typedef bool race_ratio_fn(void *ctx, unsigned int num, unsigned int den,
			   struct interval *iv);

struct race_outcome {
	unsigned int open;	/* questions still open */
	variant_set needed;	/* the open questions' picks and candidates left */
	/*
	 * Every question's pick and the candidates its answer names: those
	 * left, or where none is, the named one, or the nearest challenger
	 * (lowest median).
	 */
	variant_set named;
	/*
	 * The epochs the open questions are projected to need, from each
	 * interval's half-width h and its distance d from what would decide
	 * it: (h / d)^2 * epochs, the largest, at most NEED_EPOCHS_MAX.
	 */
	unsigned int need;
};

/* Adds a question; false when the race holds RACE_QUESTIONS_MAX. */
bool race_add(struct race *r, unsigned int pick, variant_set cands);

/* Where the race stands after epochs epochs. */
void race_judge(const struct race *r, race_ratio_fn *ratio, void *ctx,
		unsigned int epochs, struct race_outcome *out);

/*
 * What a pass still measures of active after epochs epochs, floor the
 * epochs it runs before it may stop settled: below the floor every
 * variant an answer names, from it the open questions' needs; all of
 * active where the race is settled and the floor reached, as the pass
 * then stops with them.
 */
variant_set race_keep(const struct race_outcome *rc, variant_set active,
		      unsigned int epochs, unsigned int floor);

#endif
