/* SPDX-License-Identifier: MIT */
/*
 * The clear and copy variants: one table, as perf bench's mem-functions.c
 * has one struct function array. Each routine lives in one .asm file of
 * variants/ and has exactly one line in clear.def or copy.def, which names
 * it: the routine of row NAME is clear_NAME or copy_NAME. Adding a variant
 * means adding its routine and its line, nothing else.
 *
 * Every routine has the System V shape fn(dst, src, bytes): rdi = dst,
 * rsi = src (copies; clears ignore it), rdx = bytes (range routines; page
 * routines do exactly one page and ignore it). The same objects link into
 * the kernel and into user space. Pointers are 4 KiB aligned; sizes are
 * whole pages. Routines may clobber rax, rcx, rdx, rsi, rdi, r8-r11 and
 * vector registers, nothing else, and return with DF clear.
 */
#ifndef PB_VARIANTS_H
#define PB_VARIANTS_H

#include <stdbool.h>
#include <stddef.h>
#include "cpu/cpu.h"
#include "variants/store.h"

/* The kernel's headers define the same 4 KiB (module/kernel_routines.c). */
#ifndef PAGE_SIZE
#define PAGE_SIZE 4096u
#endif

/* What a variant does to dst. The order is the order the suites run in. */
enum op { OP_CLEAR, OP_COPY, OP_COUNT };

/* A page routine is called once per 4 KiB page, as clear_page() and
 * copy_page() callers do; a range routine once for the whole region. */
enum variant_shape { SHAPE_PAGE, SHAPE_RANGE };

/*
 * VEC: the routine uses vector registers, which a kernel may touch only
 * once it has saved the interrupted task's (host_vector_begin()).
 */
enum variant_regs { REGS_GPR, REGS_VEC };

typedef void variant_fn(void *dst, const void *src, size_t bytes);

struct variant {
	const char *name;	/* unique within its op */
	enum op op;
	enum variant_shape shape;
	enum store store;
	variant_fn *fn;
	enum feat need;
	enum variant_regs regs;
	bool xen;		/* one of the 2021 Xen experiment's variants */
	const char *what;
};

#define CLEAR(name, shape, store, need, regs, xen, cite, what) variant_fn clear_##name;
#define COPY(name, shape, store, need, regs, cite, what) variant_fn copy_##name;
#include "variants/clear.def"
#include "variants/copy.def"
#undef CLEAR
#undef COPY

extern const struct variant variants[];
extern const unsigned int variant_count;

/* Sets of variants are bitmaps over the table's indices. */
#define VARIANTS_MAX 64
typedef unsigned long long variant_set;

const char *op_name(enum op op);	/* "clear", "copy" */

/*
 * The variant an op's ratio lines divide by (docs/method.md, "Ratios"):
 * stosb and movsq, what Linux's clear_page() and copy_page() run on a CPU
 * with ERMS and REP_GOOD, and routines every x86-64 CPU runs, so that no
 * missing feature skips the reference. Its index in the table, or -1.
 */
int op_ratio_ref(enum op op);
const char *shape_name(enum variant_shape shape);	/* "page", "range" */

/*
 * The most a clear range routine is given in one call: Linux 7.0's
 * PROCESS_PAGES_NON_PREEMPT_BATCH where the architecture has clear_pages(),
 * 32 MiB, the batch its callers keep to on kernels that are not
 * preemptible (include/linux/mm.h, torvalds/linux@94962b2628e6), so that a
 * range variant times calls of the size a kernel makes.
 */
#define CLEAR_RANGE_BATCH (32u << 20)

/*
 * Calls v over [dst, dst + bytes): once per page, or for a range routine
 * once for the region (copies) or once per CLEAR_RANGE_BATCH (clears).
 */
void variant_call(const struct variant *v, void *dst, const void *src,
		  size_t bytes);

/*
 * How many times a kernel enters v to do bytes as variant_call() does:
 * once per page, per CLEAR_RANGE_BATCH of a clear range, or once for a
 * copy range. A VEC routine pays kernel_fpu_begin/end once per entry
 * (harness/decide/answer.h).
 */
size_t variant_calls(const struct variant *v, size_t bytes);

/* Sets what a routine takes from the CPU: clear_clzero_sf's step. */
void variants_configure(const struct cpu_desc *d);

#endif
