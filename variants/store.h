/* SPDX-License-Identifier: MIT */
/*
 * How a variant's stores write memory: a column of each .def row, printed
 * as the variant line's store= (docs/log-format.md). A plain vector name
 * (sse2, avx, avx512) stores non-temporally in every table, as in the 2021
 * experiment; its _t twin stores through the cache.
 */
#ifndef PB_STORE_H
#define PB_STORE_H

enum store {
	STORE_NT,	/* non-temporal: MOVNTI, MOVNTDQ, around the cache */
	STORE_T,	/* temporal: plain MOV stores, through the cache */
	STORE_REP,	/* a REP STOS or MOVS: the microcode chooses */
	STORE_CLZERO,	/* CLZERO: a whole line zeroed at once */
	STORE_DIR,	/* MOVDIR64B: one 64-byte direct store */
	STORE_KERNEL,	/* the module's kernel_* rows: what the kernel's alternatives chose */
	STORE_COUNT
};

const char *store_name(enum store s);	/* "nt", "t", "rep", "clzero", "dir", "kernel" */

#endif
