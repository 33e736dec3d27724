/* SPDX-License-Identifier: MIT */
/*
 * What every option's parser uses: keeping an error for the caller to
 * print, comparing words, and building and cutting up lists of names.
 */
#include "lib/fmt.h"
#include "harness/option_parse.h"

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

bool opt_streq(const char *a, const char *b)
{
	while (*a && *a == *b)
		a++, b++;
	return *a == *b;
}

void opt_list_add(char *buf, size_t size, size_t *n, const char *word)
{
	*n += fmt_snprintf(buf + *n, *n < size ? size - *n : 0, " %s", word);
}

void opt_list_names(option_names_fn *names, enum program p, char *buf, size_t size)
{
	const char *one;
	size_t n = 0;
	unsigned int i;

	buf[0] = '\0';
	for (i = 0; (one = names(p, i)); i++)
		opt_list_add(buf, size, &n, one);
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
