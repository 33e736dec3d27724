/* SPDX-License-Identifier: MIT */
/*
 * Which log lines the screen shows, and where. Lines are matched by the
 * start of their text (after the tag), as docs/log-format.md names them;
 * a line type not listed here is serial only. The progress row follows
 * run_step(), whatever is running when a line is printed.
 */
#include "lib/out.h"
#include "lib/run.h"
#include "kernel/screen/screen.h"
#include "lib/str.h"

enum region { HEADER, MESSAGE, FOOTER_DONE, FOOTER_LOG, FOOTER_END };

/* The footer's rows, top to bottom. */
enum { FOOTER_ROW_DONE, FOOTER_ROW_LOG, FOOTER_ROW_END };

static const struct route {
	const char *prefix;
	enum region to;
	enum screen_tone tone;
} routes[] = {
	/* The header, in this order. */
	{ "pagebench version=", HEADER, TONE_BRIGHT },
	{ "brand: ", HEADER, TONE_BRIGHT },
	{ "cpu ", HEADER, TONE_BRIGHT },
	{ "cache ", HEADER, TONE_BRIGHT },
	{ "tsc khz=", HEADER, TONE_BRIGHT },
	{ "cmdline: ", HEADER, TONE_BRIGHT },
	{ "plan ", HEADER, TONE_BRIGHT },
	{ "exception: ", MESSAGE, TONE_BAD },
	{ "option error: ", MESSAGE, TONE_BAD },
	{ "verify FAILED: ", MESSAGE, TONE_BAD },
	{ "fault: ", MESSAGE, TONE_BAD },
	{ "watchdog: ", MESSAGE, TONE_BAD },
	{ "selftest smp: FAILED", MESSAGE, TONE_BAD },
	{ "cpus: ", MESSAGE, TONE_WARN },
	{ "note: ", MESSAGE, TONE_WARN },
	{ "skipped: ", MESSAGE, TONE_WARN },
	{ "skipped pass: ", MESSAGE, TONE_WARN },
	{ "done: 0 failures", FOOTER_DONE, TONE_GOOD },
	{ "done: ", FOOTER_DONE, TONE_BAD },
	{ "log saved: ", FOOTER_LOG, TONE_PLAIN },
	{ "log not saved: ", FOOTER_LOG, TONE_PLAIN },
	{ "run complete, ", FOOTER_END, TONE_PLAIN },
};

#define NROUTES		(sizeof(routes) / sizeof(routes[0]))
#define TEXT_MAX	OUT_LINE_MAX

/* The first failures, for the screen's summary to keep in view. */
#define FAILURES_KEPT 3

static char header[NROUTES][TEXT_MAX];
static char failures[FAILURES_KEPT][TEXT_MAX];
static unsigned int nfailures;
static char footer[SCREEN_FOOTER_MAX][TEXT_MAX];
static enum screen_tone footer_tone;

static bool starts_with(const char *s, const char *prefix)
{
	while (*prefix)
		if (*s++ != *prefix++)
			return false;
	return true;
}

static void copy(char *dst, const char *src)
{
	unsigned int i;

	for (i = 0; i + 1 < TEXT_MAX && src[i]; i++)
		dst[i] = src[i];
	dst[i] = '\0';
}

static void show_header(void)
{
	const char *lines[SCREEN_HEADER_MAX];
	unsigned int i, n = 0;

	for (i = 0; i < NROUTES && n < SCREEN_HEADER_MAX; i++)
		if (header[i][0])
			lines[n++] = header[i];
	screen_set_header(lines, n);
}

static void show_footer(void)
{
	const char *lines[SCREEN_FOOTER_MAX];
	unsigned int i, n = 0;

	for (i = 0; i < SCREEN_FOOTER_MAX; i++)
		if (footer[i][0])
			lines[n++] = footer[i];
	screen_set_footer(footer_tone, lines, n);
}

unsigned int screen_log_failures(const char **lines, unsigned int max)
{
	unsigned int i;

	for (i = 0; i < nfailures && i < max; i++)
		lines[i] = failures[i];
	return i;
}

/*
 * At the end the summary needs the room: the header keeps what says which
 * machine this was (CPU, caches, TSC), so a photograph still tells.
 */
void screen_log_keep_identity(void)
{
	static const char *const keep[] = { "brand: ", "cpu ", "cache ", "tsc khz=" };
	const char *lines[SCREEN_HEADER_MAX];
	unsigned int i, k, n = 0;

	for (i = 0; i < NROUTES && n < SCREEN_HEADER_MAX; i++)
		for (k = 0; k < sizeof(keep) / sizeof(keep[0]); k++)
			if (routes[i].to == HEADER && str_eq(routes[i].prefix, keep[k]) &&
			    header[i][0])
				lines[n++] = header[i];
	screen_set_header(lines, n);
}

static void route(const char *text)
{
	unsigned int i;

	for (i = 0; i < NROUTES; i++)
		if (starts_with(text, routes[i].prefix))
			break;
	if (i == NROUTES)
		return;
	switch (routes[i].to) {
	case HEADER:
		copy(header[i], text);
		show_header();
		break;
	case MESSAGE:
		screen_message(routes[i].tone, text);
		if (routes[i].tone == TONE_BAD && nfailures < FAILURES_KEPT)
			copy(failures[nfailures++], text);
		break;
	case FOOTER_DONE:
		footer_tone = routes[i].tone;
		copy(footer[FOOTER_ROW_DONE], text);
		show_footer();
		break;
	case FOOTER_LOG:
		copy(footer[FOOTER_ROW_LOG], text);
		show_footer();
		break;
	case FOOTER_END:
		copy(footer[FOOTER_ROW_END], text);
		show_footer();
		break;
	}
}

void screen_log_sink(const char *s, size_t len)
{
	static bool busy;
	char text[TEXT_MAX];
	size_t i = 0, n = 0;

	/*
	 * A fault while drawing prints an exception line, which would come
	 * back here and fault again: serial alone reports it then.
	 */
	if (!screen_cols() || busy)
		return;
	busy = true;
	/* "(TAG) text\n": the text alone. */
	while (i < len && s[i] != ')')
		i++;
	i += 2;
	while (i < len && s[i] != '\n' && s[i] != '\r' && n + 1 < sizeof(text))
		text[n++] = s[i++];
	text[n] = '\0';

	route(text);
	busy = false;
}
