/* SPDX-License-Identifier: MIT */
/*
 * The answer's matrix as text (harness/answer_matrix.h), in the layout of
 * scripts/pbreport/matrix.py, the reference: the same columns (one per
 * kernel pick, merged where picks of one function run the same variant
 * and agree in every pass), the same cells, widths, blocks and wrapping.
 * The percentages come from the ratios as the answer lines print them
 * (four decimals), rounded half up, so that both say the same digits.
 * One run is drawn at a time (the kernel's end, pagebench-linux's end):
 * the state is static, off the kernel's small stack.
 */
#include "harness/answer_matrix.h"
#include "lib/fmt.h"
#include "lib/str.h"

#define CELL_MAX	96
#define COLS_MAX	(ANSWER_FNS * ANSWER_PICKS_MAX)
#define NOTES_MAX	(WHY_COUNT + 1 + ANSWER_PICKS_MAX)
#define TEXT_MAX	2048

enum sym { SYM_ARROW, SYM_MINUS, SYM_DASH, SYM_TIMES };

struct column {
	enum answer_fn fn;
	const char *pick;			/* the variant; NULL: "-" */
	unsigned int nwho;
	unsigned int who[ANSWER_PICKS_MAX];	/* indexes into a->pick[fn] */
	int rec[PASS_COUNT];			/* into a->rec; -1: not judged */
};

struct table {
	unsigned int first, n;			/* its columns in m.col */
	bool pass[PASS_COUNT];
	int note[PASS_COUNT][COLS_MAX];		/* a cell's footnote, 0: none */
};

/* A footnote's key: undecided, a why, an assumption, or the FPU mark. */
#define NOTE_FPU (WHY_COUNT + 1)
#define NOTE_DRIFT (WHY_COUNT + 2)
struct note {
	int why;				/* -1: undecided; WHY_COUNT: assuming; NOTE_FPU, NOTE_DRIFT */
	const char *assuming;
};

static struct {
	const struct answers *a;
	const struct matrix_style *st;
	struct column col[COLS_MAX];
	unsigned int ncols;
	struct table t[2];
	unsigned int nt;
	struct note note[NOTES_MAX];
	unsigned int nnotes;
	void (*put)(const char *line, void *ctx);
	void *ctx;
	unsigned int lines, limit;	/* lines made; given to put() */
	bool compact;			/* cells without blanks, whole per cents */
	char cell[PASS_COUNT + 2][COLS_MAX][CELL_MAX];
} m;

static const char *const suite_fns[2][2] = {
	{ "clear_page", "clear_pages" }, { "copy_page", NULL },
};

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

/* A footnote's mark: "¹²", or "[12]" in ASCII. */
static void add_mark(char *buf, size_t len, unsigned int n)
{
	static const char *const sup[] = { "⁰", "¹", "²", "³", "⁴", "⁵", "⁶", "⁷", "⁸", "⁹" };
	char digits[12];
	unsigned int i;

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
static void add_saving(char *buf, size_t len, const struct answer *r, bool compact)
{
	int64_t med = 10000 - parts(r->ratio.median);
	int64_t lo = 10000 - parts(r->ratio.hi), hi = 10000 - parts(r->ratio.lo);
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

/*
 * A log without the vector price: a vector routine that saves more,
 * before that price, is left out of the answer (unpriced=): marked "*".
 */
static bool unpriced(const struct answer *r)
{
	return r->unpriced != NULL;
}

static void cell_text(char *buf, size_t len, const struct answer *r, int note, bool compact)
{
	buf[0] = '\0';
	if (!r) {
		add(buf, len, "-");
		return;
	}
	switch (r->action) {
	case ANSWER_SWITCH:
		add_sym(buf, len, SYM_ARROW);
		add(buf, len, compact ? "" : " ");
		add(buf, len, r->routine ? r->routine->name : "-");
		add(buf, len, unpriced(r) ? "* " : " ");
		add_saving(buf, len, r, compact);
		add(buf, len, r->drift.moved ? DRIFT_MARK : "");
		return;
	case ANSWER_KEEP:
		add(buf, len, "keep");
		add(buf, len, r->drift.moved ? DRIFT_MARK : "");
		return;
	case ANSWER_UNDECIDED:
		add(buf, len, "undecided");
		add_mark(buf, len, note);
		add(buf, len, unpriced(r) ? "*" : "");
		add(buf, len, r->drift.moved ? DRIFT_MARK : "");
		return;
	case ANSWER_NONE:
		break;
	}
	add(buf, len, "n/a");
	add_mark(buf, len, note);
	if (r->has_ratio && r->routine && !compact) {
		add(buf, len, " ");
		add(buf, len, r->routine->name);
		add(buf, len, " ");
		add_sym(buf, len, SYM_TIMES);
		add_fixed(buf, len, (parts(r->ratio.median) + 50) / 100, 2);
	}
}

/* What a record says, wherever it is said: two that agree are one decision. */
static bool agree_rec(const struct answer *x, const struct answer *y)
{
	if (x->action != y->action || x->routine != y->routine || x->has_ratio != y->has_ratio)
		return false;
	if (x->has_ratio && (parts(x->ratio.median) != parts(y->ratio.median) ||
			     parts(x->ratio.lo) != parts(y->ratio.lo) ||
			     parts(x->ratio.hi) != parts(y->ratio.hi)))
		return false;
	if (x->action == ANSWER_NONE && x->why != y->why)
		return false;
	return x->action != ANSWER_UNDECIDED || x->need_epochs == y->need_epochs;
}

static bool agree(const struct column *x, const struct column *y)
{
	unsigned int p;

	for (p = 0; p < PASS_COUNT; p++)
		if (x->rec[p] >= 0 && y->rec[p] >= 0 &&
		    !agree_rec(&m.a->rec[x->rec[p]], &m.a->rec[y->rec[p]]))
			return false;
	return true;
}

/*
 * The columns of fn, appended to m.col: one per pick, in the order the
 * answer lines name them, then merged where they run the same variant
 * and agree in every pass they share.
 */
static void columns(enum answer_fn fn)
{
	static struct column raw[ANSWER_PICKS_MAX];
	unsigned int nraw = 0, i, k, p, first = m.ncols;

	for (i = 0; i < m.a->n; i++) {
		const struct answer *r = &m.a->rec[i];

		if (r->fn != fn)
			continue;
		for (k = 0; k < nraw && raw[k].who[0] != r->pick; k++)
			;
		if (k == nraw) {
			raw[nraw] = (struct column){ .fn = fn, .nwho = 1, .who = { r->pick },
				.pick = m.a->pick[fn][r->pick].variant };
			for (p = 0; p < PASS_COUNT; p++)
				raw[nraw].rec[p] = -1;
			nraw++;
		}
		if (raw[k].rec[r->pass] < 0)
			raw[k].rec[r->pass] = (int)i;
	}
	for (k = 0; k < nraw; k++) {
		for (i = first; i < m.ncols; i++) {
			struct column *c = &m.col[i];

			if (!same(c->pick, raw[k].pick) || !agree(c, &raw[k]))
				continue;
			c->who[c->nwho++] = raw[k].who[0];
			for (p = 0; p < PASS_COUNT; p++)
				if (c->rec[p] < 0)
					c->rec[p] = raw[k].rec[p];
			break;
		}
		if (i == m.ncols && m.ncols < COLS_MAX)
			m.col[m.ncols++] = raw[k];
	}
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

static const char *fn_name(const struct column *c)
{
	return answer_fn_name(c->fn);
}

static void build(void)
{
	unsigned int s, f, fn, i, p;

	m.ncols = m.nt = m.nnotes = 0;
	for (s = 0; s < 2; s++) {
		struct table *t = &m.t[m.nt];

		t->first = m.ncols;
		for (f = 0; f < 2 && suite_fns[s][f]; f++)
			for (fn = 0; fn < ANSWER_FNS; fn++)
				if (str_eq(answer_fn_name(fn), suite_fns[s][f]))
					columns(fn);
		t->n = m.ncols - t->first;
		if (!t->n)
			continue;
		for (p = 0; p < PASS_COUNT; p++) {
			t->pass[p] = false;
			for (i = 0; i < t->n; i++)
				t->pass[p] |= m.col[t->first + i].rec[p] >= 0;
		}
		for (p = 0; p < PASS_COUNT; p++)
			for (i = 0; t->pass[p] && i < t->n; i++) {
				int r = m.col[t->first + i].rec[p];
				const struct answer *a = r >= 0 ? &m.a->rec[r] : NULL;

				t->note[p][i] = !a || a->action == ANSWER_KEEP ||
						a->action == ANSWER_SWITCH ? 0 :
						a->action == ANSWER_UNDECIDED ? note_of(-1, NULL) :
						note_of((int)a->why, NULL);
			}
		m.nt++;
	}
	for (i = 0; i < m.a->n; i++)
		if (m.a->rec[i].action != ANSWER_NONE && unpriced(&m.a->rec[i])) {
			note_of(NOTE_FPU, NULL);
			break;
		}
	for (i = 0; i < m.a->n; i++)
		if (m.a->rec[i].action != ANSWER_NONE && m.a->rec[i].drift.moved) {
			note_of(NOTE_DRIFT, NULL);
			break;
		}
	for (i = 0; i < m.ncols; i++)
		for (f = 0; f < m.col[i].nwho; f++) {
			const char *as = m.a->pick[m.col[i].fn][m.col[i].who[f]].assuming;

			if (as[0])
				note_of(WHY_COUNT, as);
		}
}

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
		if (words && width_of(line) + 1 + width_of(word) > m.st->width) {
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

/* "pass" and the functions, the picks, then a row per pass, for the chosen columns. */
static unsigned int table_lines(const struct table *t, const unsigned int *cols,
				unsigned int n, bool out)
{
	static char row[MATRIX_LINE_MAX];
	unsigned int width[COLS_MAX + 1], r, j, p, widest = 0, rows = 0;
	unsigned int pass_row[PASS_COUNT];
	const char *last = NULL;

	/* The cells: row 0 the functions, row 1 the picks, then the passes. */
	for (j = 0; j < n; j++) {
		const struct column *c = &m.col[t->first + cols[j]];

		fmt_snprintf(m.cell[0][j], CELL_MAX, "%s", last && str_eq(last, fn_name(c)) ?
			     "" : fn_name(c));
		fmt_snprintf(m.cell[1][j], CELL_MAX, "%s", c->pick ? c->pick : "-");
		last = fn_name(c);
	}
	rows = 2;
	for (p = 0; p < PASS_COUNT; p++) {
		if (!t->pass[p])
			continue;
		pass_row[rows - 2] = p;
		for (j = 0; j < n; j++) {
			int rec = m.col[t->first + cols[j]].rec[p];

			cell_text(m.cell[rows][j], CELL_MAX, rec >= 0 ? &m.a->rec[rec] : NULL,
				  t->note[p][cols[j]], m.compact);
		}
		rows++;
	}
	/* Column 0 is the pass; width[j + 1] the column of cols[j]. */
	width[0] = 4;		/* "pass" */
	for (r = 2; r < rows; r++)
		if (width_of(passes[pass_row[r - 2]].id) > width[0])
			width[0] = width_of(passes[pass_row[r - 2]].id);
	for (j = 0; j < n; j++) {
		width[j + 1] = 0;
		for (r = 0; r < rows; r++)
			if (width_of(m.cell[r][j]) > width[j + 1])
				width[j + 1] = width_of(m.cell[r][j]);
	}
	for (r = 0; r < rows; r++) {
		unsigned int at, pos = 0;

		fmt_snprintf(row, sizeof(row), "%s", r == 0 ? "pass" : r == 1 ? "" :
			     passes[pass_row[r - 2]].id);
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
		if (width_of(row) > widest)
			widest = width_of(row);
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
		const struct answer_pick *p = &m.a->pick[c->fn][c->who[w]];
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
			add_mark(buf, len, (unsigned int)note_of(WHY_COUNT, p->assuming));
	}
}

/* Column indexes per block: all where they fit, else each function's, as many as fit. */
static unsigned int chunks(const struct table *t, unsigned int (*out)[COLS_MAX],
			   unsigned int *sizes)
{
	unsigned int every[COLS_MAX], cur[COLS_MAX], i, k, n = 0, ncur;
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

static const char *const legend_full =
	"keep, or @> routine @-saving of ns per 4 KiB page (95% interval); - not judged; f: flushed";
static const char *const legend_no_advice =
	"n/a, then the routine the run would name and its time over the pick's (@xr); "
	"- not judged; f: flushed";

/* A text with @> @- @x for the symbols of this style. */
static void symbols(char *buf, size_t len, const char *s)
{
	char one[2] = "";

	buf[0] = '\0';
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
	case NOTE_FPU:
		return "*: a vector routine saves more before the price of vector "
		       "registers, which this log does not carry (unpriced=)";
	case NOTE_DRIFT:
		return DRIFT_MARK ": its ratio drifted during the run (drift=): "
		       "a rerun may decide otherwise";
	}
	return "no recommendation";
}

static void render(bool blanks)
{
	static unsigned int blocks[COLS_MAX][COLS_MAX];
	static char text[TEXT_MAX], label[32];
	unsigned int sizes[COLS_MAX], nb, b, i, k, n;
	bool advice = false;

	for (i = 0; i < m.a->n; i++)
		advice |= m.a->rec[i].action != ANSWER_NONE;
	symbols(text, sizeof(text), advice ? legend_full : legend_no_advice);
	if (!m.st->no_legend)
		wrap("cells: ", text);
	for (k = 0; k < m.nt; k++) {
		const struct table *t = &m.t[k];

		nb = chunks(t, blocks, sizes);
		for (b = 0; b < nb; b++) {
			if (blanks)
				emit("");
			table_lines(t, blocks[b], sizes[b], true);
			text[0] = '\0';
			for (i = 0; i < sizes[b]; i++) {
				char who[MATRIX_LINE_MAX];

				who_text(who, sizeof(who), &m.col[t->first + blocks[b][i]]);
				if (i)
					add(text, sizeof(text), "; ");
				add(text, sizeof(text), who);
			}
			wrap("picks: ", text);
		}
	}
	if (m.nnotes && blanks)
		emit("");
	for (n = 0; n < m.nnotes; n++) {
		label[0] = '\0';
		add_mark(label, sizeof(label), n + 1);
		add(label, sizeof(label), " ");
		if (m.note[n].why == WHY_COUNT) {
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

unsigned int answer_matrix(const struct answers *a, const struct matrix_style *style,
			   void (*put)(const char *line, void *ctx), void *ctx)
{
	static const bool tries[3][2] = { { false, true }, { true, true }, { true, false } };
	unsigned int i;
	char cut[80];

	if (!a->on || !a->n || !style->width || !style->height)
		return 0;
	m.a = a;
	m.st = style;
	build();
	if (!m.nt)
		return 0;
	for (i = 0; i < 3; i++) {
		m.compact = tries[i][0];
		m.put = NULL;
		m.lines = 0;
		render(tries[i][1]);
		if (m.lines <= style->height)
			break;
	}
	if (i == 3)
		i = 2;
	m.compact = tries[i][0];
	m.put = put;
	m.ctx = ctx;
	m.limit = style->height;
	if (m.lines > style->height) {
		unsigned int more = m.lines - style->height + 1;

		m.limit = style->height - 1;
		m.lines = 0;
		render(tries[i][1]);
		fmt_snprintf(cut, sizeof(cut), "... %u more lines: the log's answer lines", more);
		if (put)
			put(cut, ctx);
		return style->height;
	}
	m.lines = 0;
	render(tries[i][1]);
	return m.lines;
}
