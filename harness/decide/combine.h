/* SPDX-License-Identifier: MIT */
/*
 * Bottom lines (harness/decide/bottom.h) combined: the runs of one CPU into one
 * bottom line per kernel pick, and the CPU groups of a fleet into one
 * fleet line per pick (docs/log-format.md, "Combined runs and the
 * fleet"). Nothing is measured again and nothing is weighed anew: what
 * each run decided is taken as it said it.
 *
 * Runs of one CPU, one key (function, kernel, versions, entry):
 *   - every run's action the same, and some routine the named routine or
 *     alike in every run: that action, naming the first such routine in
 *     the order of preference (harness/decide/prefer.h), the rest of them alike;
 *     where every run keeps, keep (the first of their routines named);
 *   - every run none: none, for the first run's reason (differ: each
 *     one's where they differ);
 *   - else undecided, no routine named, and differ says what the runs
 *     said, most said first: "switch orig x2; keep x1".
 *   Each pass of the named routine, from the runs that named it (where
 *   none did, each run's own routine, which is alike to it): the median
 *   of their medians, the least lo and the greatest hi, what a rerun
 *   confirmed; its verdict that interval's against the worth; the epochs
 *   summed. safe and saves: those of every run.
 *
 * CPU groups of a fleet, one key of an era (never a running kernel's, whose
 * release differs by host), the groups with advice (not none):
 *   - switch to the first routine in the order of preference that is in
 *     every group's safe set and in some group's saves set, the others
 *     that are listed (also);
 *   - keep where every group keeps;
 *   - undecided where a group is undecided;
 *   - else trade-off, each group's own action and routine listed.
 *
 * Pure and in integers; candidates are ids of one table, rank[id] each
 * one's place in the order of preference (lower first).
 */
#ifndef PB_COMBINE_H
#define PB_COMBINE_H

#include <stddef.h>
#include "harness/decide/bottom.h"

/* The most runs of one group, and groups of one fleet, combined at once. */
#define COMBINE_RUNS_MAX	32
#define COMBINE_GROUPS_MAX	32

/*
 * The bottom line of n runs' bottom lines of one key, each against
 * worth_bp, into out; differ (of differ_len) holds what the runs said
 * where they disagree (out->differ points at it), name(id) naming a
 * candidate there. out's passes point at the runs' pass names.
 */
void combine_runs(const struct bottom *const *run, unsigned int n, unsigned int worth_bp,
		  const unsigned int *rank, const char *(*name)(unsigned int id),
		  char *differ, size_t differ_len, struct bottom *out);

struct fleet {
	enum bottom_action action;	/* keep, switch, trade-off, undecided */
	int routine;			/* switch: the routine; else -1 */
	variant_set also;		/* switch: the others that qualify */
	unsigned int ngroups;		/* the groups weighed: 0, no fleet line */
	bool in[COMBINE_GROUPS_MAX];	/* which of them (a group of none is not) */
};

/* The fleet line of n groups' combined bottom lines of one key. */
void combine_fleet(const struct bottom *const *group, unsigned int n, const unsigned int *rank,
		   struct fleet *out);

/*
 * "fleet fn=... by=\"g1:switch:orig,...\"" (without the tag) into buf:
 * the key as pick names it, group[i]'s action and routine by
 * group_name[i] (each [A-Za-z0-9_.+-]), name(id) naming a candidate.
 */
void combine_fleet_line(char *buf, size_t len, const char *fn, const struct answer_pick *pick,
			const struct fleet *f, const struct bottom *const *group,
			const char *const *group_name, unsigned int n,
			const char *(*name)(unsigned int id));

#endif
