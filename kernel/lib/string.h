/* SPDX-License-Identifier: MIT */
/* The C library functions the kernel has (kernel/lib/string.c). */
#ifndef PB_LIB_H
#define PB_LIB_H

#include <stddef.h>

void *memset(void *dst, int c, size_t n);
void *memcpy(void *dst, const void *src, size_t n);

#endif
