/* SPDX-License-Identifier: MIT */
/*
 * The figure of one (pass, variant) and its interval, from the medians of
 * its epochs (docs/method.md, "Epochs"): the median M of the epoch medians,
 * and M +- f(E) * s, s their standard deviation (winsorized: below), f(E) from
 * scripts/interval-constants. The interval holds a rerun's median 95% of
 * the time; it is never narrower than one quantum of the figure (the
 * timer's step over the calls a sample times). Integers only: the kernel
 * has no floating point. Every figure here is in hundredths of a tick.
 */
#ifndef PB_INTERVAL_H
#define PB_INTERVAL_H

#include <stdbool.h>
#include <stdint.h>

/* The most epochs a pass runs; epochs come in odd numbers from 3. */
#define INTERVAL_EPOCHS_MIN	3
#define INTERVAL_EPOCHS_MAX	63
/* Figures are kept in hundredths of a tick per call. */
#define CENTI			100

/* f(E) in millionths, for odd E from INTERVAL_EPOCHS_MIN; 0 elsewhere. */
extern const uint32_t interval_factor_ppm[INTERVAL_EPOCHS_MAX + 1];

/*
 * Blocks (docs/method.md, "Blocks"): a ratio's epochs, in the order they
 * ran, cut into INTERVAL_BLOCKS_MAX blocks (from INTERVAL_BLOCK_EPOCHS
 * epochs each; INTERVAL_BLOCKS_MIN where fewer fit, none below that):
 * its interval is at least g(B) times the standard deviation of the
 * blocks' means, g(B) in millionths. A shared machine's slower moves
 * (another guest's load, the host's clock) shift whole stretches of a
 * run, and a rerun lands in another stretch: the epochs' spread around
 * one median misses that, the blocks' spread shows it.
 */
#define INTERVAL_BLOCKS_MIN	3
#define INTERVAL_BLOCKS_MAX	4
#define INTERVAL_BLOCK_EPOCHS	3
extern const uint32_t interval_block_factor_ppm[INTERVAL_BLOCKS_MAX + 1];

struct interval {
	uint64_t median;	/* of the epochs' medians */
	uint64_t lo, hi;	/* valid only with has_interval */
	bool has_interval;	/* an odd count of epochs, at least 3 */
};

/*
 * The deviation s of an interval is that of the epoch medians winsorized:
 * none counts as further from their median than WINSOR_REACH_PER_MAD
 * thousandths of their median absolute deviation (2.75 standard
 * deviations of normal epochs, 2.75 x 1.4826), from WINSOR_EPOCHS_MIN
 * epochs: fewer give too rough a deviation to tell a disturbed epoch from
 * the others. 2.75 is the least reach that leaves normal epochs' intervals
 * unpadded and unshortened (tests/unit/test_interval.c; docs/method.md,
 * "Epochs").
 */
#define WINSOR_EPOCHS_MIN	9
#define WINSOR_REACH_PER_MAD	4077u
#define WINSOR_REACH_ONE	1000u

/* The median of t[0..n), sorted in place; of two middle values their mean, rounded down. */
uint64_t median_u64(uint64_t *t, unsigned int n);
/* The same doubled, exact for an even count: their sum. */
uint64_t median2_u64(uint64_t *t, unsigned int n);

/*
 * Epochs for an interval, an odd count: of an even count, the first,
 * nearest the start and its warm-up, is left out. med[] is shifted in
 * place; returns the count kept.
 */
unsigned int interval_odd_epochs(uint64_t *med, unsigned int n);

/*
 * The figure of epochs epoch medians med[] (left as they are); quantum is
 * the smallest step the figure takes, the least half-width an interval has.
 */
void interval_of_epochs(const uint64_t *med, unsigned int epochs,
			uint64_t quantum, struct interval *iv);

/* Whether the half-width is within precision_bp hundredths of a per cent of the median. */
bool interval_precise(const struct interval *iv, unsigned int precision_bp);

/*
 * Calls per timed sample so that a sample lasts at least
 * BATCH_TIMER_STEPS steps of the timer, given one call's time in
 * hundredths of a tick: no figure is then a coarser multiple of the step
 * than 1/BATCH_TIMER_STEPS. At least 1, at most max.
 */
#define BATCH_TIMER_STEPS	100
unsigned int batch_for(uint64_t call_centi, uint64_t step, unsigned int max);

/*
 * The batch of every variant of a pass: room (the calls its buffers have
 * room for) where its shortest call, in hundredths of a tick, needs more
 * than one call a sample; otherwise 1. One count for the pass, from its
 * geometry rather than from each variant's timing, so that a rerun
 * batches alike: a batch's figure depends a little on its length.
 */
unsigned int pass_batch(uint64_t shortest_centi, uint64_t step, unsigned int room);

/*
 * One variant's figure over epochs, as the ratio below reads it: each
 * epoch's median, their median (the interval's), and the figure's quantum.
 */
struct epoch_series {
	const uint64_t *med;	/* epochs of them, hundredths of a tick per call */
	unsigned int epochs;
	uint64_t median;
	uint64_t quantum;	/* the timer's step over the calls of a sample */
};

/*
 * Ratios are kept in millionths: RATIO_ONE is 1.
 * interval_of_ratio(): num's time over den's, epoch by epoch (each
 * epoch's ratio that of the two epoch medians), its median and 95%
 * interval, at least as wide as its blocks' spread says (above), its
 * quantum each figure's quantum's share of the ratio. The
 * one arithmetic of the ratio lines (harness/measure/suites/figures.c) and the
 * answer (harness/decide/answer.c). False where the two have no epochs in
 * common, or a zero median.
 */
#define RATIO_ONE	1000000u
bool interval_of_ratio(const struct epoch_series *num,
		       const struct epoch_series *den, struct interval *iv);
/* The epochs a ratio of the two is taken over: those both ran, at most INTERVAL_EPOCHS_MAX. */
unsigned int ratio_epochs(const struct epoch_series *num, const struct epoch_series *den);
/*
 * The same over the epochs from..to-1 of the two (to at most ratio_epochs()):
 * a part of a run, as the answer's drift compares two (harness/decide/answer.h);
 * the epochs' spread alone, without the blocks: drift is what the two
 * halves' medians say of the run's slower moves.
 */
bool interval_of_ratio_span(const struct epoch_series *num,
			    const struct epoch_series *den, unsigned int from,
			    unsigned int to, struct interval *iv);

/* A ratio in millionths as the ratio and answer lines print it: "0.3744", rounded. */
void ratio_text(char *buf, unsigned int len, uint64_t ppm);

/*
 * The most epochs a projection names: the answer's need= and the race's
 * time budget alike (harness/decide/answer.h, harness/decide/race.h).
 */
#define NEED_EPOCHS_MAX	1000

/* Integer square root: the largest r with r * r <= x. */
uint64_t isqrt_u64(uint64_t x);

#endif
