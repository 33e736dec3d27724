/* SPDX-License-Identifier: MIT */
/*
 * A run's decisions (docs/log-format.md, "The answer", "The bottom
 * line"): the picks of every function on this CPU, each pass's decision
 * for each pick (harness/decide/answer.h), made as the pass ends, and once every
 * pass has ended, the bottom line of each pick over all its passes
 * (harness/decide/bottom.h). The kernel, pagebench-linux, the module and
 * pagebench-decide each keep one.
 */
#ifndef PB_ANSWERS_H
#define PB_ANSWERS_H

#include <stdbool.h>
#include <stddef.h>
#include "harness/decide/answer.h"
#include "harness/decide/bottom.h"
#include "harness/decide/rules.h"

/* Picks of one function: both kernels, every entry and era, and the running kernel. */
#define ANSWER_PICKS_MAX	16
#define ANSWERS_MAX		(ANSWER_FNS * PASS_COUNT * ANSWER_PICKS_MAX)

/*
 * The other questions (harness/decide/answer_strings.h): memset and memcpy by
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
	const char *unpriced;		/* a VEC routine quicker before its price (a.unpriced_ratio) */
	unsigned int pick;		/* in its function's xpick[] */
	struct answer a;		/* the decision; its fn, pass and routine unused */
};
#define ANSWERS_X_MAX	256

/* The inputs of every pass of the page suites, kept for the bottom lines. */
#define ANSWER_PASSES_MAX	(OP_COUNT * PASS_COUNT)

/* A run's decisions, made as its passes end, printed at its end. */
struct answers {
	bool on;			/* answers_begin() was called */
	bool printed;
	struct answer_run run;
	unsigned int npicks[ANSWER_FNS];
	struct answer_pick pick[ANSWER_FNS][ANSWER_PICKS_MAX];
	unsigned int n;
	struct answer rec[ANSWERS_MAX];
	unsigned int npass;
	struct answer_pass_in pass_in[ANSWER_PASSES_MAX];
	/* The bottom line of each function's picks (answers_end()). */
	bool ended;
	struct bottom bottom[ANSWER_FNS][ANSWER_PICKS_MAX];
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

/*
 * A pass has ended: its decisions, for every function of op; its inputs
 * are kept (their series must outlive the run's end) for the bottom line.
 */
void answers_pass(struct answers *a, enum op op, enum pass_id pass, size_t bytes,
		  const struct answer_input *in, unsigned int n);

/* Every pass has ended: the bottom line of each function's picks; once. */
void answers_end(struct answers *a);

/*
 * The answer lines, by function, pass and pick (the pages', then the
 * others'), then the bottom lines, by function and pick; once.
 */
void answers_print(struct answers *a);

/* A variant's name by its index in the clear and copy table, for bottom_lines(). */
const char *answer_variant_name(unsigned int id);

/*
 * The running kernel's flags as the "linux kernel_flags from=FROM ..."
 * line says them, one grammar for every host: pagebench-linux's from its
 * cpuinfo file, the module's from=boot_cpu_has.
 */
void answer_print_kernel_flags(const char *from, const struct rule_running *r);

#endif
