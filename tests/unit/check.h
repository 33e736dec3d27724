/* SPDX-License-Identifier: MIT */
/*
 * The C unit tests' one reporting protocol, read by tests/unit/test_unit.py:
 * a line per check, "ok NAME", "FAIL NAME: why" or "skip NAME: why"; the
 * program exits 1 when anything failed (return check_exit() from main).
 */
#ifndef PB_TEST_CHECK_H
#define PB_TEST_CHECK_H

#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>

static int failures;

static void __attribute__((format(printf, 3, 4), unused))
result(bool ok, const char *name, const char *fmt, ...)
{
	va_list ap;

	if (ok) {
		printf("ok %s\n", name);
		return;
	}
	failures++;
	printf("FAIL %s: ", name);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
}

static void __attribute__((unused)) skip(const char *name, const char *why)
{
	printf("skip %s: %s\n", name, why);
}

static int __attribute__((unused)) check_exit(void)
{
	return failures ? 1 : 0;
}

#endif
