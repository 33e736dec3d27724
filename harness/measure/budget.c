/* SPDX-License-Identifier: MIT */
#include "harness/measure/budget.h"
#include "harness/stats/interval.h"

/*
 * Rules 5 and 6's measure, the least goes first: below its floor, a pass's
 * epochs over its floor; from it, 1 and its epochs over its need, in
 * thousandths.
 */
static uint64_t progress_of(const struct budget_pass *p)
{
	unsigned int need = p->need;

	if (p->epochs < p->floor)
		return (uint64_t)p->epochs * 1000 / p->floor;
	if (need <= p->epochs)
		need = p->epochs + 1;
	return 1000 + (uint64_t)p->epochs * 1000 / need;
}

/*
 * Ticks to the epochs its open questions are projected to need, at its
 * last epoch's length: what settling them would cost, were the
 * projection right.
 */
static uint64_t settle_cost(const struct budget_pass *p)
{
	return (uint64_t)(p->need > p->epochs ? p->need - p->epochs : 1) * p->last;
}

/* Rule 5's order: below the floor first (fewest over it), then the cheapest to settle. */
static bool before(const struct budget_pass *a, const struct budget_pass *b)
{
	bool fa = a->epochs < a->floor, fb = b->epochs < b->floor;

	if (fa != fb)
		return fa;
	if (fa)
		return progress_of(a) < progress_of(b);
	return settle_cost(a) < settle_cost(b);
}

/*
 * Whether a pass below its floor still reaches it when the time is
 * spent: where its epochs left to the floor cost at most an even share
 * of the budget, as the L1 and L2 passes' few milliseconds do after a
 * first round of large L3 and MEM passes has overrun the budget.
 */
static bool floor_is_cheap(const struct budget_pass *p, unsigned int n,
			   uint64_t budget)
{
	return p->epochs < p->floor &&
	       (uint64_t)(p->floor - p->epochs) * p->last <= budget / (n ? n : 1);
}

/*
 * Rule 4's pace: the epochs a pass spreads over the budget, BUDGET_PACE,
 * or those its open questions are projected to need where that is more
 * (at most INTERVAL_EPOCHS_MAX), so that pacing never keeps a cheap
 * question from the epochs that would settle it.
 */
static unsigned int pace_of(const struct budget_pass *p)
{
	if (!p->open || p->need <= BUDGET_PACE)
		return BUDGET_PACE;
	return p->need < INTERVAL_EPOCHS_MAX ? p->need : INTERVAL_EPOCHS_MAX;
}

/* Rule 4: a pass whose paced epochs cost at most 1/BUDGET_PACE_SHARE of the budget. */
static bool paced(const struct budget_pass *p, uint64_t budget)
{
	return p->last && p->last * pace_of(p) <= budget / BUDGET_PACE_SHARE;
}

/* When its next epoch is due: epochs slots of budget / pace_of(). */
static uint64_t due_at(const struct budget_pass *p, uint64_t budget)
{
	return (uint64_t)p->epochs * (budget / pace_of(p));
}

/*
 * Rules 4 and 7: of the paced passes still going whose next epoch is due
 * by then, the one due first; n where there is none.
 */
static unsigned int due_first(const struct budget_pass *p, unsigned int n,
			      uint64_t budget, uint64_t by)
{
	unsigned int k, next = n;

	for (k = 0; k < n; k++)
		if (p[k].stop == EPOCH_GO_ON && paced(&p[k], budget) &&
		    due_at(&p[k], budget) <= by &&
		    (next == n || due_at(&p[k], budget) < due_at(&p[next], budget)))
			next = k;
	return next;
}

/* Rule 3: a settled paced pass still has a slot in the budget after its next. */
static bool due_within(const struct budget_pass *p, uint64_t budget)
{
	return due_at(p, budget) + budget / pace_of(p) < budget;
}

unsigned int budget_next(struct budget_pass *p, unsigned int n, uint64_t elapsed,
			 uint64_t budget)
{
	unsigned int k, next = n;

	/* 1. The first round, the passes taking turns. */
	for (k = 0; k < n; k++)
		if (p[k].stop == EPOCH_GO_ON && p[k].epochs < INTERVAL_EPOCHS_MIN &&
		    (next == n || p[k].epochs < p[next].epochs))
			next = k;
	if (next < n)
		return next;
	/* 2. The odd count an interval needs. */
	for (k = 0; k < n; k++)
		if (p[k].stop == EPOCH_GO_ON && !(p[k].epochs & 1))
			return k;
	/* 3. Who stops. */
	for (k = 0; k < n; k++) {
		if (p[k].stop != EPOCH_GO_ON)
			continue;
		if (!p[k].open && p[k].epochs >= p[k].floor &&
		    (!paced(&p[k], budget) || !due_within(&p[k], budget)))
			p[k].stop = EPOCH_STOP_SETTLED;
		else if (p[k].epochs + 2 > INTERVAL_EPOCHS_MAX)
			p[k].stop = EPOCH_STOP_EPOCHS;
		else if ((elapsed >= budget || 2 * p[k].last > budget - elapsed) &&
			 !floor_is_cheap(&p[k], n, budget))
			p[k].stop = EPOCH_STOP_TIME;
	}
	/* 4. A paced pass whose epoch is due, the one due first. */
	next = due_first(p, n, budget, elapsed);
	if (next < n)
		return next;
	/* 5. Below its floor, or able to settle in the time left: the cheapest to settle. */
	for (k = 0; k < n; k++)
		if (p[k].stop == EPOCH_GO_ON && !paced(&p[k], budget) &&
		    (p[k].epochs < p[k].floor ||
		    settle_cost(&p[k]) <= (elapsed < budget ? budget - elapsed : 0)) &&
		    (next == n || before(&p[k], &p[next])))
			next = k;
	if (next < n)
		return next;
	/* 6. Else the one furthest from its need. */
	for (k = 0; k < n; k++)
		if (p[k].stop == EPOCH_GO_ON && !paced(&p[k], budget) &&
		    (next == n || progress_of(&p[k]) < progress_of(&p[next])))
			next = k;
	if (next < n)
		return next;
	/* 7. Only paced passes are left (rule 6 took any other), none due: the one due first. */
	return due_first(p, n, budget, UINT64_MAX);
}
