/* SPDX-License-Identifier: MIT */
/*
 * --help's text on the options, made from the table of options
 * (table.c): each key's form, what it does, its valid names and
 * its default.
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
		if (!*q || !cut)
			cut = q;	/* the rest fits, or one word is too long */
		for (n = 0; n < HELP_INDENT; n++)
			line[n] = ' ';
		for (q = p; q < cut && n < HELP_WIDTH; q++)
			line[n++] = *q;
		line[n] = '\0';
		put(line);
		p = *cut == ' ' ? cut + 1 : cut;
	}
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
		if (d->dflt_fn)
			d->dflt_fn(dflt, sizeof(dflt));
		else
			fmt_snprintf(dflt, sizeof(dflt), "%s",
				     d->dflt ? d->dflt : d->names(program, 0));
		opt_append(text, sizeof(text), &n, ". Default: %s.", dflt);
		help_wrap(text, put);
	}
}
