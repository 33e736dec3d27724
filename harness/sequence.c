/* SPDX-License-Identifier: MIT */
/* One run, in the one order (harness/sequence.h). */
#include "harness/decide/answer_strings.h"
#include "harness/measure/host.h"
#include "harness/decide/questions.h"
#include "harness/sequence.h"
#include "harness/measure/suites/suite.h"
#include "harness/measure/vector_price.h"
#include "lib/run.h"

#ifndef PB_VERSION
#error "build with -DPB_VERSION=\"...\" (the Makefile and module/Kbuild pass git describe)"
#endif

bool run_describe(const struct run_host *h, void *ctx, struct run_state *r)
{
	run_step("describe");
	h->live_facts(ctx, r);
	describe_cpu(&r->d, PB_VERSION, &r->live);
	if (h->described(ctx, r))
		return true;
	r->outcome = RUN_NOT_STARTED;
	return false;
}

static void run_suites(void *arg)
{
	struct run_state *r = arg;

	suite_run(&r->plan, &r->d, &r->bufs, r->live.tsc_khz, &r->questions, &r->record);
}

/* The suites are over: what they recorded, pass by pass, to the decisions. */
static void decide(struct run_state *r)
{
	/* Off the stack: the module's kernel stack is 16 KiB. */
	static struct answer_input in[VARIANTS_MAX];
	const struct run_record *rec = &r->record;
	unsigned int k, i;

	for (k = 0; k < rec->n; k++) {
		const struct record_pass *p = &rec->pass[k];

		for (i = 0; i < p->nin; i++)
			in[i] = (struct answer_input){ p->in[i].v, p->in[i].failed, p->in[i].s };
		if (p->step[0])
			answers_scrub(&r->answers, p->step, p->bytes, in, p->nin);
		else
			answers_pass(&r->answers, p->op, p->id, p->bytes, in, p->nin);
	}
	if (rec->strings)
		answers_strings(&r->answers, &rec->strings_figs, rec->strings_quantum);
}

/*
 * The price is measured, and the picks made, once the run is sure to
 * measure something: a plan that measures nothing, or whose buffers the
 * host cannot have, spends no time on them.
 */
void run_sequence(const struct run_host *h, void *ctx, struct run_state *r)
{
	if (!run_describe(h, ctx, r))
		return;
	host_may_yield();
	run_step("plan");
	r->answer_run = answer_run_live(&r->d, &r->live, r->o);
	plan_build(&r->plan, r->o, &r->d, r->mem_bytes, r->answer_run.not_a_cpu);
	if (h->trim_plan)
		h->trim_plan(ctx, &r->plan);
	plan_print(&r->plan);
	/* A run that can measure none of what was asked must not look like one that did. */
	if (plan_measures_nothing(&r->plan, r->nothing, sizeof(r->nothing))) {
		out_line("note: nothing to measure: %s", r->nothing);
		r->outcome = RUN_NOTHING;
		return;
	}
	host_may_yield();
	run_step("buffers");
	if (!h->buffers(ctx, r)) {
		r->outcome = RUN_NO_BUFFERS;
		return;
	}
	host_may_yield();
	run_step("vector price");
	h->price(ctx, r, &r->answer_run.price);
	vector_price_print(&r->answer_run.price, r->live.tsc_khz);
	rule_facts_init(&r->facts, &r->d, r->live.fast_string);
	answers_begin(&r->answers, &r->facts, r->has_running ? &r->running : NULL,
		      &r->answer_run);
	race_questions_of(&r->questions, &r->d);
	record_begin(&r->record);
	if (h->before_suites)
		h->before_suites(ctx, r);
	r->outcome = RUN_MEASURED;
	if (!h->stoppable)
		run_suites(r);
	else if (!h->stoppable(ctx, run_suites, r)) {
		r->outcome = RUN_STOPPED;
		r->answers.on = false;	/* a run cut short answers nothing */
	}
	if (h->after_suites)
		h->after_suites(ctx, r);
	host_may_yield();
	run_step("answers");
	decide(r);
	answers_print(&r->answers);
}
