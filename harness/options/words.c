/* SPDX-License-Identifier: MIT */
/*
 * What every option's parser uses: keeping an error for the caller to
 * print, comparing words, and building and cutting up lists of names.
 */
#include "lib/fmt.h"
#include "harness/options/internal.h"

void opt_error(struct options *o, const char *fmt, ...)
{
	va_list ap;

	/* Past the last slot, the count still grows so done: reports them all. */
	if (o->nerrors < OPT_MAX_ERRORS) {
		va_start(ap, fmt);
		fmt_vsnprintf(o->errors[o->nerrors], OPT_ERROR_LEN, fmt, ap);
		va_end(ap);
	}
	o->nerrors++;
}

void opt_append(char *buf, size_t size, size_t *n, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	*n += fmt_vsnprintf(buf + *n, *n < size ? size - *n : 0, fmt, ap);
	va_end(ap);
}

void opt_append_names(char *buf, size_t size, size_t *n, option_names_fn *names,
		      enum program p, const char *first, const char *sep)
{
	const char *name;
	unsigned int i;

	for (i = 0; (name = names(p, i)); i++)
		opt_append(buf, size, n, "%s%s", i ? sep : first, name);
}

void opt_each_name(struct options *o, const char *key, char *list,
		   bool (*one)(struct options *, const char *))
{
	char *name = list;

	for (;;) {
		char *end = name;
		bool last;

		while (*end && *end != ',')
			end++;
		last = !*end;
		*end = '\0';
		if (!*name)
			opt_error(o, "%s=: empty name in the list", key);
		else if (!one(o, name))
			return;
		if (last)
			break;
		name = end + 1;
	}
}
