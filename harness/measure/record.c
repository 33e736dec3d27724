/* SPDX-License-Identifier: MIT */
/* What a run measured, kept for after it (harness/measure/record.h). */
#include "harness/measure/record.h"
#include "lib/fmt.h"

void record_begin(struct run_record *r)
{
	r->n = 0;
	r->strings = false;
	r->strings_quantum = 0;
	strings_figures_begin(&r->strings_figs);
	r->nseries = 0;
}

static struct record_pass *add(struct run_record *r, size_t bytes)
{
	struct record_pass *p;

	if (!r || r->n == RECORD_PASSES_MAX)
		return NULL;
	p = &r->pass[r->n++];
	p->op = OP_CLEAR;
	p->id = 0;
	p->step[0] = p->title[0] = '\0';
	p->bytes = bytes;
	p->nin = p->nfig = 0;
	return p;
}

struct record_pass *record_add_pass(struct run_record *r, enum op op, enum pass_id id,
				    size_t bytes)
{
	struct record_pass *p = add(r, bytes);

	if (p) {
		p->op = op;
		p->id = id;
	}
	return p;
}

struct record_pass *record_add_step(struct run_record *r, const char *step,
				    const char *title, size_t bytes)
{
	struct record_pass *p = add(r, bytes);

	if (p) {
		fmt_snprintf(p->step, sizeof(p->step), "%s", step);
		fmt_snprintf(p->title, sizeof(p->title), "%s", title);
	}
	return p;
}

void record_add_input(struct record_pass *p, const struct variant *v, bool failed,
		      struct epoch_series s)
{
	if (p && p->nin < VARIANTS_MAX)
		p->in[p->nin++] = (struct record_input){ v, failed, s };
}

static void figure(struct record_pass *p, const struct record_figure *f)
{
	if (p && p->nfig < VARIANTS_MAX && f->median2)
		p->fig[p->nfig++] = *f;
}

void record_add_figure(struct record_pass *p, const char *variant, uint64_t median2)
{
	figure(p, &(struct record_figure){ variant, median2, 0, 0, false });
}

void record_add_interval(struct record_pass *p, const char *variant, uint64_t median2,
			 uint64_t lo2, uint64_t hi2)
{
	figure(p, &(struct record_figure){ variant, median2, lo2, hi2, true });
}

const uint64_t *record_keep_series(struct run_record *r, const uint64_t *med,
				   unsigned int n)
{
	uint64_t *kept;
	unsigned int i;

	if (!r || r->nseries == RECORD_SERIES_MAX || n > INTERVAL_EPOCHS_MAX)
		return NULL;
	kept = r->series[r->nseries++];
	for (i = 0; i < n; i++)
		kept[i] = med[i];
	return kept;
}
