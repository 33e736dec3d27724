/* SPDX-License-Identifier: MIT */
/*
 * Passes and suites, from passes.def and suites.def: the single source of
 * their names, headers, sizing, flushing and Xen membership.
 */
#ifndef PB_PASSES_H
#define PB_PASSES_H

#include <stdbool.h>
#include <stdint.h>
#include "variants/variants.h"

#define OPS_CLEAR	(1u << OP_CLEAR)
#define OPS_COPY	(1u << OP_COPY)
#define OPS_PAGE	(OPS_CLEAR | OPS_COPY)
/* Not a page op: the short-string table, variants/strings.def (suite=strings). */
#define OPS_STRINGS	(1u << OP_COUNT)

enum pass_id {
#define PASS(id, opt, header, size, flush, kind, ops, xen, use) PASS_##id,
#include "variants/passes.def"
#undef PASS
	PASS_COUNT
};

enum pass_size { SIZE_L1D, SIZE_L2, SIZE_L3, SIZE_MEM, SIZE_ONE_PAGE };
enum pass_kind { KIND_TIMED, KIND_HOT, KIND_COLD, KIND_HOTBUF };

struct pass_def {
	const char *id;		/* "l1" */
	const char *header;	/* "L1 w/o flush" */
	enum pass_size size;
	bool flush;
	enum pass_kind kind;
	unsigned int ops;	/* OPS_* */
	bool xen;
	bool use;		/* a use probe each epoch */
};

extern const struct pass_def passes[PASS_COUNT];

enum suite {
#define SUITE(id, name, ops, xen_only, reps, how) SUITE_##id,
#include "variants/suites.def"
#undef SUITE
	SUITE_COUNT
};

enum suite_how { HOW_PASSES, HOW_SCRUB, HOW_STRINGS };

struct suite_def {
	const char *name;
	unsigned int ops;	/* OPS_* */
	bool xen_only;
	unsigned int reps;
	enum suite_how how;
};

extern const struct suite_def suites[SUITE_COUNT];

/* Bit per enum pass_id. */
typedef uint32_t pass_set;

bool suite_has_pass(enum suite s, enum pass_id p);
bool suite_has_variant(enum suite s, const struct variant *v);
pass_set suite_passes(enum suite s);
/* What runs when passes= does not say: the suite's passes but the hot-buffer ones. */
pass_set suite_default_passes(enum suite s);

/* "copy " for copy passes that share a header with the clear suite. */
const char *pass_prefix(enum op op, enum pass_id p);

/*
 * A hot pass: the data start in a cache a caller just used (L1 and L2
 * without flush, copy-hot), where a kernel's "hot" entry points (Xen's
 * clear_page_hot, copy_page_hot) are meant to run; every other pass is
 * cold (flushed, L3, MEM, copy-cold), the "cold" entries' ground.
 */
bool pass_hot(enum pass_id p);

#endif
