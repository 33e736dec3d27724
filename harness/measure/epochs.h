/* SPDX-License-Identifier: MIT */
/*
 * How a pass spends its reps: in epochs, as nanobench does. Between
 * epochs what differs between runs changes: the buffers move to a fresh
 * offset within the room the host gave, are flushed and written afresh,
 * and the CPU pauses. Each (pass, variant) then has one median per epoch,
 * and its interval (harness/stats/interval.h) is taken over those, so it holds
 * the variance between epochs and not only the variance within one.
 *
 * Either reps= fixes the reps, split into epochs here, or (precision=)
 * epochs are added two at a time until every interval of the pass is
 * within the precision, the pass's time budget is spent or
 * INTERVAL_EPOCHS_MAX epochs ran. docs/method.md, "Epochs", says why.
 */
#ifndef PB_EPOCHS_H
#define PB_EPOCHS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Reps in one epoch, at most: the median of three resists one disturbed rep. */
#define EPOCH_REPS_MAX		3
/*
 * Epochs before precision may stop a pass (the budget may stop it from
 * INTERVAL_EPOCHS_MIN): stopping at the first narrow interval favours
 * intervals whose few epochs happened to agree, and from 11 epochs that
 * no longer costs coverage (docs/method.md, "Epochs").
 */
#define EPOCHS_PRECISE_MIN	11
/*
 * Each epoch moves fill and the work area to an offset of its own within
 * the room the host gave beyond the pass's needs: at least this many
 * pages, and in a run with larger passes everything their buffers hold
 * beyond this pass's, so that epochs land on other physical pages.
 */
#define EPOCH_SHIFT_PAGES	64
/*
 * The pause between epochs: longer than the few milliseconds over which
 * a shared machine's state still carries from one epoch to the next.
 */
#define EPOCH_PAUSE_US		10000

struct epoch_rule {
	unsigned int reps;		/* reps= of the pass; 0: until precise */
	unsigned int precision_bp;	/* hundredths of a per cent */
	uint64_t budget_ticks;		/* per pass */
};

enum epoch_stop {
	EPOCH_GO_ON,
	EPOCH_STOP_PRECISION,	/* every interval within the precision */
	EPOCH_STOP_BUDGET,	/* two more epochs would overrun the budget */
	EPOCH_STOP_REPS,	/* the reps reps= asked for */
	EPOCH_STOP_EPOCHS,	/* INTERVAL_EPOCHS_MAX epochs */
	/* time= (harness/measure/budget.h, harness/decide/race.h): */
	EPOCH_STOP_SETTLED,	/* every question of the pass is decided */
	EPOCH_STOP_OUT,		/* this variant can no longer change a decision */
	EPOCH_STOP_TIME,	/* the run's time budget cannot afford two more epochs */
};

/*
 * "precision", "budget", "reps", "epochs", "settled", "out", "time": the
 * stat line's stop=.
 */
const char *epoch_stop_name(enum epoch_stop s);

/* reps= split: the epochs (odd, at most INTERVAL_EPOCHS_MAX) and the reps of epoch e. */
unsigned int epochs_of_reps(unsigned int reps);
unsigned int epoch_reps_fixed(unsigned int reps, unsigned int e);

/*
 * Until precise: reps in each epoch, from the time one rep (every
 * variant once) took: EPOCH_REPS_MAX where INTERVAL_EPOCHS_MIN epochs of
 * them fit the budget, fewer for passes too long for that, at least 1.
 */
unsigned int epoch_reps_adaptive(const struct epoch_rule *r, uint64_t rep_ticks);
/* The same for a pass of budget ticks that is to run epochs epochs (time=: its share). */
unsigned int epoch_reps_for(uint64_t budget, unsigned int epochs, uint64_t rep_ticks);

/*
 * Whether to stop after epochs epochs: precise when every interval of
 * the pass is, elapsed the pass's time so far, epoch_ticks the last
 * epoch's. The first reason that holds, in the order of enum epoch_stop.
 */
enum epoch_stop epoch_next(const struct epoch_rule *r, unsigned int epochs,
			   bool precise, uint64_t elapsed, uint64_t epoch_ticks);

/*
 * Where epoch e of the pass seeded seed puts fill and the work area: page
 * offsets from 0 to fill_room and work_room (pages to spare) each.
 */
void epoch_place(uint64_t seed, unsigned int e, size_t fill_room,
		 size_t work_room, size_t *fill_pages, size_t *work_pages);

#endif
