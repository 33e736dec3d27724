/* SPDX-License-Identifier: MIT */
/*
 * The bottom line: one decision per function and kernel pick, from all
 * the passes that judge it together (docs/method.md, "The bottom line").
 * Each candidate's time, its vector price in, over the pick's, pass by
 * pass with its 95% interval (answer_ratio()), against the least saving
 * worth acting on, m (worth=):
 *
 *   saves in a pass   hi < 1 - m        costs in a pass   lo > 1 + m
 *   may save          lo < 1 - m        may cost          hi > 1 + m
 *
 *   - switch to Y: Y saves in some pass and may cost in none (nor lacks
 *     a pass);
 *   - else undecided, where some Y may still become such a switch: may
 *     save somewhere, costs nowhere (the passes left open say what would
 *     decide: their epochs projected to close them);
 *   - else trade-off: Y saves in some passes and costs in others, both
 *     named;
 *   - else undecided where some Y may save somewhere (a trade-off or a
 *     keep, more epochs would tell);
 *   - else keep: no candidate may save the worth in any pass.
 *
 * Of several that qualify, routines the run cannot tell apart are one
 * answer: Y dominates Z where Y surely saves m over Z in some pass and
 * Z over Y in none (their ratio, epoch by epoch, each with its price);
 * of those none dominates, the first in the order of preference
 * (harness/decide/prefer.h: no vector registers first, then the table's
 * order) is named, and every candidate with no sure difference of m
 * from it in any pass is listed as alike. So two runs that find orig and
 * stosl alike name the same one, whichever measured quicker.
 *
 * mix= (weights per pass): the passes weighed into one figure instead,
 * each candidate's mean time a page over the pick's, the passes' half-
 * widths in quadrature, and switch (its hi below 1 - m), keep (no lo
 * below it) or undecided on that one figure.
 *
 * Generic over the question: the pages' (passes), suite=strings' (modes)
 * and suite=scrub's (steps) alike; candidates are indices into their
 * table (< VARIANTS_MAX). Integers only: every host runs it.
 */
#ifndef PB_BOTTOM_H
#define PB_BOTTOM_H

#include <stdbool.h>
#include <stdint.h>
#include "harness/decide/answer.h"

/* The most passes (modes, steps) one bottom line weighs. */
#define BOTTOM_PASSES_MAX	16

enum bottom_action { BOTTOM_KEEP, BOTTOM_SWITCH, BOTTOM_TRADE_OFF, BOTTOM_UNDECIDED,
		     BOTTOM_NONE };
const char *bottom_action_name(enum bottom_action a);	/* "keep", "trade-off", ... */

/* One pass of the question: its pick and candidates (answer_cands_of()). */
struct bottom_pass {
	const char *name;		/* "l2f", "tput", "cpus2" */
	const struct epoch_series *pick;	/* with its price; NULL: not measured */
	unsigned int n;
	unsigned int id[VARIANTS_MAX];	/* each candidate's index in its table */
	unsigned int rank[VARIANTS_MAX];	/* its prefer_rank() */
	const struct epoch_series *s[VARIANTS_MAX];
	struct answer_price add[VARIANTS_MAX];
	/* Without a price: the VEC candidates left out, for unpriced=. */
	unsigned int nunpriced;
	unsigned int unpriced_id[VARIANTS_MAX];
	const struct epoch_series *unpriced_s[VARIANTS_MAX];
	uint64_t per;			/* pages a call (ns a page), or 1 */
	unsigned int weight;		/* mix=; 0: not in the mix */
};

/* Where the named routine stands in one pass. */
enum bottom_verdict { CELL_EVEN, CELL_SAVES, CELL_COSTS, CELL_OPEN, CELL_MISSING };
const char *bottom_verdict_name(enum bottom_verdict v);	/* "even", "saves", ... */

struct bottom_cell {
	enum bottom_verdict verdict;
	struct interval ratio;		/* millionths, its price in */
	unsigned int epochs;		/* the pick's */
	unsigned int need;		/* open: the epochs projected to close it */
	bool has_ns;
	uint64_t pick_ns10, routine_ns10, price_ns10;	/* tenths of a ns a page (per) */
};

struct bottom {
	enum bottom_action action;
	enum answer_why why;		/* with BOTTOM_NONE */
	int routine;			/* the named candidate's id; -1: none */
	bool vec;			/* it pays the vector price */
	variant_set alike;		/* ids the run cannot tell from routine */
	variant_set safe;		/* ids that may cost in no pass */
	variant_set saves;		/* ids that surely save in some pass */
	unsigned int npass;
	const char *pass[BOTTOM_PASSES_MAX];
	unsigned int weight[BOTTOM_PASSES_MAX];		/* mix= */
	struct bottom_cell cell[BOTTOM_PASSES_MAX];	/* routine's, by pass */
	bool mixed;			/* mix= decided it: ratio is the weighed figure */
	struct interval mix;
	int unpriced;			/* id of a VEC candidate that saves before a price; -1 */
	unsigned int unpriced_pass;	/* where it saves most */
	uint64_t unpriced_ratio;
	/* Several runs combined (harness/decide/combine.h): how many; 0: one run's. */
	unsigned int runs;
	const char *differ;		/* where they disagree, what each said; or NULL */
};

/*
 * The bottom line of np passes of one question (at most
 * BOTTOM_PASSES_MAX): run's worth, not_a_cpu and tsc_khz, and mix= where
 * a pass has a weight.
 */
void bottom_decide(const struct answer_run *run, const struct bottom_pass *p,
		   unsigned int np, struct bottom *out);

/*
 * The question's passes of a run of the page suites: for pick of fn,
 * each pass of its op in order that judges it (answer_judged()), from
 * that pass's inputs; returns how many. cands: scratch, one per pass.
 */
struct answer_pass_in {
	enum op op;
	enum pass_id pass;
	size_t bytes;
	unsigned int n;
	struct answer_input in[VARIANTS_MAX];
};
unsigned int bottom_passes_of(const struct answer_run *run, const struct answer_pick *pick,
			      enum answer_fn fn, const struct answer_pass_in *pin,
			      unsigned int npin, struct answer_cands *cands,
			      struct bottom_pass *out);

/*
 * The lines of one bottom line (without the tag), each given to put():
 * "bottom ...", then a "bottom_pass ..." per pass, then "bottom_sets ..."
 * (docs/log-format.md, "The bottom line"); runs= and differ= last, where
 * b combines runs. name(id): a candidate's name.
 */
void bottom_lines(const struct answer_run *run, const struct answer_pick *pick,
		  const char *fn, const struct bottom *b, const char *(*name)(unsigned int id),
		  void (*put)(const char *line, void *ctx), void *ctx);

#endif
