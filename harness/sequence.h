/* SPDX-License-Identifier: MIT */
/*
 * One run, in the one order every host runs it: the CPU described, the
 * plan, the buffers, the vector price, the rule facts, the kernel picks
 * and time='s questions, the suites, which record what they measured
 * (harness/measure/record.h), then the decisions on that record and their lines.
 * The kernel
 * (kernel/main.c), pagebench-linux (linux/main.c) and the module
 * (module/run_host.c) each call run_sequence() with what differs
 * between them, a struct run_host; what they do before it (parse the
 * options, open the log) and after it (the runtime, the screen, the exit)
 * stays theirs.
 */
#ifndef PB_SEQUENCE_H
#define PB_SEQUENCE_H

#include <stdbool.h>
#include <stdint.h>
#include "cpu/describe.h"
#include "harness/measure/buffers.h"
#include "harness/options/options.h"
#include "harness/decide/answers.h"
#include "harness/measure/plan.h"
#include "harness/decide/race.h"
#include "harness/measure/record.h"
#include "harness/decide/rules.h"
#include "lib/out.h"

/* How far a run came. */
enum run_outcome {
	RUN_MEASURED,		/* the suites ran to their end */
	RUN_NOT_STARTED,	/* the host stopped it after the description */
	RUN_NOTHING,		/* the plan measures nothing (why: nothing) */
	RUN_NO_BUFFERS,		/* the host could not have the plan's buffers */
	RUN_STOPPED,		/* the host stopped the suites (a signal, an unload) */
};

/* Everything a run holds; large, so each host keeps it static. */
struct run_state {
	const struct options *o;	/* the host's, parsed: set before the run */
	struct cpu_desc d;
	struct live_facts live;
	uint64_t mem_bytes;		/* the largest run of memory the buffers may take */
	struct rule_running running;	/* the running kernel's view, with has_running */
	bool has_running;
	struct answer_run answer_run;
	struct plan plan;
	char nothing[OUT_LINE_MAX];	/* RUN_NOTHING: which part and why */
	struct buffers bufs;
	struct rule_facts facts;
	struct race_questions questions;	/* time='s, from the rules */
	struct run_record record;	/* what the suites measured */
	struct answers answers;		/* the decisions on it */
	enum run_outcome outcome;
};

/*
 * What differs between the hosts, each called with ctx; the optional
 * ones may be NULL.
 */
struct run_host {
	/* This CPU's description (r->d) and its live facts (r->live), unprinted. */
	void (*live_facts)(void *ctx, struct run_state *r);
	/*
	 * After the description lines: the host's own lines, r->mem_bytes,
	 * and r->running where the host can read the running kernel's
	 * flags; false stops the run there (an option error).
	 */
	bool (*described)(void *ctx, struct run_state *r);
	/* Optional: what the plan holds that this host will not run, before its lines. */
	void (*trim_plan)(void *ctx, struct plan *p);
	/* The plan's buffers into r->bufs; false (the host has said why) stops the run. */
	bool (*buffers)(void *ctx, struct run_state *r);
	/* The vector price as this host's kernel would pay it (harness/measure/vector_price.h). */
	void (*price)(void *ctx, struct run_state *r, struct vector_price *p);
	/* Optional: right before the suites. */
	void (*before_suites)(void *ctx, struct run_state *r);
	/*
	 * Optional: calls suites(arg) where the host can stop it, false when
	 * it did (the host has said so); NULL: called as it is.
	 */
	bool (*stoppable)(void *ctx, void (*suites)(void *arg), void *arg);
	/* Optional: after the suites, before the answer lines. */
	void (*after_suites)(void *ctx, struct run_state *r);
};

/*
 * The description: h->live_facts, the description lines, h->described;
 * false where the host stopped there. run_sequence() begins with it; a
 * host that stops before its run (the module's option errors) may call
 * it alone.
 */
bool run_describe(const struct run_host *h, void *ctx, struct run_state *r);

/* The whole run, to its answer lines; r->outcome says how far it came. */
void run_sequence(const struct run_host *h, void *ctx, struct run_state *r);

#endif
