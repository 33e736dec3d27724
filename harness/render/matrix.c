/* SPDX-License-Identifier: MIT */
/*
 * The answer's matrix as text (harness/render/matrix.h): a table per
 * suite (clear: clear_page and clear_pages; copy; memset; memcpy;
 * scrub), a column per kernel pick (merged where picks of one function
 * run the same variant and agree in every row and in their bottom line),
 * a row per pass (memset and memcpy: mode and size class; scrub: step),
 * and under them the bottom row, each pick's bottom line. The
 * percentages come from the ratios as the answer lines print them (four
 * decimals), rounded half up. One run is drawn at a time (the kernel's
 * end, pagebench-linux's end, pagebench-decide): the state is static,
 * off the kernel's small stack.
 */
#include "harness/render/matrix.h"
#include "lib/fmt.h"
#include "lib/str.h"

#define CELL_MAX	96
/* A table's rows: the page passes, the modes by size class, or the scrub steps. */
#define ROWS_MAX	24
#define TABLES		5
/* A table's columns: clear's two functions' picks; all tables' together. */
#define TABLE_COLS_MAX	(2 * ANSWER_PICKS_MAX)
#define COLS_MAX	((ANSWER_FNS + ANSWER_XFNS) * ANSWER_PICKS_MAX)
#define NOTES_MAX	(WHY_COUNT + 2 + ANSWER_PICKS_MAX)
#define TEXT_MAX	2048
/* The bottom row, after a table's own. */
#define BOTTOM_ROW	ROWS_MAX

enum sym { SYM_ARROW, SYM_MINUS, SYM_DASH, SYM_TIMES };

/* A function of a table: one of the pages' (enum answer_fn) or another question's. */
struct fn_of {
	bool x;
	unsigned int fn;
};

struct column {
	struct fn_of f;
	const char *pick;			/* the variant; NULL: "-" */
	unsigned int nwho;
	unsigned int who[ANSWER_PICKS_MAX];	/* its picks, in a->pick[fn] or a->xpick[fn] */
	int rec[ROWS_MAX];			/* into a->rec or a->xrec; -1: not judged */
};

/* A row: a pass, or a mode and its size class, or a scrub step. */
struct row {
	const char *pass;
	bool sized;
	unsigned int lo, hi;
};

struct table {
	unsigned int first, n;			/* its columns in m.col */
	unsigned int nrows;
	struct row row[ROWS_MAX];
	bool bottom;				/* some column has a bottom line */
	int note[ROWS_MAX + 1][TABLE_COLS_MAX];	/* a cell's footnote, 0: none */
};

/* A footnote's key: undecided, a why, an assumption, unpriced=, drift=. */
#define NOTE_ASSUMING	WHY_COUNT
#define NOTE_UNPRICED	(WHY_COUNT + 1)
#define NOTE_DRIFT	(WHY_COUNT + 2)
struct note {
	int why;				/* -1: undecided; a why; or NOTE_* */
	const char *assuming;
};

static const struct fn_of tables[TABLES][2] = {
	{ { false, ANSWER_CLEAR_PAGE }, { false, ANSWER_CLEAR_PAGES } },
	{ { false, ANSWER_COPY_PAGE }, { false, ANSWER_FNS } },
	{ { true, ANSWER_MEMSET }, { false, ANSWER_FNS } },
	{ { true, ANSWER_MEMCPY }, { false, ANSWER_FNS } },
	{ { true, ANSWER_SCRUB }, { false, ANSWER_FNS } },
};

static struct {
	const struct answers *a;
	const struct matrix_style *st;
	struct column col[COLS_MAX];
	unsigned int ncols;
	struct table t[TABLES];
	unsigned int nt;
	struct note note[NOTES_MAX];
	unsigned int nnotes;
	void (*put)(const char *line, void *ctx);
	void *ctx;
	unsigned int lines, limit;	/* lines made; given to put() */
	bool compact;			/* cells without blanks, whole per cents */
	bool per_call, per_page;	/* the tables' figures: memset/memcpy's, the others' */
	char cell[ROWS_MAX + 3][TABLE_COLS_MAX][CELL_MAX];
} m;

static bool same(const char *x, const char *y)
{
	if (!x || !y)
		return x == y;
	return str_eq(x, y);
}

static size_t len_of(const char *s)
{
	size_t n = 0;

	while (s[n])
		n++;
	return n;
}

static bool starts_with(const char *s, const char *head, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (s[i] != head[i])
			return false;
	return true;
}

/* Columns on a terminal: UTF-8 continuation bytes take none. */
static unsigned int width_of(const char *s)
{
	unsigned int w = 0;

	for (; *s; s++)
		if (((unsigned char)*s & 0xc0) != 0x80)
			w++;
	return w;
}

/*
 * What a line costs of the page's width: its bytes. A terminal shows
 * "→" in one column, but a C locale's wc -L, a pager without UTF-8 or a
 * mail reader counts three; the page fits width either way. Columns are
 * still aligned by width_of().
 */
static unsigned int room_of(const char *s)
{
	return (unsigned int)len_of(s);
}

/* Appends to buf (of len): printf's way, never past its end. */
static void add(char *buf, size_t len, const char *s)
{
	size_t at = len_of(buf);

	fmt_snprintf(buf + at, at < len ? len - at : 0, "%s", s);
}

static void add_sym(char *buf, size_t len, enum sym s)
{
	static const char *const utf8[] = { "→", "−", "–", "×" };
	static const char *const ascii[] = { "->", "-", "-", "x" };

	add(buf, len, m.st->ascii ? ascii[s] : utf8[s]);
}

/* A footnote's mark: "¹²", or "[12]" in ASCII; none for 0. */
static void add_mark(char *buf, size_t len, unsigned int n)
{
	static const char *const sup[] = { "⁰", "¹", "²", "³", "⁴", "⁵", "⁶", "⁷", "⁸", "⁹" };
	char digits[12];
	unsigned int i;

	if (!n)
		return;
	if (m.st->ascii) {
		fmt_snprintf(digits, sizeof(digits), "[%u]", n);
		add(buf, len, digits);
		return;
	}
	fmt_snprintf(digits, sizeof(digits), "%u", n);
	for (i = 0; digits[i]; i++)
		add(buf, len, sup[digits[i] - '0']);
}

/* A ratio as the answer line prints it: ten-thousandths. */
static int64_t parts(uint64_t ppm)
{
	return (int64_t)((ppm + 50) / 100);
}

/* hundredths (of a per cent, or of a ratio) with digits 0 to 2, half away from zero. */
static void add_fixed(char *buf, size_t len, int64_t hundredths, unsigned int digits)
{
	uint64_t h = hundredths < 0 ? (uint64_t)-hundredths : (uint64_t)hundredths;
	char s[32];

	if (digits == 0)
		fmt_snprintf(s, sizeof(s), "%s%lu", hundredths < 0 ? "-" : "",
			     (unsigned long)((h + 50) / 100));
	else if (digits == 1)
		fmt_snprintf(s, sizeof(s), "%s%lu.%lu", hundredths < 0 ? "-" : "",
			     (unsigned long)((h + 5) / 10 / 10), (unsigned long)((h + 5) / 10 % 10));
	else
		fmt_snprintf(s, sizeof(s), "%s%lu.%02lu", hundredths < 0 ? "-" : "",
			     (unsigned long)(h / 100), (unsigned long)(h % 100));
	add(buf, len, s);
}

static uint64_t abs64(int64_t x)
{
	return x < 0 ? (uint64_t)-x : (uint64_t)x;
}

/* "−50% (47–53)": the saving, 1 − ratio, and its interval, in per cent. */
static void add_saving(char *buf, size_t len, const struct interval *r, bool compact)
{
	int64_t med = 10000 - parts(r->median);
	int64_t lo = 10000 - parts(r->hi), hi = 10000 - parts(r->lo);
	uint64_t least = abs64(med);
	unsigned int digits;

	if (abs64(lo) < least)
		least = abs64(lo);
	if (abs64(hi) < least)
		least = abs64(hi);
	digits = compact || least >= 950 ? 0 : 1;
	add_sym(buf, len, SYM_MINUS);
	add_fixed(buf, len, med, digits);
	add(buf, len, "% (");
	add_fixed(buf, len, lo, digits);
	add_sym(buf, len, SYM_DASH);
	add_fixed(buf, len, hi, digits);
	add(buf, len, ")");
}

/* A decision whose ratio drifted during the run (drift=): marked at the cell's end. */
#define DRIFT_MARK "~"
/* A log without the vector price: a vector routine, left out, saves more before it (unpriced=). */
#define UNPRICED_MARK "*"

/* -- the records, wherever a question keeps them ------------------------- */

static const struct answer *dec(const struct column *c, int rec)
{
	return c->f.x ? &m.a->xrec[rec].a : &m.a->rec[rec];
}

static const char *dec_routine(const struct column *c, int rec)
{
	if (c->f.x)
		return m.a->xrec[rec].routine;
	return m.a->rec[rec].routine ? m.a->rec[rec].routine->name : NULL;
}

static bool dec_unpriced(const struct column *c, int rec)
{
	return c->f.x ? m.a->xrec[rec].unpriced != NULL : m.a->rec[rec].unpriced != NULL;
}

static const struct answer_pick *pick_of(const struct column *c, unsigned int w)
{
	return c->f.x ? &m.a->xpick[c->f.fn][c->who[w]] : &m.a->pick[c->f.fn][c->who[w]];
}

static const char *fn_name(const struct column *c)
{
	return c->f.x ? answer_xfn_name(c->f.fn) : answer_fn_name(c->f.fn);
}

/* The bottom line of a column's first pick, where the run printed one. */
static const struct bottom *bottom_of(const struct column *c)
{
	const struct bottom *b;

	if (c->f.x || !m.a->ended)
		return NULL;
	b = &m.a->bottom[c->f.fn][c->who[0]];
	return b->npass || pick_of(c, 0)->why != WHY_NONE ? b : NULL;
}

/* -- cells ---------------------------------------------------------------- */

static void cell_text(char *buf, size_t len, const struct column *c, int rec, int note,
		      bool compact)
{
	const struct answer *r;
	const char *routine;

	buf[0] = '\0';
	if (rec < 0) {
		add(buf, len, "-");
		return;
	}
	r = dec(c, rec);
	routine = dec_routine(c, rec);
	switch (r->action) {
	case ANSWER_SWITCH:
		add_sym(buf, len, SYM_ARROW);
		add(buf, len, compact ? "" : " ");
		add(buf, len, routine ? routine : "-");
		add(buf, len, dec_unpriced(c, rec) ? UNPRICED_MARK " " : " ");
		add_saving(buf, len, &r->ratio, compact);
		add(buf, len, r->drift.moved ? DRIFT_MARK : "");
		return;
	case ANSWER_KEEP:
		add(buf, len, "keep");
		add(buf, len, dec_unpriced(c, rec) ? UNPRICED_MARK : "");
		add(buf, len, r->drift.moved ? DRIFT_MARK : "");
		return;
	case ANSWER_UNDECIDED:
		add(buf, len, "undecided");
		add_mark(buf, len, (unsigned int)note);
		add(buf, len, dec_unpriced(c, rec) ? UNPRICED_MARK : "");
		add(buf, len, r->drift.moved ? DRIFT_MARK : "");
		return;
	case ANSWER_NONE:
		break;
	}
	add(buf, len, "n/a");
	add_mark(buf, len, (unsigned int)note);
	if (r->has_ratio && routine && !compact) {
		add(buf, len, " ");
		add(buf, len, routine);
		add(buf, len, " ");
		add_sym(buf, len, SYM_TIMES);
		add_fixed(buf, len, (parts(r->ratio.median) + 50) / 100, 2);
	}
}

/*
 * Where a switch saves: over the passes it saves in, the median of its
 * ratios (of two, the higher: the lesser saving), the least lo and the
 * greatest hi; or mix='s one figure. False where no pass says saves.
 */
static bool bottom_saving(const struct bottom *b, struct interval *out)
{
	uint64_t med[BOTTOM_PASSES_MAX];
	unsigned int p, n = 0, i, k;

	if (b->mixed) {
		*out = b->mix;
		return true;
	}
	for (p = 0; p < b->npass; p++) {
		const struct interval *r = &b->cell[p].ratio;

		if (b->cell[p].verdict != CELL_SAVES)
			continue;
		if (!n || r->lo < out->lo)
			out->lo = r->lo;
		if (!n || r->hi > out->hi)
			out->hi = r->hi;
		/* Kept in order: an insertion. */
		for (i = n; i && med[i - 1] > r->median; i--)
			med[i] = med[i - 1];
		med[i] = r->median;
		n++;
	}
	if (!n)
		return false;
	k = n / 2;
	out->median = med[k];
	out->has_interval = true;
	return true;
}

static const char *name_of(const struct column *c, int id)
{
	(void)c;
	return id >= 0 ? answer_variant_name((unsigned int)id) : "-";
}

/* The bottom row's cell: keep, "→ Y −Z% (a–b)", trade-off, undecided, n/a. */
static void bottom_text(char *buf, size_t len, const struct column *c, int note, bool compact)
{
	const struct bottom *b = bottom_of(c);
	const char *star = b && b->unpriced >= 0 ? UNPRICED_MARK : "";
	struct interval iv;

	buf[0] = '\0';
	if (!b) {
		add(buf, len, "-");
		return;
	}
	switch (b->action) {
	case BOTTOM_SWITCH:
		add_sym(buf, len, SYM_ARROW);
		add(buf, len, compact ? "" : " ");
		add(buf, len, name_of(c, b->routine));
		add(buf, len, star);
		if (bottom_saving(b, &iv)) {
			add(buf, len, " ");
			add_saving(buf, len, &iv, compact);
		}
		return;
	case BOTTOM_KEEP:
	case BOTTOM_TRADE_OFF:
		add(buf, len, bottom_action_name(b->action));
		add(buf, len, star);
		return;
	case BOTTOM_UNDECIDED:
		add(buf, len, "undecided");
		add_mark(buf, len, (unsigned int)note);
		add(buf, len, star);
		return;
	case BOTTOM_NONE:
		break;
	}
	add(buf, len, "n/a");
	add_mark(buf, len, (unsigned int)note);
}

/* -- columns and rows ------------------------------------------------------ */

/* What a record says, wherever it is said: two that agree are one decision. */
static bool agree_rec(const struct column *cx, int x, const struct column *cy, int y)
{
	const struct answer *a = dec(cx, x), *b = dec(cy, y);

	if (a->action != b->action || !same(dec_routine(cx, x), dec_routine(cy, y)) ||
	    a->has_ratio != b->has_ratio)
		return false;
	if (a->has_ratio && (parts(a->ratio.median) != parts(b->ratio.median) ||
			     parts(a->ratio.lo) != parts(b->ratio.lo) ||
			     parts(a->ratio.hi) != parts(b->ratio.hi)))
		return false;
	if (a->action == ANSWER_NONE && a->why != b->why)
		return false;
	return a->action != ANSWER_UNDECIDED || a->need_epochs == b->need_epochs;
}

/* Two bottom lines agree where they draw alike. */
static bool agree_bottom(const struct column *x, const struct column *y)
{
	char tx[CELL_MAX], ty[CELL_MAX];

	bottom_text(tx, sizeof(tx), x, 0, false);
	bottom_text(ty, sizeof(ty), y, 0, false);
	return str_eq(tx, ty) && (!bottom_of(x) || bottom_of(x)->why == bottom_of(y)->why);
}

static bool agree(const struct column *x, const struct column *y, unsigned int nrows)
{
	unsigned int r;

	for (r = 0; r < nrows; r++)
		if (x->rec[r] >= 0 && y->rec[r] >= 0 && !agree_rec(x, x->rec[r], y, y->rec[r]))
			return false;
	return agree_bottom(x, y);
}

/* The row of a record in t, added the first time (pages' rows: in pass order, below). */
static int row_of(struct table *t, const char *pass, bool sized, unsigned int lo,
		  unsigned int hi)
{
	unsigned int r;

	for (r = 0; r < t->nrows; r++)
		if (str_eq(t->row[r].pass, pass) && t->row[r].sized == sized &&
		    (!sized || (t->row[r].lo == lo && t->row[r].hi == hi)))
			return (int)r;
	if (t->nrows == ROWS_MAX)
		return -1;
	t->row[t->nrows] = (struct row){ pass, sized, lo, hi };
	return (int)t->nrows++;
}

/* Each record of f's: its pick, its row; -1 where it is not f's. */
static int rec_pick(struct fn_of f, unsigned int i, struct table *t, int *row)
{
	if (f.x) {
		const struct answer_x *x = &m.a->xrec[i];

		if (x->fn != f.fn)
			return -1;
		*row = row_of(t, x->pass, x->sized, x->lo, x->hi);
		return (int)x->pick;
	}
	if (m.a->rec[i].fn != f.fn)
		return -1;
	*row = row_of(t, passes[m.a->rec[i].pass].id, false, 0, 0);
	return (int)m.a->rec[i].pick;
}

/*
 * The columns of f, appended to m.col: one per pick, in the order the
 * answer lines name them, then merged where they run the same variant
 * and agree in every row they share and in their bottom line.
 */
static void columns(struct table *t, struct fn_of f)
{
	static struct column raw[ANSWER_PICKS_MAX];
	unsigned int nraw = 0, i, k, r, first = m.ncols, n = f.x ? m.a->nx : m.a->n;

	for (i = 0; i < n; i++) {
		int row, p = rec_pick(f, i, t, &row);

		if (p < 0 || row < 0)
			continue;
		for (k = 0; k < nraw && raw[k].who[0] != (unsigned int)p; k++)
			;
		if (k == nraw) {
			raw[nraw] = (struct column){ .f = f, .nwho = 1, .who = { (unsigned int)p } };
			raw[nraw].pick = pick_of(&raw[nraw], 0)->variant;
			for (r = 0; r < ROWS_MAX; r++)
				raw[nraw].rec[r] = -1;
			nraw++;
		}
		if (raw[k].rec[row] < 0)
			raw[k].rec[row] = (int)i;
	}
	for (k = 0; k < nraw; k++) {
		for (i = first; i < m.ncols; i++) {
			struct column *c = &m.col[i];

			if (!same(c->pick, raw[k].pick) || !agree(c, &raw[k], t->nrows))
				continue;
			c->who[c->nwho++] = raw[k].who[0];
			for (r = 0; r < ROWS_MAX; r++)
				if (c->rec[r] < 0)
					c->rec[r] = raw[k].rec[r];
			break;
		}
		if (i == m.ncols && m.ncols < COLS_MAX && m.ncols - t->first < TABLE_COLS_MAX)
			m.col[m.ncols++] = raw[k];
	}
}

/* A page table's rows in the passes' order: its columns' records moved to match. */
static void pass_order(struct table *t)
{
	struct row row[ROWS_MAX];
	int to[ROWS_MAX];
	unsigned int p, r, n = 0, i;

	for (p = 0; p < PASS_COUNT; p++)
		for (r = 0; r < t->nrows; r++)
			if (str_eq(t->row[r].pass, passes[p].id)) {
				to[r] = (int)n;
				row[n++] = t->row[r];
			}
	for (i = t->first; i < t->first + t->n; i++) {
		int rec[ROWS_MAX];

		for (r = 0; r < ROWS_MAX; r++)
			rec[r] = -1;
		for (r = 0; r < t->nrows; r++)
			rec[to[r]] = m.col[i].rec[r];
		for (r = 0; r < ROWS_MAX; r++)
			m.col[i].rec[r] = rec[r];
	}
	for (r = 0; r < n; r++)
		t->row[r] = row[r];
}

/* The number of a footnote, added the first time. */
static int note_of(int why, const char *assuming)
{
	unsigned int i;

	for (i = 0; i < m.nnotes; i++)
		if (m.note[i].why == why && same(m.note[i].assuming, assuming))
			return (int)i + 1;
	if (m.nnotes == NOTES_MAX)
		return 0;
	m.note[m.nnotes++] = (struct note){ why, assuming };
	return (int)m.nnotes;
}

static int note_of_action(enum answer_action action, enum answer_why why)
{
	return action == ANSWER_KEEP || action == ANSWER_SWITCH ? 0 :
	       action == ANSWER_UNDECIDED ? note_of(-1, NULL) : note_of((int)why, NULL);
}

static int note_of_bottom(const struct bottom *b)
{
	if (!b || b->action == BOTTOM_KEEP || b->action == BOTTOM_SWITCH ||
	    b->action == BOTTOM_TRADE_OFF)
		return 0;
	return b->action == BOTTOM_UNDECIDED ? note_of(-1, NULL) : note_of((int)b->why, NULL);
}

static void table_notes(struct table *t)
{
	unsigned int r, i;

	for (r = 0; r < t->nrows; r++)
		for (i = 0; i < t->n; i++) {
			const struct column *c = &m.col[t->first + i];
			const struct answer *a = c->rec[r] >= 0 ? dec(c, c->rec[r]) : NULL;

			t->note[r][i] = a ? note_of_action(a->action, a->why) : 0;
			if (a && a->action != ANSWER_NONE && dec_unpriced(c, c->rec[r]))
				note_of(NOTE_UNPRICED, NULL);
			if (a && a->action != ANSWER_NONE && a->drift.moved)
				note_of(NOTE_DRIFT, NULL);
		}
	for (i = 0; i < t->n; i++) {
		const struct bottom *b = bottom_of(&m.col[t->first + i]);

		t->bottom |= b != NULL;
		t->note[BOTTOM_ROW][i] = note_of_bottom(b);
		if (b && b->action != BOTTOM_NONE && b->unpriced >= 0)
			note_of(NOTE_UNPRICED, NULL);
	}
}

static void build(void)
{
	unsigned int s, f, i;

	m.ncols = m.nt = m.nnotes = 0;
	m.per_call = m.per_page = false;
	for (s = 0; s < TABLES; s++) {
		struct table *t = &m.t[m.nt];

		*t = (struct table){ .first = m.ncols };
		for (f = 0; f < 2 && (tables[s][f].x || tables[s][f].fn < ANSWER_FNS); f++)
			columns(t, tables[s][f]);
		t->n = m.ncols - t->first;
		if (!t->n)
			continue;
		if (!tables[s][0].x)
			pass_order(t);
		if (tables[s][0].x && tables[s][0].fn != ANSWER_SCRUB)
			m.per_call = true;
		else
			m.per_page = true;
		table_notes(t);
		m.nt++;
	}
	for (i = 0; i < m.ncols; i++)
		for (f = 0; f < m.col[i].nwho; f++) {
			const char *as = pick_of(&m.col[i], f)->assuming;

			if (as[0])
				note_of(NOTE_ASSUMING, as);
		}
}

/* -- lines ----------------------------------------------------------------- */

static void emit(const char *line)
{
	if (m.put && m.lines < m.limit)
		m.put(line, m.ctx);
	m.lines++;
}

/* textwrap.wrap(text, width, first, "  "): greedy, at spaces. */
static void wrap(const char *first, const char *text)
{
	char line[MATRIX_LINE_MAX], word[MATRIX_LINE_MAX];
	const char *s = text;
	unsigned int words = 0;

	fmt_snprintf(line, sizeof(line), "%s", first);
	for (;;) {
		size_t n = 0;

		while (*s == ' ')
			s++;
		while (*s && *s != ' ' && n + 1 < sizeof(word))
			word[n++] = *s++;
		word[n] = '\0';
		if (!n)
			break;
		if (words && room_of(line) + 1 + room_of(word) > m.st->width) {
			emit(line);
			fmt_snprintf(line, sizeof(line), "  %s", word);
		} else {
			add(line, sizeof(line), words ? " " : "");
			add(line, sizeof(line), word);
		}
		words++;
	}
	emit(line);
}

/* A row's label: "l1f", "tput 16-127", "cpus2", "bottom". */
static void row_label(char *buf, size_t len, const struct table *t, unsigned int r)
{
	if (r == BOTTOM_ROW) {
		fmt_snprintf(buf, len, "bottom");
		return;
	}
	fmt_snprintf(buf, len, "%s", t->row[r].pass);
	if (t->row[r].sized) {
		char sizes[32];

		fmt_snprintf(sizes, sizeof(sizes), " %u-%u", t->row[r].lo, t->row[r].hi);
		add(buf, len, sizes);
	}
}

/* "pass" and the functions, the picks, then a row per row and the bottom row, for the chosen columns. */
static unsigned int table_lines(const struct table *t, const unsigned int *cols,
				unsigned int n, bool out)
{
	static char row[MATRIX_LINE_MAX];
	unsigned int width[TABLE_COLS_MAX + 1], which[ROWS_MAX + 1], r, j, widest = 0, rows;
	char label[48];
	const char *last = NULL;

	/* The cells: row 0 the functions, row 1 the picks, then the rows and the bottom. */
	for (j = 0; j < n; j++) {
		const struct column *c = &m.col[t->first + cols[j]];

		fmt_snprintf(m.cell[0][j], CELL_MAX, "%s", last && str_eq(last, fn_name(c)) ?
			     "" : fn_name(c));
		fmt_snprintf(m.cell[1][j], CELL_MAX, "%s", c->pick ? c->pick : "-");
		last = fn_name(c);
	}
	rows = 2;
	for (r = 0; r <= t->nrows; r++) {
		unsigned int at = r < t->nrows ? r : BOTTOM_ROW;

		if (at == BOTTOM_ROW && !t->bottom)
			break;
		which[rows - 2] = at;
		for (j = 0; j < n; j++) {
			const struct column *c = &m.col[t->first + cols[j]];

			if (at == BOTTOM_ROW)
				bottom_text(m.cell[rows][j], CELL_MAX, c, t->note[at][cols[j]],
					    m.compact);
			else
				cell_text(m.cell[rows][j], CELL_MAX, c, c->rec[at],
					  t->note[at][cols[j]], m.compact);
		}
		rows++;
	}
	/* Column 0 is the row's label; width[j + 1] the column of cols[j]. */
	width[0] = 4;		/* "pass" */
	for (r = 2; r < rows; r++) {
		row_label(label, sizeof(label), t, which[r - 2]);
		if (width_of(label) > width[0])
			width[0] = width_of(label);
	}
	for (j = 0; j < n; j++) {
		width[j + 1] = 0;
		for (r = 0; r < rows; r++)
			if (width_of(m.cell[r][j]) > width[j + 1])
				width[j + 1] = width_of(m.cell[r][j]);
	}
	for (r = 0; r < rows; r++) {
		unsigned int at, pos = 0;

		if (r >= 2)
			row_label(row, sizeof(row), t, which[r - 2]);
		else
			fmt_snprintf(row, sizeof(row), "%s", r == 0 ? "pass" : "");
		at = width_of(row);
		for (j = 0; j < n; j++) {
			pos += width[j] + 2;
			while (at < pos && len_of(row) + 1 < sizeof(row)) {
				add(row, sizeof(row), " ");
				at++;
			}
			add(row, sizeof(row), m.cell[r][j]);
			at = width_of(row);
		}
		/* rstrip */
		for (at = (unsigned int)len_of(row); at && row[at - 1] == ' '; at--)
			row[at - 1] = '\0';
		if (room_of(row) > widest)
			widest = room_of(row);
		if (out)
			emit(row);
	}
	return widest;
}

/* "stosb: linux running 6.18.44, linux >=5.4 <7.0, xen >=4.21 hot" */
static void who_text(char *buf, size_t len, const struct column *c)
{
	const char *fn = fn_name(c);
	size_t fl = len_of(fn);
	unsigned int w;

	fmt_snprintf(buf, len, "%s: ", c->pick ? c->pick : "-");
	for (w = 0; w < c->nwho; w++) {
		const struct answer_pick *p = pick_of(c, w);
		const char *e = p->entry;

		if (w)
			add(buf, len, ", ");
		add(buf, len, rule_kernel_name(p->kernel));
		if (p->versions[0]) {
			add(buf, len, " ");
			add(buf, len, p->versions);
		}
		/* The entry without the function: "hot" of clear_page_hot. */
		if (str_eq(e, fn))
			e = "";
		else if (len_of(e) > fl + 1 && e[fl] == '_' && starts_with(e, fn, fl))
			e += fl + 1;
		if (e[0]) {
			add(buf, len, " ");
			add(buf, len, e);
		}
		if (p->assuming[0])
			add_mark(buf, len, (unsigned int)note_of(NOTE_ASSUMING, p->assuming));
	}
}

/* Column indexes per block: all where they fit, else each function's, as many as fit. */
static unsigned int chunks(const struct table *t, unsigned int (*out)[TABLE_COLS_MAX],
			   unsigned int *sizes)
{
	unsigned int every[TABLE_COLS_MAX], cur[TABLE_COLS_MAX], i, k, n = 0, ncur;
	const char *fn = NULL;

	for (i = 0; i < t->n; i++)
		every[i] = i;
	if (table_lines(t, every, t->n, false) <= m.st->width) {
		for (i = 0; i < t->n; i++)
			out[0][i] = i;
		sizes[0] = t->n;
		return 1;
	}
	for (i = 0; i < t->n; i++) {
		const char *f = fn_name(&m.col[t->first + i]);

		if (fn && str_eq(fn, f))
			continue;
		fn = f;
		ncur = 0;
		for (k = i; k < t->n && str_eq(fn_name(&m.col[t->first + k]), fn); k++) {
			cur[ncur] = k;
			if (ncur && table_lines(t, cur, ncur + 1, false) > m.st->width) {
				__builtin_memcpy(out[n], cur, ncur * sizeof(cur[0]));
				sizes[n++] = ncur;
				cur[0] = k;
				ncur = 0;
			}
			ncur++;
		}
		__builtin_memcpy(out[n], cur, ncur * sizeof(cur[0]));
		sizes[n++] = ncur;
	}
	return n;
}

static const char *const legend_pages =
	"keep, or @> routine @-saving of ns per 4 KiB page (95% interval); - not judged; f: flushed";
static const char *const legend_per_call =
	"; memset, memcpy: of ns per call over the size class, rows mode and size class in bytes";
static const char *const legend_per_call_only =
	"keep, or @> routine @-saving of ns per call over the size class (95% interval); "
	"rows: mode, size class in bytes";
static const char *const legend_bottom =
	"; bottom: all passes together (where it saves: its least and greatest saving)";
static const char *const legend_no_advice =
	"n/a, then the routine the run would name and its time over the pick's (@xr); "
	"- not judged; f: flushed";

/* A text with @> @- @x for the symbols of this style. */
static void symbols(char *buf, size_t len, const char *s)
{
	char one[2] = "";

	for (; *s; s++) {
		if (s[0] == '@' && s[1]) {
			s++;
			add_sym(buf, len, *s == '>' ? SYM_ARROW : *s == '-' ? SYM_MINUS : SYM_TIMES);
			continue;
		}
		one[0] = *s;
		add(buf, len, one);
	}
}

static const char *why_note(int why)
{
	switch (why) {
	case -1:
		return "undecided: the 95% interval spans the worth (--json "
		       "need_epochs: the epochs to decide)";
	case WHY_NOT_A_CPU:
		return "a translator's or an emulator's timings, not a CPU: no recommendation";
	case WHY_PICK_NOT_MEASURED:
		return "the pick's variant did not run in this pass, or failed its check: "
		       "no recommendation";
	case WHY_NO_PICK_VARIANT:
		return "no pagebench variant runs the pick's routine: no recommendation";
	case WHY_UNKNOWN_PICK:
		return "the rules need a fact this run does not have: no recommendation";
	case WHY_NO_INTERVAL:
		return "fewer than 3 epochs, so no interval (suite=xen, or reps<3): "
		       "no recommendation";
	case NOTE_UNPRICED:
		return UNPRICED_MARK ": a vector routine saves more before the price of vector "
		       "registers, which this log does not carry (unpriced=)";
	case NOTE_DRIFT:
		return DRIFT_MARK ": its ratio drifted during the run (drift=): "
		       "a rerun may decide otherwise";
	}
	return "no recommendation";
}

static void legend(void)
{
	static char text[TEXT_MAX];
	bool advice = false, bottom = false;
	unsigned int i;

	for (i = 0; i < m.a->n; i++)
		advice |= m.a->rec[i].action != ANSWER_NONE;
	for (i = 0; i < m.a->nx; i++)
		advice |= m.a->xrec[i].a.action != ANSWER_NONE;
	for (i = 0; i < m.nt; i++)
		bottom |= m.t[i].bottom;
	text[0] = '\0';
	if (!advice) {
		symbols(text, sizeof(text), legend_no_advice);
	} else if (!m.per_page) {
		symbols(text, sizeof(text), legend_per_call_only);
	} else {
		symbols(text, sizeof(text), legend_pages);
		if (m.per_call)
			add(text, sizeof(text), legend_per_call);
		if (bottom)
			add(text, sizeof(text), legend_bottom);
	}
	wrap("cells: ", text);
}

/* The picks line of a block: "picks: stosb: linux ...; sse2: xen ...". */
static void picks_text(char *buf, size_t len, const struct table *t, const unsigned int *cols,
		       unsigned int n)
{
	unsigned int i;

	buf[0] = '\0';
	for (i = 0; i < n; i++) {
		char who[MATRIX_LINE_MAX];

		who_text(who, sizeof(who), &m.col[t->first + cols[i]]);
		if (i)
			add(buf, len, "; ");
		add(buf, len, who);
	}
}

/*
 * The lines: the legend, then blocks (at most max_blocks of them, a line
 * saying how many columns are left out where fewer), then every
 * footnote.
 */
static void render(bool blanks, unsigned int max_blocks)
{
	static unsigned int blocks[TABLES][TABLE_COLS_MAX][TABLE_COLS_MAX];
	static unsigned int sizes[TABLES][TABLE_COLS_MAX];
	static char text[TEXT_MAX], next[TEXT_MAX], label[32];
	unsigned int nb[TABLES], k, b, n, shown = 0, left = 0;

	if (!m.st->no_legend)
		legend();
	for (k = 0; k < m.nt; k++)
		nb[k] = chunks(&m.t[k], blocks[k], sizes[k]);
	for (k = 0; k < m.nt; k++)
		for (b = 0; b < nb[k]; b++) {
			const struct table *t = &m.t[k];

			if (shown == max_blocks) {
				left += sizes[k][b];
				continue;
			}
			shown++;
			if (blanks)
				emit("");
			table_lines(t, blocks[k][b], sizes[k][b], true);
			picks_text(text, sizeof(text), t, blocks[k][b], sizes[k][b]);
			/* Tables one after another with the same picks (memset, memcpy) name them once. */
			next[0] = '\0';
			if (shown < max_blocks && b + 1 == nb[k] && k + 1 < m.nt)
				picks_text(next, sizeof(next), &m.t[k + 1], blocks[k + 1][0],
					   sizes[k + 1][0]);
			if (!str_eq(text, next))
				wrap("picks: ", text);
		}
	if (left) {
		fmt_snprintf(text, sizeof(text), "... %u more column%s: the log's answer lines", left,
			     left == 1 ? "" : "s");
		emit(text);
	}
	if (m.nnotes && blanks)
		emit("");
	for (n = 0; n < m.nnotes; n++) {
		label[0] = '\0';
		add_mark(label, sizeof(label), n + 1);
		add(label, sizeof(label), " ");
		if (m.note[n].why == NOTE_ASSUMING) {
			fmt_snprintf(text, sizeof(text), str_eq(m.note[n].assuming, "fast_string=1") ?
				     "assuming fast strings on (fast_string=1, the default): the run "
				     "could not read the MSR" : "assuming %s: the run could not read it",
				     m.note[n].assuming);
			wrap(label, text);
		} else {
			wrap(label, why_note(m.note[n].why));
		}
	}
}

/* The lines render() makes, counted. */
static unsigned int count(bool blanks, unsigned int max_blocks)
{
	m.put = NULL;
	m.lines = 0;
	render(blanks, max_blocks);
	return m.lines;
}

unsigned int answer_matrix(const struct answers *a, const struct matrix_style *style,
			   void (*put)(const char *line, void *ctx), void *ctx)
{
	static const bool tries[3][2] = { { false, true }, { true, true }, { true, false } };
	unsigned int i, all = COLS_MAX, blocks = all;
	char cut[80];

	if (!a->on || (!a->n && !a->nx) || !style->width || !style->height)
		return 0;
	m.a = a;
	m.st = style;
	build();
	if (!m.nt)
		return 0;
	for (i = 0; i < 3; i++) {
		m.compact = tries[i][0];
		if (count(tries[i][1], all) <= style->height)
			break;
	}
	/* Still too tall: fewer blocks, never fewer footnotes. */
	if (i == 3) {
		i = 2;
		m.compact = true;
		for (blocks = 1; count(false, blocks + 1) <= style->height; blocks++)
			;
	}
	m.compact = tries[i][0];
	if (count(tries[i][1], blocks) > style->height) {
		/* Not even one block with every footnote: the first lines, and what is cut. */
		unsigned int more = m.lines - style->height + 1;

		m.put = put;
		m.ctx = ctx;
		m.limit = style->height - 1;
		m.lines = 0;
		render(tries[i][1], blocks);
		fmt_snprintf(cut, sizeof(cut), "... %u more lines: the log's answer lines", more);
		if (put)
			put(cut, ctx);
		return style->height;
	}
	m.put = put;
	m.ctx = ctx;
	m.limit = style->height;
	m.lines = 0;
	render(tries[i][1], blocks);
	return m.lines;
}
