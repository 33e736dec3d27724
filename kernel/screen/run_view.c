/* SPDX-License-Identifier: MIT */
/*
 * What the screen shows of the run itself: the progress rows while it
 * measures, and at the end the answer's page first (kernel/screen/
 * answer.c), then the summary, in pages that fit the screen and take
 * turns, so each can be photographed; then the answer again, which stays.
 */
#include "kernel/screen/font.h"
#include "lib/fmt.h"
#include "cpu/insn.h"
#include "kernel/screen/screen.h"
#include "kernel/screen/run_view.h"
#include "kernel/screen/answer_page.h"

#define BAR_CELLS	30
#define PAGE_SECONDS	8
#define BLOCK_ROWS	(VARIANTS_MAX + 1)
#define COLUMNS_MAX	(2 * OP_COUNT * PASS_COUNT)
#define FAILURES_SHOWN	3
/* A summary block is at most this wide: two fit side by side on 120 columns. */
#define BLOCK_WIDTH	58
#define GAP		2
/* Without a TSC rate, a page turn waits this many TSC ticks (~2 s at 4 GHz). */
#define TICKS_UNKNOWN_RATE (8ull << 30)

/* Progress changes faster than anyone reads: redraw at most this often. */
#define REDRAW_MS	200

static void clock_text(char *buf, size_t len, uint64_t ms)
{
	uint64_t s = ms / 1000;

	fmt_snprintf(buf, len, "%lu:%02lu", (unsigned long)(s / 60),
		     (unsigned long)(s % 60));
}

void screen_run_progress(const struct progress *p)
{
	static uint64_t last_ms;
	static const char *last_pass;
	char rows[2][SCREEN_MAX_COLS], bar[BAR_CELLS + 1], took[16], left[24];
	unsigned int i, full = p->percent * BAR_CELLS / 100;

	if (!screen_cols())
		return;
	if (p->pass == last_pass && p->elapsed_ms && p->elapsed_ms - last_ms < REDRAW_MS)
		return;
	last_ms = p->elapsed_ms;
	last_pass = p->pass;
	for (i = 0; i < BAR_CELLS; i++)
		bar[i] = (char)(i < full ? CH_FULL_BLOCK : CH_LIGHT_SHADE);
	bar[BAR_CELLS] = '\0';
	clock_text(took, sizeof(took), p->elapsed_ms);
	if (p->left_ms == PROGRESS_UNKNOWN)
		fmt_snprintf(left, sizeof(left), "left: estimating");
	else {
		clock_text(left + 7, sizeof(left) - 7, p->left_ms);
		for (i = 0; i < 7; i++)
			left[i] = "left: ~"[i];
	}
	fmt_snprintf(rows[0], sizeof(rows[0]), "%s %s   variant %s   rep %u of %u",
		     p->suite, p->pass, p->variant, p->rep + 1, p->reps);
	fmt_snprintf(rows[1], sizeof(rows[1]), "%s %3u%%   elapsed %s   %s",
		     bar, p->percent, p->elapsed_ms ? took : "?", left);
	screen_set_progress((const char *const[]){ rows[0], rows[1] }, 2);
}

/*
 * The pages: blocks stacked in columns, as many columns side by side as
 * the screen is wide for, a block never split unless it alone is taller
 * than the page. Column k holds blocks col_first[k] up to col_first[k + 1];
 * a page is columns() columns.
 */
static struct {
	const struct summary *sum;
	const struct answers *answers;
	uint64_t tsc_khz;
	unsigned int ncols, pages;	/* pages of the summary's tables */
	unsigned int answer_rows;	/* the answer's page before them, if any */
	char answer[ANSWER_PAGE_ROWS][ANSWER_PAGE_COLS + 1];
	const char *failures[FAILURES_SHOWN];
	unsigned int nfailures;		/* shown above the summary on every page */
	unsigned int col_first[COLUMNS_MAX + 1];
} shown;

static unsigned int block_rows(const struct summary_pass *p)
{
	return 1 + p->n;
}

static unsigned int columns(void)
{
	unsigned int c = (screen_cols() + GAP) / (BLOCK_WIDTH + GAP);

	return c ? c : 1;
}

static void paginate(unsigned int rows)
{
	unsigned int b = 0, used;

	shown.ncols = 0;
	while (b < shown.sum->n && shown.ncols < COLUMNS_MAX) {
		shown.col_first[shown.ncols++] = b;
		/* The first block of a column goes in however tall it is. */
		used = block_rows(&shown.sum->pass[b++]);
		while (b < shown.sum->n &&
		       used + 1 + block_rows(&shown.sum->pass[b]) <= rows)
			used += 1 + block_rows(&shown.sum->pass[b++]);
	}
	shown.col_first[shown.ncols] = b;
	shown.pages = (shown.ncols + columns() - 1) / columns();
}

/* The failures above the body, as on the summary's pages. */
static unsigned int failure_rows(const char **lines)
{
	unsigned int r;

	for (r = 0; r < shown.nfailures; r++)
		lines[r] = shown.failures[r];
	if (r)
		lines[r++] = "";
	return r;
}

static void show_answer(void)
{
	const char *lines[FAILURES_SHOWN + 1 + ANSWER_PAGE_ROWS];
	unsigned int n = failure_rows(lines), r;
	char note[SCREEN_MAX_COLS];

	for (r = 0; r < shown.answer_rows; r++)
		lines[n++] = shown.answer[r];
	screen_show_page("answer", lines, n);
	fmt_snprintf(note, sizeof(note), "answer: keep or switch, per pass and kernel pick%s",
		     shown.pages ? "; the summary's pages follow" : "");
	screen_set_progress((const char *const[]){ note,
		screen_answer_legend(shown.answers) }, 2);
}

static void show_page(unsigned int page)
{
	static char text[SCREEN_MAX_ROWS][SCREEN_MAX_COLS];
	static char block[BLOCK_ROWS][SUMMARY_COLS];
	const char *lines[SCREEN_MAX_ROWS];
	unsigned int first = page * columns(), col, r, n, top;
	unsigned int width = BLOCK_WIDTH + GAP;
	char note[SCREEN_MAX_COLS], legend[SCREEN_MAX_COLS];

	if (page == shown.pages) {
		show_answer();
		return;
	}
	for (r = 0; r < SCREEN_MAX_ROWS; r++)
		text[r][0] = '\0';
	for (r = 0; r < shown.nfailures; r++)
		fmt_snprintf(text[r], SCREEN_MAX_COLS, "%s", shown.failures[r]);
	/* The failures, then a blank row, then the columns. */
	top = shown.nfailures ? shown.nfailures + 1 : 0;
	n = top;
	for (col = first; col < first + columns() && col < shown.ncols; col++) {
		unsigned int row = top, b;

		for (b = shown.col_first[col]; b < shown.col_first[col + 1]; b++) {
			unsigned int k, m = summary_block(&shown.sum->pass[b],
							  shown.tsc_khz, block,
							  BLOCK_ROWS);

			if (row > top)
				row++;		/* a blank row between blocks */
			for (k = 0; k < m && row < SCREEN_MAX_ROWS; k++, row++) {
				size_t at = 0;

				while (text[row][at])
					at++;
				/* Pad to this column's start, then the block's line. */
				while (at < (col - first) * width && at + 1 < SCREEN_MAX_COLS)
					text[row][at++] = ' ';
				fmt_snprintf(text[row] + at, SCREEN_MAX_COLS - at, "%s",
					     block[k]);
			}
		}
		if (row > n)
			n = row;
	}
	for (r = 0; r < n; r++)
		lines[r] = text[r];
	screen_show_summary(lines, n);
	fmt_snprintf(legend, sizeof(legend), "median per 4 KiB page: ticks%s, bytes/tick; "
		     "* quickest, +%% margin to it", shown.tsc_khz ? ", ns" : "");
	if (shown.pages > 1)
		fmt_snprintf(note, sizeof(note), "summary page %u of %u (a new page every %u s)%s",
			     page + 1, shown.pages, PAGE_SECONDS,
			     shown.answer_rows ? ", then the answer again" : "");
	else
		fmt_snprintf(note, sizeof(note), "summary%s", shown.answer_rows ?
			     " (the answer follows in a few seconds)" : "");
	screen_set_progress((const char *const[]){ note, legend }, 2);
}

void screen_run_summary(const struct summary *sum, const struct answers *answers,
			uint64_t tsc_khz)
{
	unsigned int rows;

	if (!screen_cols() || !sum || !sum->n)
		return;
	shown.sum = sum;
	shown.answers = answers;
	shown.tsc_khz = tsc_khz;
	shown.nfailures = screen_log_failures(shown.failures, FAILURES_SHOWN);
	/* Room for the table: the header keeps the machine's identity only. */
	screen_log_keep_identity();
	screen_set_progress((const char *const[]){ "", "" }, 2);
	paginate(screen_body_rows() - (shown.nfailures ? shown.nfailures + 1 : 0));
	/* The page's rows: the body's, below the failures. */
	rows = shown.nfailures ? shown.nfailures + 1 : 0;
	rows = screen_body_rows() > rows ? screen_body_rows() - rows : 0;
	shown.answer_rows = screen_answer_page(answers, screen_cols(), shown.answer,
					       rows < ANSWER_PAGE_ROWS ? rows : ANSWER_PAGE_ROWS);
	/* The answer first: what a person at the machine came for. */
	show_page(shown.answer_rows ? shown.pages : 0);
}

void screen_run_hold(void)
{
	uint64_t wait = shown.tsc_khz ? shown.tsc_khz * 1000 * PAGE_SECONDS :
		       TICKS_UNKNOWN_RATE;
	unsigned int pages = shown.pages + (shown.answer_rows ? 1 : 0);
	/* The answer's page (shown.pages) was shown first. */
	unsigned int page = shown.answer_rows ? shown.pages : 0;

	if (pages < 2)
		return;
	for (;;) {
		uint64_t t0 = rdtsc_ordered();

		while (rdtsc_ordered() - t0 < wait)
			asm volatile("pause");
		page = (page + 1) % pages;
		show_page(page);
		/* The answer is the page that stays. */
		if (shown.answer_rows && page == shown.pages)
			return;
	}
}
