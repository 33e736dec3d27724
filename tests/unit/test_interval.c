// SPDX-License-Identifier: MIT
/*
 * The figures of a pass (harness/stats/interval.c, harness/measure/epochs.c,
 * harness/measure/suites/figures.c) on samples of this test's own, whose noise
 * between and within epochs is known:
 *
 * - coverage: the median of an independent rerun falls inside the first
 *   run's interval about 95% of the time, whether the noise is between
 *   epochs, within them, or both;
 * - not padded: it does not fall inside nearly always, and the squared
 *   half-width is what the factor of scripts/interval-constants makes of
 *   the epoch medians' variance, on average;
 * - a figure that does not move has the interval of its quantum;
 * - the stopping rule on a synthetic clock: precision, budget, the most
 *   epochs, fixed reps; and the batch a short call gets;
 * - epochs of which a few were disturbed far beyond the others: the
 *   interval covers as before, and is not as wide as their plain
 *   standard deviation would make it;
 * - ratios (figures_ratio()): where every run of the machine is slower or
 *   faster as a whole, which a time's interval cannot foresee, a
 *   variant's ratio to the reference still falls inside the first run's
 *   interval about 95% of the time, and its interval is not padded.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include "harness/measure/epochs.h"
#include "harness/stats/interval.h"
#include "harness/measure/suites/figures.h"
#include "harness/render/summary.h"
#include "tests/unit/check.h"

#define NOISE_SEED 0x243f6a8885a308d3ull
#include "tests/unit/noise.h"

#define TRUE_FIGURE	100000.0	/* hundredths of a tick: 1000 ticks */
#define REPS_SPLIT_CHECKED 1000

struct noise {
	double between, within;	/* standard deviations, in hundredths of a tick */
	unsigned int reps;	/* per epoch */
};

/* One run of epochs epochs: each epoch's median, as the harness takes it. */
static void run_epochs(const struct noise *nz, unsigned int epochs, uint64_t *med)
{
	uint64_t s[EPOCH_REPS_MAX * 8];
	unsigned int e, r;

	for (e = 0; e < epochs; e++) {
		double shift = nz->between * normal();

		for (r = 0; r < nz->reps; r++)
			s[r] = (uint64_t)(TRUE_FIGURE + shift + nz->within * normal() + 0.5);
		med[e] = median_u64(s, nz->reps);
	}
}

/* The variance of an epoch's median, by simulation of many epochs. */
static double epoch_median_variance(const struct noise *nz)
{
	static uint64_t med[20000];
	double sum = 0, sq = 0;
	unsigned int i, n = sizeof(med) / sizeof(med[0]);

	run_epochs(nz, n, med);
	for (i = 0; i < n; i++)
		sum += (double)med[i];
	for (i = 0; i < n; i++)
		sq += ((double)med[i] - sum / n) * ((double)med[i] - sum / n);
	return sq / (n - 1);
}

static void test_coverage(const char *name, const struct noise *nz,
			  unsigned int epochs)
{
	enum { TRIALS = 4000 };
	uint64_t a[INTERVAL_EPOCHS_MAX], b[INTERVAL_EPOCHS_MAX];
	double var = epoch_median_variance(nz), f = interval_factor_ppm[epochs] / 1e6;
	double h2 = 0;
	unsigned int t, inside = 0;
	char check[96];

	for (t = 0; t < TRIALS; t++) {
		struct interval first, rerun;

		run_epochs(nz, epochs, a);
		run_epochs(nz, epochs, b);
		interval_of_epochs(a, epochs, 1, &first);
		interval_of_epochs(b, epochs, 1, &rerun);
		inside += rerun.median >= first.lo && rerun.median <= first.hi;
		h2 += ((double)first.hi - first.median) * ((double)first.hi - first.median);
	}
	snprintf(check, sizeof(check), "interval.coverage.%s.e%u", name, epochs);
	printf("# %s: %u of %u\n", check, inside, TRIALS);
	result(inside >= TRIALS * 92 / 100 && inside <= TRIALS * 98 / 100, check,
	       "a rerun's median inside %u of %u times (want 92%% to 98%%)",
	       inside, TRIALS);
	snprintf(check, sizeof(check), "interval.not_padded.%s.e%u", name, epochs);
	h2 /= TRIALS;
	result(h2 / (f * f * var) > 0.9 && h2 / (f * f * var) < 1.1, check,
	       "mean squared half-width %.0f, f(E)^2 times the epoch medians' variance %.0f",
	       h2, f * f * var);
}

/*
 * Epochs of which a share (disturbed_pct) a burst of other work slowed by
 * a fifth, the rest with the noise nz: the interval still holds a rerun's
 * median about 95% of the time, and its width is what the bursts do to
 * the median, not what they do to the epochs' standard deviation: one
 * slow epoch moves a median of E by one rank, however slow it was.
 */
static void run_disturbed(const struct noise *nz, unsigned int disturbed_pct,
			  unsigned int epochs, uint64_t *med)
{
	unsigned int e;

	run_epochs(nz, epochs, med);
	for (e = 0; e < epochs; e++)
		if (uniform() * 100 < disturbed_pct)
			med[e] += (uint64_t)(TRUE_FIGURE / 5);
}

/* c(E), the variance of the median of E normal values over sigma^2 / E (scripts/interval-constants). */
static double median_variance_c(unsigned int epochs)
{
	return epochs == 9 ? 1.4949 : epochs == 21 ? 1.5385 : 1.5601;
}

static void test_disturbed(unsigned int epochs)
{
	enum { TRIALS = 4000, DISTURBED_PCT = 10 };
	static const struct noise nz = { 2000, 0, 1 };
	static uint64_t medians[TRIALS];
	uint64_t a[INTERVAL_EPOCHS_MAX], b[INTERVAL_EPOCHS_MAX];
	double f = interval_factor_ppm[epochs] / 1e6, h2 = 0, sum = 0, var = 0;
	unsigned int t, inside = 0;
	char check[96];

	for (t = 0; t < TRIALS; t++) {
		struct interval first, rerun;

		run_disturbed(&nz, DISTURBED_PCT, epochs, a);
		run_disturbed(&nz, DISTURBED_PCT, epochs, b);
		interval_of_epochs(a, epochs, 1, &first);
		interval_of_epochs(b, epochs, 1, &rerun);
		inside += rerun.median >= first.lo && rerun.median <= first.hi;
		h2 += ((double)first.hi - first.median) * ((double)first.hi - first.median);
		medians[t] = first.median;
	}
	for (t = 0; t < TRIALS; t++)
		sum += (double)medians[t];
	for (t = 0; t < TRIALS; t++)
		var += ((double)medians[t] - sum / TRIALS) * ((double)medians[t] - sum / TRIALS);
	var /= TRIALS - 1;
	h2 /= TRIALS;
	snprintf(check, sizeof(check), "interval.coverage.disturbed.e%u", epochs);
	printf("# %s: %u of %u\n", check, inside, TRIALS);
	result(inside >= TRIALS * 90 / 100 && inside <= TRIALS * 98 / 100, check,
	       "a rerun's median inside %u of %u times (want 90%% to 98%%)",
	       inside, TRIALS);
	/*
	 * The half-width a rerun's median needs is t * sqrt(2 var(M)), and
	 * f(E)^2 = t^2 * 2 c(E) / E: so the squared half-width over
	 * f(E)^2 E var(M) / c(E) is 1 for an interval neither short nor
	 * padded. The epochs' plain standard deviation makes it 5.9 to 7.8
	 * here, and covers up to 100%; winsorized, 1.5 to 1.6.
	 */
	snprintf(check, sizeof(check), "interval.not_padded.disturbed.e%u", epochs);
	printf("# %s: %.3f\n", check, h2 / (f * f * epochs * var / median_variance_c(epochs)));
	result(h2 / (f * f * epochs * var / median_variance_c(epochs)) < 2, check,
	       "mean squared half-width %.0f, f(E)^2 E var(M) / c(E) %.0f", h2,
	       f * f * epochs * var / median_variance_c(epochs));
}

static void test_intervals(void)
{
	static const struct noise between = { 2000, 0, 1 };	/* 2% */
	static const struct noise within = { 0, 3000, 3 };	/* 3% per rep */
	static const struct noise both = { 1500, 2000, 3 };
	static const unsigned int epochs[] = { 3, 5, 9, 21, 63 };
	uint64_t same[5] = { 5000, 5000, 5000, 5000, 5000 }, med[5];
	struct interval iv;
	unsigned int i;

	for (i = 0; i < sizeof(epochs) / sizeof(epochs[0]); i++) {
		test_coverage("between", &between, epochs[i]);
		test_coverage("within", &within, epochs[i]);
		test_coverage("both", &both, epochs[i]);
		if (epochs[i] >= WINSOR_EPOCHS_MIN)
			test_disturbed(epochs[i]);
	}
	/* A figure that never moved: its interval is its quantum, not zero. */
	interval_of_epochs(same, 5, 93, &iv);
	result(iv.has_interval && iv.median == 5000 && iv.lo == 5000 - 93 &&
	       iv.hi == 5000 + 93, "interval.quantum_floor", "%llu [%llu, %llu]",
	       (unsigned long long)iv.median, (unsigned long long)iv.lo,
	       (unsigned long long)iv.hi);
	/* Too few epochs, or an even count: a figure, no interval. */
	interval_of_epochs(same, 2, 93, &iv);
	result(!iv.has_interval && iv.median == 5000, "interval.two_epochs_none", "median %llu", (unsigned long long)iv.median);
	interval_of_epochs(same, 4, 93, &iv);
	result(!iv.has_interval, "interval.even_epochs_none", "an interval of 4 epochs");
	/* By hand: 90, 100, 110: s = 10, f(3) from the table. */
	med[0] = 110, med[1] = 90, med[2] = 100;
	interval_of_epochs(med, 3, 1, &iv);
	result(iv.median == 100 && iv.hi - 100 == 10ull * interval_factor_ppm[3] / 1000000 &&
	       100 - iv.lo == iv.hi - 100 && med[0] == 110,
	       "interval.by_hand", "median %llu hi %llu (f=%u ppm)",
	       (unsigned long long)iv.median, (unsigned long long)iv.hi,
	       interval_factor_ppm[3]);
	result(interval_factor_ppm[3] > interval_factor_ppm[5] &&
	       interval_factor_ppm[61] > interval_factor_ppm[63] &&
	       interval_factor_ppm[63] > 400000, "interval.factors_fall_with_epochs",
	       "f(3)=%u f(63)=%u", interval_factor_ppm[3], interval_factor_ppm[63]);
	iv = (struct interval){ 10000, 9900, 10100, true };
	result(interval_precise(&iv, 100) && !interval_precise(&iv, 99),
	       "interval.precise_at_the_edge", "half-width 100 of 10000");
	/* Huge figures: no overflow in the median or the deviations. */
	med[0] = UINT64_MAX - 4, med[1] = UINT64_MAX - 2, med[2] = UINT64_MAX - 6;
	interval_of_epochs(med, 3, 1, &iv);
	result(iv.median == UINT64_MAX - 4 && iv.lo < iv.median, "interval.no_overflow",
	       "median %llx", (unsigned long long)iv.median);
	result(isqrt_u64(99) == 9 && isqrt_u64(100) == 10 &&
	       isqrt_u64(UINT64_MAX) == 0xffffffffull, "interval.isqrt", "%llu",
	       (unsigned long long)isqrt_u64(UINT64_MAX));
}

static void test_batch(void)
{
	static const uint64_t calls[] = { 1200, 2799, 2800, 5000, 122, 35, 1 };
	const uint64_t step = 28;
	unsigned int i;

	for (i = 0; i < sizeof(calls) / sizeof(calls[0]); i++) {
		unsigned int k = batch_for(calls[i] * CENTI, step, 10000);
		char check[64];

		snprintf(check, sizeof(check), "batch.call_%llu_ticks",
			 (unsigned long long)calls[i]);
		/* At least BATCH_TIMER_STEPS steps, and no call more than needed. */
		result(k * calls[i] >= BATCH_TIMER_STEPS * step &&
		       (k == 1 || (k - 1) * calls[i] < BATCH_TIMER_STEPS * step), check,
		       "batch %u of a %llu-tick call, step %llu", k,
		       (unsigned long long)calls[i], (unsigned long long)step);
	}
	result(batch_for(122 * CENTI, step, 16) == 16, "batch.capped", "%u",
	       batch_for(122 * CENTI, step, 16));
	result(batch_for(0, step, 16) == 16 && batch_for(1000, step, 0) == 1,
	       "batch.edges", "%u %u", batch_for(0, step, 16), batch_for(1000, step, 0));
	/* A pass batches every variant alike, as many calls as it has room for. */
	result(pass_batch(1200 * CENTI, step, 37) == 37 && 37 * 1200 >= BATCH_TIMER_STEPS * step &&
	       pass_batch(2800 * CENTI, step, 37) == 1 && pass_batch(2799 * CENTI, step, 37) == 37 &&
	       pass_batch(1200 * CENTI, step, 1) == 1, "batch.pass_room",
	       "%u %u %u", pass_batch(1200 * CENTI, step, 37),
	       pass_batch(2800 * CENTI, step, 37), pass_batch(2799 * CENTI, step, 37));
	/* Hundredths: a call of 12.5 ticks needs 224 calls for 2800 ticks. */
	result(batch_for(1250, step, 1000) == 224, "batch.hundredths", "%u",
	       batch_for(1250, step, 1000));
}

/*
 * A pass on a synthetic clock: every epoch takes epoch_ticks and gives
 * variant 0 reps samples with the noise given; returns why it stopped,
 * with the epochs it ran and its last interval's precision.
 */
static enum epoch_stop pass_on_clock(const struct epoch_rule *rule,
				     const struct noise *nz, uint64_t epoch_ticks,
				     unsigned int *epochs, bool *precise,
				     struct interval *iv)
{
	struct pass_figures pf;
	enum epoch_stop stop = EPOCH_GO_ON;
	uint64_t clock = 0;
	unsigned int e;

	figures_begin(&pf, 0, OP_CLEAR, "l1", 1, false);
	for (e = 0; stop == EPOCH_GO_ON; e++) {
		unsigned int r, reps = rule->reps ? epoch_reps_fixed(rule->reps, e) : nz->reps;
		double shift = nz->between * normal();

		for (r = 0; r < reps; r++)
			figures_add(&pf, 0, (uint64_t)(TRUE_FIGURE + shift +
						      nz->within * normal()) / CENTI);
		clock += epoch_ticks;
		*precise = figures_end_epoch(&pf, 1, rule->precision_bp);
		stop = epoch_next(rule, e + 1, *precise, clock, epoch_ticks);
	}
	*epochs = e;
	*iv = *figures_interval(&pf, 0, false);
	return stop;
}

/*
 * A pass stops when its interval is narrow, which favours intervals whose
 * epochs happened to agree; a rerun's median must still fall inside about
 * 95% of the time, whether precision, the budget or the most epochs
 * stopped the first run.
 */
static void test_coverage_under_the_rule(void)
{
	static const struct noise noises[] = { { 300, 300, 3 }, { 1200, 300, 3 },
					       { 3000, 1000, 3 } };
	struct epoch_rule rule = { 0, 100, UINT64_MAX / 4 };
	unsigned int k, t, inside, epochs;
	struct interval a, b;
	char check[64];
	bool precise;

	for (k = 0; k < sizeof(noises) / sizeof(noises[0]); k++) {
		enum { TRIALS = 2000 };

		for (t = inside = 0; t < TRIALS; t++) {
			pass_on_clock(&rule, &noises[k], 1000, &epochs, &precise, &a);
			pass_on_clock(&rule, &noises[k], 1000, &epochs, &precise, &b);
			inside += b.median >= a.lo && b.median <= a.hi;
		}
		snprintf(check, sizeof(check), "stop.coverage_under_the_rule.%u", k);
		printf("# %s: %u of %u\n", check, inside, TRIALS);
		result(inside >= TRIALS * 92 / 100 && inside <= TRIALS * 98 / 100,
		       check, "a rerun's median inside %u of %u times", inside, TRIALS);
	}
}

/*
 * One run of a pass with two variants on a machine whose speed moves all
 * of them at once: by run (sd run_sd) and by epoch (sd epoch_sd), as a
 * host's busy SMT sibling does, each sample with noise of its own (sd
 * own_sd); all relative. Variant 0 takes 1.25 times the reference's time.
 */
struct shared_noise {
	double run_sd, epoch_sd, own_sd;
};

#define RATIO_EPOCHS	21
#define RATIO_TRUE	1.25
#define REF_TICKS	8000.0
/* c(21), the variance of the median of 21 normal values over sigma^2 / 21 (scripts/interval-constants). */
#define RATIO_C		1.5385

static void shared_run(const struct shared_noise *nz, unsigned int ref,
		       struct pass_figures *pf)
{
	double run = 1 + nz->run_sd * normal();
	unsigned int e, r;

	figures_begin(pf, 0, OP_CLEAR, "l2", 1, false);
	for (e = 0; e < RATIO_EPOCHS; e++) {
		double epoch = run * (1 + nz->epoch_sd * normal());

		for (r = 0; r < EPOCH_REPS_MAX; r++) {
			figures_add(pf, 0, (uint64_t)(REF_TICKS * RATIO_TRUE * epoch *
						      (1 + nz->own_sd * normal())));
			figures_add(pf, ref, (uint64_t)(REF_TICKS * epoch *
							(1 + nz->own_sd * normal())));
		}
		figures_end_epoch(pf, 1ull | 1ull << ref, 100);
	}
}

static void test_ratio_coverage(void)
{
	enum { TRIALS = 2000 };
	static const struct shared_noise nz = { 0.05, 0.03, 0.02 };
	static struct pass_figures a, b;	/* figures_begin's storage is slot 0's */
	int ref = op_ratio_ref(OP_CLEAR);
	unsigned int t, time_in = 0, ratio_in = 0, e;
	double f = interval_factor_ppm[RATIO_EPOCHS] / 1e6, h2 = 0, sum = 0, sq = 0;
	double ratios[TRIALS];

	result(ref > 0 && variants[ref].op == OP_CLEAR, "ratio.reference",
	       "clear's reference is variant %d", ref);
	if (ref <= 0)
		return;
	for (t = 0; t < TRIALS; t++) {
		struct interval ta, tb, ra, rb;

		shared_run(&nz, (unsigned int)ref, &a);
		ta = *figures_interval(&a, 0, false);
		figures_ratio(&a, 0, (unsigned int)ref, &ra);
		shared_run(&nz, (unsigned int)ref, &b);
		tb = *figures_interval(&b, 0, false);
		figures_ratio(&b, 0, (unsigned int)ref, &rb);
		time_in += tb.median >= ta.lo && tb.median <= ta.hi;
		ratio_in += rb.median >= ra.lo && rb.median <= ra.hi;
		h2 += ((double)ra.hi - ra.median) * ((double)ra.hi - ra.median);
		ratios[t] = (double)ra.median;
	}
	printf("# ratio.coverage: times %u, ratios %u of %u\n", time_in, ratio_in, TRIALS);
	/* The premise: shifts of whole runs defeat the times' intervals. */
	result(time_in < TRIALS * 80 / 100, "ratio.times_miss_run_shifts",
	       "a rerun's time inside %u of %u times", time_in, TRIALS);
	result(ratio_in >= TRIALS * 92 / 100 && ratio_in <= TRIALS * 98 / 100,
	       "ratio.coverage", "a rerun's ratio inside %u of %u times (want 92%% to 98%%)",
	       ratio_in, TRIALS);
	/*
	 * Not padded: the interval's mean squared half-width is f(E)^2 times
	 * the variance of one epoch's ratio, which is the variance of the
	 * runs' medians times E / c(E), the runs' shifts having cancelled.
	 */
	for (t = 0; t < TRIALS; t++)
		sum += ratios[t];
	for (t = 0; t < TRIALS; t++)
		sq += (ratios[t] - sum / TRIALS) * (ratios[t] - sum / TRIALS);
	sq /= TRIALS - 1;
	h2 /= TRIALS;
	/*
	 * Where the epochs are alike, the blocks' spread (harness/stats/interval.h)
	 * only pads: what it costs a steady machine, bounded. 1.62 here: the
	 * half-width 1.27 times what the epochs alone would give.
	 */
	printf("# ratio.not_padded: %.3f\n", h2 / (f * f * sq * RATIO_EPOCHS / RATIO_C));
	result(h2 / (f * f * sq * RATIO_EPOCHS / RATIO_C) > 0.9 &&
	       h2 / (f * f * sq * RATIO_EPOCHS / RATIO_C) < 1.8, "ratio.padded_by_blocks_at_most",
	       "mean squared half-width %.0f, f(E)^2 E var(median) / c(E) %.0f",
	       h2, f * f * sq * RATIO_EPOCHS / RATIO_C);
	result(sum / TRIALS > RATIO_TRUE * RATIO_ONE * 0.99 &&
	       sum / TRIALS < RATIO_TRUE * RATIO_ONE * 1.01, "ratio.unbiased",
	       "mean ratio %.0f millionths, true %.0f", sum / TRIALS,
	       RATIO_TRUE * RATIO_ONE);
	/* By hand: twice the reference in every epoch, whatever the machine did. */
	figures_begin(&a, 0, OP_CLEAR, "l2", 1, false);
	for (e = 0; e < 3; e++) {
		figures_add(&a, 0, 2000 + 200 * e);
		figures_add(&a, (unsigned int)ref, 1000 + 100 * e);
		figures_end_epoch(&a, 1ull | 1ull << ref, 100);
	}
	{
		struct interval iv;
		bool ok = figures_ratio(&a, 0, (unsigned int)ref, &iv);

		/*
		 * The epochs agree, so the half-width is the floor: one timer
		 * step (100 hundredths) over each median, 220000 and 110000,
		 * 455 + 909 millionths, of the ratio 2.
		 */
		result(ok && iv.has_interval && iv.median == 2 * RATIO_ONE &&
		       iv.hi - iv.median == 2 * (455 + 909) &&
		       iv.median - iv.lo == iv.hi - iv.median, "ratio.by_hand",
		       "%llu [%llu, %llu]", (unsigned long long)iv.median,
		       (unsigned long long)iv.lo, (unsigned long long)iv.hi);
		/* A variant without samples has no ratio. */
		result(!figures_ratio(&a, (unsigned int)ref + 1, (unsigned int)ref, &iv),
		       "ratio.none_without_samples", "variant %d has a ratio", ref + 1);
	}
}

/*
 * A machine with slower moves: each run's ratio rests on a level that
 * wanders, a new level of 4% sd every WANDER_STEP epochs, beside 1% noise per
 * epoch. The epochs' spread around one median misses the wander and a
 * rerun's ratio falls outside the interval often; the blocks' spread sees
 * it (harness/stats/interval.h, "Blocks"): at least 90% of reruns inside.
 */
#define WANDER_EPOCHS	21
#define WANDER_STEP	3

static void wandering(uint64_t *num, uint64_t *den)
{
	double level = 1;
	unsigned int e;

	for (e = 0; e < WANDER_EPOCHS; e++) {
		if (e % WANDER_STEP == 0)
			level = 1 + 0.04 * normal();
		num[e] = (uint64_t)(100000 * level * (1 + 0.01 * normal()));
		den[e] = 100000;
	}
}

static void test_blocks(void)
{
	enum { TRIALS = 2000 };
	static uint64_t an[WANDER_EPOCHS], ad[WANDER_EPOCHS], bn[WANDER_EPOCHS],
		bd[WANDER_EPOCHS], sorted[WANDER_EPOCHS];
	unsigned int t, with = 0, without = 0, e;

	for (t = 0; t < TRIALS; t++) {
		struct epoch_series sa[2], sb[2];
		struct interval blocks, epochs, rerun;

		wandering(an, ad);
		wandering(bn, bd);
		for (e = 0; e < WANDER_EPOCHS; e++)
			sorted[e] = an[e];
		sa[0] = (struct epoch_series){ an, WANDER_EPOCHS, median_u64(sorted, WANDER_EPOCHS), 1 };
		sa[1] = (struct epoch_series){ ad, WANDER_EPOCHS, 100000, 1 };
		for (e = 0; e < WANDER_EPOCHS; e++)
			sorted[e] = bn[e];
		sb[0] = (struct epoch_series){ bn, WANDER_EPOCHS, median_u64(sorted, WANDER_EPOCHS), 1 };
		sb[1] = (struct epoch_series){ bd, WANDER_EPOCHS, 100000, 1 };
		interval_of_ratio(&sa[0], &sa[1], &blocks);
		interval_of_ratio_span(&sa[0], &sa[1], 0, WANDER_EPOCHS, &epochs);
		interval_of_ratio(&sb[0], &sb[1], &rerun);
		with += rerun.median >= blocks.lo && rerun.median <= blocks.hi;
		without += rerun.median >= epochs.lo && rerun.median <= epochs.hi;
	}
	printf("# ratio.blocks: a rerun inside %u of %u with the blocks, %u without\n",
	       with, TRIALS, without);
	result(with >= TRIALS * 90 / 100 && without < TRIALS * 85 / 100,
	       "ratio.blocks_see_slower_moves",
	       "with blocks %u, epochs alone %u of %u (want >= 90%% and < 85%%)",
	       with, without, TRIALS);
}

static void test_stopping(void)
{
	static const struct noise quiet = { 20, 20, 3 }, loud = { 5000, 1000, 3 };
	static const struct noise medium = { 1200, 300, 3 };
	struct epoch_rule rule = { 0, 100, 1000000 };
	enum epoch_stop stop;
	unsigned int epochs, e;
	struct interval iv;
	bool precise;

	/* Quiet: precise at once, but not trusted before EPOCHS_PRECISE_MIN. */
	stop = pass_on_clock(&rule, &quiet, 1000, &epochs, &precise, &iv);
	result(stop == EPOCH_STOP_PRECISION && epochs == EPOCHS_PRECISE_MIN,
	       "stop.precision_first", "stop=%s after %u epochs",
	       epoch_stop_name(stop), epochs);
	/* Medium: precise later, at an odd count, and only then. */
	stop = pass_on_clock(&rule, &medium, 1000, &epochs, &precise, &iv);
	result(stop == EPOCH_STOP_PRECISION && precise && (epochs & 1) &&
	       epochs > EPOCHS_PRECISE_MIN, "stop.precision_later",
	       "stop=%s after %u epochs", epoch_stop_name(stop), epochs);
	/*
	 * Loud, a budget of 10 epochs: after 7 (7 + 2 <= 10) it goes on,
	 * after 9 (9 + 2 > 10) it stops.
	 */
	rule.budget_ticks = 10 * 1000;
	stop = pass_on_clock(&rule, &loud, 1000, &epochs, &precise, &iv);
	result(stop == EPOCH_STOP_BUDGET && epochs == 9 && !precise,
	       "stop.budget", "stop=%s after %u epochs", epoch_stop_name(stop), epochs);
	/* The least epochs run even past the budget: there is no interval before. */
	rule.budget_ticks = 10;
	stop = pass_on_clock(&rule, &loud, 1000, &epochs, &precise, &iv);
	result(stop == EPOCH_STOP_BUDGET && epochs == INTERVAL_EPOCHS_MIN,
	       "stop.budget_after_the_least", "stop=%s after %u epochs",
	       epoch_stop_name(stop), epochs);
	/* Loud, time enough: the most epochs. */
	rule.budget_ticks = UINT64_MAX / 4;
	stop = pass_on_clock(&rule, &loud, 1000, &epochs, &precise, &iv);
	result(stop == EPOCH_STOP_EPOCHS && epochs == INTERVAL_EPOCHS_MAX,
	       "stop.most_epochs", "stop=%s after %u epochs", epoch_stop_name(stop), epochs);
	/* reps=10: three epochs of 4, 3 and 3 reps, whatever the noise. */
	rule = (struct epoch_rule){ 10, 0, 0 };
	stop = pass_on_clock(&rule, &quiet, 1000, &epochs, &precise, &iv);
	result(stop == EPOCH_STOP_REPS && epochs == 3 && epoch_reps_fixed(10, 0) == 4 &&
	       epoch_reps_fixed(10, 1) == 3 && epoch_reps_fixed(10, 2) == 3,
	       "stop.fixed_reps", "stop=%s after %u epochs", epoch_stop_name(stop), epochs);
	/* How reps= splits: odd epoch counts, every rep in one. */
	for (e = 1; e <= REPS_SPLIT_CHECKED; e++) {
		unsigned int n = epochs_of_reps(e), k, sum = 0;

		for (k = 0; k < n; k++)
			sum += epoch_reps_fixed(e, k);
		if (!(n & 1) || sum != e || n > INTERVAL_EPOCHS_MAX ||
		    (e >= INTERVAL_EPOCHS_MIN && n < INTERVAL_EPOCHS_MIN) ||
		    epoch_reps_fixed(e, 0) > FIGURES_EPOCH_REPS_MAX)
			break;
	}
	result(e > REPS_SPLIT_CHECKED, "stop.reps_split", "reps=%u splits into %u epochs",
	       e, epochs_of_reps(e));
	/* Reps per epoch from one rep's time. */
	rule = (struct epoch_rule){ 0, 100, 9000 };
	result(epoch_reps_adaptive(&rule, 10) == EPOCH_REPS_MAX &&
	       epoch_reps_adaptive(&rule, 1500) == 2 &&
	       epoch_reps_adaptive(&rule, 100000) == 1, "stop.reps_per_epoch",
	       "%u %u %u", epoch_reps_adaptive(&rule, 10),
	       epoch_reps_adaptive(&rule, 1500), epoch_reps_adaptive(&rule, 100000));
}

static void test_place(void)
{
	size_t f, w, f0, w0, f2, w2;
	unsigned int e, moved = 0;

	epoch_place(3, 0, 63, 100000, &f0, &w0);
	for (e = 0; e < 64; e++) {
		epoch_place(3, e, 63, 100000, &f, &w);
		epoch_place(3, e, 63, 100000, &f2, &w2);
		if (f > 63 || w > 100000 || f != f2 || w != w2)
			break;
		moved += f != f0 || w != w0;
	}
	result(e == 64 && moved > 48, "place.within_room_repeatable_moving",
	       "epoch %u: fill +%zu work +%zu pages; %u of 64 moved", e, f, w, moved);
	epoch_place(3, 5, 0, 0, &f, &w);
	result(f == 0 && w == 0, "place.no_room_stays", "fill +%zu work +%zu", f, w);
}

/* The screen's summary: "tied", not "quickest", where an interval overlaps the first's. */
static void test_summary_marks(void)
{
	static struct summary sum;
	char lines[4][SUMMARY_COLS];
	unsigned int n;

	summary_begin(&sum, OP_CLEAR, PASS_L1, 8 * 4096);
	summary_add_interval(&sum, "slow", 2 * 2000, 2 * 1900, 2 * 2100);
	summary_add_interval(&sum, "fast", 2 * 1000, 2 * 980, 2 * 1020);
	summary_add_interval(&sum, "near", 2 * 1010, 2 * 1000, 2 * 1030);
	summary_end(&sum);
	n = summary_block(&sum.pass[0], 0, lines, 4);
	result(n == 4 && strstr(lines[1], "fast") && strstr(lines[1], "tied") &&
	       strstr(lines[2], "near") && strstr(lines[2], "~+1.00%") &&
	       strstr(lines[3], "slow") && strstr(lines[3], " +100.00%"),
	       "summary.as_good_marked", "'%s' '%s' '%s'", lines[1], lines[2], lines[3]);
	summary_begin(&sum, OP_CLEAR, PASS_L1, 8 * 4096);
	summary_add_interval(&sum, "fast", 2 * 1000, 2 * 980, 2 * 1020);
	summary_add_interval(&sum, "slow", 2 * 2000, 2 * 1900, 2 * 2100);
	summary_end(&sum);
	n = summary_block(&sum.pass[1], 0, lines, 4);
	result(n == 3 && strstr(lines[1], "quickest") && strstr(lines[2], " +100.00%"),
	       "summary.apart_quickest", "'%s' '%s'", lines[1], lines[2]);
}

int main(void)
{
	test_intervals();
	test_batch();
	test_stopping();
	test_coverage_under_the_rule();
	test_ratio_coverage();
	test_blocks();
	test_place();
	test_summary_marks();
	return check_exit();
}
