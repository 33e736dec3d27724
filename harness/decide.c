/* SPDX-License-Identifier: MIT */
/* scripts/pbreport/decide.py in C (harness/decide.h); built with SSE in the kernel. */
#include "harness/decide.h"
#include "harness/stats.h"

/* The rank test's overlap is measured as theta = P(candidate > winner). */
#define NO_DIFFERENCE 0.5

unsigned int decide_reps_needed(double theta, double alpha)
{
	double d = theta - NO_DIFFERENCE < 0 ? NO_DIFFERENCE - theta :
		   theta - NO_DIFFERENCE;
	unsigned int n = 2;

	if (d == 0)
		return 0;
	while (n <= DECIDE_MAX_PROJECTED) {
		double u = NO_DIFFERENCE * n * n + d * n * n;	/* U at that overlap */

		if (stats_p_for_u(n, u) < alpha)
			return n;
		n += n < 64 ? 1 : n / 16;
	}
	return 0;
}

unsigned int decide_min_reps_to_reach(double alpha)
{
	unsigned int n = 2;

	while (stats_min_p(n, n) >= alpha)
		n++;
	return n;
}

static double larger(double a, double b)
{
	return a > b ? a : b;
}

/* decide.py relate() on stat lines: the intervals, never the pooled reps. */
static void relate_epochs(struct relation *r, const struct cell *ref,
			  const struct cell *cell)
{
	double diff = cell->median - ref->median;

	r->epochs_of[0] = ref->epochs;
	r->epochs_of[1] = cell->epochs;
	if (!ref->has_interval || !cell->has_interval) {
		r->state = REL_UNTESTED;
		r->epochs = EPOCHS_NO_INTERVAL;
		return;
	}
	r->state = REL_UNDECIDED;
	if ((diff < 0 ? -diff : diff) <
	    DECIDE_FEW_STEPS * larger(ref->quantum, cell->quantum) &&
	    larger(ref->quantum, cell->quantum) > 0)
		r->epochs = EPOCHS_BELOW_RESOLUTION;
	else if (ref->lo <= cell->hi && cell->lo <= ref->hi)
		r->epochs = EPOCHS_OVERLAP;
	else {
		r->epochs = EPOCHS_APART;
		r->state = diff > 0 ? REL_SLOWER : REL_FASTER;
	}
}

void decide_relate(struct relation *r, const struct cell *ref,
		   const struct cell *cell, double alpha, double tie)
{
	double noise, iqr, t, theta;
	unsigned int need, floor, n;

	*r = (struct relation){ .state = REL_SAME };
	if (ref->median) {
		r->delta = cell->median / ref->median - 1;
		r->has_delta = true;
	}
	if (cell->median == ref->median) {
		r->delta = 0.0;
		r->has_delta = true;
		return;
	}
	if (ref->by_epochs || cell->by_epochs) {
		relate_epochs(r, ref, cell);
		return;
	}
	iqr = ref->values ? ref->q3 - ref->q1 : 0.0;
	t = tie * (ref->median < 0 ? -ref->median : ref->median);
	noise = iqr >= t ? iqr : t;
	if (cell->median > ref->median && cell->median - ref->median <= noise) {
		r->state = REL_TIE;
		return;
	}
	if (!ref->values || !cell->values) {
		r->state = REL_UNTESTED;
		return;
	}
	r->p = stats_mann_whitney(ref->values, ref->n, cell->values, cell->n);
	r->has_p = true;
	if (r->p < alpha) {
		r->state = cell->median > ref->median ? REL_SLOWER : REL_FASTER;
		return;
	}
	theta = stats_u(cell->values, cell->n, ref->values, ref->n) /
		(double)((uint64_t)cell->n * ref->n);
	need = decide_reps_needed(theta, alpha);
	n = ref->n < cell->n ? ref->n : cell->n;
	if (!(stats_min_p(ref->n, cell->n) < alpha)) {
		floor = decide_min_reps_to_reach(alpha);
		need = need > floor ? need : floor;
	}
	if (need && need <= n)
		need = n + 1;		/* ties in the data cost the exact test power */
	r->state = REL_UNDECIDED;
	r->reps_needed = need;
}

void decide(struct decision *d, const struct cell *cells, unsigned int n,
	    double alpha, double tie)
{
	unsigned int i, j, w;
	bool open = false, unprojected = false;

	d->n = n < DECIDE_MAX ? n : DECIDE_MAX;
	for (i = 0; i < d->n; i++)
		d->rank[i] = i;
	/* Insertion sort: stable, as Python's sorted(). */
	for (i = 1; i < d->n; i++)
		for (j = i; j && cells[d->rank[j - 1]].median > cells[d->rank[j]].median; j--) {
			unsigned int x = d->rank[j];

			d->rank[j] = d->rank[j - 1];
			d->rank[j - 1] = x;
		}
	d->decidable = d->n > 0;
	d->reps_needed = 0;
	if (!d->n)
		return;
	w = d->rank[0];
	for (i = 0; i < d->n; i++) {
		struct relation *r = &d->rel[i];

		if (i == w) {
			*r = (struct relation){ .state = REL_SAME, .has_delta = true };
			continue;
		}
		decide_relate(r, &cells[w], &cells[i], alpha, tie);
		if (r->state != REL_UNDECIDED && r->state != REL_UNTESTED)
			continue;
		open = true;
		if (!r->reps_needed)
			unprojected = true;
		else if (r->reps_needed > d->reps_needed)
			d->reps_needed = r->reps_needed;
	}
	d->decidable = !open;
	if (!open || unprojected)
		d->reps_needed = 0;
}
