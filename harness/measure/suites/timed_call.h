/* SPDX-License-Identifier: MIT */
/* The timed call of a variant on a layout's slots (timed_call.c), as bench.h's timers call it. */
#ifndef PB_TIMED_CALL_H
#define PB_TIMED_CALL_H

#include <stdbool.h>
#include <stddef.h>
#include "harness/measure/suites/layout.h"
#include "variants/variants.h"

struct call {
	const struct variant *v;
	const struct layout *l;
	unsigned int calls;	/* a batch: over slots 0 .. calls - 1 */
	bool same_slot;		/* copy-hot: every call on slot 0 */
};

void call_variant(void *arg, size_t off, size_t len);
void call_whole(void *arg);
void call_batch(void *arg);

#endif
