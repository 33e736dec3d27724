/* SPDX-License-Identifier: MIT */
/*
 * The clear and copy variants. Each routine lives in one .asm file of variants/
 * and has exactly one line in clear.def or copy.def: adding a variant means
 * adding its routine and its line, nothing else.
 *
 * Calling convention: System V AMD64 (rdi, rsi, rdx), so the same objects
 * link into the kernel and into the host unit tests. Pointers are 4 KiB
 * aligned; sizes are whole pages. Routines may clobber rax, rcx, rdx, rsi,
 * rdi, r8-r11 and vector registers, nothing else.
 */
#ifndef PB_VARIANTS_H
#define PB_VARIANTS_H

#include <stdbool.h>
#include <stddef.h>
#include "harness/cpu.h"

#define PAGE_SIZE 4096u

struct clear_variant {
	const char *name;
	void (*page)(void *dst);		/* clears one page, or NULL */
	void (*range)(void *dst, size_t bytes);	/* clears the whole region, or NULL */
	enum feat need;
	bool xen;		/* one of the variants of the 2021 Xen experiment */
	const char *what;
};

struct copy_variant {
	const char *name;
	void (*page)(void *dst, const void *src);
	void (*range)(void *dst, const void *src, size_t bytes);
	enum feat need;
	const char *what;
};

#define CLEAR_PAGE(name, fn, need, xen, what)  void fn(void *dst);
#define CLEAR_RANGE(name, fn, need, xen, what) void fn(void *dst, size_t bytes);
#include "clear.def"
#undef CLEAR_PAGE
#undef CLEAR_RANGE

#define COPY_PAGE(name, fn, need, what)  void fn(void *dst, const void *src);
#define COPY_RANGE(name, fn, need, what) void fn(void *dst, const void *src, size_t bytes);
#include "copy.def"
#undef COPY_PAGE
#undef COPY_RANGE

extern const struct clear_variant clear_variants[];
extern const unsigned int clear_variant_count;
extern const struct copy_variant copy_variants[];
extern const unsigned int copy_variant_count;

#endif
