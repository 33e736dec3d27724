/* SPDX-License-Identifier: MIT */
#include "lib/fmt.h"
#include "lib/sort.h"
#include "harness/stats/interval.h"

/* Deviations are scaled below this before squaring: 63 squares of them fit 64 bits. */
#define DEVIATION_LIMIT	(1ull << 28)
#define PPM		1000000u
#define BP_PER_UNIT	10000u	/* hundredths of a per cent in a whole */

uint64_t median_u64(uint64_t *t, unsigned int n)
{
	if (!n)
		return 0;
	sort_u64(t, n);
	/* Halves first: the sum of two 64-bit figures may not fit. */
	return t[(n - 1) / 2] / 2 + t[n / 2] / 2 + (t[(n - 1) / 2] & t[n / 2] & 1);
}

uint64_t median2_u64(uint64_t *t, unsigned int n)
{
	if (!n)
		return 0;
	sort_u64(t, n);
	return t[(n - 1) / 2] + t[n / 2];
}

unsigned int interval_odd_epochs(uint64_t *med, unsigned int n)
{
	unsigned int i;

	if (n && n % 2 == 0) {
		for (i = 1; i < n; i++)
			med[i - 1] = med[i];
		n--;
	}
	return n;
}

uint64_t isqrt_u64(uint64_t x)
{
	uint64_t r = 0, bit = 1ull << 62;

	while (bit > x)
		bit >>= 2;
	while (bit) {
		if (x >= r + bit) {
			x -= r + bit;
			r = (r >> 1) + bit;
		} else {
			r >>= 1;
		}
		bit >>= 2;
	}
	return r;
}

/* The sample standard deviation of v[0..n), n >= 2, without overflow. */
static uint64_t std_dev(const uint64_t *v, unsigned int n)
{
	uint64_t sum = 0, mean, spread = 0, squares = 0;
	unsigned int i, shift = 0;

	for (i = 0; i < n; i++)
		sum += v[i];
	mean = sum / n;
	for (i = 0; i < n; i++) {
		uint64_t d = v[i] > mean ? v[i] - mean : mean - v[i];

		if (d > spread)
			spread = d;
	}
	while ((spread >> shift) >= DEVIATION_LIMIT)
		shift++;
	for (i = 0; i < n; i++) {
		uint64_t d = (v[i] > mean ? v[i] - mean : mean - v[i]) >> shift;

		squares += d * d;
	}
	return isqrt_u64(squares / (n - 1)) << shift;
}

/*
 * v[0..n) into w[], a value further from their median m than the reach
 * (harness/stats/interval.h; the median absolute deviation taken as at least
 * the figure's quantum) set at the reach: an epoch disturbed far beyond
 * the others then weighs on s as one disturbed just that much, which is
 * as far as one epoch moves a rerun's median. Below WINSOR_EPOCHS_MIN
 * epochs, as they are. dev: n values of scratch (kept off a module's
 * small stack by reusing the caller's).
 */
static void winsorize(const uint64_t *v, unsigned int n, uint64_t m,
		      uint64_t quantum, uint64_t *w, uint64_t *dev)
{
	uint64_t mad, reach;
	unsigned int i;

	for (i = 0; i < n; i++) {
		w[i] = v[i];
		dev[i] = v[i] > m ? v[i] - m : m - v[i];
	}
	if (n < WINSOR_EPOCHS_MIN)
		return;
	mad = median_u64(dev, n);
	if (mad < quantum)
		mad = quantum;
	reach = mad > UINT64_MAX / WINSOR_REACH_PER_MAD ? UINT64_MAX :
		mad * WINSOR_REACH_PER_MAD / WINSOR_REACH_ONE;
	for (i = 0; i < n; i++) {
		if (w[i] > m && w[i] - m > reach)
			w[i] = m + reach;
		else if (w[i] < m && m - w[i] > reach)
			w[i] = m - reach;
	}
}

/* x times a factor in millionths, without overflow for any 64-bit x. */
static uint64_t times_ppm(uint64_t x, uint32_t ppm)
{
	return x / PPM * ppm + x % PPM * ppm / PPM;
}

/*
 * The half-width the blocks of v[0..n) (winsorized, in the order they
 * ran) call for: g(B) times the standard deviation of their means; 0
 * where too few epochs make INTERVAL_BLOCKS_MIN blocks.
 */
static uint64_t block_half(const uint64_t *v, unsigned int n)
{
	uint64_t mean[INTERVAL_BLOCKS_MAX];
	unsigned int b, blocks = n / INTERVAL_BLOCK_EPOCHS;

	if (blocks > INTERVAL_BLOCKS_MAX)
		blocks = INTERVAL_BLOCKS_MAX;
	if (blocks < INTERVAL_BLOCKS_MIN)
		return 0;
	for (b = 0; b < blocks; b++) {
		unsigned int from = b * n / blocks, to = (b + 1) * n / blocks, e;
		uint64_t sum = 0, rest = 0;

		/* Quotient and remainder apart: a sum of 21 large figures may not fit. */
		for (e = from; e < to; e++) {
			sum += v[e] / (to - from);
			rest += v[e] % (to - from);
		}
		mean[b] = sum + rest / (to - from);
	}
	return times_ppm(std_dev(mean, blocks), interval_block_factor_ppm[blocks]);
}

/* The interval of v[0..n); with blocks, at least as wide as block_half() says. */
static void interval_of(const uint64_t *med, unsigned int epochs, uint64_t quantum,
			bool blocks, struct interval *iv)
{
	uint64_t sorted[INTERVAL_EPOCHS_MAX], clipped[INTERVAL_EPOCHS_MAX], sd, half, wide;
	unsigned int i, n = epochs < INTERVAL_EPOCHS_MAX ? epochs : INTERVAL_EPOCHS_MAX;

	for (i = 0; i < n; i++)
		sorted[i] = med[i];
	*iv = (struct interval){ .median = median_u64(sorted, n) };
	if (n < INTERVAL_EPOCHS_MIN || !(n & 1) || !interval_factor_ppm[n])
		return;
	/* sorted has served for the median: winsorize's scratch. */
	winsorize(med, n, iv->median, quantum, clipped, sorted);
	sd = std_dev(clipped, n);
	half = times_ppm(sd, interval_factor_ppm[n]);
	wide = blocks ? block_half(clipped, n) : 0;
	if (half < wide)
		half = wide;
	if (half < quantum)
		half = quantum;
	iv->lo = iv->median > half ? iv->median - half : 0;
	iv->hi = iv->median + half;
	iv->has_interval = true;
}

void interval_of_epochs(const uint64_t *med, unsigned int epochs,
			uint64_t quantum, struct interval *iv)
{
	interval_of(med, epochs, quantum, false, iv);
}

/* num / den in millionths; figures too large to scale lose their fraction instead. */
static uint64_t ratio_of(uint64_t num, uint64_t den)
{
	if (num > (UINT64_MAX - den) / RATIO_ONE)
		return num / den * RATIO_ONE;
	return (num * RATIO_ONE + den / 2) / den;
}

static bool ratio_span(const struct epoch_series *num, const struct epoch_series *den,
		       unsigned int from, unsigned int to, bool blocks, struct interval *iv);

bool interval_of_ratio(const struct epoch_series *num,
		       const struct epoch_series *den, struct interval *iv)
{
	return ratio_span(num, den, 0, ratio_epochs(num, den), true, iv);
}

unsigned int ratio_epochs(const struct epoch_series *num, const struct epoch_series *den)
{
	/* A variant the race stopped has fewer epochs: the first ones are common. */
	unsigned int n = num->epochs < den->epochs ? num->epochs : den->epochs;

	return n < INTERVAL_EPOCHS_MAX ? n : INTERVAL_EPOCHS_MAX;
}

bool interval_of_ratio_span(const struct epoch_series *num,
			    const struct epoch_series *den, unsigned int from,
			    unsigned int to, struct interval *iv)
{
	return ratio_span(num, den, from, to, false, iv);
}

static bool ratio_span(const struct epoch_series *num, const struct epoch_series *den,
		       unsigned int from, unsigned int to, bool blocks, struct interval *iv)
{
	uint64_t ratio[INTERVAL_EPOCHS_MAX], whole, share, step;
	unsigned int e, n;

	if (to > ratio_epochs(num, den))
		to = ratio_epochs(num, den);
	if (from >= to || !num->median || !den->median)
		return false;
	n = to - from;
	for (e = 0; e < n; e++) {
		if (!den->med[from + e])
			return false;
		ratio[e] = ratio_of(num->med[from + e], den->med[from + e]);
	}
	/*
	 * The ratio's own step: each figure's quantum (the timer's step
	 * over its batch) moves the ratio by its share of that figure.
	 */
	whole = ratio_of(num->median, den->median);
	share = ratio_of(num->quantum, num->median) + ratio_of(den->quantum, den->median);
	step = whole / RATIO_ONE * share + whole % RATIO_ONE * share / RATIO_ONE;
	interval_of(ratio, n, step ? step : 1, blocks, iv);
	return true;
}

void ratio_text(char *buf, unsigned int len, uint64_t ppm)
{
	uint64_t parts = (ppm + 50) / 100;	/* of 10000: four decimals */

	fmt_snprintf(buf, len, "%lu.%04lu", (unsigned long)(parts / 10000),
		     (unsigned long)(parts % 10000));
}

bool interval_precise(const struct interval *iv, unsigned int precision_bp)
{
	if (!iv->has_interval)
		return false;
	/* The median's side rounds down: never precise by rounding. */
	if (iv->median > UINT64_MAX / BP_PER_UNIT)
		return iv->hi - iv->median <= iv->median / BP_PER_UNIT * precision_bp;
	return iv->hi - iv->median <= iv->median * precision_bp / BP_PER_UNIT;
}

unsigned int batch_for(uint64_t call_centi, uint64_t step, unsigned int max)
{
	uint64_t want = step * BATCH_TIMER_STEPS * CENTI, k;

	if (!max)
		max = 1;
	if (!call_centi)
		return max;
	k = (want + call_centi - 1) / call_centi;
	if (k < 1)
		k = 1;
	return k > max ? max : (unsigned int)k;
}

unsigned int pass_batch(uint64_t shortest_centi, uint64_t step, unsigned int room)
{
	return batch_for(shortest_centi, step, room) > 1 ? room : 1;
}
