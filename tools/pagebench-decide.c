// SPDX-License-Identifier: MIT
/*
 * pagebench-decide: the answer (harness/decide/answer.h) for a log that does not
 * carry its answer lines, made by the engine the kernel and pagebench-linux
 * run: a log from an older pagebench, or Jan Beulich's 2021 file.
 * pagebench-report reads the log, hands each machine's figures over in the
 * plain form below and prints the answer lines this program writes; it
 * never decides itself. docs/report.md ("verdict") says
 * how the report gathers the figures.
 *
 * Input, a line each, words key=value:
 *   machine NAME                  starts a machine (NAME to the end of line)
 *   cpu vendor=V family=N model=N stepping=N, or cpu vendor=? (not known)
 *   features NAME=0|1 ...         feature names as the features line has
 *                                 them; a feature not named is unknown
 *   fast_string 0|1|?             IA32_MISC_ENABLE bit 0, where the log says
 *   running release=R flags=F,... before run: the running Linux, its release and
 *                                 the flags its /proc/cpuinfo showed (lower
 *                                 case, as there; "-": none), as the log's
 *                                 linux kernel_flags line says them: its own
 *                                 picks are then decided too
 *   run [worth_bp=N] [mix=PASS:W,...] not_a_cpu=0|1 tsc_khz=N
 *                                 (no worth_bp: worth='s default; mix: the
 *                                 bottom lines' weights, as the option mix=)
 *   price ticks=N lo=N hi=N held=N window_bytes=N
 *                                 after run: the vector price, from the
 *                                 log's vector_price line (harness/measure/vector_price.h);
 *                                 none: the log carries no price, and no
 *                                 vector routine is named (unpriced=)
 *   fpu entry_centi=N held_centi=N window_bytes=N
 *                                 after run, for a module log from before
 *                                 the vector_price line: the price its
 *                                 "linux-module fpu" lines give, medians
 *                                 only (no interval of its own)
 *   pass op=clear|copy pass=ID bytes=N
 *   series variant=NAME failed=0|1 quantum=N med=N,N,...
 *   scrub step=ID bytes=N         a suite=scrub step (cpus1, cpus2_remote):
 *                                 series lines follow, med= each rep's wall
 *                                 time, quantum= a tick, both in hundredths
 *   strings quantum=N             suite=strings: a figure's step
 *   figure op=memset|memcpy mode=tput|lat n=N variant=NAME failed=0|1 all=N,N,...
 *                                 one size and alignment of a block, each
 *                                 rep's figure (may be below 0)
 *   end                           the machine's answer lines are printed
 * med: each epoch's median, hundredths of a tick per call; quantum: the
 * timer's step over the calls of a sample, in the same unit. The size
 * classes of the memset and memcpy answers are the engine's
 * (harness/decide/answer_strings.h), never the input's.
 *
 * Or, for a log that carries its own: a machine's answer, bottom,
 * bottom_pass and bottom_sets lines, as the log has them without the
 * tag (docs/log-format.md), read back by tools/answer_lines.c and
 * drawn as they are, never decided again; a machine has either these
 * or figures.
 *
 * Output: "machine NAME", then the machine's answer and bottom lines,
 * "(PB) answer ...", "(PB) bottom ..." (a machine of lines: its own lines
 * again). With --matrix ROWS: "machine NAME", then the machine's answer
 * as the matrix of harness/render/matrix.h, 100 columns and at most ROWS
 * lines.
 *
 * Every number is a whole number within its field's range (FIGURE_MAX at
 * most, and narrower where the field says less: worth_bp 10 to 5000, a
 * TSC of 1 MHz to 100 GHz or 0 for unknown); one outside it refuses the
 * input with its line, never cut to fit. tests/fuzz/decide.c feeds
 * decide_stream() inputs of its own.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cpu/cpu.h"
#include "harness/decide/answers.h"
#include "harness/render/matrix.h"
#include "harness/decide/answer_strings.h"
#include "harness/options/options.h"
#include "harness/stats/interval.h"
#include "variants/passes.h"
#include "harness/decide/rules.h"
#include "lib/out.h"
#include "lib/status.h"
#include "tools/answer_lines.h"
#include "tools/decide_combine.h"
#include "tools/decide_compare.h"
#include "variants/variants.h"

#define LINE_MAX_BYTES	16384
/*
 * The largest figure taken: 2^53, about 10^16 hundredths of a tick,
 * months per call at any clock; a double still holds it exactly (the
 * report's figures), and sums of thousands of them stay in 64 bits.
 */
#define FIGURE_MAX	(1ull << 53)
/* A TSC rate, in kHz: 1 MHz to 100 GHz; 0 is a log that does not say. */
#define TSC_KHZ_MIN	1000ull
#define TSC_KHZ_MAX	100000000ull
/* Bytes of a pass or a scrub step, and the module's window: 1 TiB at most. */
#define BYTES_MAX	(1ull << 40)
/* The module's kernel_fpu_begin/end cost, hundredths of a tick: 2^32, 43 million ticks. */
#define FPU_CENTI_MAX	(1ull << 32)

struct machine {
	struct cpu_desc cpu;
	bool cpu_known;
	uint64_t feats_known;
	int fast_string;
	struct answer_run run;
	bool has_run;
	bool open_pass;
	bool scrub;			/* the open pass is a scrub step */
	char step[16];
	bool strings;			/* figure lines came */
	bool lines;			/* the machine is its log's own answer lines */
	bool has_running;
	struct rule_running running;
	uint64_t strings_quantum;
	enum op op;
	enum pass_id pass;
	size_t bytes;
	unsigned int n;
	struct answer_input in[VARIANTS_MAX];
	/* Every pass's epochs: the bottom lines read them all at the end. */
	unsigned int slot;
	uint64_t med[ANSWER_PASSES_MAX + 1][VARIANTS_MAX][INTERVAL_EPOCHS_MAX];
};

static struct machine m;
static struct answers answers;
/* The machine's suite=strings figures, by size class (harness/measure/strings_figures.h). */
static struct strings_figures strings_figs;
static unsigned long lineno;
static jmp_buf refused;		/* fail(): back to decide_stream(), which returns STATUS_USAGE */

static void __attribute__((noreturn)) fail(const char *what, const char *word)
{
	fprintf(stderr, "pagebench-decide: line %lu: %s%s%s\n", lineno, what,
		word ? ": " : "", word ? word : "");
	longjmp(refused, 1);
}

/* The value of key in the words after the line's first, or NULL. */
static char *value_of(char *const *w, unsigned int nw, const char *key)
{
	size_t k = strlen(key);
	unsigned int i;

	for (i = 1; i < nw; i++)
		if (!strncmp(w[i], key, k) && w[i][k] == '=')
			return w[i] + k + 1;
	return NULL;
}

/* The value of key, a whole number from lo to hi: refused outside, never cut to fit. */
static uint64_t number_in(char *const *w, unsigned int nw, const char *key, uint64_t lo,
			  uint64_t hi)
{
	char *s = value_of(w, nw, key), *end;
	unsigned long long x;

	if (!s)
		fail("missing", key);
	errno = 0;
	x = strtoull(s, &end, 10);
	if (errno || end == s || *end || *s < '0' || *s > '9')
		fail("not a number", key);
	if (x < lo || x > hi) {
		char why[96];

		snprintf(why, sizeof(why), "%s=%s: out of range, %llu to %llu", key, s,
			 (unsigned long long)lo, (unsigned long long)hi);
		fail(why, NULL);
	}
	return x;
}

/* A figure or a count: 0 to FIGURE_MAX. */
static uint64_t number(char *const *w, unsigned int nw, const char *key)
{
	return number_in(w, nw, key, 0, FIGURE_MAX);
}

/* A flag: 0 or 1. */
static bool flag(char *const *w, unsigned int nw, const char *key)
{
	return number_in(w, nw, key, 0, 1);
}

static enum feat feat_named(const char *name)
{
	unsigned int f;

	for (f = FEAT_NONE + 1; f < FEAT_COUNT; f++)
		if (!strcmp(feat_name(f), name))
			return f;
	return FEAT_NONE;
}

/* "cpu vendor=?": a log that does not say which CPU it ran on. */
static void cpu_words(char *const *w, unsigned int nw)
{
	const char *vendor = value_of(w, nw, "vendor");

	if (vendor && !strcmp(vendor, "?") && nw == 2)
		return;
	m.cpu_known = true;
	if (!vendor || strlen(vendor) > 12)
		fail("cpu: a vendor of at most 12 characters is needed", vendor);
	snprintf(m.cpu.vendor, sizeof(m.cpu.vendor), "%s", vendor);
	m.cpu.family = number_in(w, nw, "family", 0, UINT32_MAX);
	m.cpu.model = number_in(w, nw, "model", 0, UINT32_MAX);
	m.cpu.stepping = number_in(w, nw, "stepping", 0, UINT32_MAX);
}

/* Unknown names are features this build does not know: no rule reads them. */
static void feature_words(char *const *w, unsigned int nw)
{
	unsigned int i;

	for (i = 1; i < nw; i++) {
		char *eq = strchr(w[i], '=');
		enum feat f;

		if (!eq || (strcmp(eq, "=0") && strcmp(eq, "=1")))
			fail("features: NAME=0 or NAME=1 expected", w[i]);
		*eq = '\0';
		f = feat_named(w[i]);
		if (f == FEAT_NONE)
			continue;
		m.feats_known |= 1ull << f;
		if (eq[1] == '1')
			m.cpu.feats |= 1ull << f;
	}
}

static void pass_end(void)
{
	if (m.open_pass && m.scrub)
		answers_scrub(&answers, m.step, m.bytes, m.in, m.n);
	else if (m.open_pass)
		answers_pass(&answers, m.op, m.pass, m.bytes, m.in, m.n);
	m.open_pass = false;
	m.scrub = false;
}

static void scrub_words(char *const *w, unsigned int nw)
{
	const char *id = value_of(w, nw, "step");

	pass_end();
	if (!answers.on)
		fail("scrub before run", NULL);
	if (!id || strlen(id) >= sizeof(m.step) || strncmp(id, "cpus", 4))
		fail("scrub: step=cpusN expected", id);
	snprintf(m.step, sizeof(m.step), "%s", id);
	m.op = OP_CLEAR;
	m.bytes = number_in(w, nw, "bytes", 1, BYTES_MAX);
	m.n = 0;
	m.slot = ANSWER_PASSES_MAX;
	m.scrub = true;
	m.open_pass = true;
}

static void figure_words(char *const *w, unsigned int nw)
{
	const char *op = value_of(w, nw, "op"), *mode = value_of(w, nw, "mode");
	const char *name = value_of(w, nw, "variant");
	char *all = value_of(w, nw, "all"), *tok, *save;
	int64_t fig[STRINGS_REPS_MAX];
	unsigned int reps = 0, vi, md;
	uint64_t n = number_in(w, nw, "n", 0, UINT32_MAX);
	bool failed = flag(w, nw, "failed");

	if (!answers.on)
		fail("figure before run", NULL);
	if (!op || (strcmp(op, "memset") && strcmp(op, "memcpy")))
		fail("figure: op=memset or op=memcpy expected", op);
	for (md = 0; md < MODE_COUNT && !(mode && !strcmp(mode, strings_mode_name(md))); md++)
		;
	if (md == MODE_COUNT)
		fail("figure: mode=tput or mode=lat expected", mode);
	if (!name || !all)
		fail("figure: variant= and all= are needed", NULL);
	for (vi = 0; vi < string_variant_count; vi++)
		if (!strcmp(string_op_name(string_variants[vi].op), op) &&
		    !strcmp(string_variants[vi].name, name))
			break;
	if (vi == string_variant_count)
		return;	/* a variant this build has not: nothing to decide with */
	for (tok = strtok_r(all, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		char *end;

		if (reps == STRINGS_REPS_MAX)
			fail("figure: too many reps", name);
		errno = 0;
		fig[reps++] = strtoll(tok, &end, 10);
		if (errno || *end || end == tok)
			fail("figure: all= takes whole numbers", tok);
		if (fig[reps - 1] > (int64_t)FIGURE_MAX || fig[reps - 1] < -(int64_t)FIGURE_MAX)
			fail("figure: all= takes figures of -2^53 to 2^53", tok);
	}
	m.strings = true;
	if (failed)
		strings_figures_failed(&strings_figs, vi);
	strings_figures_add(&strings_figs, md, (unsigned int)n, vi, fig, reps);
}

static void pass_words(char *const *w, unsigned int nw)
{
	const char *op = value_of(w, nw, "op"), *id = value_of(w, nw, "pass");
	unsigned int p;

	pass_end();
	if (!answers.on)
		fail("pass before run", NULL);
	if (!op || (strcmp(op, "clear") && strcmp(op, "copy")))
		fail("pass: op=clear or op=copy expected", op);
	for (p = 0; p < PASS_COUNT && !(id && !strcmp(passes[p].id, id)); p++)
		;
	if (p == PASS_COUNT)
		fail("pass: no such pass", id);
	m.op = strcmp(op, "clear") ? OP_COPY : OP_CLEAR;
	m.pass = p;
	m.bytes = number_in(w, nw, "bytes", 1, BYTES_MAX);
	m.n = 0;
	m.open_pass = true;
	/* The answers keep at most ANSWER_PASSES_MAX; the last slot serves any beyond. */
	m.slot = answers.npass < ANSWER_PASSES_MAX ? answers.npass : ANSWER_PASSES_MAX;
}

static const struct variant *variant_named(enum op op, const char *name)
{
	unsigned int i;

	for (i = 0; i < variant_count; i++)
		if (variants[i].op == op && !strcmp(variants[i].name, name))
			return &variants[i];
	return NULL;
}

/*
 * An even count of epochs has no middle one for the interval
 * (harness/stats/interval.h): the first, the one nearest the start and its
 * warm-up, is left out.
 */
static void series_words(char *const *w, unsigned int nw)
{
	const char *name = value_of(w, nw, "variant");
	char *med = value_of(w, nw, "med"), *tok, *save;
	struct answer_input *in;
	uint64_t *t;
	unsigned int e = 0;
	struct interval iv;

	if (!m.open_pass)
		fail("series outside a pass", NULL);
	if (!name || !med)
		fail("series: variant= and med= are needed", NULL);
	if (m.n == VARIANTS_MAX)
		fail("series: too many variants in one pass", name);
	in = &m.in[m.n];
	t = m.med[m.slot][m.n];
	*in = (struct answer_input){ .v = variant_named(m.op, name),
				     .failed = flag(w, nw, "failed") };
	if (!in->v)
		return;	/* a variant this build has not: nothing to decide with */
	for (tok = strtok_r(med, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		char *end;

		if (e == INTERVAL_EPOCHS_MAX)
			fail("series: too many epochs", name);
		errno = 0;
		t[e++] = strtoull(tok, &end, 10);
		if (errno || *end || end == tok || *tok < '0' || *tok > '9')
			fail("series: med= takes whole numbers", tok);
		if (t[e - 1] > FIGURE_MAX)
			fail("series: med= takes figures of 0 to 2^53", tok);
	}
	if (e % 2 == 0 && e)
		memmove(t, t + 1, --e * sizeof(*t));
	in->s = (struct epoch_series){ .med = t, .epochs = e,
				       .quantum = number(w, nw, "quantum") };
	if (e) {
		uint64_t sorted[INTERVAL_EPOCHS_MAX];

		memcpy(sorted, t, e * sizeof(*t));
		interval_of_epochs(sorted, e, in->s.quantum ? in->s.quantum : 1, &iv);
		in->s.median = iv.median;
	}
	m.n++;
}

/* worth=: the log's where the report gives it, else a run's default. */
static unsigned int worth_of(char *const *w, unsigned int nw)
{
	struct options o;

	if (value_of(w, nw, "worth_bp"))
		return number_in(w, nw, "worth_bp", WORTH_MIN_BP, WORTH_MAX_BP);
	options_parse(&o, PROGRAM_LINUX, NULL);
	return o.worth_bp;
}

/* mix=PASS:W,...: the option's own parser, so that the log's words read as a run's. */
static void mix_of(char *const *w, unsigned int nw)
{
	const char *mix = value_of(w, nw, "mix");
	struct options o;
	char word[256];

	if (!mix)
		return;
	options_init(&o, PROGRAM_LINUX);
	snprintf(word, sizeof(word), "mix=%s", mix);
	options_word(&o, word);
	options_finish(&o);
	if (o.nerrors)
		fail("run: mix= takes PASS:WEIGHT,... as the option does", mix);
	memcpy(m.run.mix, o.mix, sizeof(m.run.mix));
}

static void run_words(char *const *w, unsigned int nw)
{
	struct rule_facts facts;

	if (m.lines)
		fail("a machine has either its own answer lines or figures", NULL);

	m.run = (struct answer_run){ .worth_bp = worth_of(w, nw),
				     .not_a_cpu = flag(w, nw, "not_a_cpu"),
				     .tsc_khz = number(w, nw, "tsc_khz") };
	if (m.run.tsc_khz && (m.run.tsc_khz < TSC_KHZ_MIN || m.run.tsc_khz > TSC_KHZ_MAX))
		fail("run: tsc_khz is 1000 to 100000000 (1 MHz to 100 GHz), or 0 for unknown",
		     value_of(w, nw, "tsc_khz"));
	mix_of(w, nw);
	rule_facts_init(&facts, &m.cpu, m.fast_string);
	/* What the log does not say stays unknown, as the rules need it. */
	facts.cpu_known = m.cpu_known;
	facts.feats_known = m.feats_known;
	answers_begin(&answers, &facts, m.has_running ? &m.running : NULL, &m.run);
}

/* The running Linux: its release and /proc/cpuinfo's flags, as the rules read them. */
static void running_words(char *const *w, unsigned int nw)
{
	char *release = value_of(w, nw, "release"), *flags = value_of(w, nw, "flags"), *c;

	if (answers.on)
		fail("running comes before run", NULL);
	if (!release || !flags || nw != 3)
		fail("running: release=R flags=F,... expected", NULL);
	if (strlen(release) >= sizeof(m.running.release))
		fail("running: release= longer than 47 characters", release);
	for (c = flags; *c; c++) {
		if (*c == ',')
			*c = ' ';
		else if (!((*c >= 'a' && *c <= 'z') || (*c >= '0' && *c <= '9') || *c == '_' ||
			   (*c == '-' && !strcmp(flags, "-"))))
			fail("running: flags= takes lower-case names, comma-separated", flags);
	}
	if (!rule_running_linux(&m.running, release, strcmp(flags, "-") ? flags : "", false))
		fail("running: release= starts with no version", release);
	m.has_running = true;
}

/* The vector price, into the run the answers were begun with. */
static void price_words(char *const *w, unsigned int nw)
{
	struct vector_price *p = &answers.run.price;

	if (!answers.on)
		fail("price before run", NULL);
	*p = (struct vector_price){ .measured = true, .how = "log", .where = "log",
				    .ticks = number(w, nw, "ticks"), .lo = number(w, nw, "lo"),
				    .hi = number(w, nw, "hi"), .held_ticks = number(w, nw, "held"),
				    .window_bytes = number(w, nw, "window_bytes") };
	if (p->lo > p->ticks || p->hi < p->ticks)
		fail("price: lo <= ticks <= hi expected", NULL);
	m.run.price = *p;
}

/* A module log from before the vector_price line: its medians, in hundredths. */
static void fpu_words(char *const *w, unsigned int nw)
{
	struct vector_price *p = &answers.run.price;

	if (!answers.on)
		fail("fpu before run", NULL);
	*p = (struct vector_price){ .measured = true, .how = "kernel_fpu_begin/end",
				    .where = "module",
				    .ticks = number_in(w, nw, "entry_centi", 0, FPU_CENTI_MAX) / CENTI,
				    .held_ticks = number_in(w, nw, "held_centi", 0, FPU_CENTI_MAX) / CENTI,
				    .window_bytes = number_in(w, nw, "window_bytes", 0, BYTES_MAX) };
	p->lo = p->hi = p->ticks;
	m.run.price = *p;
}

/* fast_string's word: 0, 1, or ? where the log does not say. */
static int fast_string_word(const char *word)
{
	if (!strcmp(word, "?"))
		return FACT_UNKNOWN;
	if (strcmp(word, "0") && strcmp(word, "1"))
		fail("fast_string: 0, 1 or ? expected", word);
	return word[0] == '1';
}

static unsigned int matrix_rows;	/* --matrix ROWS; 0: the answer lines */

static void matrix_line(const char *line, void *ctx)
{
	(void)ctx;
	puts(line);
}

/* One of the log's own lines (tools/answer_lines.h): the machine is drawn from them. */
static void lines_words(char *line)
{
	const char *e;

	if (answers.on && !m.lines)
		fail("a machine has either its own answer lines or figures", NULL);
	if (!m.lines)
		lines_begin(&answers);
	m.lines = true;
	e = lines_line(&answers, line);
	if (e)
		fail(e, NULL);
}

static void machine_end(void)
{
	const char *e;

	if (m.lines && (e = lines_end(&answers)))
		fail(e, NULL);
	pass_end();
	if (m.strings)
		answers_strings(&answers, &strings_figs, m.strings_quantum);
	answers_end(&answers);
	if (matrix_rows)
		answer_matrix(&answers, &(struct matrix_style){ .width = 100,
			      .height = matrix_rows }, matrix_line, NULL);
	else
		answers_print(&answers);
	answers.on = false;
}

static void machine_begin(const char *name)
{
	if (answers.on)
		machine_end();
	memset(&m, 0, sizeof(m));
	m.fast_string = FACT_UNKNOWN;
	strings_figures_begin(&strings_figs);
	lines_forget();
	printf("machine %s\n", name);
}

/* The status of a run whose output is all written, or says why not. */
static int flushed(void)
{
	if (fflush(stdout) || ferror(stdout)) {
		fprintf(stderr, "pagebench-decide: writing standard output: %s\n",
			strerror(errno ? errno : EIO));
		return STATUS_CANNOT;
	}
	return STATUS_DONE;
}

static void answer_sink(const char *s, size_t len)
{
	fwrite(s, 1, len, stdout);
}

/*
 * Every machine of in, its answer lines on standard output: STATUS_DONE,
 * or STATUS_USAGE once a line is refused (fail() says which on stderr).
 * Each call starts afresh: main() makes one, tests/fuzz/decide.c many.
 */
int decide_stream(FILE *in)
{
	static char line[LINE_MAX_BYTES];
	char *w[64];

	if (setjmp(refused))
		return STATUS_USAGE;
	memset(&m, 0, sizeof(m));
	m.fast_string = FACT_UNKNOWN;
	answers.on = false;
	strings_figures_begin(&strings_figs);
	lineno = 0;
	while (fgets(line, sizeof(line), in)) {
		unsigned int nw = 0;
		char *save, *tok;

		lineno++;
		if (!strchr(line, '\n') && !feof(in))
			fail("line too long", NULL);
		line[strcspn(line, "\n")] = '\0';
		if (!strncmp(line, "machine ", 8)) {
			machine_begin(line + 8);
			continue;
		}
		if (!strncmp(line, "answer ", 7) || !strncmp(line, "bottom ", 7) ||
		    !strncmp(line, "bottom_pass ", 12) || !strncmp(line, "bottom_sets ", 12)) {
			lines_words(line);
			continue;
		}
		for (tok = strtok_r(line, " ", &save); tok && nw < 64;
		     tok = strtok_r(NULL, " ", &save))
			w[nw++] = tok;
		if (!nw)
			continue;
		if (m.lines && strcmp(w[0], "end"))
			fail("a machine has either its own answer lines or figures", w[0]);
		if (!strcmp(w[0], "cpu"))
			cpu_words(w, nw);
		else if (!strcmp(w[0], "features"))
			feature_words(w, nw);
		else if (!strcmp(w[0], "fast_string") && nw == 2)
			m.fast_string = fast_string_word(w[1]);
		else if (!strcmp(w[0], "running"))
			running_words(w, nw);
		else if (!strcmp(w[0], "run"))
			run_words(w, nw);
		else if (!strcmp(w[0], "price"))
			price_words(w, nw);
		else if (!strcmp(w[0], "fpu"))
			fpu_words(w, nw);
		else if (!strcmp(w[0], "pass"))
			pass_words(w, nw);
		else if (!strcmp(w[0], "series"))
			series_words(w, nw);
		else if (!strcmp(w[0], "scrub"))
			scrub_words(w, nw);
		else if (!strcmp(w[0], "strings"))
			m.strings_quantum = number(w, nw, "quantum");
		else if (!strcmp(w[0], "figure"))
			figure_words(w, nw);
		else if (!strcmp(w[0], "end"))
			machine_end();
		else
			fail("unknown line", w[0]);
	}
	if (answers.on)
		machine_end();
	return STATUS_DONE;
}

/* --combine: the bottom lines of runs of CPU groups, combined (tools/decide_combine.h). */
static int combine_stream(FILE *in)
{
	if (setjmp(refused))
		return STATUS_USAGE;
	lineno = 0;
	decide_combine(in, fail, &lineno);
	return STATUS_DONE;
}

/* --compare: figures' intervals and ratios, as the report shows them (tools/decide_compare.h). */
static int compare_stream(FILE *in)
{
	if (setjmp(refused))
		return STATUS_USAGE;
	lineno = 0;
	decide_compare(in, FIGURE_MAX, fail, &lineno);
	return STATUS_DONE;
}

int main(int argc, char **argv)
{
	bool combine = argc == 2 && !strcmp(argv[1], "--combine");
	bool compare = argc == 2 && !strcmp(argv[1], "--compare");
	int status;

	if (argc == 3 && !strcmp(argv[1], "--matrix")) {
		char *end;
		unsigned long rows;

		errno = 0;
		rows = strtoul(argv[2], &end, 10);
		argc = !errno && *end == '\0' && argv[2][0] >= '0' && argv[2][0] <= '9' &&
		       rows >= 1 && rows <= 1000 ? 1 : 0;
		matrix_rows = argc ? (unsigned int)rows : 0;
	}
	if (argc != 1 && !combine && !compare) {
		fputs("Usage: pagebench-decide [--matrix ROWS] < FIGURES\n"
		      "       pagebench-decide --combine < BOTTOM_LINES\n"
		      "       pagebench-decide --compare < SERIES\n"
		      "The answer lines of each machine in FIGURES (or its log's own\n"
		      "answer and bottom lines), as scripts/pagebench-report hands them\n"
		      "over (tools/pagebench-decide.c gives the form); --matrix: its\n"
		      "answer's matrix instead, in at most ROWS lines, 1 to 1000.\n"
		      "--combine: the bottom lines of runs of CPU groups, combined per\n"
		      "group, then the fleet's (tools/decide_combine.h gives the form).\n"
		      "--compare: each figure's interval and the ratios asked for\n"
		      "(tools/decide_compare.h gives the form).\n"
		      "Exit status: 0 done, 2 malformed input, 3 the lines cannot be\n"
		      "written.\n", argc == 2 &&
		      !strcmp(argv[1], "--help") ? stdout : stderr);
		return argc == 2 && !strcmp(argv[1], "--help") ? STATUS_DONE : STATUS_USAGE;
	}
	out_add_sink(answer_sink);
	status = combine ? combine_stream(stdin) : compare ? compare_stream(stdin) :
		 decide_stream(stdin);
	if (status != STATUS_DONE)
		return status;
	return flushed();
}
