/* SPDX-License-Identifier: MIT */
/*
 * What the files of suite=strings share, and the calls between them, which
 * flow one way: the driver (strings.c) calls the timed batches
 * (strings_time.c) and the report lines (strings_lines.c); the batches call
 * the checks of every byte (strings_verify.c) and the timed loops
 * (strings_loop.asm). Only these files include this; the suite's interface
 * is harness/measure/suites/strings.h.
 */
#ifndef PB_STRINGS_BLOCK_H
#define PB_STRINGS_BLOCK_H

#include <stddef.h>
#include <stdint.h>
#include "harness/measure/host.h"
#include "harness/measure/plan.h"
#include "harness/measure/progress.h"
#include "harness/measure/strings_figures.h"
#include "harness/measure/strings_plan.h"
#include "variants/string_variants.h"

/* Rows of strings.def, counted at compile time to size the result arrays. */
enum {
#define STRING_VARIANT(op, name, store, need, regs, cite, what) STRING_ROW_##op##_##name,
#include "variants/strings.def"
#undef STRING_VARIANT
	STRING_ROWS
};
/* A block's slots: the empty routine, then the op's variants. */
#define SLOT_EMPTY	0
#define SLOTS_MAX	(1 + STRING_ROWS)

/* Zero-length section: the call sizes of its batches. */
enum pattern { PAT_ZERO, PAT_ALT, PAT_RANDOM, PAT_MIX_ONLY, PAT_COUNT };
#define ZERO_HALF	(STRINGS_ZERO_CALLS / 2)

struct strings_state {
	const struct plan *p;
	variant_set runs;		/* the plan's, less what faulted */
	uint8_t *dwin, *swin;		/* dst's and src's windows, page-aligned */
	struct progress_clock clock;	/* in batches */
	struct strings_figures *figs;	/* for the decision; may be NULL */
};

/* One block: what runs, on which bytes. */
struct block {
	enum string_op op;
	enum strings_mode mode;
	uint8_t *dst, *src;		/* src NULL for memset */
	char name[40];			/* "tput dst=1 src=7", for failures */
	unsigned int nslots;
	int variant[SLOTS_MAX];		/* index in string_variants; -1: empty */
	unsigned int sizes_ok[SLOTS_MAX]; /* sizes measured before a fault */
};

/* Batch ticks of a block, left by the batches for the lines. */
struct block_ticks {
	uint64_t t[STRINGS_SIZES_MAX][SLOTS_MAX][STRINGS_REPS_MAX];	/* [size][slot][rep] */
};

/*
 * Batch ticks of the zero-length section, [slot][pattern][rep]. The empty
 * routine runs only the batches the variants' are taken from, all calls
 * and half the calls, kept in empty[].
 */
struct zero_ticks {
	uint64_t t[SLOTS_MAX][PAT_COUNT][STRINGS_REPS_MAX];
	uint64_t empty[2][STRINGS_REPS_MAX];
};

/* The TSC's granularity: strings_time.c says what step and region are. */
struct tsc_grain {
	uint64_t step, region;
	unsigned int reads;
};

static inline const char *slot_name(const struct block *k, unsigned int slot)
{
	return k->variant[slot] < 0 ? "empty" : string_variants[k->variant[slot]].name;
}

static inline const char *pattern_name(enum pattern pat)
{
	static const char *const names[PAT_COUNT] = {
		"zero", "alt", "random", "mix_only",
	};

	return names[pat];
}

/* strings_time.c: the timed batches. */
void strings_tsc_grain(struct tsc_grain *g);
void strings_measure_block(struct strings_state *s, struct block *k,
			   struct block_ticks *t);
void strings_measure_zero(struct strings_state *s, struct block *k,
			  struct zero_ticks *z);

/* strings_verify.c: the bytes around and under each batch. */
uintptr_t strings_arg2(const struct block *k, unsigned int rep);
void strings_prepare_src(const struct block *k, size_t n, unsigned int rep);
void strings_prepare_dst(const struct block *k, size_t n, unsigned int rep);
void strings_verify(struct strings_state *s, const struct block *k, unsigned int slot,
		    size_t written, size_t n, unsigned int rep, const char *batch);
void strings_fault(struct strings_state *s, const struct block *k,
		   unsigned int slot, const char *batch, const struct fault *f);

/* strings_lines.c: the report lines. */
void strings_print_tsc(const struct tsc_grain *g);
void strings_print_block(const struct strings_state *s, const struct block *k,
			 const struct block_ticks *t);
void strings_print_zero(const struct strings_state *s, const struct block *k,
			const struct zero_ticks *z);

#endif
