/* SPDX-License-Identifier: MIT */
#include "cpu/insn.h"
#include "harness/progress.h"

void progress_start(struct progress_clock *c, uint64_t tsc_khz, uint64_t total)
{
	*c = (struct progress_clock){
		.tsc_khz = tsc_khz, .t_start = rdtsc_ordered(), .total = total,
	};
}

void progress_next(struct progress_clock *c, const char *suite, const char *pass,
		   const char *variant, unsigned int rep, unsigned int reps,
		   uint64_t units)
{
	struct progress pr = {
		.suite = suite, .pass = pass, .variant = variant, .rep = rep,
		.reps = reps, .left_ms = PROGRESS_UNKNOWN,
	};

	pr.percent = c->total ? (unsigned int)(c->done * 100 / c->total) : 0;
	if (c->tsc_khz) {
		pr.elapsed_ms = (rdtsc_ordered() - c->t_start) / c->tsc_khz;
		/* By the work done so far: the passes differ in size, the units do not. */
		if (c->done)
			pr.left_ms = pr.elapsed_ms * (c->total - c->done) / c->done;
	}
	host_progress(&pr);
	c->done += units;
}
