/* SPDX-License-Identifier: MIT */
/*
 * The whole log, kept in memory for the file written at the end (UEFI,
 * kernel/efi/efi_log.c). Lines are kept as serial sends them ("\r\n"), from
 * the first, until the buffer is full; the lines after that are counted,
 * and the kept text ends with a note saying how many are on serial only.
 */
#ifndef PB_LOG_KEEP_H
#define PB_LOG_KEEP_H

#include <stddef.h>

struct log_keep {
	char *buf;
	size_t cap, used;
	unsigned long lost;	/* lines that did not fit */
	char tag[16];		/* of the first line, for the closing note */
};

void log_keep_init(struct log_keep *k, char *buf, size_t cap);
/* One out_line() line, "(TAG) text\n". */
void log_keep_add(struct log_keep *k, const char *s, size_t len);
/* The kept text and its length, the closing note added when lines were lost. */
size_t log_keep_text(struct log_keep *k, const char **text);

/* The kernel's log: an out_line() sink and its text (1 MiB at most). */
#define LOG_KEEP_BYTES	(1u << 20)
void log_keep_sink(const char *s, size_t len);
struct log_keep *log_kept(void);

#endif
