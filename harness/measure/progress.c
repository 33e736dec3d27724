/* SPDX-License-Identifier: MIT */
#include "cpu/insn.h"
#include "harness/measure/progress.h"

void progress_start(struct progress_clock *c, uint64_t tsc_khz, uint64_t total,
		    uint64_t budget_ms)
{
	*c = (struct progress_clock){
		.tsc_khz = tsc_khz, .t_start = rdtsc_ordered(), .total = total,
		.budget_ms = budget_ms,
	};
}

void progress_figures(const struct progress_clock *c, uint64_t elapsed_ms,
		      unsigned int *percent, uint64_t *left_ms)
{
	*left_ms = PROGRESS_UNKNOWN;
	if (c->budget_ms && c->tsc_khz) {
		/* By the time budget: the run is over when it is spent. */
		*percent = elapsed_ms >= c->budget_ms ? 100 :
			   (unsigned int)(elapsed_ms * 100 / c->budget_ms);
		*left_ms = elapsed_ms >= c->budget_ms ? 0 : c->budget_ms - elapsed_ms;
		return;
	}
	/* By the work done so far: the passes differ in size, the units do not. */
	*percent = !c->total ? 0 : c->done >= c->total ? 100 :
		   (unsigned int)(c->done * 100 / c->total);
	/* Past the planned work (epochs beyond it) no estimate is left. */
	if (c->tsc_khz && c->done && c->done < c->total)
		*left_ms = elapsed_ms * (c->total - c->done) / c->done;
}

static unsigned int shown_percent;

unsigned int progress_percent(void)
{
	return shown_percent;
}

void progress_next(struct progress_clock *c, const char *suite, const char *pass,
		   const char *variant, unsigned int rep, unsigned int reps,
		   uint64_t units)
{
	struct progress pr = {
		.suite = suite, .pass = pass, .variant = variant, .rep = rep,
		.reps = reps, .left_ms = PROGRESS_UNKNOWN,
	};

	if (c->tsc_khz)
		pr.elapsed_ms = (rdtsc_ordered() - c->t_start) / c->tsc_khz;
	progress_figures(c, pr.elapsed_ms, &pr.percent, &pr.left_ms);
	shown_percent = pr.percent;
	host_progress(&pr);
	c->done += units;
}
