/* SPDX-License-Identifier: MIT */
/*
 * The screen: text in, layout out. Callers hand over lines of text; the
 * screen places them in fixed regions, top to bottom:
 *
 *   header     facts that do not change (CPU, caches, TSC, options)
 *   progress   rows rewritten in place as the run goes on
 *   body       scrolling messages while running; the summary at the end
 *   footer     the done: line, where the log went (or why not), the end
 *
 * with a labelled rule between regions. Regions with no lines take no
 * rows; the body gets what is left. Text is code page 437 bytes (ASCII,
 * and the line characters of kernel/screen/font.h); lines longer than the screen
 * is wide are cut, except messages, which wrap. Serial output is not
 * affected by any of this.
 */
#ifndef PB_SCREEN_H
#define PB_SCREEN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "kernel/boot/boot_info.h"

#define SCREEN_MAX_COLS		256
#define SCREEN_MAX_ROWS		128
#define SCREEN_HEADER_MAX	10
#define SCREEN_PROGRESS_MAX	4
#define SCREEN_FOOTER_MAX	3

enum screen_tone {
	TONE_PLAIN,		/* ordinary text */
	TONE_BRIGHT,		/* what the eye should find first */
	TONE_GOOD,		/* e.g. done: 0 failures */
	TONE_WARN,		/* notes, skips */
	TONE_BAD,		/* exceptions, failures, option errors */
};

/*
 * Take the screen the loader left (VGA text or an RGB framebuffer, mapped
 * if it lies beyond the boot mappings) and clear it. false: there is no
 * screen to draw on; every other call below then does nothing.
 */
bool screen_init(const struct boot_info *bi);
/* Prints the "screen:" log line: what screen this is, or why there is none. */
void screen_report(void);

unsigned int screen_cols(void);		/* 0 without a screen */
unsigned int screen_rows(void);
unsigned int screen_body_rows(void);	/* rows the body has now */

void screen_set_header(const char *const *lines, unsigned int n);
void screen_set_progress(const char *const *lines, unsigned int n);
/* One message at the bottom of the body, scrolling older ones up. */
void screen_message(enum screen_tone tone, const char *text);
/* The body shows these lines from now on, in place of the messages. */
void screen_show_summary(const char *const *lines, unsigned int n);
/* The same under another label than "summary" (a string that stays). */
void screen_show_page(const char *label, const char *const *lines, unsigned int n);
void screen_set_footer(enum screen_tone tone, const char *const *lines,
		       unsigned int n);

/*
 * An out_line() sink: the log lines a person at the screen needs go to
 * their region (kernel/screen/log_routing.c says which); value lines and other
 * bulk stay on serial only.
 */
void screen_log_sink(const char *s, size_t len);
/* The first failure lines (exception, option error, verify, fault) seen. */
unsigned int screen_log_failures(const char **lines, unsigned int max);
/* Shrinks the header to the lines that say which machine this is. */
void screen_log_keep_identity(void);

/* The drawing side, for screen_init() and the host unit test. */
typedef void (*screen_put_fn)(unsigned int col, unsigned int row, uint8_t ch,
			      uint8_t attr);
void screen_attach(unsigned int cols, unsigned int rows, screen_put_fn put);

#endif
