/* SPDX-License-Identifier: MIT */
/*
 * How a variant's stores write memory: a column of each .def row, printed
 * as the variant line's store= (docs/log-format.md). A plain vector name
 * (sse2, avx, avx512) stores non-temporally in every table, as in the 2021
 * experiment; its _t twin stores through the cache.
 */
#ifndef PB_STORE_H
#define PB_STORE_H

#include <stdbool.h>

enum store {
	STORE_NT,	/* non-temporal: MOVNTI, MOVNTDQ, around the cache */
	STORE_T,	/* temporal: plain MOV stores, through the cache */
	STORE_REP,	/* a REP STOS or MOVS: the microcode chooses */
	STORE_CLZERO,	/* CLZERO: a whole line zeroed at once, then SFENCE */
	/*
	 * CLZERO without SFENCE (the 2021 shape): its lines may still be on
	 * their way when it returns, so its time leaves their completion out
	 * and no kernel can take it as it is; a reference figure only.
	 */
	STORE_CLZERO_NOFENCE,
	STORE_DIR,	/* MOVDIR64B: one 64-byte direct store */
	STORE_KERNEL,	/* the module's kernel_* rows: what the kernel's alternatives chose */
	STORE_COUNT
};

/* "nt", "t", "rep", "clzero", "clzero_nofence", "dir", "kernel" */
const char *store_name(enum store s);

/*
 * Whether every store is complete when the routine returns, as a kernel's
 * clear_page() or copy_page() must be: all kinds but CLZERO_NOFENCE (the
 * non-temporal rows end with SFENCE). The answer's candidates are these.
 */
bool store_done_at_return(enum store s);

#endif
