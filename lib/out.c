/* SPDX-License-Identifier: MIT */
#include <stdarg.h>
#include "lib/fmt.h"
#include "lib/out.h"

#define OUT_MAX_SINKS 4

static out_sink sinks[OUT_MAX_SINKS];
static unsigned int nsinks;
static char tag[16] = "PB";

void out_add_sink(out_sink sink)
{
	if (nsinks < OUT_MAX_SINKS)
		sinks[nsinks++] = sink;
}

void out_set_tag(const char *t)
{
	unsigned int i;

	for (i = 0; i + 1 < sizeof(tag) && t[i]; i++)
		tag[i] = t[i];
	tag[i] = '\0';
}

void out_line(const char *fmt, ...)
{
	char line[OUT_LINE_MAX];
	size_t n, cap = sizeof(line) - 1;	/* room for the newline */
	unsigned int i;
	va_list ap;

	n = fmt_snprintf(line, cap, "(%s) ", tag);
	if (n > cap - 1)
		n = cap - 1;
	va_start(ap, fmt);
	n += fmt_vsnprintf(line + n, cap - n, fmt, ap);
	va_end(ap);
	if (n > cap - 1)
		n = cap - 1;	/* truncated: still one whole line */
	/* One call, one line: text from outside (a command line, a CPU's
	 * brand string) cannot end it early and forge the next. */
	for (i = 0; i < n; i++)
		if ((unsigned char)line[i] < ' ' || line[i] == 0x7f)
			line[i] = '?';
	line[n++] = '\n';
	for (i = 0; i < nsinks; i++)
		sinks[i](line, n);
}
