/* SPDX-License-Identifier: MIT */
/* gcc may emit calls to these even in freestanding code. */
#include "kernel/lib/string.h"

void *memset(void *dst, int c, size_t n)
{
	void *d = dst;

	asm volatile("rep stosb" : "+D"(d), "+c"(n) : "a"(c) : "memory");
	return dst;
}

void *memcpy(void *dst, const void *src, size_t n)
{
	void *d = dst;

	asm volatile("rep movsb" : "+D"(d), "+S"(src), "+c"(n) : : "memory");
	return dst;
}
