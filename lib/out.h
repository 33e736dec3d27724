/* SPDX-License-Identifier: MIT */
/*
 * Result lines. Every line is "(TAG) text\n" and goes to every sink: the
 * serial port and the screen in the kernel, stdout in the host tools.
 */
#ifndef PB_OUT_H
#define PB_OUT_H

#include <stddef.h>

#define OUT_LINE_MAX 512

typedef void (*out_sink)(const char *s, size_t len);

void out_add_sink(out_sink sink);
void out_set_tag(const char *tag);	/* at most 15 characters, [A-Za-z0-9_] */

/*
 * One result line; the tag and the newline are added here. A control
 * character in the text prints as "?", so the line stays one line.
 */
void out_line(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#endif
