/* SPDX-License-Identifier: MIT */
/* Which variants run on this CPU, given the options. */
#ifndef PB_PLAN_H
#define PB_PLAN_H

#include "cpu.h"
#include <stddef.h>
#include "options.h"

/* Takes the features named by disable= out of d; called after describe_cpu(). */
void plan_disable_features(struct cpu_desc *d, const struct options *o);

/* NULL when the CPU can run code that needs f; otherwise why not. */
const char *cpu_lacks(const struct cpu_desc *d, enum feat f);

/*
 * Prints, for each suite the options select, the "variants <suite>:" line and
 * one "skipped:" line per selected variant the CPU cannot run.
 */
void plan_print_variants(const struct options *o, const struct cpu_desc *d);

/* The plan of the run: which passes, how large, which variants. */
struct plan {
	enum suite suite;
	unsigned int reps;
	uint32_t passes;		/* bit per enum pass_id that runs */
	size_t nr[PASS_COUNT];		/* fill size of a cache pass, in pages */
	const char *skip_why[PASS_COUNT]; /* for selected passes that cannot run */
	uint64_t clear_mask;		/* clear variants that run */
	uint64_t copy_mask;		/* copy variants that run */
	size_t max_nr;			/* largest nr of any pass that runs */
};

/* mem_bytes: the largest run of free RAM the buffers can come from. */
void plan_build(struct plan *p, const struct options *o,
		const struct cpu_desc *d, uint64_t mem_bytes);
/* The "plan" line, then a "skipped pass:" line for each pass that cannot run. */
void plan_print(const struct plan *p);

const char *pass_header(enum pass_id id);	/* "L1 w/o flush", ..., "MEM" */
bool pass_flushes(enum pass_id id);

#define COPY_HOT_N		32		/* as Ma Ling: 32 copies, the minimum */
#define COPY_COLD_N		32
#define COPY_COLD_BYTES		(512u * 1024)	/* other data copied first */

#endif
