/* SPDX-License-Identifier: MIT */
#include <stdbool.h>
#include <stdint.h>
#include "lib/fmt.h"

struct sink {
	char *buf;
	size_t size;
	size_t len;		/* what the full output would need */
};

static void put(struct sink *s, char c)
{
	if (s->len + 1 < s->size)
		s->buf[s->len] = c;
	s->len++;
}

static void put_padded(struct sink *s, const char *str, size_t n,
		       unsigned int width, bool left, char pad)
{
	size_t i;

	/* Zero padding goes after a sign, so "-0042" rather than "00-42". */
	if (pad == '0' && n && str[0] == '-') {
		put(s, '-');
		str++;
		n--;
		if (width)
			width--;
	}
	if (!left)
		for (i = n; i < width; i++)
			put(s, pad);
	for (i = 0; i < n; i++)
		put(s, str[i]);
	if (left)
		for (i = n; i < width; i++)
			put(s, ' ');
}

static size_t utoa(char *out, uint64_t v, unsigned int base, bool upper)
{
	const char *digits = upper ? "0123456789ABCDEF" : "0123456789abcdef";
	char tmp[24];
	size_t n = 0, i;

	do {
		tmp[n++] = digits[v % base];
		v /= base;
	} while (v);
	for (i = 0; i < n; i++)
		out[i] = tmp[n - 1 - i];
	return n;
}

size_t fmt_vsnprintf(char *buf, size_t size, const char *fmt, va_list ap)
{
	struct sink s = { buf, size, 0 };

	for (; *fmt; fmt++) {
		char num[24];
		unsigned int width = 0;
		bool left = false;
		char pad = ' ';
		int lng = 0;
		uint64_t u;
		int64_t v;
		size_t n;
		const char *str;

		if (*fmt != '%') {
			put(&s, *fmt);
			continue;
		}
		fmt++;
		for (;; fmt++) {
			if (*fmt == '-')
				left = true;
			else if (*fmt == '0')
				pad = '0';
			else
				break;
		}
		while (*fmt >= '0' && *fmt <= '9')
			width = width * 10 + (unsigned int)(*fmt++ - '0');
		for (;; fmt++) {
			if (*fmt == 'l')
				lng++;
			else if (*fmt == 'z')
				lng = 2;
			else
				break;
		}
		if (left)
			pad = ' ';

		switch (*fmt) {
		case 'd':
		case 'i':
			v = lng ? va_arg(ap, long) : va_arg(ap, int);
			n = 0;
			if (v < 0) {
				num[n++] = '-';
				u = -(uint64_t)v;
			} else {
				u = (uint64_t)v;
			}
			n += utoa(num + n, u, 10, false);
			put_padded(&s, num, n, width, left, pad);
			break;
		case 'u':
		case 'x':
		case 'X':
			u = lng ? va_arg(ap, unsigned long) : va_arg(ap, unsigned int);
			n = utoa(num, u, *fmt == 'u' ? 10 : 16, *fmt == 'X');
			put_padded(&s, num, n, width, left, pad);
			break;
		case 'p':
			u = (uintptr_t)va_arg(ap, void *);
			num[0] = '0';
			num[1] = 'x';
			n = 2 + utoa(num + 2, u, 16, false);
			put_padded(&s, num, n, width, left, pad);
			break;
		case 'c':
			num[0] = (char)va_arg(ap, int);
			put_padded(&s, num, 1, width, left, ' ');
			break;
		case 's':
			str = va_arg(ap, const char *);
			if (!str)
				str = "(null)";
			for (n = 0; str[n]; n++)
				;
			put_padded(&s, str, n, width, left, ' ');
			break;
		case '%':
			put(&s, '%');
			break;
		case '\0':
			/* A lone '%' at the end: print it rather than read past the NUL. */
			put(&s, '%');
			fmt--;
			break;
		default:
			/* Unknown conversion: show it, so the mistake is visible. */
			put(&s, '%');
			put(&s, *fmt);
			break;
		}
	}
	if (size)
		buf[s.len < size ? s.len : size - 1] = '\0';
	return s.len;
}

size_t fmt_snprintf(char *buf, size_t size, const char *fmt, ...)
{
	va_list ap;
	size_t n;

	va_start(ap, fmt);
	n = fmt_vsnprintf(buf, size, fmt, ap);
	va_end(ap);
	return n;
}
