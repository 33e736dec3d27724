/* SPDX-License-Identifier: MIT */
/*
 * The report's statistics in C: scripts/pbreport/stats.py, operation for
 * operation in IEEE double, so that a verdict line and pagebench-report
 * verdict of the same log agree to the last bit wherever Python's own
 * arithmetic is exact, and erfc() (the one function not ported from a
 * library) to about 1e-13. Conventions (docs/report.md): the median is
 * the middle value or the mean of the two middle ones; quartiles are type
 * 7; Mann-Whitney U is two-sided, exact and conditional on ties up to
 * STATS_EXACT_LIMIT samples in all, the normal approximation with tie and
 * continuity corrections above.
 *
 * In the kernel these files are built with SSE (the Makefile says why).
 */
#ifndef PB_STATS_H
#define PB_STATS_H

#include <stdbool.h>
#include <stdint.h>

#define STATS_EXACT_LIMIT	50

/* n, min, Q1, median, Q3, max of the samples; sorts t in place. */
struct spread {
	unsigned int n;
	double min, q1, median, q3, max;
};
void stats_spread(struct spread *s, uint64_t *t, unsigned int n);

/* U_x: pairs with x_i > y_j, plus one half per tied pair. */
double stats_u(const uint64_t *x, unsigned int nx, const uint64_t *y,
	       unsigned int ny);

/*
 * The two-sided p of the Mann-Whitney U test of x against y: 1 to
 * REPS_MAX samples each, a pass's reps.
 */
double stats_mann_whitney(const uint64_t *x, unsigned int nx,
			  const uint64_t *y, unsigned int ny);

/* The smallest p the exact test can give n1 against n2 samples. */
double stats_min_p(unsigned int n1, unsigned int n2);

/*
 * Two-sided p of U for n against n samples without ties (decide.py
 * _p_for_u(), the projection of the reps that would decide).
 */
double stats_p_for_u(unsigned int n, double u);

double stats_erfc(double x);
double stats_sqrt(double x);

#endif
