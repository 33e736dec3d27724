/* SPDX-License-Identifier: MIT */
/*
 * The option parser's driver: the defaults (table.c's), each word cut
 * from the command line and handed to its key's parser (table.c), the
 * checks that need the whole command line (the suite decides which
 * variants, passes and sizes exist) and the defaults that depend on other
 * options, and the errors printed once the log can take them.
 */
#include "harness/options/internal.h"
#include "lib/out.h"
#include "lib/run.h"
#include "variants/string_variants.h"

static const char *program_name(enum program h)
{
	return h == PROGRAM_LINUX ? "pagebench-linux" :
	       h == PROGRAM_MODULE ? "the module" : "the kernel";
}

/* " console= tag= ..." for the keys this program takes. */
static void valid_keys(const struct options *o, char *buf, size_t size)
{
	size_t n = 0;
	unsigned int i;

	buf[0] = '\0';
	for (i = 0; i < option_def_count; i++)
		if (option_defs[i].programs & o->program)
			opt_append(buf, size, &n, " %s=", option_defs[i].key);
}

void opt_default(struct options *o, unsigned int i)
{
	char val[OPT_WORD_MAX];
	const char *d = option_defs[i].dflt;
	unsigned int n;

	/* A parser may cut its value up: it gets a copy. */
	for (n = 0; d[n] && n + 1 < sizeof(val); n++)
		val[n] = d[n];
	val[n] = '\0';
	option_defs[i].parse(o, val);
	o->defaulted |= 1ull << i;
}

bool option_defaulted(const struct options *o, const char *key)
{
	unsigned int i;

	for (i = 0; i < option_def_count; i++)
		if (str_eq(key, option_defs[i].key))
			return (o->defaulted >> i) & 1;
	return false;
}

/*
 * Every default that stands alone, from the table (a word then replaces
 * it, or keeps it where the word is bad); options_finish() adds the rest.
 */
void options_init(struct options *o, enum program program)
{
	unsigned int i;

	*o = (struct options){ .program = program, .cpu = CPU_DEFAULT };
	for (i = 0; i < option_def_count; i++)
		if (option_defs[i].dflt && !option_defs[i].dflt_applies)
			opt_default(o, i);
}

/*
 * A control character (a newline above all) would end the log line that
 * echoes the word and start a forged one, so such a word is refused, and
 * only the part before it is shown: the key, where that is all of it.
 */
static bool refuse_control(struct options *o, const char *w)
{
	char key[OPT_WORD_MAX];
	unsigned int i, eq = 0;

	for (i = 0; w[i] && (unsigned char)w[i] >= ' ' && w[i] != 0x7f; i++)
		if (!eq && w[i] == '=')
			eq = i;
	if (!w[i])
		return false;
	if (eq) {
		for (i = 0; i < eq; i++)
			key[i] = w[i];
		key[eq] = '\0';
		for (i = eq; (unsigned char)w[i] >= ' ' && w[i] != 0x7f; i++)
			;
		opt_error(o, "%s=: control character 0x%02x in the value; values are printable text",
			  key, (unsigned char)w[i]);
	} else
		opt_error(o, "option with a control character (0x%02x) refused; options are printable key=value words",
			  (unsigned char)w[i]);
	return true;
}

/* One word of len characters at s, not NUL-terminated. */
static void parse_one(struct options *o, const char *s, size_t len)
{
	char w[OPT_WORD_MAX], keys[200];
	char *val;
	unsigned int i;

	if (len >= sizeof(w)) {
		opt_error(o, "option too long (%u characters, at most %u)",
			  (unsigned int)len, (unsigned int)sizeof(w) - 1);
		return;
	}
	for (i = 0; i < len; i++)
		w[i] = s[i];
	w[len] = '\0';
	if (refuse_control(o, w))
		return;

	valid_keys(o, keys, sizeof(keys));
	for (val = w; *val && *val != '='; val++)
		;
	if (!*val || val == w) {
		opt_error(o, "malformed option '%s'; options are key=value:%s", w, keys);
		return;
	}
	*val++ = '\0';

	for (i = 0; i < option_def_count; i++) {
		if (!str_eq(w, option_defs[i].key))
			continue;
		o->defaulted &= ~(1ull << i);
		if (option_defs[i].programs & o->program)
			option_defs[i].parse(o, val);
		else
			opt_error(o, "%s=: not an option of %s; valid:%s", w,
				  program_name(o->program), keys);
		return;
	}
	opt_error(o, "unknown option '%s'; valid:%s", w, keys);
}

void options_word(struct options *o, const char *word)
{
	size_t len = 0;

	while (word[len])
		len++;
	parse_one(o, word, len);
}

/* The names variants= may use in suite s, for an error message. */
static void list_variant_names(enum suite s, char *buf, size_t size)
{
	size_t n = 0;
	unsigned int i, j;

	buf[0] = '\0';
	for (i = 0; i < variant_count; i++) {
		if (!suite_has_variant(s, &variants[i]))
			continue;
		/* sse2, avx, avx512 and their _t exist in both tables: list them once. */
		for (j = 0; j < i; j++)
			if (suite_has_variant(s, &variants[j]) &&
			    str_eq(variants[j].name, variants[i].name))
				break;
		if (j == i)
			opt_append(buf, size, &n, " %s", variants[i].name);
	}
	/* suite=strings: memset and memcpy share orig, avx_t and avx512_t too. */
	for (i = 0; (suites[s].ops & OPS_STRINGS) && i < string_variant_count; i++) {
		for (j = 0; j < i; j++)
			if (str_eq(string_variants[j].name, string_variants[i].name))
				break;
		if (j == i)
			opt_append(buf, size, &n, " %s", string_variants[i].name);
	}
}

/*
 * A name selects the variant of that name in each table of the suite that
 * has one (sse2, avx, avx512 and their _t exist in both).
 */
static bool add_variant(struct options *o, const char *name)
{
	char valid[OPT_ERROR_LEN - 96];
	bool found = false;
	unsigned int i;

	for (i = 0; i < variant_count; i++) {
		if (suite_has_variant(o->suite, &variants[i]) &&
		    str_eq(name, variants[i].name)) {
			o->variants |= 1ull << i;
			found = true;
		}
	}
	for (i = 0; (suites[o->suite].ops & OPS_STRINGS) && i < string_variant_count; i++) {
		if (str_eq(name, string_variants[i].name)) {
			o->str_variants |= 1ull << i;
			found = true;
		}
	}
	if (!found) {
		list_variant_names(o->suite, valid, sizeof(valid));
		opt_error(o, "variants=: no variant '%s' in suite %s; valid:%s",
			  name, suite_name(o->suite), valid);
		/* Fall back to the suite's own variants, as for any bad option. */
		o->variants = 0;
		o->str_variants = 0;
		o->variants_arg[0] = '\0';
	}
	return found;
}

void options_finish(struct options *o)
{
	pass_set allowed = suite_passes(o->suite);
	char list[sizeof(o->variants_arg)], valid[160];
	size_t n = 0;
	unsigned int i;

	/* opt_each_name() cuts its argument up; variants_arg stays as given. */
	for (i = 0; i < sizeof(list); i++)
		list[i] = o->variants_arg[i];
	o->variants = 0;
	o->str_variants = 0;
	if (list[0])
		opt_each_name(o, "variants", list, add_variant);

	if (o->scrub_bytes && suites[o->suite].how != HOW_SCRUB) {
		opt_error(o, "scrub=: suite %s clears no scrub region; it is for suite=scrub",
			  suite_name(o->suite));
		o->scrub_bytes = 0;
	}
	/* suite=strings: no passes, sizes instead, reps bounded by the line. */
	if (o->passes && !allowed) {
		opt_error(o, "passes=: suite %s has no passes", suite_name(o->suite));
		o->passes = 0;
	}
	if (o->nsizes && !(suites[o->suite].ops & OPS_STRINGS)) {
		opt_error(o, "sizes=: only suite=strings measures sizes");
		o->nsizes = 0;
	}
	if ((suites[o->suite].ops & OPS_STRINGS) && o->reps > STRINGS_REPS_MAX) {
		opt_error(o, "reps=: suite strings takes 1 to %u (each rep's figure goes on its line)",
			  STRINGS_REPS_MAX);
		o->reps = 0;
	}

	/* reps= fixes the reps; time=, precision= and budget= add epochs instead. */
	if (o->time_ms && suites[o->suite].reps) {
		opt_error(o, "time=: suite %s runs a fixed number of reps (reps=); only suites all, clear and copy spend a time budget",
			  suite_name(o->suite));
		o->time_ms = 0;
	} else if (o->time_ms && o->reps) {
		opt_error(o, "reps=: fixes the reps of each pass, while time= adds epochs until the run's time is spent; give one of them");
		o->time_ms = 0;
	}
	if ((o->precision_bp || o->budget_ms) && suites[o->suite].reps) {
		opt_error(o, "%s=: suite %s runs a fixed number of reps (reps=); only suites all, clear and copy add epochs until precise",
			  o->precision_bp ? "precision" : "budget", suite_name(o->suite));
		o->precision_bp = 0;
		o->budget_ms = 0;
	} else if ((o->precision_bp || o->budget_ms) && o->reps) {
		opt_error(o, "reps=: fixes the reps of each pass, while %s= adds epochs until precise; give one of them",
			  o->precision_bp ? "precision" : "budget");
		o->precision_bp = 0;
		o->budget_ms = 0;
	}

	if (o->passes & ~allowed) {
		valid[0] = '\0';
		for (i = 0; i < PASS_COUNT; i++)
			if (allowed & (1u << i))
				opt_append(valid, sizeof(valid), &n, " %s", passes[i].id);
		opt_error(o, "passes=: suite %s has only%s", suite_name(o->suite),
			  valid);
		o->passes = 0;
	}

	/* The defaults that depend on other options, now all are known. */
	if (!o->reps)
		o->reps = suites[o->suite].reps;
	if (!o->passes)
		o->passes = suite_default_passes(o->suite);
	if (o->time_ms && (o->precision_bp || o->budget_ms)) {
		o->time_over = true;
		o->precision_bp = 0;
		o->budget_ms = 0;
	}
	for (i = 0; i < option_def_count; i++)
		if (option_defs[i].dflt_applies && option_defs[i].dflt_applies(o))
			opt_default(o, i);
}

void options_parse(struct options *o, enum program program, const char *cmdline)
{
	const char *p = cmdline ? cmdline : "";
	bool first = true;

	options_init(o, program);
	while (*p) {
		const char *start;
		bool has_eq = false;

		while (*p == ' ' || *p == '\t')
			p++;
		if (!*p)
			break;
		for (start = p; *p && *p != ' ' && *p != '\t'; p++)
			has_eq |= *p == '=';
		/* Multiboot loaders put the image's path first: it is no option. */
		if (first && program == PROGRAM_KERNEL && !has_eq) {
			first = false;
			continue;
		}
		first = false;
		parse_one(o, start, (size_t)(p - start));
	}
	options_finish(o);
}

bool option_selects_string(const struct options *o, unsigned int i)
{
	if (!(suites[o->suite].ops & OPS_STRINGS))
		return false;
	if (o->variants_arg[0])
		return (o->str_variants >> i) & 1;
	return true;
}

bool option_selects(const struct options *o, unsigned int i)
{
	if (!suite_has_variant(o->suite, &variants[i]))
		return false;
	if (o->variants_arg[0])
		return (o->variants >> i) & 1;
	return true;
}

void options_print_errors(const struct options *o)
{
	unsigned int i;

	for (i = 0; i < o->nerrors; i++) {
		if (i < OPT_MAX_ERRORS)
			out_line("option error: %s", o->errors[i]);
		run_fail();
	}
	if (o->nerrors > OPT_MAX_ERRORS)
		out_line("option error: %u more not shown", o->nerrors - OPT_MAX_ERRORS);
}
