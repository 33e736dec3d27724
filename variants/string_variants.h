/* SPDX-License-Identifier: MIT */
/*
 * The short-string variants: memset and memcpy routines measured over
 * sizes and alignments (issue 12). Each routine lives in a
 * variants/memset_*.asm or memcpy_*.asm file and has exactly one line in
 * strings.def, which names it: the routine of row (OP, NAME) is OP_NAME.
 *
 * Calling convention: exactly libc's, System V AMD64:
 *	void *memset(void *dst, int c, size_t n)  fills with (unsigned char)c
 *	void *memcpy(void *dst, const void *src, size_t n)
 * Both return dst. Any alignment of dst and src, any n including 0; no
 * access outside [dst, dst + n) and [src, src + n). Routines may clobber
 * rax, rcx, rdx, rsi, rdi, r8-r11, the flags (DF stays clear), k and
 * vector registers; nothing else.
 */
#ifndef PB_STRING_VARIANTS_H
#define PB_STRING_VARIANTS_H

#include <stddef.h>
#include "cpu/cpu.h"
#include "variants/store.h"
#include "variants/variants.h"

enum string_op {
	STRING_MEMSET,
	STRING_MEMCPY,
};

struct string_variant {
	enum string_op op;
	const char *name;		/* unique within its op */
	void *(*set)(void *dst, int c, size_t n);		/* STRING_MEMSET, else NULL */
	void *(*copy)(void *dst, const void *src, size_t n);	/* STRING_MEMCPY, else NULL */
	enum feat need;			/* FEAT_NONE: runs on any x86-64 */
	const char *what;
	enum store store;
	enum variant_regs regs;		/* as in variants.h */
};

#define STRING_DECL_memset(fn)	void *fn(void *dst, int c, size_t n);
#define STRING_DECL_memcpy(fn)	void *fn(void *dst, const void *src, size_t n);
#define STRING_VARIANT(op, name, store, need, regs, cite, what) STRING_DECL_##op(op##_##name)
#include "variants/strings.def"
#undef STRING_VARIANT
#undef STRING_DECL_memset
#undef STRING_DECL_memcpy

/* Sets of them are bitmaps over the table's indices, as variant_set. */
#define STRING_VARIANTS_MAX 64

extern const struct string_variant string_variants[];
extern const unsigned int string_variant_count;

/* "memset" or "memcpy". */
const char *string_op_name(enum string_op op);

#endif
