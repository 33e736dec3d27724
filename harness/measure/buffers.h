/* SPDX-License-Identifier: MIT */
/*
 * The buffers a plan runs on: the host allocates what plan_buffer_sizes()
 * asks for and hands them to suite_run().
 */
#ifndef PB_BUFFERS_H
#define PB_BUFFERS_H

#include <stdint.h>
#include "harness/measure/host.h"

struct buffers {
	uint8_t *fill;	/* probed before and after each timed call */
	uint8_t *work;	/* dst (and src) between guard pages */
	uint8_t *cold;	/* copy-cold's other data */
	/* suite=scrub: per NUMA node, a guard page, the region, a guard page */
	uint8_t *scrub[HOST_NODES_MAX];
	uint8_t *strings; /* suite=strings: its windows and guards */
};

#endif
