/* SPDX-License-Identifier: MIT */
/*
 * The answer: the one decision of a run (docs/log-format.md, "The
 * answer"). For each function (clear_page, clear_pages, copy_page), each
 * pass that measures it and each kernel pick (an era of rules/, or the
 * running kernel): keep what the kernel runs, or switch to which routine,
 * saving how much. Each candidate's time over the pick's, epoch by epoch
 * (interval_of_ratio(), harness/interval.h), with its 95% interval,
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
#include "harness/interval.h"
#include "variants/passes.h"
#include "harness/rules.h"
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

/*
 * What a kernel pays to use vector registers, where the host measured it
 * (the module's "linux-module fpu" lines; docs/method.md, "Vector
 * variants"). A routine of the tables' regs column VEC is entered between
 * kernel_fpu_begin() and kernel_fpu_end(): from a user task (a page
 * fault), begin saves the task's registers and the return to user space
 * loads them again. The module's figures of a VEC routine already hold its
 * kthread's cheaper pair, once per window (host_vector_begin() around each
 * call of a window, harness/bench.c): what the answer adds to one call of
 * the pass is entry_centi for each entry a kernel makes
 * (variant_calls()), less held_centi for each window the figure holds.
 */
struct answer_fpu {
	bool measured;			/* false: the host cannot time it (fpu=?) */
	uint64_t entry_centi;		/* a task's begin + end + restore, 1/100 tick */
	uint64_t held_centi;		/* the run's own pair, in the figure, 1/100 tick */
	size_t window_bytes;		/* the host's window (host_caps()); 0: none */
};

/* What the whole run says, for every decision. */
struct answer_run {
	unsigned int worth_bp;		/* worth=, hundredths of a per cent */
	bool not_a_cpu;			/* the hot load line's runs_on: tcg or emulator */
	uint64_t tsc_khz;		/* 0: unknown, no ns */
	struct answer_fpu fpu;		/* not measured unless the host sets it */
};

/*
 * What the answer adds to one call of bytes of v for kernel_fpu_begin/end,
 * hundredths of a tick: 0 for a GPR routine, or where not measured.
 */
uint64_t answer_fpu_centi(const struct answer_fpu *fpu, const struct variant *v,
			  size_t bytes);

/* The run's side, from the host's live facts: worth=, runs_on and the TSC rate. */
struct answer_run answer_run_live(const struct cpu_desc *d,
				  const struct live_facts *live, unsigned int worth_bp);

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
	uint64_t pick_ns10, routine_ns10;	/* with what fpu_ns10 adds */
	bool has_fpu;			/* the routine is VEC and fpu_ns10 is in routine_ns10 */
	uint64_t fpu_ns10;		/* its kernel_fpu_begin/end, tenths of a ns a page */
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
 * cand: in the order of preference (prefer_rank(), harness/prefer.h): a
 * switch names the first of those that save worth that no other of them
 * beats by worth, and alike the lowest median where that is another.
 * add: per candidate, added to each of its epochs (its FPU cost); NULL: nothing.
 */
void answer_weigh(const struct answer_run *run, const struct epoch_series *pick,
		  const struct epoch_series *const *cand, const uint64_t *add,
		  unsigned int n, struct answer_weighed *w);
/* The weighing's part of a decision: action, why, ratio, epochs, need. */
void answer_take(struct answer *out, const struct answer_weighed *w);

/* Tenths of a ns per call over per (pages a call, or 1), from hundredths of a tick per call. */
uint64_t answer_ns10(uint64_t centi, uint64_t tsc_khz, uint64_t per);

/* A routine a kernel could call for fn as it is, measured in the pass: op, shape, stores done at return, not failed. */
bool answer_candidate(const struct answer_input *c, enum answer_fn fn);

/*
 * The decision for one pick of fn in one pass of bytes a call, from the
 * pass's n variants: its candidates (fn's op and shape, stores done at
 * return, no failure, not the pick itself) over the pick, epoch by epoch,
 * each VEC routine's time with answer_fpu_centi() added to every epoch:
 * switch where some candidate's interval lies wholly below 1 - worth (of
 * them the first in the order of preference no other beats by worth,
 * harness/prefer.h), keep where none reaches below it (the nearest
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
	bool vec;			/* routine needs vector registers: fpu= follows the ns */
	const char *alike;		/* the quickest within noise of routine, or NULL */
};
void answer_line(char *buf, size_t len, const struct answer_run *run,
		 const struct answer_pick *pick, const struct answer_head *h,
		 const struct answer *a);

/* Picks of one function: both kernels, every entry and era, and the running kernel. */
#define ANSWER_PICKS_MAX	16
#define ANSWERS_MAX		(ANSWER_FNS * PASS_COUNT * ANSWER_PICKS_MAX)

/*
 * The other questions (harness/answer_strings.h): memset and memcpy by
 * mode and size class (suite=strings), scrubbing by CPUs (suite=scrub).
 */
enum answer_xfn { ANSWER_MEMSET, ANSWER_MEMCPY, ANSWER_SCRUB, ANSWER_XFNS };
const char *answer_xfn_name(enum answer_xfn f);	/* "memset", ... */

struct answer_x {
	enum answer_xfn fn;
	char pass[16];			/* the mode ("tput"), or the scrub step ("cpus2") */
	bool sized;			/* memset, memcpy: sizes=lo-hi */
	unsigned int lo, hi;
	const char *routine;		/* NULL: "-" */
	bool vec;			/* routine needs vector registers (regs VEC) */
	const char *alike;		/* switch: the quickest within noise of routine, or NULL */
	unsigned int pick;		/* in its function's xpick[] */
	struct answer a;		/* the decision; its fn, pass and routine unused */
};
#define ANSWERS_X_MAX	256

/* A run's decisions, made as its passes end, printed at its end. */
struct answers {
	bool on;			/* answers_begin() was called */
	bool printed;
	struct answer_run run;
	unsigned int npicks[ANSWER_FNS];
	struct answer_pick pick[ANSWER_FNS][ANSWER_PICKS_MAX];
	unsigned int n;
	struct answer rec[ANSWERS_MAX];
	unsigned int nxpicks[ANSWER_XFNS];
	struct answer_pick xpick[ANSWER_XFNS][ANSWER_PICKS_MAX];
	unsigned int nx;
	struct answer_x xrec[ANSWERS_X_MAX];
};

/*
 * The picks of every function on these facts: for each kernel, the
 * running one's first (running may be NULL: the host cannot read it),
 * then each era's, in version order.
 */
void answers_begin(struct answers *a, const struct rule_facts *f,
		   const struct rule_running *running, const struct answer_run *run);

/* A pass has ended: its decisions, for every function of op. */
void answers_pass(struct answers *a, enum op op, enum pass_id pass, size_t bytes,
		  const struct answer_input *in, unsigned int n);

/* The answer lines, by function, pass and pick (the pages', then the others'); once. */
void answers_print(struct answers *a);

/*
 * The running kernel's flags as the "linux kernel_flags from=FROM ..."
 * line says them, one grammar for every host: pagebench-linux's from its
 * cpuinfo file, the module's from=boot_cpu_has.
 */
void answer_print_kernel_flags(const char *from, const struct rule_running *r);

#endif
