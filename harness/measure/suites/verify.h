/* SPDX-License-Identifier: MIT */
/* The bytes of a page suite's calls: set before, checked after (verify.c). */
#ifndef PB_VERIFY_H
#define PB_VERIFY_H

#include "harness/measure/host.h"
#include "harness/measure/suites/layout.h"
#include "variants/variants.h"

/* Slot l's bytes before rep rep of variant i: a pattern src, a dst to be overwritten. */
void prepare_slot(const struct layout *l, unsigned int rep, unsigned int i);
/*
 * Variant i's n slots of l after its calls in the pass of that header: a
 * verify FAILED line where one is wrong, and i set in *failed.
 */
void verify_slots(const char *header, unsigned int i, const struct layout *l,
		  unsigned int n, variant_set *failed);
/*
 * Variant i faulted in the pass of op and header: its fault line and a
 * failure; it leaves *runs, the rest of the run's, and joins *failed.
 */
void variant_fault(enum op op, const char *header, unsigned int i, const struct fault *f,
		   variant_set *runs, variant_set *failed);

#endif
