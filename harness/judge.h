/* SPDX-License-Identifier: MIT */
/*
 * The verdict's decisions and judged picks, and the arithmetic that makes
 * them (harness/judge.c): verdict.py's pass_candidates(), judge() and
 * decision_picks() for the page functions, and paired.py's view of each
 * decision (paired against the reference), in floating point, built with
 * SSE in the kernel. harness/verdict.c hands it the passes and calls it
 * only when the host attached it and the verdict is made (verdict_off()).
 */
#ifndef PB_JUDGE_H
#define PB_JUDGE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "harness/decide.h"
#include "harness/passes.h"
#include "harness/rules.h"
#include "lib/fmt.h"
#include "variants/variants.h"

enum verdict_fn { VERDICT_CLEAR_PAGE, VERDICT_CLEAR_PAGES, VERDICT_COPY_PAGE,
		  VERDICT_FNS };

/* "clear_page", ...: inline, so that this header's users need no object. */
static inline const char *verdict_fn_name(enum verdict_fn f)
{
	static const char *const names[VERDICT_FNS] = {
		[VERDICT_CLEAR_PAGE] = "clear_page",
		[VERDICT_CLEAR_PAGES] = "clear_pages",
		[VERDICT_COPY_PAGE] = "copy_page",
	};

	return f < VERDICT_FNS ? names[f] : "?";
}

/*
 * A (pass, variant) figure over epochs, as its stat line prints it
 * (docs/log-format.md, "stat"): hundredths of a tick per call, the figure
 * of n samples (of a value line each; copy-hot/copy-cold: Ma Ling's
 * copies) in epochs epochs, batch calls a sample; lo and hi only with
 * has_interval. The report's resolution of it is step / batch.
 */
struct verdict_figure {
	unsigned int n, epochs, batch;
	uint64_t median, lo, hi;
	bool has_interval;
	uint64_t step;		/* the timer's, in ticks; 0: unknown */
};

/*
 * A ratio line's figures, as it prints them (docs/log-format.md, "Ratio
 * lines"): the variant's time over the reference's, in VERDICT_RATIO_ONE
 * parts of 1; lo and hi only with has_interval.
 */
#define VERDICT_RATIO_ONE	10000u	/* its four decimals */
struct verdict_ratio {
	uint64_t median, lo, hi;
	bool has_interval;
};

/*
 * One of them as the line prints it, four decimals: "0.3744"; inline, as
 * the ratio lines (harness/suites/figures.c) and the paired lines print it.
 */
static inline void verdict_ratio_text(char *buf, size_t len, uint64_t parts)
{
	fmt_snprintf(buf, len, "%lu.%04lu", (unsigned long)(parts / VERDICT_RATIO_ONE),
		     (unsigned long)(parts % VERDICT_RATIO_ONE));
}

enum pick_status {
	PICK_MEASURED, PICK_NOT_MEASURED, PICK_NEEDS_VARIANT, PICK_UNKNOWN,
};

/*
 * One kernel era's pick judged in one decision, as text and integers (the
 * screen is built without floating point).
 */
#define VERDICT_REC_LEN	200
struct verdict_pick {
	enum rule_kernel kernel;
	char version[32];
	const char *entry;
	char assuming[RULE_NEED_LEN];	/* "fast_string=1", or "" */
	enum pick_status status;
	const char *variant;		/* measured and not-measured picks */
	bool has_cost;			/* slower, or not separated: its cost */
	int32_t cost_tenths;		/* the cost in 0.1 %, as the line shows it */
	bool undecided;			/* not separated, or no test */
	char rec[VERDICT_REC_LEN];	/* "keep", "switch to X (saves N%)", ... */
};

/* Today's tables give at most 11 (clear_page, on Intel with fast_string unknown). */
#define VERDICT_PICKS_MAX	24

/*
 * One way of weighing a decision's candidates: each one's figure, the
 * decision over them (harness/decide.h) and the picks judged against its
 * winner.
 */
struct verdict_view {
	unsigned int ncand;
	struct verdict_cand {
		const struct variant *v;
		unsigned int n;		/* its samples; paired: the epochs */
		double median;		/* ticks; paired: the ratio */
	} cand[VARIANTS_MAX];
	struct decision d;
	unsigned int npicks;
	struct verdict_pick pick[VERDICT_PICKS_MAX];
};

/*
 * One function's decision in one pass, weighed twice: by the times (the
 * verdict line) and paired against the reference (scripts/pbreport/
 * paired.py; the paired lines), where the pass has ratio lines and its
 * reference is a candidate; ref NULL: no paired view.
 */
struct verdict_decision {
	enum verdict_fn fn;
	enum op op;
	enum pass_id pass;
	struct verdict_view times;
	const struct variant *ref;
	struct verdict_ratio paired_winner;	/* the paired winner's ratio line */
	struct verdict_view paired;
};

#define VERDICT_DECISIONS_MAX	(2 * OP_COUNT * PASS_COUNT)
struct verdict {
	/* The pass being handed over. */
	bool open;
	enum op op;
	enum pass_id pass;
	unsigned int npending;
	struct verdict_pending {
		const struct variant *v;
		uint64_t *t;		/* n samples, or NULL: aggregated */
		unsigned int n;
		uint64_t median;	/* aggregated: the median as printed */
		bool failed;		/* a verify FAILED or fault line in this pass */
		bool has_figure;	/* from epochs: fig, not t or median */
		struct verdict_figure fig;
		bool has_ratio;		/* its ratio line's figures: ratio */
		struct verdict_ratio ratio;
	} pending[VARIANTS_MAX];
	const struct variant *ratio_ref;	/* its ratio lines' reference, or NULL */
	unsigned int ndecisions;
	struct verdict_decision decision[VERDICT_DECISIONS_MAX];
	bool reported;
	const char *off;	/* why no verdict is made, or NULL */
	/* The arithmetic, where the host attached it (judge_attach()). */
	void (*decide)(struct verdict *vd, enum verdict_fn fn);
	void (*print)(struct verdict_decision *dec, const struct rule_pick *picks,
		      unsigned int npicks);
};

/*
 * The verdict is made in this run: harness/verdict.c calls the functions
 * below through vd. A host that runs no verdict (the Linux module, whose
 * kernel gives it no floating point) does not attach them, nor link them.
 */
void judge_attach(struct verdict *vd);

/* Decides the pass being handed over for one function, as the report does. */
void judge_decide(struct verdict *vd, enum verdict_fn fn);

/*
 * Judges the function's picks in one decision and prints its lines: the
 * times' verdict and pick lines, then the paired ones, if it has that view.
 */
void judge_print(struct verdict_decision *dec, const struct rule_pick *picks,
		 unsigned int npicks);

#endif
