/* SPDX-License-Identifier: MIT */
/*
 * suite=strings: the report lines (docs/log-format.md), from the batch
 * ticks strings_time.c left: the overhead of the empty batches, and per
 * variant the figures per call, in hundredths of a tick.
 */
#include "lib/fmt.h"
#include "lib/out.h"
#include "lib/sort.h"
#include "harness/measure/suites/strings_block.h"

#define CENTI		100	/* figures are printed in hundredths of a tick */
#define FIGURE_MAX	24	/* "-9223372036854775808.00" and a NUL */

static uint64_t scratch[STRINGS_SIZES_MAX * STRINGS_REPS_MAX];
static int64_t figures[STRINGS_REPS_MAX];

void strings_print_tsc(const struct tsc_grain *g)
{
	out_line("strings tsc step=%lu region=%lu reads=%u",
		 (unsigned long)g->step, (unsigned long)g->region, g->reads);
}

/* Hundredths of a tick per call: ticks over calls, rounded to nearest. */
static int64_t per_call(int64_t ticks, uint64_t calls)
{
	int64_t x = ticks * CENTI, half = (int64_t)(calls / 2);

	return (x >= 0 ? x + half : x - half) / (int64_t)calls;
}

static void centi_text(char *buf, int64_t v)
{
	uint64_t a = v < 0 ? -(uint64_t)v : (uint64_t)v;

	fmt_snprintf(buf, FIGURE_MAX, "%s%lu.%02lu", v < 0 ? "-" : "",
		     (unsigned long)(a / CENTI), (unsigned long)(a % CENTI));
}

/*
 * " NAME KEY min=M median=D all=A,B,...": per-call figures of n reps, in
 * rep order; min and median over them (an even count's median is the
 * mean of the middle two, truncated to a hundredth).
 */
static void print_figures(const char *name, const char *key,
			  const int64_t *v, unsigned int n)
{
	char all[OUT_LINE_MAX], fig[FIGURE_MAX], mn[FIGURE_MAX], md[FIGURE_MAX];
	int64_t sorted[STRINGS_REPS_MAX];
	size_t len = 0;
	unsigned int i;

	for (i = 0; i < n; i++) {
		sorted[i] = v[i];
		centi_text(fig, v[i]);
		len += fmt_snprintf(all + len, len < sizeof(all) ? sizeof(all) - len : 0,
				    "%s%s", i ? "," : "", fig);
	}
	sort_i64(sorted, n);
	centi_text(mn, sorted[0]);
	centi_text(md, (sorted[(n - 1) / 2] + sorted[n / 2]) / 2);
	out_line(" %s %s min=%s median=%s all=%s", name, key, mn, md, all);
}

static void sort_and_print_overhead(uint64_t *t, unsigned int n, size_t calls)
{
	sort_u64(t, n);
	out_line("strings overhead calls=%zu min=%lu median=%lu n=%u", calls,
		 (unsigned long)t[0],
		 (unsigned long)((t[(n - 1) / 2] + t[n / 2]) / 2), n);
}

void strings_print_block(const struct strings_state *s, const struct block *k,
			 const struct block_ticks *t)
{
	const struct plan *p = s->p;
	unsigned int si, rep, slot, n = 0;
	uint64_t overhead;
	char key[24];

	if (!k->sizes_ok[SLOT_EMPTY])
		return;		/* nothing to subtract: the fault line says why */
	for (si = 0; si < k->sizes_ok[SLOT_EMPTY]; si++)
		for (rep = 0; rep < p->reps; rep++)
			scratch[n++] = t->t[si][SLOT_EMPTY][rep];
	sort_and_print_overhead(scratch, n, STRINGS_CALLS);
	overhead = scratch[0];
	for (si = 0; si < k->sizes_ok[SLOT_EMPTY]; si++) {
		fmt_snprintf(key, sizeof(key), "n=%u", p->sizes[si]);
		for (slot = SLOT_EMPTY + 1; slot < k->nslots; slot++) {
			if (si >= k->sizes_ok[slot])
				continue;
			for (rep = 0; rep < p->reps; rep++)
				figures[rep] = per_call((int64_t)(t->t[si][slot][rep] - overhead),
							STRINGS_CALLS);
			print_figures(slot_name(k, slot), key, figures, p->reps);
			if (s->figs)
				strings_figures_add(s->figs, k->mode, p->sizes[si],
						    (unsigned int)k->variant[slot], figures, p->reps);
		}
	}
}

/*
 * Per zero-length call, in hundredths of a tick: "zero", the batch of
 * zero-length calls less the empty batch, over its calls; "alt" and
 * "random", the mixed batch less the batch of its ZERO_MIX_N calls alone
 * (each less its empty batch), over the zero-length calls: what the
 * zero-length calls add to a stream, mispredicted branches included.
 */
void strings_print_zero(const struct strings_state *s, const struct block *k,
			const struct zero_ticks *z)
{
	static const enum pattern shown[] = { PAT_ZERO, PAT_ALT, PAT_RANDOM };
	unsigned int reps = s->p->reps, rep, slot, i;
	uint64_t e_all, e_half;

	if (!k->sizes_ok[SLOT_EMPTY])
		return;
	for (rep = 0; rep < reps; rep++)
		scratch[rep] = z->empty[0][rep];
	sort_and_print_overhead(scratch, reps, STRINGS_ZERO_CALLS);
	e_all = scratch[0];
	for (rep = 0; rep < reps; rep++)
		scratch[rep] = z->empty[1][rep];
	sort_and_print_overhead(scratch, reps, ZERO_HALF);
	e_half = scratch[0];

	for (slot = SLOT_EMPTY + 1; slot < k->nslots; slot++) {
		if (!k->sizes_ok[slot])
			continue;
		for (i = 0; i < sizeof(shown) / sizeof(shown[0]); i++) {
			char key[24];

			for (rep = 0; rep < reps; rep++) {
				int64_t t = (int64_t)(z->t[slot][shown[i]][rep] - e_all);

				if (shown[i] == PAT_ZERO) {
					figures[rep] = per_call(t, STRINGS_ZERO_CALLS);
					continue;
				}
				t -= (int64_t)(z->t[slot][PAT_MIX_ONLY][rep] - e_half);
				figures[rep] = per_call(t, STRINGS_ZERO_CALLS - ZERO_HALF);
			}
			fmt_snprintf(key, sizeof(key), "pattern=%s", pattern_name(shown[i]));
			print_figures(slot_name(k, slot), key, figures, reps);
		}
	}
}
