/* SPDX-License-Identifier: MIT */
/*
 * Which variants are as good as the winner, and whether the data can say:
 * scripts/pbreport/decide.py in C, its rules as docs/report.md, "verdict",
 * gives them. The winner is the lowest median; every other candidate is
 * the same (equal medians), a tie (within the winner's IQR, or tie x its
 * median), significantly slower (Mann-Whitney p < alpha), or not
 * separated at these reps: as good as the winner then, but undecided,
 * with the reps that could separate it projected from the overlap seen.
 * Aggregated figures (copy-hot, copy-cold: no samples) have no test.
 * Figures over epochs (stat lines) are related by their 95% intervals
 * alone: below the timer's resolution (DECIDE_FEW_STEPS quanta) or
 * overlapping, not separated; apart, slower.
 */
#ifndef PB_DECIDE_H
#define PB_DECIDE_H

#include <stdbool.h>
#include <stdint.h>

#define DECIDE_ALPHA		0.05
#define DECIDE_MAX_PROJECTED	10000
/* analysis.py FEW_STEPS: medians closer than this many quanta are not told apart. */
#define DECIDE_FEW_STEPS	3

/* One candidate: its samples (sorted), aggregated figures, or a figure over epochs. */
struct cell {
	unsigned int n;
	double median, q1, q3;		/* q1, q3 unused when aggregated */
	const uint64_t *values;		/* NULL: aggregated, or over epochs */
	bool by_epochs;			/* from a stat line */
	bool has_interval;		/* lo, hi: its 95% interval */
	double lo, hi;
	double quantum;			/* its resolution; 0: unknown */
	unsigned int epochs;
};

enum relation_state {
	REL_SAME, REL_TIE, REL_SLOWER, REL_FASTER, REL_UNDECIDED, REL_UNTESTED,
};

/* Why figures over epochs are not separated, or are. */
enum relation_epochs {
	EPOCHS_NONE,		/* not decided by epochs */
	EPOCHS_BELOW_RESOLUTION, EPOCHS_OVERLAP, EPOCHS_APART,
	EPOCHS_NO_INTERVAL,	/* one of the two has none: no test */
};

struct relation {
	enum relation_state state;
	enum relation_epochs epochs;	/* with epochs_of[]: the cells' epochs */
	unsigned int epochs_of[2];
	bool has_delta, has_p;
	double delta;			/* median / the winner's - 1 */
	double p;
	unsigned int reps_needed;	/* 0: no projection */
};

static inline bool relation_as_good(const struct relation *r)
{
	return r->state != REL_SLOWER;
}

/* cell against ref, the winner. */
void decide_relate(struct relation *r, const struct cell *ref,
		   const struct cell *cell, double alpha, double tie);

/* The smallest n, n against n overlapping as theta says, reaching p < alpha; 0: none. */
unsigned int decide_reps_needed(double theta, double alpha);
unsigned int decide_min_reps_to_reach(double alpha);

/*
 * The candidates ranked by median (a stable sort: equal medians keep the
 * order given), each related to the winner, cells[rank[0]].
 */
#define DECIDE_MAX 64
struct decision {
	unsigned int n;
	unsigned int rank[DECIDE_MAX];
	struct relation rel[DECIDE_MAX];	/* by candidate, not by rank */
	bool decidable;
	unsigned int reps_needed;		/* 0: none can settle it */
};

void decide(struct decision *d, const struct cell *cells, unsigned int n,
	    double alpha, double tie);

#endif
