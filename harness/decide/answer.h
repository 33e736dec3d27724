/* SPDX-License-Identifier: MIT */
/*
 * The answer: the one decision of a run (docs/log-format.md, "The
 * answer"). For each function (clear_page, clear_pages, copy_page), each
 * pass that measures it and each kernel pick (an era of rules/, or the
 * running kernel): keep what the kernel runs, or switch to which routine,
 * saving how much. Each candidate's time over the pick's, epoch by epoch
 * (interval_of_ratio(), harness/stats/interval.h), with its 95% interval,
 * against the least saving worth acting on (worth=). Integers only, so
 * that every host runs it: the kernel, pagebench-linux, the module. The
 * answer lines are its only output; pagebench-report reads them.
 */
#ifndef PB_ANSWER_H
#define PB_ANSWER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "cpu/describe.h"
#include "harness/stats/interval.h"
#include "harness/options/options.h"
#include "harness/measure/vector_price.h"
#include "variants/passes.h"
#include "harness/decide/rules.h"
#include "variants/variants.h"

enum answer_fn { ANSWER_CLEAR_PAGE, ANSWER_CLEAR_PAGES, ANSWER_COPY_PAGE,
		 ANSWER_FNS };

const char *answer_fn_name(enum answer_fn f);	/* "clear_page", ... */
enum op answer_fn_op(enum answer_fn f);
/* The shape a kernel calls it in: a page at a time, or a range. */
enum variant_shape answer_fn_shape(enum answer_fn f);

enum answer_action { ANSWER_KEEP, ANSWER_SWITCH, ANSWER_UNDECIDED, ANSWER_NONE };
const char *answer_action_name(enum answer_action a);	/* "keep", ... */

/* Why an answer is none: no recommendation. */
enum answer_why {
	WHY_NONE,
	WHY_NOT_A_CPU,		/* runs_on tcg or emulator: figures, never advice */
	WHY_PICK_NOT_MEASURED,	/* the pick's variant did not run, or failed */
	WHY_NO_PICK_VARIANT,	/* no variant runs the pick's routine */
	WHY_UNKNOWN_PICK,	/* the rules need a fact the run lacks */
	WHY_NO_INTERVAL,	/* fewer than INTERVAL_EPOCHS_MIN epochs */
	WHY_COUNT
};
const char *answer_why_name(enum answer_why w);	/* "not-a-cpu", ... */

/* One kernel pick on this CPU, as the rules make it. */
struct answer_pick {
	enum rule_kernel kernel;
	char versions[64];		/* the era's text, or "running 6.18.44" */
	const char *entry;		/* the kernel's function: "clear_page_cold" */
	const char *routine;		/* what it runs: "clear_page_erms"; NULL: unknown */
	const char *when;		/* the rule's condition that selects it: "ERMS", "*" */
	char assuming[RULE_NEED_LEN];	/* "fast_string=1", or "" */
	const char *variant;		/* the variant that runs it; NULL: why says */
	enum answer_why why;		/* WHY_NONE, NO_PICK_VARIANT or UNKNOWN_PICK */
};

/*
 * A pick from the rules: the fast_string=1 alternative where only that
 * MSR bit is unknown (the default; assuming says so), else as it is.
 */
void answer_pick_of(struct answer_pick *out, const struct rule_pick *p);

/* Whether a pick's entry is judged in pass: _hot ones in hot passes only, _cold ones in cold. */
bool answer_judged(const char *entry, enum pass_id pass);

/* One variant that ran in a pass, as the engine reads it. */
struct answer_input {
	const struct variant *v;
	bool failed;			/* a verify FAILED or fault line in the pass */
	struct epoch_series s;		/* s.epochs 0: no epochs (suite=xen) */
};

/* What the whole run says, for every decision. */
struct answer_run {
	unsigned int worth_bp;		/* worth=, hundredths of a per cent */
	bool not_a_cpu;			/* the hot load line's runs_on: tcg or emulator */
	uint64_t tsc_khz;		/* 0: unknown, no ns */
	/*
	 * What a kernel pays per entry to use vector registers
	 * (harness/measure/vector_price.h). Not measured (a log from before it
	 * was): no VEC routine is named; the one that would save most is
	 * shown beside the answer, before that price (unpriced=).
	 */
	struct vector_price price;
	/* mix=: each pass's weight in the bottom line's one figure; all 0: none. */
	unsigned int mix[PASS_COUNT];
};

/*
 * What the answer adds to one call of bytes of v: the vector price for
 * each entry a kernel makes (variant_calls()), less what the figure
 * already holds (the module's own pair, once per window), in hundredths
 * of a tick; below and above: how far the price's interval reaches
 * either side of it. All 0 for a GPR routine or an unmeasured price.
 */
struct answer_price {
	uint64_t centi, below, above;
};
struct answer_price answer_price_of(const struct vector_price *p, const struct variant *v,
				    size_t bytes);
/* The price of calls entries, for a figure that sums them (suite=strings' size classes). */
struct answer_price answer_price_calls(const struct vector_price *p, uint64_t calls);

/* The run's side, from the host's live facts and options: worth=, mix=, runs_on and the TSC rate. */
struct answer_run answer_run_live(const struct cpu_desc *d,
				  const struct live_facts *live, const struct options *o);

/*
 * Whether the decision's ratio moved during the run by more than its
 * noise and by at least worth: the medians of its first and of its last
 * half of epochs (from DRIFT_EPOCHS_MIN epochs, each half an odd count)
 * further apart than their intervals allow a steady ratio (answer.c), and
 * by worth of the ratio. A pass's epochs spread over the whole run, so a
 * ratio that the machine's state sets (a busy sibling slows loops more
 * than REP MOVS) moves when that state changes, and a rerun may find
 * either (docs/method.md, "Drift").
 */
#define DRIFT_EPOCHS_MIN	10
struct answer_drift {
	bool moved;
	uint64_t first, last;		/* the halves' medians, millionths */
};
void answer_drift_of(const struct epoch_series *num, const struct epoch_series *den,
		     unsigned int worth_bp, struct answer_drift *d);

/* One decision. */
struct answer {
	enum answer_fn fn;
	enum pass_id pass;
	unsigned int pick;		/* in its function's picks */
	enum answer_action action;
	enum answer_why why;		/* with ANSWER_NONE */
	const struct variant *routine;	/* NULL: none ("-") */
	const struct variant *alike;	/* switch: the quickest, within noise of routine; or NULL */
	bool has_ratio;			/* routine's time over the pick's, with its interval */
	struct interval ratio;		/* millionths (RATIO_ONE) */
	unsigned int epochs;
	bool has_ns;			/* tenths of a ns per 4 KiB page, each */
	uint64_t pick_ns10, routine_ns10;	/* with what price_ns10 adds */
	bool has_price;			/* the routine is VEC and price_ns10 is in routine_ns10 */
	uint64_t price_ns10;		/* its vector price, tenths of a ns a page */
	/*
	 * No price measured: the VEC candidate of the lowest median, where
	 * it is below routine's, and its ratio before that price; or NULL.
	 */
	const struct variant *unpriced;
	uint64_t unpriced_ratio;
	unsigned int need_epochs;	/* undecided: the epochs that would decide */
	struct answer_drift drift;
};

/*
 * The rule itself, whatever the question: each candidate's series over
 * the pick's (interval_of_ratio()), switch, keep, undecided or none
 * (pick NULL: not measured; fewer than INTERVAL_EPOCHS_MIN epochs, or
 * candidates none of which gives a ratio: no interval; not a CPU),
 * against the least saving worth acting on.
 * named: the index in cand of the routine the answer names, or -1.
 */
struct answer_weighed {
	enum answer_action action;
	enum answer_why why;
	int named;
	int alike;			/* switch: the lowest median, where named is not it; or -1 */
	bool has_ratio;
	struct interval ratio;
	unsigned int epochs;		/* the pick's */
	unsigned int need_epochs;
	struct answer_drift drift;	/* of named's ratio */
};
/*
 * cand: in the order of preference (prefer_rank(), harness/decide/prefer.h): a
 * switch names the first of those that save worth that no other of them
 * beats by worth, and alike the lowest median where that is another.
 * add: per candidate, its vector price, added to each of its epochs and
 * widening its interval by the price's own; NULL: nothing.
 */
void answer_weigh(const struct answer_run *run, const struct epoch_series *pick,
		  const struct epoch_series *const *cand, const struct answer_price *add,
		  unsigned int n, struct answer_weighed *w);

/*
 * cand's time with its price over den's (den: a pick, with its own price
 * added already), epoch by epoch, its interval widened by the price's
 * reach: what every decision compares. False as interval_of_ratio().
 */
bool answer_ratio(const struct epoch_series *cand, const struct answer_price *add,
		  const struct epoch_series *den, struct interval *iv);
/*
 * Two candidates against each other, a's time over b's, each with its
 * price's median; the interval not widened: both pay alike.
 */
bool answer_versus(const struct epoch_series *a, const struct answer_price *pa,
		   const struct epoch_series *b, const struct answer_price *pb,
		   struct interval *iv);
/*
 * The epochs at which iv's half-width, shrinking as one over the root of
 * the epochs, would no longer reach across threshold: (half / distance)^2
 * x epochs, at least one more than ran, at most NEED_EPOCHS_MAX.
 */
unsigned int answer_need_epochs(const struct interval *iv, uint64_t threshold,
				unsigned int epochs);
/* The weighing's part of a decision: action, why, ratio, epochs, need. */
void answer_take(struct answer *out, const struct answer_weighed *w);

/* Tenths of a ns per call over per (pages a call, or 1), from hundredths of a tick per call. */
uint64_t answer_ns10(uint64_t centi, uint64_t tsc_khz, uint64_t per);

/* A routine a kernel could call for fn as it is, measured in the pass: op, shape, stores done at return, not failed. */
bool answer_candidate(const struct answer_input *c, enum answer_fn fn);

/*
 * The pick and the candidates of fn in one pass's n inputs, as every
 * decision weighs them: the pick's input (NULL: it did not run, or
 * failed) and its series with its own price (ps); the candidates
 * (answer_candidate()) in the order of preference, each with its price
 * for a call of bytes; the VEC ones left out where no price was measured.
 */
struct answer_cands {
	const struct answer_input *pick;
	const struct epoch_series *ps;
	unsigned int n, nunpriced;
	const struct answer_input *cand[VARIANTS_MAX];
	const struct epoch_series *s[VARIANTS_MAX];	/* cand[i]'s series */
	struct answer_price add[VARIANTS_MAX];
	const struct answer_input *unpriced[VARIANTS_MAX];
	uint64_t pick_buf[INTERVAL_EPOCHS_MAX];		/* what ps points into */
	struct epoch_series pick_with;
};
void answer_cands_of(struct answer_cands *c, const struct answer_run *run,
		     const char *pick, enum answer_fn fn, size_t bytes,
		     const struct answer_input *in, unsigned int n);

/*
 * The decision for one pick of fn in one pass of bytes a call, from the
 * pass's n variants: its candidates (fn's op and shape, stores done at
 * return, no failure, not the pick itself) over the pick, epoch by epoch,
 * each VEC routine's time with answer_price_of() added to every epoch
 * (and its interval widened by the price's), none where it is not measured:
 * switch where some candidate's interval lies wholly below 1 - worth (of
 * them the first in the order of preference no other beats by worth,
 * harness/decide/prefer.h), keep where none reaches below it (the nearest
 * challenger named), undecided otherwise (of the candidates whose lo is
 * below 1 - worth, the lowest median, and the epochs projected to decide); none where no advice can be
 * given, and why. False where the pick's entry is not judged in the pass.
 */
bool answer_decide(const struct answer_run *run, const struct answer_pick *pick,
		   enum answer_fn fn, enum pass_id pass, size_t bytes,
		   const struct answer_input *in, unsigned int n, struct answer *out);

/* The answer line of a decision into buf (without the tag). */
void answer_text(char *buf, size_t len, const struct answer_run *run,
		 const struct answer_pick *pick, const struct answer *a);

/* What a line names beside the decision: any question's (answer_text() fills it for the pages'). */
struct answer_head {
	const char *fn;			/* "clear_page", "memset", "scrub" */
	const char *pass;		/* "l1f", "tput", "cpus2" */
	bool sized;			/* sizes=LO-HI follows pass= */
	unsigned int sizes_lo, sizes_hi;
	const char *routine;		/* NULL: "-" */
	bool vec;			/* routine needs vector registers: price= follows the ns */
	const char *alike;		/* the quickest within noise of routine, or NULL */
	const char *unpriced;		/* a VEC routine quicker before its price, or NULL */
};
void answer_line(char *buf, size_t len, const struct answer_run *run,
		 const struct answer_pick *pick, const struct answer_head *h,
		 const struct answer *a);

#endif
