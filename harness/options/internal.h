/* SPDX-License-Identifier: MIT */
/*
 * What the files of harness/options/ share, and no file outside it
 * includes but the unit test of the table's defaults
 * (tests/unit/test_lib.c); options.h is the folder's interface to
 * everyone else. Lowest
 * first: words.c (errors, words, lists), names.c and values.c (the value
 * parsers), table.c (the options), then parse.c (the driver) and help.c
 * (--help), which both read the table.
 */
#ifndef PB_OPTIONS_INTERNAL_H
#define PB_OPTIONS_INTERNAL_H

#include <stddef.h>
#include "harness/options/options.h"
#include "lib/str.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/*
 * The names an option's value may be, for its parser, its error and --help:
 * the i-th for program p, NULL past the last.
 */
typedef const char *option_names_fn(enum program p, unsigned int i);

/* --- words.c --- */

/* One error message into o; past the last slot only the count grows. */
void opt_error(struct options *o, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/*
 * Appends to the text in buf, *n long so far (it may be longer than buf:
 * the text is cut to fit, and *n still counts all of it).
 */
void opt_append(char *buf, size_t size, size_t *n, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
/* Appends every name of a list, the first after first, the others after sep. */
void opt_append_names(char *buf, size_t size, size_t *n, option_names_fn *names,
		      enum program p, const char *first, const char *sep);
/* Calls one(o, name) for each comma-separated name; "" names are errors. */
void opt_each_name(struct options *o, const char *key, char *list,
		   bool (*one)(struct options *, const char *));

/* --- names.c: values that are one of a table's names --- */

option_names_fn suite_names, tsc_names, exit_names, selftest_names,
	pass_names, feature_names, cycles_names;
void parse_exit(struct options *o, char *val);
void parse_cycles(struct options *o, char *val);
void parse_selftest(struct options *o, char *val);
void parse_disable(struct options *o, char *val);
void parse_force(struct options *o, char *val);
void parse_suite(struct options *o, char *val);
void parse_passes(struct options *o, char *val);
void parse_tsc(struct options *o, char *val);

/* --- values.c: numbers, sizes, times and text --- */

void parse_console(struct options *o, char *val);
void parse_tag(struct options *o, char *val);
void parse_reps(struct options *o, char *val);
void parse_precision(struct options *o, char *val);
void parse_worth(struct options *o, char *val);
void parse_mix(struct options *o, char *val);
void parse_budget(struct options *o, char *val);
void parse_time(struct options *o, char *val);
void parse_variants(struct options *o, char *val);
void parse_log(struct options *o, char *val);
void parse_cpu(struct options *o, char *val);
void parse_cpus(struct options *o, char *val);
void parse_watchdog(struct options *o, char *val);
void parse_stall_limit(struct options *o, char *val);
void parse_scrub(struct options *o, char *val);
void parse_sizes(struct options *o, char *val);

/* --- table.c --- */

struct option_def {
	const char *key;
	void (*parse)(struct options *o, char *val);
	unsigned int programs;		/* enum program bits */
	/* The valid names of the value, or NULL where it is not a name. */
	option_names_fn *names;
	/*
	 * What --help says. value: the value's form (NULL: one of names, as
	 * a|b|c; else its first word in capitals, as FEAT, stands for one of
	 * names); what: what it does.
	 */
	const char *value, *what;
	/*
	 * The default, one of three. dflt: a value, which parse reads;
	 * options_init() applies it, or options_finish() where dflt_applies
	 * says it depends on other options (dflt_when says so in --help).
	 * dflt_is: what happens where it is no value (the code that decides
	 * is named beside it). dflt_fn: the default written from the table
	 * it comes from (options_finish() applies that table's).
	 */
	const char *dflt, *dflt_when, *dflt_is;
	bool (*dflt_applies)(const struct options *o);
	void (*dflt_fn)(char *buf, size_t size);
};

/* Parses the default of option_defs[i] into o. */
void opt_default(struct options *o, unsigned int i);
/* Whether the option's value is a list (its form ends ",..."). */
bool option_is_list(const struct option_def *d);

extern const struct option_def option_defs[];
extern const unsigned int option_def_count;

#endif
