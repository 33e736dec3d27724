/* SPDX-License-Identifier: MIT */
/*
 * --help's text on the options, made from the table of options
 * (table.c): each key's form, what it does, its valid names and
 * its default, as the row has it (the value options_init() and
 * options_finish() parse, or what happens where it is no value).
 */
#include "lib/fmt.h"
#include "harness/options/internal.h"

#define HELP_WIDTH	78	/* columns of a --help line */
#define HELP_INDENT	6	/* of the text under an option */

/* text, cut at spaces into lines of at most HELP_WIDTH, each indented. */
static void help_wrap(const char *text, void (*put)(const char *line))
{
	char line[HELP_WIDTH + 1];
	const char *p = text;

	while (*p) {
		const char *cut = NULL, *q;
		size_t n;

		for (q = p; *q && q - p <= HELP_WIDTH - HELP_INDENT; q++)
			if (*q == ' ')
				cut = q;
		/*
		 * The rest fits, or a line ends at the last space that fits,
		 * or a word too long for a line is cut. (The rest one longer
		 * than a line used to fit, and lost its last character.)
		 */
		if (!*q && q - p <= HELP_WIDTH - HELP_INDENT)
			cut = q;
		else if (!cut)
			cut = p + (HELP_WIDTH - HELP_INDENT);
		for (n = 0; n < HELP_INDENT; n++)
			line[n] = ' ';
		for (q = p; q < cut && n < HELP_WIDTH; q++)
			line[n++] = *q;
		line[n] = '\0';
		put(line);
		p = *cut == ' ' ? cut + 1 : cut;
	}
}

bool option_is_list(const struct option_def *d)
{
	size_t n = 0;

	while (d->value && d->value[n])
		n++;
	return n >= 4 && str_eq(d->value + n - 4, ",...");
}

void options_help(enum program program, void (*put)(const char *line))
{
	char form[OPT_ERROR_LEN], text[2 * OPT_ERROR_LEN], dflt[OPT_ERROR_LEN];
	const struct option_def *d;
	unsigned int k;
	size_t n;

	for (d = option_defs; d < option_defs + option_def_count; d++) {
		if (!(d->programs & program))
			continue;
		n = 0;
		opt_append(form, sizeof(form), &n, "  %s=", d->key);
		if (d->value)
			opt_append(form, sizeof(form), &n, "%s", d->value);
		else
			opt_append_names(form, sizeof(form), &n, d->names, program, "", "|");
		put(form);

		n = 0;
		opt_append(text, sizeof(text), &n, "%s", d->what);
		if (d->value && d->names) {
			/* FEAT,... : FEAT is one of the names. */
			for (k = 0; d->value[k] >= 'A' && d->value[k] <= 'Z' &&
				    k + 1 < sizeof(dflt); k++)
				dflt[k] = d->value[k];
			dflt[k] = '\0';
			opt_append(text, sizeof(text), &n, "; %s:", dflt);
			opt_append_names(text, sizeof(text), &n, d->names, program, " ", " ");
		}
		opt_append(text, sizeof(text), &n, ". Default: ");
		if (d->dflt_fn) {
			d->dflt_fn(dflt, sizeof(dflt));
			opt_append(text, sizeof(text), &n, "%s", dflt);
		} else if (d->dflt && option_is_list(d)) {
			/* A list, as 0, 1, 2: a space after each comma lets it wrap. */
			for (k = 0; d->dflt[k]; k++)
				opt_append(text, sizeof(text), &n, "%c%s", d->dflt[k],
					   d->dflt[k] == ',' ? " " : "");
		} else {
			opt_append(text, sizeof(text), &n, "%s",
				   d->dflt ? d->dflt : d->dflt_is);
		}
		if (d->dflt_when)
			opt_append(text, sizeof(text), &n, " %s", d->dflt_when);
		opt_append(text, sizeof(text), &n, ".");
		help_wrap(text, put);
	}
}
