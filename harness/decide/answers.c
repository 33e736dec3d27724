/* SPDX-License-Identifier: MIT */
/* A run's decisions (harness/decide/answers.h). */
#include "harness/decide/answers.h"
#include "lib/fmt.h"
#include "lib/out.h"
#include "lib/str.h"

const char *answer_xfn_name(enum answer_xfn f)
{
	static const char *const names[ANSWER_XFNS] = {
		[ANSWER_MEMSET] = "memset", [ANSWER_MEMCPY] = "memcpy",
		[ANSWER_SCRUB] = "scrub",
	};

	return f < ANSWER_XFNS ? names[f] : "?";
}

/*
 * The picks of the entries that measured names, for both kernels: the
 * running one's first, then each era's, in version order; at most
 * ANSWER_PICKS_MAX into out, returns how many.
 */
static unsigned int picks_of(const char *measured, const struct rule_facts *f,
			     const struct rule_running *running, struct answer_pick *out)
{
	static struct rule_pick eras[ANSWER_PICKS_MAX];
	unsigned int k, e, i, n = 0;

	for (k = 0; k < RULE_KERNELS; k++) {
		const char *entries[RULE_ENTRIES_MAX];
		unsigned int ne = rule_entries(k, measured, entries, RULE_ENTRIES_MAX);
		struct rule_pick mine;

		for (e = 0; running && running->kernel == k && e < ne; e++)
			if (rule_pick_running(running, entries[e], f, &mine) &&
			    n < ANSWER_PICKS_MAX)
				answer_pick_of(&out[n++], &mine);
		for (e = 0; e < ne; e++) {
			unsigned int np = rule_picks(k, entries[e], f, eras,
						     ANSWER_PICKS_MAX);

			for (i = 0; i < np && n < ANSWER_PICKS_MAX; i++)
				answer_pick_of(&out[n++], &eras[i]);
		}
	}
	return n;
}

void answers_begin(struct answers *a, const struct rule_facts *f,
		   const struct rule_running *running, const struct answer_run *run)
{
	unsigned int fn;

	a->on = true;
	a->printed = false;
	a->run = *run;
	a->n = 0;
	a->nx = 0;
	a->npass = 0;
	a->ended = false;
	for (fn = 0; fn < ANSWER_FNS; fn++)
		a->npicks[fn] = picks_of(answer_fn_name(fn), f, running, a->pick[fn]);
	for (fn = 0; fn < ANSWER_XFNS; fn++)
		a->nxpicks[fn] = picks_of(answer_xfn_name(fn), f, running, a->xpick[fn]);
}

void answers_pass(struct answers *a, enum op op, enum pass_id pass, size_t bytes,
		  const struct answer_input *in, unsigned int n)
{
	unsigned int fn, i;

	if (!a->on)
		return;
	if (a->npass < ANSWER_PASSES_MAX && n <= VARIANTS_MAX) {
		struct answer_pass_in *k = &a->pass_in[a->npass++];

		*k = (struct answer_pass_in){ .op = op, .pass = pass, .bytes = bytes, .n = n };
		for (i = 0; i < n; i++)
			k->in[i] = in[i];
	}
	for (fn = 0; fn < ANSWER_FNS; fn++) {
		if (answer_fn_op(fn) != op)
			continue;
		for (i = 0; i < a->npicks[fn] && a->n < ANSWERS_MAX; i++)
			if (answer_decide(&a->run, &a->pick[fn][i], fn, pass, bytes,
					  in, n, &a->rec[a->n])) {
				a->rec[a->n].pick = i;
				a->n++;
			}
	}
}

const char *answer_variant_name(unsigned int id)
{
	return id < variant_count ? variants[id].name : "?";
}

void answers_end(struct answers *a)
{
	/* Off the stack: a pass's candidates each, and the bottom line's passes. */
	static struct answer_cands cands[BOTTOM_PASSES_MAX];
	static struct bottom_pass bp[BOTTOM_PASSES_MAX];
	unsigned int fn, i, n;

	if (!a->on || a->ended)
		return;
	a->ended = true;
	for (fn = 0; fn < ANSWER_FNS; fn++)
		for (i = 0; i < a->npicks[fn]; i++) {
			n = bottom_passes_of(&a->run, &a->pick[fn][i], fn, a->pass_in, a->npass,
					     cands, bp);
			bottom_decide(&a->run, bp, n, &a->bottom[fn][i]);
			if (a->pick[fn][i].why != WHY_NONE) {
				a->bottom[fn][i].action = BOTTOM_NONE;
				a->bottom[fn][i].why = a->pick[fn][i].why;
			}
		}
}

static void put_line(const char *line, void *ctx)
{
	(void)ctx;
	out_line("%s", line);
}

/* Whether fn has a decision in some pass: a function the run measured. */
static bool fn_answered(const struct answers *a, enum answer_fn fn)
{
	unsigned int i;

	for (i = 0; i < a->n; i++)
		if (a->rec[i].fn == fn)
			return true;
	return false;
}

void answers_print(struct answers *a)
{
	char line[OUT_LINE_MAX];
	unsigned int fn, i;

	if (!a->on || a->printed)
		return;
	answers_end(a);
	a->printed = true;
	for (fn = 0; fn < ANSWER_FNS; fn++)
		for (i = 0; i < a->n; i++)
			if (a->rec[i].fn == fn) {
				answer_text(line, sizeof(line), &a->run,
					    &a->pick[fn][a->rec[i].pick], &a->rec[i]);
				out_line("%s", line);
			}
	for (fn = 0; fn < ANSWER_XFNS; fn++)
		for (i = 0; i < a->nx; i++)
			if (a->xrec[i].fn == fn) {
				const struct answer_x *x = &a->xrec[i];
				struct answer_head h = { answer_xfn_name(fn), x->pass, x->sized,
							 x->lo, x->hi, x->routine, x->vec, x->alike,
							 x->unpriced };

				answer_line(line, sizeof(line), &a->run,
					    &a->xpick[fn][x->pick], &h, &x->a);
				out_line("%s", line);
			}
	/* A pick no pass of the run judges (a cold entry in a run of hot passes) has none. */
	for (fn = 0; fn < ANSWER_FNS; fn++)
		for (i = 0; fn_answered(a, fn) && i < a->npicks[fn]; i++)
			if (a->bottom[fn][i].npass || a->pick[fn][i].why != WHY_NONE)
				bottom_lines(&a->run, &a->pick[fn][i], answer_fn_name(fn),
					     &a->bottom[fn][i], answer_variant_name, put_line,
					     NULL);
}

void answer_print_kernel_flags(const char *from, const struct rule_running *r)
{
	char list[OUT_LINE_MAX / 2], hidden[OUT_LINE_MAX / 4];
	size_t at = 0, h = 0;
	unsigned int i;

	list[0] = hidden[0] = '\0';
	for (i = 0; i < r->nflags && at < sizeof(list); i++)
		at += fmt_snprintf(list + at, sizeof(list) - at, " %s=%d",
				   r->flag[i].flag, r->flag[i].value);
	/* Read from /proc/cpuinfo, the flags it never shows are the rules': say which. */
	for (i = 0; i < r->nnot_shown; i++)
		h += fmt_snprintf(hidden + h, h < sizeof(hidden) ? sizeof(hidden) - h : 0,
				  "%s%s", h ? "," : " not_shown=", r->not_shown[i]);
	out_line("linux kernel_flags from=%s%s%s", from, list, hidden);
}
