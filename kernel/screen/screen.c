/* SPDX-License-Identifier: MIT */
/*
 * The layout of kernel/screen/screen.h. Every call stores its text and repaints
 * the whole layout into a shadow of the screen; only cells that changed
 * reach the hardware, so repainting is cheap and regions can move.
 */
#include "kernel/screen/font.h"
#include "kernel/screen/screen.h"
#include "kernel/screen/vga.h"

#define LINE_BYTES	(SCREEN_MAX_COLS + 1)
#define ATTR(fg)	VGA_ATTR(fg, VGA_BLACK)	/* black is all the kernel draws on */
#define ATTR_RULE	ATTR(VGA_DARK_GREY)
#define ATTR_PROGRESS	ATTR(VGA_LIGHT_CYAN)
#define CELL_UNKNOWN	0xffff			/* forces the first paint */
#define WRAP_INDENT	2

struct line {
	char text[LINE_BYTES];
	uint8_t attr;
};

static const uint8_t tone_attr[] = {
	[TONE_PLAIN] = ATTR(VGA_LIGHT_GREY),
	[TONE_BRIGHT] = ATTR(VGA_WHITE),
	[TONE_GOOD] = ATTR(VGA_LIGHT_GREEN),
	[TONE_WARN] = ATTR(VGA_YELLOW),
	[TONE_BAD] = ATTR(VGA_LIGHT_RED),
};

static struct {
	screen_put_fn put;
	unsigned int cols, rows, body_rows;
	uint16_t shown[SCREEN_MAX_ROWS][SCREEN_MAX_COLS];
	struct line header[SCREEN_HEADER_MAX];
	struct line progress[SCREEN_PROGRESS_MAX];
	struct line footer[SCREEN_FOOTER_MAX];
	struct line msgs[SCREEN_MAX_ROWS];	/* a ring, oldest at msg_first */
	struct line summary[SCREEN_MAX_ROWS];
	unsigned int nheader, nprogress, nfooter, nmsgs, msg_first, nsummary;
	unsigned int summary_dropped;
	bool summary_on;
	const char *summary_label;	/* the rule above it: "summary", "answer" */
} scr;

static void copy_text(struct line *l, const char *s, unsigned int max,
		      uint8_t attr)
{
	unsigned int i;

	for (i = 0; i < max && s && s[i]; i++)
		l->text[i] = s[i];
	l->text[i] = '\0';
	l->attr = attr;
}

static unsigned int text_len(const char *s)
{
	unsigned int n = 0;

	while (s[n])
		n++;
	return n;
}

static void cell(unsigned int row, unsigned int col, uint8_t ch, uint8_t attr)
{
	uint16_t v = (uint16_t)attr << 8 | ch;

	if (row >= scr.rows || col >= scr.cols || scr.shown[row][col] == v)
		return;
	scr.shown[row][col] = v;
	scr.put(col, row, ch, attr);
}

/* Control characters would show as whatever the firmware's font has there. */
static uint8_t printable(char c)
{
	uint8_t ch = (uint8_t)c;

	return ch < 0x20 || ch == 0x7f ? '?' : ch;
}

static void paint_text(unsigned int row, const char *text, uint8_t attr)
{
	unsigned int col;
	bool ended = false;

	for (col = 0; col < scr.cols; col++) {
		ended = ended || !text[col];
		cell(row, col, ended ? ' ' : printable(text[col]), attr);
	}
}

/* ─ label ──────── across the screen */
static void paint_rule(unsigned int row, const char *label)
{
	unsigned int col = 0, i;

	cell(row, col++, CH_HLINE, ATTR_RULE);
	if (label[0]) {
		cell(row, col++, ' ', ATTR_RULE);
		for (i = 0; label[i]; i++)
			cell(row, col++, label[i], ATTR_RULE);
		cell(row, col++, ' ', ATTR_RULE);
	}
	while (col < scr.cols)
		cell(row, col++, CH_HLINE, ATTR_RULE);
}

static void paint_lines(unsigned int *row, const struct line *l, unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		paint_text((*row)++, l[i].text, l[i].attr);
}

/* The summary from its top; a last row says so when it does not fit. */
static void paint_summary(unsigned int row, unsigned int rows)
{
	unsigned int total = scr.nsummary + scr.summary_dropped;
	unsigned int shown = total <= rows ? scr.nsummary : (rows ? rows - 1 : 0);
	unsigned int i;

	for (i = 0; i < rows; i++) {
		if (i < shown)
			paint_text(row + i, scr.summary[i].text, scr.summary[i].attr);
		else if (i == shown && shown < total)
			paint_text(row + i, "... more: see the serial log",
				   tone_attr[TONE_WARN]);
		else
			paint_text(row + i, "", tone_attr[TONE_PLAIN]);
	}
}

/* Like a terminal: from the top, scrolled once the body is full. */
static void paint_messages(unsigned int row, unsigned int rows)
{
	unsigned int shown = scr.nmsgs < rows ? scr.nmsgs : rows;
	unsigned int first = scr.msg_first + scr.nmsgs - shown;
	const struct line *l;
	unsigned int i;

	for (i = 0; i < rows; i++) {
		if (i < shown) {
			l = &scr.msgs[(first + i) % SCREEN_MAX_ROWS];
			paint_text(row + i, l->text, l->attr);
		} else {
			paint_text(row + i, "", tone_attr[TONE_PLAIN]);
		}
	}
}

static void paint(void)
{
	unsigned int row = 0, fixed, nheader;

	if (!scr.put)
		return;
	/* A small screen still shows the progress and the body. */
	nheader = scr.nheader < scr.rows / 3 ? scr.nheader : scr.rows / 3;
	fixed = nheader + 1 + (scr.nprogress ? scr.nprogress + 1 : 0) +
		(scr.nfooter ? scr.nfooter + 1 : 0);
	scr.body_rows = scr.rows > fixed ? scr.rows - fixed : 0;

	paint_lines(&row, scr.header, nheader);
	if (scr.nprogress) {
		paint_rule(row++, "progress");
		paint_lines(&row, scr.progress, scr.nprogress);
	}
	paint_rule(row++, scr.summary_on ? scr.summary_label : "messages");
	if (scr.summary_on)
		paint_summary(row, scr.body_rows);
	else
		paint_messages(row, scr.body_rows);
	row += scr.body_rows;
	if (scr.nfooter) {
		paint_rule(row++, "");
		paint_lines(&row, scr.footer, scr.nfooter);
	}
}

void screen_attach(unsigned int cols, unsigned int rows, screen_put_fn put)
{
	unsigned int r, c;

	scr.cols = cols < SCREEN_MAX_COLS ? cols : SCREEN_MAX_COLS;
	scr.rows = rows < SCREEN_MAX_ROWS ? rows : SCREEN_MAX_ROWS;
	for (r = 0; r < SCREEN_MAX_ROWS; r++)
		for (c = 0; c < SCREEN_MAX_COLS; c++)
			scr.shown[r][c] = CELL_UNKNOWN;
	scr.put = put;
	paint();
}

unsigned int screen_cols(void)
{
	return scr.put ? scr.cols : 0;
}

unsigned int screen_rows(void)
{
	return scr.put ? scr.rows : 0;
}

unsigned int screen_body_rows(void)
{
	return scr.put ? scr.body_rows : 0;
}

void screen_set_header(const char *const *lines, unsigned int n)
{
	unsigned int i;

	scr.nheader = n < SCREEN_HEADER_MAX ? n : SCREEN_HEADER_MAX;
	for (i = 0; i < scr.nheader; i++)
		copy_text(&scr.header[i], lines[i], SCREEN_MAX_COLS, tone_attr[TONE_BRIGHT]);
	paint();
}

void screen_set_progress(const char *const *lines, unsigned int n)
{
	unsigned int i;

	scr.nprogress = n < SCREEN_PROGRESS_MAX ? n : SCREEN_PROGRESS_MAX;
	for (i = 0; i < scr.nprogress; i++)
		copy_text(&scr.progress[i], lines[i], SCREEN_MAX_COLS, ATTR_PROGRESS);
	paint();
}

static void add_message_row(const char *text, unsigned int len, uint8_t attr,
			    bool continued)
{
	struct line *l;
	unsigned int i = 0, k;

	if (scr.nmsgs == SCREEN_MAX_ROWS) {
		scr.msg_first = (scr.msg_first + 1) % SCREEN_MAX_ROWS;
		scr.nmsgs--;
	}
	l = &scr.msgs[(scr.msg_first + scr.nmsgs++) % SCREEN_MAX_ROWS];
	if (continued)
		for (; i < WRAP_INDENT; i++)
			l->text[i] = ' ';
	for (k = 0; k < len; k++)
		l->text[i++] = text[k];
	l->text[i] = '\0';
	l->attr = attr;
}

/*
 * Where a row of at most width characters ends: at the last space that
 * leaves the row at least half full, else mid-word.
 */
static unsigned int wrap_at(const char *text, unsigned int len, unsigned int width)
{
	unsigned int i;

	if (len <= width)
		return len;
	for (i = width; i > width / 2; i--)
		if (text[i] == ' ')
			return i;
	return width;
}

void screen_message(enum screen_tone tone, const char *text)
{
	unsigned int len = text_len(text), width, chunk;
	bool continued = false;

	if (!scr.put || scr.cols <= WRAP_INDENT)
		return;
	/* Wrapped: a message is often the one line that explains a failure. */
	do {
		width = continued ? scr.cols - WRAP_INDENT : scr.cols;
		chunk = wrap_at(text, len, width);
		add_message_row(text, chunk, tone_attr[tone], continued);
		text += chunk;
		len -= chunk;
		while (len && *text == ' ') {	/* the break needs no space of its own */
			text++;
			len--;
		}
		continued = true;
	} while (len);
	paint();
}

void screen_show_summary(const char *const *lines, unsigned int n)
{
	screen_show_page("summary", lines, n);
}

void screen_show_page(const char *label, const char *const *lines, unsigned int n)
{
	unsigned int i;

	scr.summary_label = label;
	scr.nsummary = n < SCREEN_MAX_ROWS ? n : SCREEN_MAX_ROWS;
	scr.summary_dropped = n - scr.nsummary;
	for (i = 0; i < scr.nsummary; i++)
		copy_text(&scr.summary[i], lines[i], SCREEN_MAX_COLS, tone_attr[TONE_PLAIN]);
	scr.summary_on = true;
	paint();
}

void screen_set_footer(enum screen_tone tone, const char *const *lines,
		       unsigned int n)
{
	unsigned int i;

	scr.nfooter = n < SCREEN_FOOTER_MAX ? n : SCREEN_FOOTER_MAX;
	for (i = 0; i < scr.nfooter; i++)
		copy_text(&scr.footer[i], lines[i], SCREEN_MAX_COLS, tone_attr[tone]);
	paint();
}
