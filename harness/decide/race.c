/* SPDX-License-Identifier: MIT */
#include "harness/decide/race.h"
#include "harness/decide/prefer.h"

/* 1 in the ratios' millionths (RATIO_ONE of harness/measure/suites/figures.h). */
#define RACE_ONE	1000000u
#define BP_PPM		100u	/* millionths in a hundredth of a per cent */

bool race_add(struct race *r, unsigned int pick, variant_set cands)
{
	if (r->n == RACE_QUESTIONS_MAX)
		return false;
	r->q[r->n].pick = pick;
	r->q[r->n].cands = cands & ~(1ull << pick);
	r->n++;
	return true;
}

/* (h / d)^2 * epochs, at most NEED_EPOCHS_MAX; d 0 is the most. */
static unsigned int project(uint64_t h, uint64_t d, unsigned int epochs)
{
	uint64_t n;

	if (!d || h / d >= NEED_EPOCHS_MAX)
		return NEED_EPOCHS_MAX;
	n = h * h / d * epochs / d;
	return n > NEED_EPOCHS_MAX ? NEED_EPOCHS_MAX : (unsigned int)n;
}

static uint64_t half(const struct interval *iv)
{
	return iv->hi - iv->median;
}

/* How far iv is from deciding against threshold: a projection, 0 when decided. */
static unsigned int undecided(const struct interval *iv, uint64_t threshold,
			      unsigned int epochs)
{
	if (iv->lo >= threshold || iv->hi < threshold)
		return 0;
	return project(half(iv), iv->median > threshold ? iv->median - threshold :
			       threshold - iv->median, epochs);
}

static unsigned int rank_of(unsigned int i)
{
	return prefer_rank(variants[i].regs, i);
}

/*
 * One question: whether it is open, the variants it still needs and
 * those it names, its projection. Of the candidates that surely save
 * worth, the answer names the one prefer_named() does (harness/decide/prefer.h);
 * where none does yet, best is the lowest median. Another candidate is
 * out when its ratio over the pick cannot fall below 1 - worth, or, once
 * one is named, when it cannot take the name: one earlier in the order
 * of preference when the named one surely beats it by worth, one later
 * when it cannot beat the named one by worth (its time over that one's,
 * epoch by epoch, as the pair ran).
 */
static bool judge_one(const struct race_question *q, uint64_t threshold,
		      race_ratio_fn *ratio, void *ctx, unsigned int epochs,
		      variant_set *live, variant_set *named, unsigned int *need)
{
	static struct interval iv[VARIANTS_MAX], rival[VARIANTS_MAX];
	unsigned int order[VARIANTS_MAX], key[VARIANTS_MAX];
	variant_set have = 0, left = 0;
	unsigned int i, best = VARIANTS_MAX, nleft = 0, nwins = 0;
	int at;

	for (i = 0; i < VARIANTS_MAX; i++) {
		if (!((q->cands >> i) & 1))
			continue;
		if (!ratio(ctx, i, q->pick, &iv[i]) || !iv[i].has_interval) {
			/* No interval yet: nothing is known of it. */
			left |= 1ull << i;
			continue;
		}
		have |= 1ull << i;
		if (best == VARIANTS_MAX || iv[i].median < iv[best].median)
			best = i;
		if (iv[i].hi < threshold) {
			key[nwins] = rank_of(i);
			order[nwins++] = i;
		}
	}
	if (nwins) {
		prefer_sort(order, key, nwins);
		at = prefer_named(order, nwins, threshold, ratio, ctx);
		if (at >= 0)
			best = order[at];
	}
	for (i = 0; i < VARIANTS_MAX; i++) {
		bool out, paired;

		if (!((have >> i) & 1))
			continue;
		out = iv[i].lo >= threshold;
		/*
		 * Beside a named one that surely saves worth: a keep needs
		 * every candidate's own interval above the threshold, so only
		 * a decided switch lets the named one's rivals go.
		 */
		paired = false;
		if (i != best) {
			/* Earlier: whether best beats it; later: whether it beats best. */
			bool earlier = rank_of(i) < rank_of(best);

			paired = (earlier ? ratio(ctx, best, i, &rival[i]) :
					    ratio(ctx, i, best, &rival[i])) &&
				 rival[i].has_interval;
			if (paired && iv[best].hi < threshold)
				out = out || (earlier ? rival[i].hi < threshold :
							rival[i].lo >= threshold);
		}
		if (!paired)
			rival[i] = (struct interval){ 0 };
		if (!out)
			left |= 1ull << i;
	}
	*named = 1ull << q->pick;
	*named |= left ? left : best < VARIANTS_MAX ? 1ull << best : 0;
	*live = left;
	*need = 0;
	for (i = 0; i < VARIANTS_MAX; i++)
		nleft += (left >> i) & 1;
	/* Keep: none left. Switch: one left, surely below the threshold. */
	if (!nleft || (nleft == 1 && (have & left) == left &&
		       iv[__builtin_ctzll(left)].hi < threshold))
		return false;
	for (i = 0; i < VARIANTS_MAX; i++) {
		unsigned int n = NEED_EPOCHS_MAX, m;

		if (!((left >> i) & 1))
			continue;
		if ((have >> i) & 1) {
			n = undecided(&iv[i], threshold, epochs);
			m = rival[i].has_interval ? undecided(&rival[i], threshold, epochs) : 0;
			n = m > n ? m : n;
		}
		if (n > *need)
			*need = n;
	}
	return true;
}

void race_judge(const struct race *r, race_ratio_fn *ratio, void *ctx,
		unsigned int epochs, struct race_outcome *out)
{
	uint64_t worth = (uint64_t)r->worth_bp * BP_PPM;
	uint64_t threshold = worth < RACE_ONE ? RACE_ONE - worth : 0;
	unsigned int k;

	*out = (struct race_outcome){ 0 };
	for (k = 0; k < r->n; k++) {
		variant_set live, named;
		unsigned int need;

		if (judge_one(&r->q[k], threshold, ratio, ctx, epochs, &live,
			      &named, &need)) {
			out->open++;
			out->needed |= live | 1ull << r->q[k].pick;
			if (need > out->need)
				out->need = need;
		}
		out->named |= named;
	}
}

variant_set race_keep(const struct race_outcome *rc, variant_set active,
		      unsigned int epochs, unsigned int floor)
{
	if (!rc->open && epochs >= floor)
		return active;
	return active & (epochs < floor ? rc->named | rc->needed : rc->needed);
}
