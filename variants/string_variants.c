/* SPDX-License-Identifier: MIT */
/* The short-string variant table, built from strings.def. */
#include "variants/string_variants.h"

#define STRING_OP_memset	STRING_MEMSET
#define STRING_OP_memcpy	STRING_MEMCPY
#define STRING_FN_memset(fn)	.set = fn
#define STRING_FN_memcpy(fn)	.copy = fn

const struct string_variant string_variants[] = {
#define STRING_VARIANT(op_, name_, store_, need_, regs_, cite_, what_)	\
	{ .op = STRING_OP_##op_, .name = #name_,			\
	  STRING_FN_##op_(op_##_##name_), .need = need_, .what = what_,	\
	  .store = STORE_##store_, .regs = REGS_##regs_ },
#include "variants/strings.def"
#undef STRING_VARIANT
};
const unsigned int string_variant_count =
	sizeof(string_variants) / sizeof(string_variants[0]);

_Static_assert(sizeof(string_variants) / sizeof(string_variants[0]) <=
	       STRING_VARIANTS_MAX, "a set has one bit per variant");

const char *string_op_name(enum string_op op)
{
	switch (op) {
	case STRING_MEMSET:
		return "memset";
	case STRING_MEMCPY:
		return "memcpy";
	}
	return "?";
}
