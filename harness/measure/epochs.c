/* SPDX-License-Identifier: MIT */
#include "harness/measure/epochs.h"
#include "harness/stats/interval.h"

/* Any nonzero start for xorshift64; this one is 2^64 over the golden ratio. */
#define PLACE_SEED	0x9e3779b97f4a7c15ull

const char *epoch_stop_name(enum epoch_stop s)
{
	static const char *const names[] = {
		[EPOCH_GO_ON] = "none", [EPOCH_STOP_PRECISION] = "precision",
		[EPOCH_STOP_BUDGET] = "budget", [EPOCH_STOP_REPS] = "reps",
		[EPOCH_STOP_EPOCHS] = "epochs", [EPOCH_STOP_SETTLED] = "settled",
		[EPOCH_STOP_OUT] = "out", [EPOCH_STOP_TIME] = "time",
	};

	return s <= EPOCH_STOP_TIME ? names[s] : "?";
}

/*
 * As many epochs as give each EPOCH_REPS_MAX reps, at least
 * INTERVAL_EPOCHS_MIN where there are that many reps, odd, and at most
 * INTERVAL_EPOCHS_MAX.
 */
unsigned int epochs_of_reps(unsigned int reps)
{
	unsigned int e = reps / EPOCH_REPS_MAX;

	if (e < INTERVAL_EPOCHS_MIN)
		e = INTERVAL_EPOCHS_MIN;
	if (e > reps)
		e = reps;
	if (e > INTERVAL_EPOCHS_MAX)
		e = INTERVAL_EPOCHS_MAX;
	if (e && !(e & 1))
		e--;
	return e ? e : 1;
}

unsigned int epoch_reps_fixed(unsigned int reps, unsigned int e)
{
	unsigned int n = epochs_of_reps(reps);

	return reps / n + (e < reps % n);
}

unsigned int epoch_reps_for(uint64_t budget, unsigned int epochs, uint64_t rep_ticks)
{
	uint64_t fit = rep_ticks && epochs ? budget / epochs / rep_ticks : EPOCH_REPS_MAX;

	return fit < 1 ? 1 : fit > EPOCH_REPS_MAX ? EPOCH_REPS_MAX : (unsigned int)fit;
}

unsigned int epoch_reps_adaptive(const struct epoch_rule *r, uint64_t rep_ticks)
{
	return epoch_reps_for(r->budget_ticks, INTERVAL_EPOCHS_MIN, rep_ticks);
}

enum epoch_stop epoch_next(const struct epoch_rule *r, unsigned int epochs,
			   bool precise, uint64_t elapsed, uint64_t epoch_ticks)
{
	if (r->reps)
		return epochs >= epochs_of_reps(r->reps) ? EPOCH_STOP_REPS : EPOCH_GO_ON;
	/* An interval needs INTERVAL_EPOCHS_MIN epochs, and an odd count. */
	if (epochs < INTERVAL_EPOCHS_MIN || !(epochs & 1))
		return EPOCH_GO_ON;
	if (precise && epochs >= EPOCHS_PRECISE_MIN)
		return EPOCH_STOP_PRECISION;
	if (elapsed + 2 * epoch_ticks > r->budget_ticks)
		return EPOCH_STOP_BUDGET;
	if (epochs + 2 > INTERVAL_EPOCHS_MAX)
		return EPOCH_STOP_EPOCHS;
	return EPOCH_GO_ON;
}

void epoch_place(uint64_t seed, unsigned int e, size_t fill_room,
		 size_t work_room, size_t *fill_pages, size_t *work_pages)
{
	uint64_t x = PLACE_SEED ^ (seed << 8) ^ e;
	unsigned int i;

	/* A few rounds of xorshift64 spread seeds that differ in one bit. */
	for (i = 0; i < 4; i++) {
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
	}
	*fill_pages = (size_t)(x % ((uint64_t)fill_room + 1));
	x ^= x << 13;
	x ^= x >> 7;
	x ^= x << 17;
	*work_pages = (size_t)(x % ((uint64_t)work_room + 1));
}
