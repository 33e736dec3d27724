// SPDX-License-Identifier: MIT
/*
 * Unit tests of the screen's pure code on the host: the framebuffer text
 * renderer (kernel/screen/fb.c) in every pixel format it claims, the identity
 * mapper (kernel/x86/paging.c) on page tables of the test's own, and the
 * layout and log routing (kernel/screen/screen.c, kernel/screen/log_routing.c) on a fake
 * grid. Expectations come from the headers' contracts: pixels are decoded
 * with the format's own channel fields, tables are walked as the CPU would.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "kernel/screen/fb.h"
#include "kernel/screen/font.h"
#include "kernel/x86/paging.h"
#include "kernel/screen/screen.h"
#include "kernel/screen/answer_page.h"
#include "tests/unit/check.h"

#define CANARY 0x5a

/* ---- fb ---- */

struct format {
	const char *name;
	uint8_t bpp;
	struct fb_channel r, g, b;
};

static const struct format formats[] = {
	{ "xrgb8888", 32, { 16, 8 }, { 8, 8 }, { 0, 8 } },
	{ "xbgr8888", 32, { 0, 8 }, { 8, 8 }, { 16, 8 } },
	{ "rgb888", 24, { 16, 8 }, { 8, 8 }, { 0, 8 } },
	{ "rgb565", 16, { 11, 5 }, { 5, 6 }, { 0, 5 } },
	{ "xrgb1555", 15, { 10, 5 }, { 5, 5 }, { 0, 5 } },
	{ "xrgb2101010", 32, { 20, 10 }, { 10, 10 }, { 0, 10 } },
	{ "rgb332", 8, { 5, 3 }, { 2, 3 }, { 0, 2 } },
};

static uint32_t read_pixel(const uint8_t *p, unsigned int bytes_pp)
{
	uint32_t v = 0;

	for (unsigned int i = 0; i < bytes_pp; i++)
		v |= (uint32_t)p[i] << (8 * i);
	return v;
}

static unsigned int field(uint32_t v, struct fb_channel c)
{
	return (v >> c.pos) & ((1u << c.size) - 1);
}

/*
 * Draw a few cells on a framebuffer with a padded pitch, then check every
 * pixel of each cell against the glyph, and that nothing beyond the
 * visible width was written.
 */
static void check_format(const struct format *fmt, uint32_t width,
			 uint32_t height, unsigned int want_scale)
{
	static const struct { uint8_t ch, attr; unsigned int col, row; } cells[] = {
		{ 'A', VGA_ATTR(VGA_WHITE, VGA_BLACK), 0, 0 },
		{ 'g', VGA_ATTR(VGA_YELLOW, VGA_BLUE), 3, 1 },
		{ CH_HLINE, VGA_ATTR(VGA_DARK_GREY, VGA_BLACK), 7, 2 },
		{ CH_FULL_BLOCK, VGA_ATTR(VGA_LIGHT_RED, VGA_BLACK), 1, 4 },
	};
	unsigned int bytes_pp = (fmt->bpp + 7) / 8;
	uint32_t pitch = width * bytes_pp + 12;	/* padding the renderer must skip */
	struct framebuffer info = {
		.kind = FB_RGB, .pitch = pitch, .width = width, .height = height,
		.bpp = fmt->bpp, .red = fmt->r, .green = fmt->g, .blue = fmt->b,
	};
	uint8_t *mem = malloc((size_t)pitch * height);
	char name[96];
	struct fb f;
	const char *why;
	bool ok = true;
	unsigned int i, x, y;

	memset(mem, CANARY, (size_t)pitch * height);
	why = fb_setup(&f, &info, mem);
	snprintf(name, sizeof(name), "fb_setup_%s_%ux%u", fmt->name, width, height);
	result(!why && f.scale == want_scale &&
	       f.cols == width / (FONT_WIDTH * want_scale) &&
	       f.rows == height / (FONT_HEIGHT * want_scale), name,
	       "why=%s scale=%u (want %u) cells=%ux%u", why ? why : "-", f.scale,
	       want_scale, f.cols, f.rows);
	if (why) {
		free(mem);
		return;
	}

	/* White is every channel at its top; black is zero. */
	snprintf(name, sizeof(name), "fb_colours_%s_%ux%u", fmt->name, width, height);
	result(field(f.pixel[VGA_WHITE], fmt->r) == (1u << fmt->r.size) - 1 &&
	       field(f.pixel[VGA_WHITE], fmt->g) == (1u << fmt->g.size) - 1 &&
	       field(f.pixel[VGA_WHITE], fmt->b) == (1u << fmt->b.size) - 1 &&
	       f.pixel[VGA_BLACK] == 0 && f.pixel[VGA_RED] != f.pixel[VGA_BLUE], name,
	       "white=0x%x black=0x%x", f.pixel[VGA_WHITE], f.pixel[VGA_BLACK]);

	fb_clear(&f);
	for (i = 0; i < sizeof(cells) / sizeof(cells[0]); i++)
		fb_draw_cell(&f, cells[i].col, cells[i].row, cells[i].ch, cells[i].attr);

	for (i = 0; i < sizeof(cells) / sizeof(cells[0]) && ok; i++) {
		unsigned int s = f.scale;
		uint32_t fg = f.pixel[VGA_ATTR_FG(cells[i].attr)];
		uint32_t bg = f.pixel[VGA_ATTR_BG(cells[i].attr)];

		for (y = 0; y < FONT_HEIGHT * s && ok; y++) {
			for (x = 0; x < FONT_WIDTH * s && ok; x++) {
				uint32_t px = cells[i].col * FONT_WIDTH * s + x;
				uint32_t py = cells[i].row * FONT_HEIGHT * s + y;
				bool on = font_glyphs[cells[i].ch][y / s] & (0x80 >> (x / s));
				uint32_t got = read_pixel(mem + py * pitch + px * bytes_pp, bytes_pp);

				if (got != (on ? fg : bg)) {
					ok = false;
					snprintf(name, sizeof(name), "cell %u pixel %u,%u: 0x%x, want 0x%x",
						 i, x, y, got, on ? fg : bg);
				}
			}
		}
	}
	for (y = 0; y < height && ok; y++)
		for (x = width * bytes_pp; x < pitch && ok; x++)
			if (mem[y * pitch + x] != CANARY) {
				ok = false;
				snprintf(name, sizeof(name), "padding byte %u of line %u written", x, y);
			}
	{
		char what[96];

		snprintf(what, sizeof(what), "fb_draw_%s_scale%u", fmt->name, want_scale);
		result(ok, what, "%s", name);
	}
	free(mem);
}

static void test_fb(void)
{
	struct framebuffer bad = {
		.kind = FB_RGB, .pitch = 640 * 4, .width = 640, .height = 480,
		.bpp = 32, .red = { 16, 8 }, .green = { 8, 8 }, .blue = { 28, 8 },
	};
	struct fb f;

	for (unsigned int i = 0; i < sizeof(formats) / sizeof(formats[0]); i++) {
		check_format(&formats[i], 800, 600, 1);
		/* 1920x1080 holds 120x33 cells at twice the size: still enough. */
		check_format(&formats[i], 1920, 1080, 2);
	}

	result(fb_setup(&f, &bad, NULL) != NULL, "fb_rejects_channel_outside_pixel", "accepted");
	bad.blue.pos = 0;
	bad.pitch = 640 * 4 - 4;
	result(fb_setup(&f, &bad, NULL) != NULL, "fb_rejects_short_pitch", "accepted");
	bad.pitch = 640 * 4;
	bad.kind = FB_INDEXED;
	result(fb_setup(&f, &bad, NULL) != NULL, "fb_rejects_palette", "accepted");
}

/* ---- paging ---- */

#define POOL 4
static uint64_t tables[1 + POOL + 1][PT_ENTRIES] __attribute__((aligned(4096)));

/* The 2 MiB leaf entry for addr, as the CPU would find it, or 0. */
static uint64_t walk(uint64_t *pml4, uint64_t addr)
{
	uint64_t e = pml4[(addr >> 39) & 511];

	if (!(e & PT_PRESENT))
		return 0;
	e = ((uint64_t *)(uintptr_t)(e & PT_ADDR_MASK))[(addr >> 30) & 511];
	if (!(e & PT_PRESENT) || (e & PT_LARGE))
		return e;
	return ((uint64_t *)(uintptr_t)(e & PT_ADDR_MASK))[(addr >> 21) & 511];
}

static bool all_mapped(uint64_t *pml4, uint64_t base, uint64_t len, uint64_t flags)
{
	for (uint64_t a = base & ~(PAGE_2M - 1); a < base + len; a += PAGE_2M) {
		uint64_t e = walk(pml4, a);

		if (e != (a | flags | PT_LARGE | PT_PRESENT))
			return false;
	}
	return true;
}

static void test_paging(void)
{
	const uint64_t flags = PT_WRITABLE | PT_PCD | PT_PWT;
	const uint64_t GiB = 1ull << 30;
	uint64_t *pml4 = tables[0], *boot_pd = tables[1 + POOL];
	struct pt_pool pool = { &tables[1], POOL, 0 };
	uint64_t boot_pdpt[PT_ENTRIES] __attribute__((aligned(4096))) = { 0 };
	uint64_t fb_above_4g = 6 * GiB - 4 * PAGE_2M;	/* straddles 6 GiB */
	uint64_t fb_len = 8 * PAGE_2M + 4096;
	enum map_result r;
	unsigned int i;

	/* What entry32.asm leaves: the first GiB in 2 MiB pages, write-back. */
	for (i = 0; i < PT_ENTRIES; i++)
		boot_pd[i] = ((uint64_t)i << 21) | PT_LARGE | PT_WRITABLE | PT_PRESENT;
	boot_pdpt[0] = (uint64_t)(uintptr_t)boot_pd | PT_WRITABLE | PT_PRESENT;
	pml4[0] = (uint64_t)(uintptr_t)boot_pdpt | PT_WRITABLE | PT_PRESENT;

	r = pt_map_identity(pml4, &pool, GiB / 2, 16 << 20, flags);	/* boot mapped it */
	result(r == MAP_OK && pool.used == 0 && walk(pml4, 0) == (PT_LARGE | PT_WRITABLE | PT_PRESENT),
	       "paging_mapped_range_untouched", "r=%d used=%u", r, pool.used);

	r = pt_map_identity(pml4, &pool, fb_above_4g, fb_len, flags);
	result(r == MAP_OK && pool.used == 2 && all_mapped(pml4, fb_above_4g, fb_len, flags),
	       "paging_above_4g_two_directories", "r=%d used=%u", r, pool.used);
	result(walk(pml4, fb_above_4g - PAGE_2M) == 0 &&
	       walk(pml4, fb_above_4g + 10 * PAGE_2M) == 0,
	       "paging_maps_nothing_beyond_range", "neighbours mapped");

	r = pt_map_identity(pml4, &pool, 600 * GiB + PAGE_2M / 2, PAGE_2M, flags);
	result(r == MAP_OK && pool.used == 4 &&
	       all_mapped(pml4, 600 * GiB + PAGE_2M / 2, PAGE_2M, flags),
	       "paging_above_512g_new_pdpt", "r=%d used=%u", r, pool.used);

	r = pt_map_identity(pml4, &pool, 700 * GiB, PAGE_2M, flags);
	result(r == MAP_OUT_OF_TABLES, "paging_pool_exhausted", "r=%d", r);
	r = pt_map_identity(pml4, &pool, IDENTITY_LIMIT - PAGE_2M, 2 * PAGE_2M, flags);
	result(r == MAP_BEYOND_LIMIT, "paging_beyond_limit", "r=%d", r);
}

/* ---- layout and routing ---- */

#define GRID_COLS 80
#define GRID_ROWS 25
static uint8_t grid[GRID_ROWS][GRID_COLS], grid_attr[GRID_ROWS][GRID_COLS];
static unsigned int puts_count;
static const char *step_now = "boot";

const char *run_step_now(void);
const char *run_step_now(void)
{
	return step_now;
}

static void grid_put(unsigned int col, unsigned int row, uint8_t ch, uint8_t attr)
{
	grid[row][col] = ch;
	grid_attr[row][col] = attr;
	puts_count++;
}

/*
 * Row text without trailing blanks; line characters as '-'. A few calls
 * may share one expression, so each gets a buffer of its own.
 */
static const char *row_text(unsigned int row)
{
	static char bufs[4][GRID_COLS + 1];
	static unsigned int next;
	char *buf = bufs[next++ % 4];
	int n;

	for (n = 0; n < GRID_COLS; n++)
		buf[n] = grid[row][n] == CH_HLINE ? '-' : (char)grid[row][n];
	for (n = GRID_COLS; n > 0 && buf[n - 1] == ' '; n--)
		;
	buf[n] = '\0';
	return buf;
}

static int find_row(const char *start)
{
	for (unsigned int r = 0; r < GRID_ROWS; r++)
		if (!strncmp(row_text(r), start, strlen(start)))
			return (int)r;
	return -1;
}

static void log_line(const char *text)
{
	char line[600];

	snprintf(line, sizeof(line), "(PB) %s\n", text);
	screen_log_sink(line, strlen(line));
}

static void test_layout(void)
{
	static const char long_error[] =
		"option error: passes=l9: unknown pass; valid: l1,l1f,l2,l2f,l3,l3f,mem,hot,cold "
		"(comma-separated, each at most once)";
	unsigned int before;
	int r, msg;

	screen_attach(GRID_COLS, GRID_ROWS, grid_put);
	result(puts_count == GRID_COLS * GRID_ROWS, "screen_first_paint_whole_grid",
	       "%u cells", puts_count);

	log_line("erms=1 fsrm=0 fzrm=0 fsrs=0 fsrcs=0 l1d=32k l2=256k");
	log_line("pagebench version=v1-test");
	log_line("cpu vendor=GenuineIntel family=0x6 model=0x55 stepping=4");
	log_line("brand: Test CPU @ 2.00GHz");
	log_line("cache l1d=32k l2=1024k l3=0k line=64 source=leaf4");
	log_line("features sse2=1 avx=1");
	log_line("tsc khz=2000000 source=cpuid-0x15");
	log_line("cmdline: suite=xen");
	/* Progress is set by the run (kernel/screen/run_view.c), not taken from the log. */
	screen_set_progress((const char *const[]){ "clear L1 w/o flush rep 1 variant sse2" }, 1);
	log_line(" pre=10 sse2=20 post=30");
	log_line("note: an MSR write faulted");
	log_line(long_error);

	/* The header in the screen's order, whatever the log's. */
	result(!strcmp(row_text(0), "pagebench version=v1-test") &&
	       !strcmp(row_text(1), "brand: Test CPU @ 2.00GHz") &&
	       !strncmp(row_text(2), "cpu vendor=GenuineIntel", 23) &&
	       !strncmp(row_text(3), "cache l1d=32k", 13) &&
	       !strncmp(row_text(4), "tsc khz=2000000", 15) &&
	       !strcmp(row_text(5), "cmdline: suite=xen"),
	       "screen_header_order", "rows: '%s' ...", row_text(0));
	result(find_row("erms=") < 0 && find_row("features") < 0 && find_row(" pre=") < 0,
	       "screen_bulk_stays_on_serial", "a bulk line is on the screen");
	r = find_row("- progress -");
	result(r == 6 && !strcmp(row_text(7), "clear L1 w/o flush rep 1 variant sse2"),
	       "screen_progress_shown", "rule at %d, row 7 '%s'", r, row_text(7));
	msg = find_row("note: an MSR write faulted");
	result(msg == 9 && find_row("- messages -") == 8 &&
	       grid_attr[msg][0] == VGA_ATTR(VGA_YELLOW, VGA_BLACK),
	       "screen_message_shown_as_warning", "at %d", msg);
	/* Broken at the last space that fits, the rest indented. */
	result(!strcmp(row_text(10), "option error: passes=l9: unknown pass; valid: l1,l1f,l2,l2f,l3,l3f,mem,hot,cold") &&
	       !strcmp(row_text(11), "  (comma-separated, each at most once)") &&
	       grid_attr[10][0] == VGA_ATTR(VGA_LIGHT_RED, VGA_BLACK),
	       "screen_long_message_wraps_at_a_space", "'%s' / '%s'", row_text(10), row_text(11));
	log_line("note: abcdefghijklmnopqrstuvwxyzabcdefghijklmnopqrstuvwxyzabcdefghijklmnopqrstuvwxyz0123456789");
	result(!strcmp(row_text(12), "note: abcdefghijklmnopqrstuvwxyzabcdefghijklmnopqrstuvwxyzabcdefghijklmnopqrstuv") &&
	       !strcmp(row_text(13), "  wxyz0123456789"),
	       "screen_long_word_wraps_mid_word", "'%s' / '%s'", row_text(12), row_text(13));

	/* More messages than the body holds: the oldest scroll away. */
	for (unsigned int i = 0; i < 30; i++) {
		char text[40];

		snprintf(text, sizeof(text), "skipped: v%u (clear): needs x", i);
		log_line(text);
	}
	result(find_row("note: an MSR") < 0 && find_row("skipped: v29 ") == GRID_ROWS - 1,
	       "screen_messages_scroll", "last row '%s'", row_text(GRID_ROWS - 1));

	/* Nothing changed: nothing drawn. */
	before = puts_count;
	log_line(" pre=11 sse2=21 post=31");
	result(puts_count == before, "screen_unchanged_draws_nothing",
	       "%u cells redrawn", puts_count - before);

	log_line("done: 0 failures");
	log_line("run complete, halting.");
	result(!strcmp(row_text(GRID_ROWS - 2), "done: 0 failures") &&
	       grid_attr[GRID_ROWS - 2][0] == VGA_ATTR(VGA_LIGHT_GREEN, VGA_BLACK) &&
	       !strcmp(row_text(GRID_ROWS - 1), "run complete, halting.") &&
	       !strcmp(row_text(GRID_ROWS - 3), "--------------------------------------------------------------------------------"),
	       "screen_footer_done", "'%s'", row_text(GRID_ROWS - 2));

	{
		const char *summary[40];
		char rows[40][32];
		unsigned int body;

		for (unsigned int i = 0; i < 40; i++) {
			snprintf(rows[i], sizeof(rows[i]), "summary row %u", i);
			summary[i] = rows[i];
		}
		screen_show_summary(summary, 3);
		r = find_row("- summary -");
		result(r == 8 && !strcmp(row_text(9), "summary row 0") &&
		       !strcmp(row_text(11), "summary row 2") && !strcmp(row_text(12), "") &&
		       find_row("skipped:") < 0,
		       "screen_summary_replaces_messages", "rule at %d", r);
		screen_show_summary(summary, 40);
		body = screen_body_rows();
		snprintf(rows[0], sizeof(rows[0]), "summary row %u", body - 2);
		result(!strcmp(row_text(9 + body - 2), rows[0]) &&
		       !strncmp(row_text(9 + body - 1), "... more", 8),
		       "screen_summary_too_long_says_so", "last body row '%s'",
		       row_text(9 + body - 1));
	}
}

/* ---- the answer's page ---- */

static const struct variant *variant_named(enum op op, const char *name)
{
	unsigned int i;

	for (i = 0; i < variant_count; i++)
		if (variants[i].op == op && !strcmp(variants[i].name, name))
			return &variants[i];
	return NULL;
}

static unsigned int add_pick(struct answers *a, enum answer_fn fn, enum rule_kernel k,
			     const char *versions, const char *entry, const char *variant)
{
	struct answer_pick *p = &a->pick[fn][a->npicks[fn]];

	*p = (struct answer_pick){ .kernel = k, .entry = entry, .variant = variant };
	snprintf(p->versions, sizeof(p->versions), "%s", versions);
	return a->npicks[fn]++;
}

static void add_record(struct answers *a, enum answer_fn fn, enum pass_id pass,
		       unsigned int pick, enum answer_action action, const char *routine,
		       uint64_t ratio_ppm)
{
	a->rec[a->n++] = (struct answer){
		.fn = fn, .pass = pass, .pick = pick, .action = action,
		.why = action == ANSWER_NONE ? WHY_NOT_A_CPU : WHY_NONE,
		.routine = routine ? variant_named(answer_fn_op(fn), routine) : NULL,
		.has_ratio = routine != NULL,
		.ratio = { ratio_ppm, ratio_ppm - 1000, ratio_ppm + 1000, true },
		/* The vector price measured (price=N.N), no mark. */
		.has_price = true };
}

/* A bottom line over l1 and l1f: routine's ratio and interval where it saves, else even. */
static struct bottom bottom_line(enum bottom_action action, const char *routine,
				 const uint64_t *saves)
{
	struct bottom b = { .action = action, .unpriced = -1, .npass = 2,
			    .pass = { "l1", "l1f" },
			    .routine = routine ? (int)(variant_named(OP_CLEAR, routine) - variants) : -1 };
	unsigned int p;

	for (p = 0; p < 2; p++)
		b.cell[p] = saves && saves[3 * p] ?
			(struct bottom_cell){ .verdict = CELL_SAVES, .ratio = { saves[3 * p],
					      saves[3 * p + 1], saves[3 * p + 2], true } } :
			(struct bottom_cell){ .verdict = CELL_EVEN,
					      .ratio = { 1000000, 990000, 1010000, true } };
	return b;
}

/*
 * The bottom row: each column's pick's bottom line, under its passes:
 * a switch with the median saving over the passes it saves in and the
 * least and greatest saving there, keep, trade-off, undecided and its
 * footnote; columns whose bottom lines differ stay apart; none before
 * the run's end.
 */
static void test_bottom_row(struct answers *a, unsigned int run, unsigned int lin,
			    unsigned int cs)
{
	static char rows[ANSWER_PAGE_ROWS][ANSWER_PAGE_COLS + 1];
	const uint64_t saves[6] = { 840000, 780000, 890000, 820000, 800000, 840000 };
	unsigned int n, i, f, p;
	int at = -1;

	for (f = 0; f < ANSWER_FNS; f++)
		for (p = 0; p < ANSWER_PICKS_MAX; p++)
			a->bottom[f][p] = bottom_line(BOTTOM_KEEP, "stosl", NULL);
	a->bottom[ANSWER_CLEAR_PAGE][run] = bottom_line(BOTTOM_SWITCH, "orig", saves);
	a->bottom[ANSWER_CLEAR_PAGE][lin] = bottom_line(BOTTOM_SWITCH, "orig", saves);
	a->bottom[ANSWER_CLEAR_PAGES][cs] = bottom_line(BOTTOM_TRADE_OFF, "stosq_all", NULL);
	a->ended = false;
	n = screen_answer_page(a, 160, rows, ANSWER_PAGE_ROWS);
	for (i = 0; i < n; i++)
		at = !strncmp(rows[i], "bottom ", 7) ? (int)i : at;
	result(at < 0, "answer_page_bottom_after_end_only", "'%s'", at >= 0 ? rows[at] : "");
	a->ended = true;
	n = screen_answer_page(a, 160, rows, ANSWER_PAGE_ROWS);
	for (i = 0; i < n && strncmp(rows[i], "bottom ", 7); i++)
		;
	/* Saves 16 and 18% at l1 and l1f: the higher ratio's 16%, from 11 to 22%. */
	result(i < n && !strncmp(rows[i], "bottom  -> orig -16% (11-22) ", 29) &&
	       strstr(rows[i], " keep ") &&
	       strstr(rows[i], "trade-off") && !strncmp(rows[i - 1], "l1f ", 4),
	       "answer_page_bottom_row", "'%s' '%s'", i < n ? rows[i] : "", rows[i - 1]);
	/* The running kernel's and Linux 7.0's picks ran one variant, but their bottom lines differ. */
	result(strstr(rows[i + 1], "picks: stosb: linux running 6.18.44, linux >=5.4 <7.0; stosb: "
		      "linux >=7.0") != NULL, "answer_page_bottom_parts_columns", "'%s'", rows[i + 1]);
	a->bottom[ANSWER_CLEAR_PAGE][run] = bottom_line(BOTTOM_UNDECIDED, "orig", NULL);
	n = screen_answer_page(a, 160, rows, ANSWER_PAGE_ROWS);
	for (i = 0; i < n && strncmp(rows[i], "bottom ", 7); i++)
		;
	result(i < n && !strncmp(rows[i], "bottom  undecided[1] ", 21), "answer_page_bottom_undecided",
	       "'%s'", i < n ? rows[i] : "");
	a->ended = false;
}

/*
 * Records made by hand, with the longest names, drawn by
 * harness/render/matrix.c in ASCII: a column per pick (merged where picks
 * of one variant agree), each cell what the record says, matrix.py's
 * blocks (a suite's functions side by side where they fit the width),
 * the picks' rows, the footnotes, compact cells and a cut where the
 * rows are too few.
 */
static void test_answer_page(void)
{
	static struct answers a;
	static char rows[ANSWER_PAGE_ROWS][ANSWER_PAGE_COLS + 1];
	unsigned int n, i, lin, lin7, x20, hot, cold, run, cp, cx, cs;
	bool fits = true;

	a.on = true;
	a.run = (struct answer_run){ .worth_bp = 300, .tsc_khz = 2000000 };
	run = add_pick(&a, ANSWER_CLEAR_PAGE, RULE_LINUX, "running 6.18.44", "clear_page", "stosb");
	lin = add_pick(&a, ANSWER_CLEAR_PAGE, RULE_LINUX, ">=5.4 <7.0", "clear_page", "stosb");
	lin7 = add_pick(&a, ANSWER_CLEAR_PAGE, RULE_LINUX, ">=7.0", "clear_page", "stosb");
	x20 = add_pick(&a, ANSWER_CLEAR_PAGE, RULE_XEN, "4.15-4.20", "clear_page", "sse2");
	hot = add_pick(&a, ANSWER_CLEAR_PAGE, RULE_XEN, ">=4.21", "clear_page_hot", "stosb");
	cold = add_pick(&a, ANSWER_CLEAR_PAGE, RULE_XEN, ">=4.21", "clear_page_cold", "clzero_sf");
	cs = add_pick(&a, ANSWER_CLEAR_PAGES, RULE_LINUX, ">=7.0", "clear_pages", "stosb_all");
	cp = add_pick(&a, ANSWER_COPY_PAGE, RULE_LINUX, ">=5.4", "copy_page", "movsq");
	cx = add_pick(&a, ANSWER_COPY_PAGE, RULE_XEN, "4.15-4.20", "copy_page", "xen_cold");
	for (i = 0; i < 3; i++) {
		unsigned int pk[] = { run, lin, lin7 };

		add_record(&a, ANSWER_CLEAR_PAGE, PASS_L1, pk[i], ANSWER_UNDECIDED, "stosq", 960000);
		add_record(&a, ANSWER_CLEAR_PAGE, PASS_L1F, pk[i], ANSWER_SWITCH, "avx512_t", 795400);
	}
	add_record(&a, ANSWER_CLEAR_PAGE, PASS_L1, x20, ANSWER_SWITCH, "avx_t", 89800);
	add_record(&a, ANSWER_CLEAR_PAGE, PASS_L1F, x20, ANSWER_SWITCH, "avx512_t", 679200);
	add_record(&a, ANSWER_CLEAR_PAGE, PASS_L1, hot, ANSWER_UNDECIDED, "stosq", 960000);
	add_record(&a, ANSWER_CLEAR_PAGE, PASS_L1F, cold, ANSWER_SWITCH, "avx512_t", 709700);
	add_record(&a, ANSWER_CLEAR_PAGES, PASS_L1, cs, ANSWER_KEEP, "stosq_all", 1016000);
	add_record(&a, ANSWER_CLEAR_PAGES, PASS_L1F, cs, ANSWER_UNDECIDED, "stosq_all", 966500);
	add_record(&a, ANSWER_COPY_PAGE, PASS_HOT, cp, ANSWER_SWITCH, "regs_nopf", 880000);
	add_record(&a, ANSWER_COPY_PAGE, PASS_HOT, cx, ANSWER_KEEP, NULL, 0);

	/* Wide: the clear suite's functions in one block, as matrix.py draws them. */
	n = screen_answer_page(&a, 140, rows, ANSWER_PAGE_ROWS);
	result(n == 14 && !rows[0][0] &&
	       !strcmp(rows[1], "pass  clear_page                                         "
		       "                           clear_pages") &&
	       !strcmp(rows[2], "      stosb                     sse2                      "
		       "clzero_sf                 stosb_all") &&
	       !strcmp(rows[3], "l1    undecided[1]              -> avx_t -91% (91-91)     "
		       "-                         keep") &&
	       !strcmp(rows[4], "l1f   -> avx512_t -20% (20-21)  -> avx512_t -32% (32-32)  "
		       "-> avx512_t -29% (29-29)  undecided[1]"),
	       "answer_page_clear", "%u rows: '%s' '%s' '%s' '%s'", n, rows[1], rows[2], rows[3],
	       rows[4]);
	result(!strcmp(rows[5], "picks: stosb: linux running 6.18.44, linux >=5.4 <7.0, linux "
		       ">=7.0, xen >=4.21 hot; sse2: xen 4.15-4.20; clzero_sf: xen >=4.21 cold;") &&
	       !strcmp(rows[6], "  stosb_all: linux >=7.0"), "answer_page_picks", "'%s' '%s'",
	       rows[5], rows[6]);
	result(!strcmp(rows[8], "pass  copy_page") &&
	       !strcmp(rows[9], "      movsq                      xen_cold") &&
	       !strcmp(rows[10], "hot   -> regs_nopf -12% (12-12)  keep") &&
	       !strcmp(rows[11], "picks: movsq: linux >=5.4; xen_cold: xen 4.15-4.20"),
	       "answer_page_copy", "'%s' '%s' '%s' '%s'", rows[8], rows[9], rows[10], rows[11]);
	/* 80 columns: blocks that fit, the footnote after them. */
	n = screen_answer_page(&a, 80, rows, ANSWER_PAGE_ROWS);
	for (i = 0; i < n; i++)
		fits = fits && strlen(rows[i]) <= 80;
	result(fits && n == 27 && !strcmp(rows[2], "      stosb                     sse2") &&
	       !strcmp(rows[9], "      clzero_sf") &&
	       !strcmp(rows[25], "[1] undecided: the 95% interval spans the worth (--json "
		       "need_epochs: the epochs"), "answer_page_fits_80", "%u rows: '%s'", n, rows[25]);
	/* Not a CPU: no advice, the figure it would have given. */
	a.rec[a.n - 2].action = ANSWER_NONE;
	a.rec[a.n - 2].why = WHY_NOT_A_CPU;
	a.run.not_a_cpu = true;
	n = screen_answer_page(&a, 80, rows, ANSWER_PAGE_ROWS);
	result(!strcmp(rows[22], "hot   n/a[2] regs_nopf x0.88  keep") &&
	       strstr(rows[n - 1], "[2] ") == rows[n - 1], "answer_page_not_a_cpu",
	       "'%s' '%s'", rows[22], rows[n - 1]);
	result(strstr(screen_answer_legend(&a), "not a CPU") != NULL, "answer_page_legend_not_a_cpu",
	       "%s", screen_answer_legend(&a));
	/*
	 * Too few rows: compact cells, no blank rows, the blocks that fit, a
	 * row saying how many columns are left out, and every footnote.
	 */
	n = screen_answer_page(&a, 80, rows, 10);
	result(n <= 10 && !strcmp(rows[3], "l1f   ->avx512_t -20% (20-21)  ->avx512_t -32% "
				  "(32-32)  ->avx512_t -29% (29-29)") &&
	       !strncmp(rows[n - 4], "... ", 4) && strstr(rows[n - 4], " more columns: ") &&
	       !strncmp(rows[n - 3], "[1] undecided", 13) &&
	       !strncmp(rows[n - 1], "[2] a translator's", 18), "answer_page_cut_keeps_notes",
	       "%u rows: '%s' '%s' '%s'", n, rows[3], rows[n - 4], rows[n - 1]);
	/*
	 * A log without the vector price, where a vector routine saves more
	 * before it (unpriced=): "*", and its footnote.
	 */
	a.run.not_a_cpu = false;
	a.rec[a.n - 2].action = ANSWER_SWITCH;
	a.rec[a.n - 2].why = WHY_NONE;
	a.rec[3].routine = variant_named(OP_CLEAR, "stosq");
	a.rec[1].routine = a.rec[5].routine = a.rec[3].routine;
	a.rec[1].unpriced = a.rec[3].unpriced = a.rec[5].unpriced =
		variant_named(OP_CLEAR, "avx512_t");
	n = screen_answer_page(&a, 140, rows, ANSWER_PAGE_ROWS);
	result(!strncmp(rows[4], "l1f   -> stosq* -20% (20-21)", 28) &&
	       !strcmp(rows[n - 1], "[2] *: a vector routine saves more before the price of vector "
		       "registers, which this log does not carry (unpriced=)"),
	       "answer_page_unpriced_mark", "'%s' '%s'", rows[4], rows[n - 1]);
	a.rec[1].unpriced = a.rec[3].unpriced = a.rec[5].unpriced = NULL;
	n = screen_answer_page(&a, 140, rows, ANSWER_PAGE_ROWS);
	result(!strncmp(rows[4], "l1f   -> stosq -20% (20-21)", 27) && !strstr(rows[n - 1], "*:"),
	       "answer_page_priced_no_mark", "'%s' '%s'", rows[4], rows[n - 1]);
	test_bottom_row(&a, run, lin, cs);
	a.n = 0;
	result(screen_answer_page(&a, 80, rows, ANSWER_PAGE_ROWS) == 0, "answer_page_none",
	       "a page without records");
}

int main(void)
{
	test_fb();
	test_paging();
	test_layout();
	test_answer_page();
	return check_exit();
}
