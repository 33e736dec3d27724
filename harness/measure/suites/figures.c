/* SPDX-License-Identifier: MIT */
#include "harness/options/options.h"
#include "harness/measure/suites/figures.h"
#include "lib/fmt.h"
#include "lib/out.h"

#define FIGURE_MAX	24	/* "18446744073709551615.99" and a NUL */

/* A variant's figures in one pass. */
struct variant_figures {
	unsigned int batch;
	unsigned int epochs;			/* its epochs (time=: it may stop early) */
	unsigned int n;				/* samples over the epochs */
	unsigned int in_epoch;			/* of them in the current epoch */
	uint64_t epoch[FIGURES_EPOCH_REPS_MAX];	/* the current epoch's samples */
	uint64_t med[INTERVAL_EPOCHS_MAX];	/* each epoch's median */
	uint64_t use[INTERVAL_EPOCHS_MAX];	/* each epoch's use probe */
	unsigned int nuse;
	struct interval iv, use_iv;
};

/*
 * Every pass of a run at once, their epochs taking turns
 * (harness/measure/suites/suite.c); too large for a stack.
 */
static struct variant_figures pool[FIGURES_PASSES_MAX][VARIANTS_MAX];

void figures_begin(struct pass_figures *pf, unsigned int slot, enum op op,
		   const char *pass, uint64_t step, bool use)
{
	unsigned int i;

	*pf = (struct pass_figures){ op, op_name(op), pass, step, 0, use,
				     pool[slot < FIGURES_PASSES_MAX ? slot : 0], 0 };
	for (i = 0; i < VARIANTS_MAX; i++)
		pf->v[i] = (struct variant_figures){ .batch = 1 };
}

void figures_set_batch(struct pass_figures *pf, unsigned int i,
		       unsigned int batch)
{
	pf->v[i].batch = batch ? batch : 1;
}

void figures_add(struct pass_figures *pf, unsigned int i, uint64_t ticks)
{
	struct variant_figures *v = &pf->v[i];

	/* Hundredths of a tick per call: a batch's ticks over its calls. */
	if (v->in_epoch < FIGURES_EPOCH_REPS_MAX) {
		v->epoch[v->in_epoch++] = (ticks * CENTI + v->batch / 2) / v->batch;
		v->n++;
	}
}

void figures_add_use(struct pass_figures *pf, unsigned int i, uint64_t ticks)
{
	struct variant_figures *v = &pf->v[i];

	if (v->epochs < INTERVAL_EPOCHS_MAX && v->nuse == v->epochs)
		v->use[v->nuse++] = ticks * CENTI;
}

/* The figure's quantum: the timer's step over the calls of a sample. */
static uint64_t quantum(const struct pass_figures *pf, unsigned int batch)
{
	return pf->step * CENTI / batch;
}

bool figures_end_epoch(struct pass_figures *pf, variant_set runs,
		       unsigned int precision_bp)
{
	bool precise = true;
	unsigned int i;

	if (pf->epochs == INTERVAL_EPOCHS_MAX)
		return precise;
	for (i = 0; i < variant_count; i++) {
		struct variant_figures *v = &pf->v[i];

		if (!((runs >> i) & 1) || !v->in_epoch || v->epochs == INTERVAL_EPOCHS_MAX)
			continue;
		v->med[v->epochs++] = median_u64(v->epoch, v->in_epoch);
		v->in_epoch = 0;
		interval_of_epochs(v->med, v->epochs, quantum(pf, v->batch), &v->iv);
		if (v->nuse)
			interval_of_epochs(v->use, v->nuse, quantum(pf, 1), &v->use_iv);
		precise &= interval_precise(&v->iv, precision_bp);
	}
	pf->epochs++;
	return precise;
}

const struct interval *figures_interval(const struct pass_figures *pf,
					unsigned int i, bool use)
{
	return use ? &pf->v[i].use_iv : &pf->v[i].iv;
}

struct epoch_series figures_series(const struct pass_figures *pf, unsigned int i)
{
	const struct variant_figures *v = &pf->v[i];

	return (struct epoch_series){ v->med, v->n ? v->epochs : 0, v->iv.median,
				      quantum(pf, v->batch) };
}

unsigned int figures_epochs(const struct pass_figures *pf, unsigned int i)
{
	return pf->v[i].epochs;
}

unsigned int figures_common_epochs(const struct pass_figures *pf, unsigned int i,
				   unsigned int ref)
{
	unsigned int a = pf->v[i].epochs, b = pf->v[ref].epochs;

	return a < b ? a : b;
}

bool figures_ratio(const struct pass_figures *pf, unsigned int i,
		   unsigned int ref, struct interval *iv)
{
	struct epoch_series num = figures_series(pf, i), den = figures_series(pf, ref);

	return interval_of_ratio(&num, &den, iv);
}

/* Hundredths of a tick as the stat line prints them: whole ticks, or two decimals. */
static uint64_t printed(uint64_t centi, bool decimals)
{
	return decimals ? centi : (centi + CENTI / 2) / CENTI * CENTI;
}

static void figure(char *buf, uint64_t centi, bool decimals)
{
	if (decimals)
		fmt_snprintf(buf, FIGURE_MAX, "%lu.%02lu", (unsigned long)(centi / CENTI),
			     (unsigned long)(centi % CENTI));
	else
		fmt_snprintf(buf, FIGURE_MAX, "%lu",
			     (unsigned long)((centi + CENTI / 2) / CENTI));
}

static void stat_line(const struct pass_figures *pf, const char *variant,
		      const char *metric, unsigned int reps, unsigned int epochs,
		      unsigned int batch,
		      const struct interval *iv, enum epoch_stop stop)
{
	char med[FIGURE_MAX], lo[FIGURE_MAX] = "?", hi[FIGURE_MAX] = "?";

	figure(med, iv->median, batch > 1);
	if (iv->has_interval) {
		figure(lo, iv->lo, batch > 1);
		figure(hi, iv->hi, batch > 1);
	}
	out_line("stat suite=%s pass=%s variant=%s%s reps=%u epochs=%u batch=%u median=%s lo=%s hi=%s unit=ticks stop=%s",
		 pf->suite, pf->pass, variant, metric, reps, epochs, batch,
		 med, lo, hi, epoch_stop_name(stop));
}

static void ratio_lines(const struct pass_figures *pf, variant_set runs)
{
	int ref = op_ratio_ref(pf->op);
	unsigned int i;

	if (ref < 0 || !((runs >> ref) & 1))
		return;
	for (i = 0; i < variant_count; i++) {
		char med[FIGURE_MAX], lo[FIGURE_MAX] = "?", hi[FIGURE_MAX] = "?";
		struct interval iv;

		if (i == (unsigned int)ref || !((runs >> i) & 1) ||
		    !figures_ratio(pf, i, (unsigned int)ref, &iv))
			continue;
		ratio_text(med, sizeof(med), iv.median);
		if (iv.has_interval) {
			ratio_text(lo, sizeof(lo), iv.lo);
			ratio_text(hi, sizeof(hi), iv.hi);
		}
		out_line("ratio suite=%s pass=%s variant=%s ref=%s epochs=%u median=%s lo=%s hi=%s",
			 pf->suite, pf->pass, variants[i].name, variants[ref].name,
			 figures_common_epochs(pf, i, (unsigned int)ref), med, lo, hi);
	}
}

void figures_print(const struct pass_figures *pf, variant_set runs,
		   enum epoch_stop stop)
{
	unsigned int i;

	for (i = 0; i < variant_count; i++) {
		const struct variant_figures *v = &pf->v[i];
		enum epoch_stop why = (pf->out >> i) & 1 ? EPOCH_STOP_OUT : stop;

		if (!((runs >> i) & 1) || !v->n)
			continue;
		stat_line(pf, variants[i].name, "", v->n, v->epochs, v->batch, &v->iv, why);
		if (pf->use && v->nuse)
			stat_line(pf, variants[i].name, " metric=use", v->nuse, v->epochs, 1,
				  &v->use_iv, why);
	}
	ratio_lines(pf, runs);
}

/* Twice a figure in hundredths of a tick, in whole ticks, as the record keeps figures. */
static uint64_t twice(uint64_t centi)
{
	return (2 * centi + CENTI / 2) / CENTI;
}

void figures_record(const struct pass_figures *pf, variant_set runs,
		    variant_set failed, struct record_pass *p)
{
	unsigned int i;

	for (i = 0; i < variant_count; i++)
		if ((runs >> i) & 1)
			record_add_input(p, &variants[i], (failed >> i) & 1,
					 figures_series(pf, i));
	for (i = 0; i < variant_count; i++) {
		const struct variant_figures *v = &pf->v[i];
		bool decimals = v->batch > 1;
		uint64_t median = printed(v->iv.median, decimals);

		if (!((runs >> i) & 1) || !v->n)
			continue;
		if (v->iv.has_interval)
			record_add_interval(p, variants[i].name, twice(median),
					    twice(printed(v->iv.lo, decimals)),
					    twice(printed(v->iv.hi, decimals)));
		else
			record_add_figure(p, variants[i].name, twice(median));
	}
}
