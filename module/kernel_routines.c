// SPDX-License-Identifier: MIT
/*
 * The running kernel's own routines as variants (module/clear.def,
 * copy.def, strings.def). Each calls the kernel's routine the way its own
 * callers do, so the call goes where the kernel's alternatives patched it
 * at boot (for this module's calls, at load): what "today's choice" costs.
 * Each wrapper adds one call level beside a variant of variants/.
 */
#include <linux/mm.h>
#include <linux/string.h>
#include <generated/utsrelease.h>
#include <asm/page.h>
#include "module/kernel.h"

/* The shapes of variants/variants.h and strings.h, for the module's rows. */
#define CLEAR(name, shape, store, need, regs, xen, cite, what) \
	void clear_##name(void *dst, const void *src, size_t bytes);
#define COPY(name, shape, store, need, regs, cite, what) \
	void copy_##name(void *dst, const void *src, size_t bytes);
#define STRING_DECL_memset(fn)	void *fn(void *dst, int c, size_t n);
#define STRING_DECL_memcpy(fn)	void *fn(void *dst, const void *src, size_t n);
#define STRING_VARIANT(op, name, store, need, regs, cite, what) STRING_DECL_##op(op##_##name)
#include "module/clear.def"
#include "module/copy.def"
#include "module/strings.def"

void clear_kernel_clear_page(void *dst, const void *src, size_t bytes)
{
	clear_page(dst);
}

/* x86's clear_pages() defines one of these; Linux 6.1 has neither. */
#if defined(__HAVE_ARCH_CLEAR_PAGES) || defined(clear_pages)
#define HAVE_CLEAR_PAGES 1
void clear_kernel_clear_pages(void *dst, const void *src, size_t bytes)
{
	clear_pages(dst, bytes / PAGE_SIZE);
}
#else
#define HAVE_CLEAR_PAGES 0
/* Never called (pbk_routine_missing()); clears nothing, which verify would catch. */
void clear_kernel_clear_pages(void *dst, const void *src, size_t bytes)
{
}
#endif

void copy_kernel_copy_page(void *dst, const void *src, size_t bytes)
{
	copy_page(dst, (void *)src);
}

void *memset_kernel_memset(void *dst, int c, size_t n)
{
	return memset(dst, c, n);
}

void *memcpy_kernel_memcpy(void *dst, const void *src, size_t n)
{
	return memcpy(dst, src, n);
}

const char *pbk_routine_missing(const void *fn)
{
	if (fn == clear_kernel_clear_pages && !HAVE_CLEAR_PAGES)
		return "the kernel this module was built for (" UTS_RELEASE ") has no clear_pages(): its headers define none (it clears a huge page one clear_page() at a time)";
	return NULL;
}
