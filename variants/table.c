/* SPDX-License-Identifier: MIT */
/* The variant tables, built from clear.def and copy.def. */
#include "variants.h"

const struct clear_variant clear_variants[] = {
#define CLEAR_PAGE(n, fn, need, xen, what)  { #n, fn, NULL, need, xen, what },
#define CLEAR_RANGE(n, fn, need, xen, what) { #n, NULL, fn, need, xen, what },
#include "clear.def"
#undef CLEAR_PAGE
#undef CLEAR_RANGE
};
const unsigned int clear_variant_count =
	sizeof(clear_variants) / sizeof(clear_variants[0]);

const struct copy_variant copy_variants[] = {
#define COPY_PAGE(n, fn, need, what)  { #n, fn, NULL, need, what },
#define COPY_RANGE(n, fn, need, what) { #n, NULL, fn, need, what },
#include "copy.def"
#undef COPY_PAGE
#undef COPY_RANGE
};
const unsigned int copy_variant_count =
	sizeof(copy_variants) / sizeof(copy_variants[0]);
