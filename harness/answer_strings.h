/* SPDX-License-Identifier: MIT */
/*
 * The answer's other questions (harness/answer.h), by the same rule
 * (answer_weigh()):
 *  - memset and memcpy (suite=strings), per mode and size class: each
 *    rep's figure of a variant is its time of one call at each size of
 *    the class and each alignment, summed (hundredths of a tick); the
 *    reps are the paired samples, as a pass's epochs are. Candidates: the
 *    op's every variant of variants/strings.def whose stores are done at
 *    return (all of them today: REP and temporal stores; the _br ones are
 *    whole routines too, a branch around n=0 included), no verify FAILED
 *    or fault line, a figure at every size and alignment of the class.
 *  - scrubbing (suite=scrub), per step (cpus1, cpus2, ..., cpusN_remote):
 *    each rep's wall time of a clear variant; candidates as clear_page's
 *    (page routines, stores done at return). A step is judged as the MEM
 *    pass is: the region lies far beyond the caches, so _hot entries
 *    (Xen's scrub_page_hot) are not judged there, _cold ones are.
 */
#ifndef PB_ANSWER_STRINGS_H
#define PB_ANSWER_STRINGS_H

#include <stddef.h>
#include <stdint.h>
#include "harness/answers.h"
#include "harness/options/options.h"
#include "harness/strings_plan.h"
#include "variants/strings.h"

/* The size classes of the memset and memcpy questions, bytes, both ends in. */
struct strings_class {
	unsigned int lo, hi;
};
#define STRINGS_CLASSES	5
extern const struct strings_class strings_classes[STRINGS_CLASSES];
/* The class of n bytes, or -1 beyond the last. */
int strings_class_of(unsigned int n);

/* Forgets the figures gathered (a run's start; pagebench-decide's next machine). */
void answer_strings_begin(void);

/*
 * One size and alignment of a block: variant vi of string_variants (op
 * its op) at n bytes in mode, each rep's figure per call in hundredths of
 * a tick (a figure below 0, the empty batch's overhead over-subtracted,
 * counts as 0).
 */
void answer_strings_add(enum strings_mode mode, unsigned int n, unsigned int vi,
			const int64_t *fig, unsigned int reps);

/* Variant vi had a verify FAILED or fault line: no candidate, no pick's figure. */
void answer_strings_failed(unsigned int vi);

/*
 * The memset and memcpy decisions of every mode, class and pick from
 * the figures gathered, into a; quantum: the step of one figure, in
 * hundredths of a tick per call (the TSC's step over the calls of a batch).
 */
void answers_strings(struct answers *a, uint64_t quantum);

/*
 * One scrub step's decisions: in[] the clear variants that ran it, each
 * rep's wall time in hundredths of a tick as its epochs (s.median set),
 * bytes the region it cleared; step its name ("cpus2", "cpus4_remote").
 */
void answers_scrub(struct answers *a, const char *step, size_t bytes,
		   const struct answer_input *in, unsigned int n);

/*
 * Epochs for the interval (an odd count): of an even count, the first,
 * nearest the start and its warm-up, is left out. med[] is shifted in
 * place; returns the count kept.
 */
unsigned int answer_odd_epochs(uint64_t *med, unsigned int n);

#endif
