/* SPDX-License-Identifier: MIT */
/*
 * A small printf: %d %i %u %x %X %c %s %p %%, with the l, ll and z
 * length modifiers, a field width, '0' padding and '-' for left alignment.
 * Output is always NUL-terminated and truncated to fit, like snprintf().
 */
#ifndef PB_FMT_H
#define PB_FMT_H

#include <stdarg.h>
#include <stddef.h>

/* Returns the length the full output would have had. */
size_t fmt_vsnprintf(char *buf, size_t size, const char *fmt, va_list ap);
size_t fmt_snprintf(char *buf, size_t size, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

#endif
