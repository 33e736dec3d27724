/* SPDX-License-Identifier: MIT */
/*
 * scripts/pbreport/stats.py in C (harness/stats.h). Each expression keeps
 * Python's order of operations and its int-to-float conversions: ticks
 * are below 2^53, so every conversion is exact, and IEEE double rounds
 * each operation as Python's float does. Counts of the exact test are
 * integers below C(50, 25) < 2^47.
 */
#include <stdint.h>
#include "harness/options.h"
#include "harness/stats.h"
#include "lib/sort.h"

/* The rank-sum counts: doubled ranks sum to at most N (N + 1). */
#define SUM2_MAX	(STATS_EXACT_LIMIT * (STATS_EXACT_LIMIT + 1))
#define SIDE_MAX	(STATS_EXACT_LIMIT / 2)
/* reps_needed's exact branch: n against n for 2n <= STATS_EXACT_LIMIT. */
#define NOTIES_MAX	(STATS_EXACT_LIMIT / 2)

double stats_sqrt(double x)
{
	double r;

	asm("sqrtsd %1, %0" : "=x"(r) : "x"(x));
	return r;
}

static double quantile(const uint64_t *s, unsigned int n, double q)
{
	double h = (double)(n - 1) * q;
	unsigned int lo = (unsigned int)h;	/* floor: h >= 0 */
	unsigned int hi = lo + 1 < n - 1 ? lo + 1 : n - 1;

	return (double)s[lo] + (h - (double)lo) * (double)(s[hi] - s[lo]);
}

void stats_spread(struct spread *sp, uint64_t *t, unsigned int n)
{
	unsigned int m = n / 2;

	sort_u64(t, n);		/* the suites hand them over sorted already */
	sp->n = n;
	sp->min = (double)t[0];
	sp->max = (double)t[n - 1];
	sp->q1 = quantile(t, n, 0.25);
	sp->q3 = quantile(t, n, 0.75);
	sp->median = n % 2 ? (double)t[m] : (double)(t[m - 1] + t[m]) / 2;
}

double stats_u(const uint64_t *x, unsigned int nx, const uint64_t *y,
	       unsigned int ny)
{
	uint64_t twice = 0;
	unsigned int i, j;

	for (i = 0; i < nx; i++)
		for (j = 0; j < ny; j++)
			twice += x[i] > y[j] ? 2 : x[i] == y[j];
	return (double)twice / 2;
}

/* C(n, k), exact while it fits (n <= 66); callers stay below that. */
static uint64_t comb(unsigned int n, unsigned int k)
{
	uint64_t c = 1;
	unsigned int i;

	if (k > n)
		return 0;
	if (k > n - k)
		k = n - k;
	for (i = 1; i <= k; i++)
		c = c * (n - k + i) / i;	/* exact: a binomial at every step */
	return c;
}

/*
 * The exact distribution of the doubled rank sum of m items drawn from
 * the pooled samples, whose ties are groups of size[] items at doubled
 * mid-rank rank2[] (stats.py _ranksum_counts(), counted in place: a
 * group's choices are added from the largest count down, so each reads
 * the counts before this group).
 */
static uint64_t ways[SIDE_MAX + 1][SUM2_MAX + 1];

static void ranksum_counts(unsigned int m, const unsigned int *rank2,
			   const unsigned int *size, unsigned int ngroups)
{
	unsigned int top[SIDE_MAX + 1];	/* largest sum with a count, per k */
	unsigned int g, k, j, s;

	for (k = 0; k <= m; k++) {
		top[k] = 0;
		for (s = 0; s <= SUM2_MAX; s++)
			ways[k][s] = 0;
	}
	ways[0][0] = 1;
	for (g = 0; g < ngroups; g++) {
		for (k = m; k >= 1; k--) {
			for (j = 1; j <= size[g] && j <= k; j++) {
				uint64_t c = comb(size[g], j);
				unsigned int add = j * rank2[g];

				if (k - j > 0 && !top[k - j])
					continue;	/* no way to hold k - j items yet */
				for (s = 0; s <= top[k - j]; s++)
					if (ways[k - j][s])
						ways[k][s + add] += ways[k - j][s] * c;
				if (top[k - j] + add > top[k])
					top[k] = top[k - j] + add;
			}
		}
	}
}

struct ranked {
	uint64_t value;
	bool from_x;
};

static void sort_ranked(struct ranked *r, unsigned int n)
{
	unsigned int i, j;

	for (i = 1; i < n; i++)
		for (j = i; j && r[j - 1].value > r[j].value; j--) {
			struct ranked t = r[j];

			r[j] = r[j - 1];
			r[j - 1] = t;
		}
}

static double erfc_half(double z)
{
	return stats_erfc(z / stats_sqrt(2));
}

double stats_mann_whitney(const uint64_t *x, unsigned int n1,
			  const uint64_t *y, unsigned int n2)
{
	static struct ranked pooled[2 * REPS_MAX];
	static unsigned int rank2[STATS_EXACT_LIMIT], size[STATS_EXACT_LIMIT];
	unsigned int N = n1 + n2, i, j, ngroups = 0;
	uint64_t r1_2 = 0, tie_sum = 0;
	double r1, u, mu, tie_term, var, z, p;

	if (!n1 || !n2 || N > sizeof(pooled) / sizeof(pooled[0]))
		return 1.0;
	for (i = 0; i < n1; i++)
		pooled[i] = (struct ranked){ x[i], true };
	for (i = 0; i < n2; i++)
		pooled[n1 + i] = (struct ranked){ y[i], false };
	sort_ranked(pooled, N);
	/* Mid-ranks, doubled: positions i..j (0-based) share i + j + 2. */
	for (i = 0; i < N; i = j + 1) {
		unsigned int c;

		for (j = i; j + 1 < N && pooled[j + 1].value == pooled[i].value; j++)
			;
		c = j - i + 1;
		for (unsigned int k = i; k <= j; k++)
			if (pooled[k].from_x)
				r1_2 += i + j + 2;
		tie_sum += (uint64_t)c * c * c - c;
		if (N <= STATS_EXACT_LIMIT) {
			rank2[ngroups] = i + j + 2;
			size[ngroups++] = c;
		}
	}
	r1 = (double)r1_2 / 2;
	u = r1 - (double)((uint64_t)n1 * (n1 + 1)) / 2;
	if (N <= STATS_EXACT_LIMIT) {
		/* Count the smaller side: its splits mirror the other's. */
		unsigned int m = n1 < n2 ? n1 : n2;
		int64_t mean2 = (int64_t)m * (N + 1);
		int64_t obs = (int64_t)r1_2 - (int64_t)n1 * (N + 1);
		uint64_t extreme = 0, total = comb(N, n1);

		if (obs < 0)
			obs = -obs;
		ranksum_counts(m, rank2, size, ngroups);
		for (i = 0; i <= SUM2_MAX; i++) {
			int64_t d = (int64_t)i - mean2;

			if (ways[m][i] && (d < 0 ? -d : d) >= obs)
				extreme += ways[m][i];
		}
		p = (double)extreme / (double)total;
		return p < 1.0 ? p : 1.0;
	}
	mu = (double)((uint64_t)n1 * n2) / 2;
	tie_term = (double)tie_sum / (double)((uint64_t)N * (N - 1));
	var = (double)((uint64_t)n1 * n2) / 12 * ((double)(N + 1) - tie_term);
	if (var <= 0)
		return 1.0;
	z = (u - mu < 0 ? mu - u : u - mu) - 0.5;
	if (z < 0.0)
		z = 0.0;
	p = erfc_half(z / stats_sqrt(var));
	return p < 1.0 ? p : 1.0;
}

double stats_min_p(unsigned int n1, unsigned int n2)
{
	double c = 1;
	unsigned int i, k = n1 < n2 ? n1 : n2;

	if (!n1 || !n2)
		return 1.0;
	if (n1 + n2 <= 66) {
		c = (double)comb(n1 + n2, k);
	} else {
		/* Beyond 2^64 only its size matters: far below any alpha. */
		for (i = 1; i <= k; i++)
			c = c * (double)(n1 + n2 - k + i) / (double)i;
	}
	return 2 / c < 1.0 ? 2 / c : 1.0;
}

/* The rank-sum counts of n against n without ties, per n, made once. */
static struct {
	bool made;
	uint64_t count[NOTIES_MAX * NOTIES_MAX + 1];	/* by rank sum - n(n+1)/2 */
} noties[NOTIES_MAX + 1];

static const uint64_t *noties_counts(unsigned int n)
{
	static unsigned int rank2[2 * NOTIES_MAX], size[2 * NOTIES_MAX];
	unsigned int r, s, lo = n * (n + 1);

	if (!noties[n].made) {
		for (r = 0; r < 2 * n; r++) {
			rank2[r] = 2 * (r + 1);
			size[r] = 1;
		}
		ranksum_counts(n, rank2, size, 2 * n);
		for (s = 0; s <= n * n; s++)
			noties[n].count[s] = ways[n][lo + 2 * s];
		noties[n].made = true;
	}
	return noties[n].count;
}

double stats_p_for_u(unsigned int n, double u)
{
	double p, mu, var, z;

	if (2 * n <= STATS_EXACT_LIMIT) {
		const uint64_t *count = noties_counts(n);
		int64_t mean2 = (int64_t)n * (2 * n + 1);
		double obs = 2 * ((double)(uint64_t)u + (double)(n * (n + 1)) / 2) -
			     (double)mean2;
		uint64_t extreme = 0, total = comb(2 * n, n);
		unsigned int s;

		if (obs < 0)
			obs = -obs;
		for (s = 0; s <= n * n; s++) {
			int64_t d = (int64_t)(n * (n + 1) + 2 * s) - mean2;

			if ((double)(d < 0 ? -d : d) >= obs)
				extreme += count[s];
		}
		p = (double)extreme / (double)total;
		return p < 1.0 ? p : 1.0;
	}
	mu = (double)((uint64_t)n * n) / 2;
	var = (double)((uint64_t)n * n * (2 * n + 1)) / 12;
	z = (u - mu < 0 ? mu - u : u - mu) - 0.5;
	if (z < 0.0)
		z = 0.0;
	p = erfc_half(z / stats_sqrt(var));
	return p < 1.0 ? p : 1.0;
}

/* -- erfc ------------------------------------------------------------------ */

#define SQRT_PI	1.7724538509055160273
#define LN2_HI	6.93147180369123816490e-01	/* ln 2 to 32 bits: k * LN2_HI is exact */
#define LN2_LO	1.90821492927058770002e-10
#define LOG2E	1.44269504088896338700

static double scale2(double x, int k)
{
	union { double d; uint64_t u; } f;

	/* Two steps keep 2^k a normal number down to the subnormal results. */
	while (k < -1000) {
		f.u = (uint64_t)(1023 - 1000) << 52;
		x *= f.d;
		k += 1000;
	}
	while (k > 1000) {
		f.u = (uint64_t)(1023 + 1000) << 52;
		x *= f.d;
		k -= 1000;
	}
	f.u = (uint64_t)(1023 + k) << 52;
	return x * f.d;
}

/* e^y for y <= 0: y = k ln 2 + r, |r| <= ln 2 / 2, and a Taylor series of r. */
static double exp_neg(double y)
{
	double t, r, term, sum;
	int k, i;

	if (y < -745.2)
		return 0.0;
	t = y * LOG2E;
	k = (int)(t < 0 ? t - 0.5 : t + 0.5);
	r = (y - k * LN2_HI) - k * LN2_LO;
	term = sum = 1.0;
	for (i = 1; i < 30; i++) {
		term *= r / i;
		sum += term;
		if (term < 1e-18 && term > -1e-18)
			break;
	}
	return scale2(sum, k);
}

/* x split into a head of 26 significant bits and the rest: head^2 is exact. */
static double head26(double x)
{
	union { double d; uint64_t u; } f = { .d = x };

	f.u &= ~((1ull << 27) - 1);
	return f.d;
}

/* e^(-x^2), with x^2 kept exact to twice double precision. */
static double exp_minus_square(double x)
{
	double h = head26(x), l = x - h;

	return exp_neg(-(h * h)) * exp_neg(-(2 * h * l + l * l));
}

/*
 * erfc(x) = 1 - erf(x) from erf's Maclaurin series below 1; above, the
 * continued fraction erfc(x) = 2x e^(-x^2) / sqrt(pi) / (2x^2 + 1 -
 * 1*2 / (2x^2 + 5 - 3*4 / (2x^2 + 9 - ...))), evaluated by Lentz's method.
 */
double stats_erfc(double x)
{
	double x2, f, c, d, delta;
	int n;

	if (x < 0)
		return 2 - stats_erfc(-x);
	if (x < 1) {
		double term = x, sum = x, xx = x * x;

		for (n = 1; n < 60; n++) {
			term *= -xx / n;
			delta = term / (2 * n + 1);
			sum += delta;
			if (delta < 1e-18 && delta > -1e-18)
				break;
		}
		return 1 - 2 / SQRT_PI * sum;
	}
	if (x > 27.3)
		return 0.0;	/* below the smallest double */
	x2 = 2 * x * x;
	f = c = x2 + 1;
	d = 0;
	for (n = 1; n < 5000; n++) {
		double a = -(double)(2 * n - 1) * (2 * n), b = x2 + 1 + 4 * n;

		d = b + a * d;
		d = 1 / d;
		c = b + a / c;
		delta = c * d;
		f *= delta;
		if (delta - 1 < 1e-16 && delta - 1 > -1e-16)
			break;
	}
	return 2 * x / SQRT_PI * exp_minus_square(x) / f;
}
