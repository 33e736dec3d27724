/* SPDX-License-Identifier: MIT */
#include "lib/fmt.h"
#include "lib/out.h"
#include "kernel/efi/log_keep.h"

/* Kept back for the closing note: one whole line and its "\r". */
#define NOTE_ROOM	(OUT_LINE_MAX + 1)

void log_keep_init(struct log_keep *k, char *buf, size_t cap)
{
	k->buf = buf;
	k->cap = cap;
	k->used = 0;
	k->lost = 0;
	k->tag[0] = '\0';
}

/* "(TAG) ...": TAG, or nothing when the line has no tag. */
static void take_tag(struct log_keep *k, const char *s, size_t len)
{
	size_t i, n = 0;

	if (!len || s[0] != '(')
		return;
	for (i = 1; i < len && s[i] != ')' && n + 1 < sizeof(k->tag); i++)
		k->tag[n++] = s[i];
	k->tag[n] = '\0';
}

void log_keep_add(struct log_keep *k, const char *s, size_t len)
{
	size_t i, need = len;

	for (i = 0; i < len; i++)
		need += s[i] == '\n';
	/* Once a line is lost, so are all after it: the file has no holes. */
	if (k->lost || k->cap < NOTE_ROOM || k->used + need > k->cap - NOTE_ROOM) {
		k->lost++;
		return;
	}
	if (!k->used)
		take_tag(k, s, len);
	for (i = 0; i < len; i++) {
		if (s[i] == '\n')
			k->buf[k->used++] = '\r';
		k->buf[k->used++] = s[i];
	}
}

size_t log_keep_text(struct log_keep *k, const char **text)
{
	size_t note;

	*text = k->buf;
	if (!k->lost || k->cap < NOTE_ROOM)
		return k->used;
	/* Written past the kept lines, each time: the text stays as it was. */
	note = fmt_snprintf(k->buf + k->used, NOTE_ROOM,
			    "(%s) note: the saved log stops at its limit of %zu bytes: %lu more lines are on serial only\r\n",
			    k->tag[0] ? k->tag : "PB", k->cap, k->lost);
	return k->used + (note < NOTE_ROOM ? note : NOTE_ROOM - 1);
}

static char kernel_buf[LOG_KEEP_BYTES];
static struct log_keep kernel_log = { kernel_buf, sizeof(kernel_buf), 0, 0, "" };

void log_keep_sink(const char *s, size_t len)
{
	log_keep_add(&kernel_log, s, len);
}

struct log_keep *log_kept(void)
{
	return &kernel_log;
}
