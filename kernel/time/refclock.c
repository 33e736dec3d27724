/* SPDX-License-Identifier: MIT */
/*
 * Measuring the TSC against a reference counter. A window reads the
 * counter at its start and end, each time bracketed by two TSC reads: the
 * counter was read somewhere inside the bracket, so the bracket's width
 * bounds the error of that end. A reading is the narrowest of several
 * tries, because a read can be slow (an SMI, or under emulation a port or
 * MMIO exit that waits for the emulator). Of several windows, the one
 * whose two brackets are narrowest gives the rate.
 *
 * The counter is read in a loop between the two ends, often enough never
 * to miss a wrap, unless the CPU was away (preempted under emulation, an
 * SMI). A window in which two reads lie far enough apart to hide half a
 * wrap is discarded; for the PIT, which wraps every 55 ms, that is a gap
 * of about half the window, for the others it takes seconds.
 */
#include "kernel/time/refclock.h"
#include "kernel/x86/x86.h"

#define SAMPLE_TRIES	8		/* a reading: the best of these */
#define WINDOW_US	25000		/* one window, in reference time */
#define WINDOWS		3		/* the best of these gives the rate */
#define US_PER_S	1000000ull

/*
 * Every wait is bounded in TSC ticks as if the TSC ran at TSC_HZ_MAX, with
 * WAIT_SLACK to spare: a counter that is stuck or far too slow gives up
 * after at most WINDOW_US * WAIT_SLACK * TSC_HZ_MAX / actual rate.
 */
#define TSC_HZ_MAX	10000000000ull
#define WAIT_SLACK	4

struct tracker {
	const struct refclock *rc;
	uint64_t raw;			/* last value read */
	uint64_t count;			/* ticks since the first read */
	uint64_t tsc;			/* TSC after the last read */
	uint64_t max_gap;		/* longest time between two reads */
};

struct reading {
	uint64_t tsc;			/* middle of the bracket */
	uint64_t width;			/* TSC ticks the bracket spans */
	uint64_t count;
};

struct window {
	uint64_t dtsc, dcount;
	uint64_t err;			/* half the two brackets: the error bound */
};

static void track(struct tracker *k, uint64_t raw, uint64_t tsc)
{
	k->count += (raw - k->raw) & k->rc->mask;
	k->raw = raw;
	if (tsc - k->tsc > k->max_gap)
		k->max_gap = tsc - k->tsc;
	k->tsc = tsc;
}

static struct reading best_reading(struct tracker *k)
{
	struct reading best = { .width = UINT64_MAX };
	unsigned int i;

	for (i = 0; i < SAMPLE_TRIES; i++) {
		uint64_t t0 = rdtsc_ordered();
		uint64_t raw = k->rc->read(k->rc);
		uint64_t t1 = rdtsc_ordered();

		track(k, raw, t1);
		if (t1 - t0 < best.width)
			best = (struct reading){ t0 + (t1 - t0) / 2, t1 - t0,
						 k->count };
	}
	return best;
}

static const char *window(struct tracker *k, uint64_t ticks,
			  uint64_t tsc_limit, struct window *w)
{
	struct reading a = best_reading(k), b;

	k->max_gap = 0;
	while (k->count - a.count < ticks) {
		uint64_t raw = k->rc->read(k->rc);

		track(k, raw, rdtsc_ordered());
		if (k->count - a.count < ticks && k->tsc - a.tsc > tsc_limit)
			return k->count == a.count ? "the counter does not advance" :
						     "the counter runs far too slowly";
	}
	b = best_reading(k);
	*w = (struct window){
		.dtsc = b.tsc - a.tsc,
		.dcount = b.count - a.count,
		.err = (a.width + b.width) / 2,
	};
	return NULL;
}

/*
 * Whether the longest gap between reads could hide half a wrap: in true
 * time, a window that lost one spans dcount + wrap ticks of which the gap
 * took at least the lost part. A 64-bit counter never wraps.
 */
static bool may_hide_wrap(const struct refclock *rc, const struct window *w,
			  uint64_t gap)
{
	uint64_t half_wrap = rc->mask / 2 + 1;

	if (rc->mask == UINT64_MAX)
		return false;
	return (unsigned __int128)gap * (w->dcount + half_wrap) >=
	       (unsigned __int128)w->dtsc * half_wrap;
}

const char *refclock_measure(struct refclock *rc, uint64_t *tsc_hz)
{
	uint64_t tsc_limit = WINDOW_US * WAIT_SLACK * (TSC_HZ_MAX / US_PER_S);
	uint64_t ticks = rc->hz * WINDOW_US / US_PER_S;
	struct tracker k = { .rc = rc };
	struct window w, best = { 0 };
	const char *why = NULL;
	unsigned int i;

	k.raw = rc->read(rc);
	k.tsc = rdtsc_ordered();

	for (i = 0; i < WINDOWS; i++) {
		why = window(&k, ticks, tsc_limit, &w);
		if (why)
			break;
		/*
		 * Taking longer than a stuck counter may is a disturbance too;
		 * it also keeps every product below within 64 bits.
		 */
		if (w.dtsc > tsc_limit || may_hide_wrap(rc, &w, k.max_gap))
			continue;
		/* Narrower relative error: err/dtsc < best.err/best.dtsc. */
		if (!best.dtsc || w.err * best.dtsc < best.err * w.dtsc)
			best = w;
	}
	if (rc->stop)
		rc->stop(rc);
	if (why)
		return why;
	if (!best.dtsc)
		return "every window was interrupted";
	*tsc_hz = best.dtsc * rc->hz / best.dcount;
	return NULL;
}
