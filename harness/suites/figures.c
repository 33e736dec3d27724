/* SPDX-License-Identifier: MIT */
#include "harness/options.h"
#include "harness/suites/figures.h"
#include "lib/fmt.h"
#include "lib/out.h"

#define FIGURE_MAX	24	/* "18446744073709551615.99" and a NUL */

/* Storage for one pass at a time, too large for a stack. */
static struct variant_figures {
	unsigned int batch;
	unsigned int n, epoch_start;		/* samples[] */
	uint64_t med[INTERVAL_EPOCHS_MAX];	/* each epoch's median */
	uint64_t use[INTERVAL_EPOCHS_MAX];	/* each epoch's use probe */
	unsigned int nuse;
	struct interval iv, use_iv;
} figs[VARIANTS_MAX];
/* Hundredths of a tick per call: a batch's ticks over its calls. */
static uint64_t samples[VARIANTS_MAX][REPS_MAX];

void figures_begin(struct pass_figures *pf, const char *suite,
		   const char *pass, uint64_t step, bool use)
{
	unsigned int i;

	*pf = (struct pass_figures){ suite, pass, step, 0, use };
	for (i = 0; i < VARIANTS_MAX; i++)
		figs[i] = (struct variant_figures){ .batch = 1 };
}

void figures_set_batch(struct pass_figures *pf, unsigned int i,
		       unsigned int batch)
{
	(void)pf;
	figs[i].batch = batch ? batch : 1;
}

void figures_add(struct pass_figures *pf, unsigned int i, uint64_t ticks)
{
	struct variant_figures *v = &figs[i];

	(void)pf;
	if (v->n < REPS_MAX)
		samples[i][v->n++] = (ticks * CENTI + v->batch / 2) / v->batch;
}

void figures_add_use(struct pass_figures *pf, unsigned int i, uint64_t ticks)
{
	struct variant_figures *v = &figs[i];

	if (pf->epochs < INTERVAL_EPOCHS_MAX && v->nuse == pf->epochs)
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
	static uint64_t epoch[REPS_MAX];
	bool precise = true;
	unsigned int i;

	if (pf->epochs == INTERVAL_EPOCHS_MAX)
		return precise;
	for (i = 0; i < variant_count; i++) {
		struct variant_figures *v = &figs[i];
		unsigned int k, n = v->n - v->epoch_start;

		if (!((runs >> i) & 1))
			continue;
		for (k = 0; k < n; k++)
			epoch[k] = samples[i][v->epoch_start + k];
		v->med[pf->epochs] = median_u64(epoch, n);
		v->epoch_start = v->n;
		interval_of_epochs(v->med, pf->epochs + 1, quantum(pf, v->batch), &v->iv);
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
	(void)pf;
	return use ? &figs[i].use_iv : &figs[i].iv;
}

/* Hundredths of a tick as the stat line prints them: whole ticks, or two decimals. */
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
		      const char *metric, unsigned int reps, unsigned int batch,
		      const struct interval *iv, enum epoch_stop stop)
{
	char med[FIGURE_MAX], lo[FIGURE_MAX] = "?", hi[FIGURE_MAX] = "?";

	figure(med, iv->median, batch > 1);
	if (iv->has_interval) {
		figure(lo, iv->lo, batch > 1);
		figure(hi, iv->hi, batch > 1);
	}
	out_line("stat suite=%s pass=%s variant=%s%s reps=%u epochs=%u batch=%u median=%s lo=%s hi=%s unit=ticks stop=%s",
		 pf->suite, pf->pass, variant, metric, reps, pf->epochs, batch,
		 med, lo, hi, epoch_stop_name(stop));
}

void figures_print(const struct pass_figures *pf, variant_set runs,
		   enum epoch_stop stop)
{
	unsigned int i;

	for (i = 0; i < variant_count; i++) {
		const struct variant_figures *v = &figs[i];

		if (!((runs >> i) & 1) || !v->n)
			continue;
		stat_line(pf, variants[i].name, "", v->n, v->batch, &v->iv, stop);
		if (pf->use && v->nuse)
			stat_line(pf, variants[i].name, " metric=use", v->nuse, 1,
				  &v->use_iv, stop);
	}
}

/* Twice a figure in whole ticks, as the summary keeps medians. */
static uint64_t twice(uint64_t centi)
{
	return (2 * centi + CENTI / 2) / CENTI;
}

void figures_summarise(const struct pass_figures *pf, variant_set runs,
		       struct summary *sum)
{
	unsigned int i;

	(void)pf;
	if (!sum)
		return;
	for (i = 0; i < variant_count; i++) {
		const struct variant_figures *v = &figs[i];

		if (!((runs >> i) & 1) || !v->n)
			continue;
		if (v->iv.has_interval)
			summary_add_interval(sum, variants[i].name, twice(v->iv.median),
					     twice(v->iv.lo), twice(v->iv.hi));
		else
			summary_add(sum, variants[i].name, twice(v->iv.median));
	}
}
