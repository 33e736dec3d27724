/* SPDX-License-Identifier: MIT */
/*
 * The plan of a run: which passes, how large, which variants, and why the
 * others are left out. plan_build() is the only place that picks variants
 * and the only place disable= and force= act; the CPU description stays as
 * it was printed.
 */
#ifndef PB_PLAN_H
#define PB_PLAN_H

#include <stddef.h>
#include "cpu/cpu.h"
#include "harness/options/options.h"
#include "variants/passes.h"
#include "variants/string_variants.h"
#include "variants/variants.h"

struct plan {
	enum suite suite;
	unsigned int reps;		/* 0: epochs until precise (harness/measure/epochs.h) */
	/*
	 * Epochs, stat lines, batches and the use probe: the page suites
	 * but suite=xen, which is the 2021 experiment exactly.
	 */
	bool stats;
	unsigned int precision_bp;	/* reps 0 without time=: precision=, budget= */
	uint64_t budget_ms;
	/*
	 * reps 0: time= (harness/measure/budget.h), the default; time_over: precision=
	 * or budget= was given too, and time= won.
	 */
	uint64_t time_ms;
	bool time_over;
	/*
	 * No CPU runs this (runs_on tcg or emulator) and time= was not
	 * given: time_ms is TIME_NOT_A_CPU_MS, the first round alone.
	 */
	bool time_not_a_cpu;
	unsigned int worth_bp;		/* worth=: the answer's, which the race serves */
	size_t batch_room;		/* bytes a batch's buffers may span */
	pass_set passes;		/* the passes that run */
	size_t nr[PASS_COUNT];		/* fill size of a pass, in pages */
	/*
	 * Where each call of a pass goes: 1, or with stats for the L3 and
	 * MEM passes, the placements of a smaller destination that calls
	 * take in turn (pass_placements(); docs/method.md, "Placements").
	 */
	unsigned int placements[PASS_COUNT];
	const char *pass_skip[PASS_COUNT]; /* selected passes that cannot run */
	variant_set selected;		/* chosen by the options */
	variant_set runs;		/* selected, and this CPU can run them */
	const char *variant_skip[VARIANTS_MAX];	/* selected, cannot run */
	uint64_t forced;		/* force= features this CPU lacks */
	size_t max_nr;			/* largest nr of any pass that runs */
	uint64_t scrub_bytes;		/* suite=scrub: the region each step clears */
	unsigned int cpus;		/* suite=scrub: at most this many CPUs (0: all) */
	const char *scrub_skip;		/* suite=scrub: why it cannot run */
	bool cycles;			/* cycles=on: count cycles beside ticks where the host can */
	const char *no_aperfmperf;	/* why ring 0 may not read APERF/MPERF; NULL: it may */
	/* suite=strings: the same choice over string_variants[], and the sizes */
	variant_set str_selected, str_runs;
	const char *str_skip[STRING_VARIANTS_MAX];
	uint16_t sizes[STRINGS_SIZES_MAX];
	unsigned int nsizes;
};

/*
 * mem_bytes: the largest run of free memory the buffers can come from.
 * not_a_cpu: the hot load line's runs_on is tcg or emulator
 * (answer_run_live()). Never fails: what cannot run is recorded with the
 * reason.
 */
void plan_build(struct plan *p, const struct options *o,
		const struct cpu_desc *d, uint64_t mem_bytes, bool not_a_cpu);

/*
 * The "plan" line, a "sizes" line per pass, "skipped pass:" lines, then
 * per table of the suite its "variants" line and its "skipped:" lines.
 */
void plan_print(const struct plan *p);

/*
 * Whether the plan measures nothing at all of what was asked: every pass,
 * the scrub region or every variant cannot run here. Then why says which
 * part and why, as "suite=scrub: not enough memory ...".
 */
bool plan_measures_nothing(const struct plan *p, char *why, size_t len);

/* Whether any variant of op runs in this plan. */
bool plan_runs_op(const struct plan *p, enum op op);

/*
 * Bytes a call of a pass clears or copies each way: nr/2 and nr/4 pages;
 * with placements, a placement's pages less its guard page.
 */
size_t pass_bytes(const struct plan *p, enum pass_id id, enum op op);

/*
 * The L3 and MEM passes with stats: a call clears (copies) one of
 * PLACEMENTS placements in turn (docs/method.md, "Placements"); 1 for
 * every other pass, and where the cache is too small for placements of
 * 2 pages or more to copy. A copy's placement is the 2021 region's
 * share, at most PLACEMENT_MAX_BYTES / 2 each way; a clear's is a huge
 * page, HUGE_PAGE_BYTES: what clear_pages() exists for (a 2 MiB fault,
 * clear_huge_page()), and clear_page() called 512 times over it.
 */
#define PLACEMENTS		32u
#define PLACEMENT_MAX_BYTES	(8u << 20)
#define HUGE_PAGE_BYTES		(2u << 20)
unsigned int pass_placements(const struct plan *p, enum pass_id id);

/*
 * The buffers a plan needs, for the host to allocate. With stats, fill
 * and the work area have EPOCH_SHIFT_PAGES more, where epochs move them,
 * and the work area holds a batch's buffers too.
 */
struct buffer_sizes {
	size_t fill;	/* the largest pass's fill */
	size_t work;	/* dst (and src) of the largest pass between guard pages */
	size_t cold;	/* copy-cold's other data, read and written */
	size_t scrub;	/* suite=scrub: a region between guard pages, per NUMA node */
	size_t strings;	/* suite=strings: its windows and guards; 0 for other suites */
};
void plan_buffer_sizes(const struct plan *p, struct buffer_sizes *s);

/* The most calls a batched sample times (harness/stats/interval.h). */
#define BATCH_MAX		128
/*
 * A batch of short calls runs on buffers of its own, one per call: at
 * most half of L2 in all, so that they sit where one call's buffer sits
 * between calls; at least this much where the CPU names no L2.
 */
#define BATCH_ROOM_MIN		(256u * 1024)

#define COPY_HOT_N		32		/* as Ma Ling: 32 copies, the minimum */
#define COPY_COLD_N		32
#define COPY_COLD_BYTES		(512u * 1024)	/* other data copied first */

#endif
