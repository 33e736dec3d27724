/* SPDX-License-Identifier: MIT */
/*
 * The answer's other questions (harness/decide/answer.h), by the same rule
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
#include "harness/decide/answers.h"
#include "harness/options/options.h"
#include "harness/measure/strings_figures.h"
#include "variants/string_variants.h"

/*
 * The memset and memcpy decisions of every mode, class and pick from
 * suite=strings' figures f, into a; quantum: the step of one figure, in
 * hundredths of a tick per call (the TSC's step over the calls of a batch).
 */
void answers_strings(struct answers *a, const struct strings_figures *f, uint64_t quantum);

/*
 * One scrub step's decisions: in[] the clear variants that ran it, each
 * rep's wall time in hundredths of a tick as its epochs (s.median set),
 * bytes the region it cleared; step its name ("cpus2", "cpus4_remote").
 */
void answers_scrub(struct answers *a, const char *step, size_t bytes,
		   const struct answer_input *in, unsigned int n);

#endif
