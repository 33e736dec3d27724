/* SPDX-License-Identifier: MIT */
/*
 * The timed loops of suite=strings (strings_loop.asm) and their argument,
 * whose offsets the assembly repeats: strings_time.c checks them.
 */
#ifndef PB_STRINGS_LOOP_H
#define PB_STRINGS_LOOP_H

#include <stddef.h>
#include <stdint.h>

struct strings_batch {
	void *fn;		/* a memset or memcpy of variants/strings.def */
	uint8_t *dst;
	uintptr_t arg2;		/* memset: the fill byte; memcpy: src */
	const size_t *ns;	/* the size of each call */
	size_t calls;		/* at least 1 */
};

/* Independent calls, all on dst: throughput. */
void strings_loop_tput(const struct strings_batch *b);
/* Each call's dst waits for the previous one's return value and first and last byte. */
void strings_loop_lat(const struct strings_batch *b);
/* The empty routine: the call shape of memset and memcpy, returning dst. */
void *strings_empty(void *dst, uintptr_t arg2, size_t n);

#endif
