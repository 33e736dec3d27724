/* SPDX-License-Identifier: MIT */
/* The variant table, built from clear.def and copy.def. */
#include "variants/variants.h"

const struct variant variants[] = {
#define CLEAR(n, shape, store, need, regs, xen, cite, what) \
	{ #n, OP_CLEAR, SHAPE_##shape, STORE_##store, clear_##n, need, \
	  REGS_##regs, xen, what },
#define COPY(n, shape, store, need, regs, cite, what) \
	{ #n, OP_COPY, SHAPE_##shape, STORE_##store, copy_##n, need, \
	  REGS_##regs, false, what },
#include "variants/clear.def"
#include "variants/copy.def"
#undef CLEAR
#undef COPY
};
const unsigned int variant_count = sizeof(variants) / sizeof(variants[0]);

_Static_assert(sizeof(variants) / sizeof(variants[0]) <= VARIANTS_MAX,
	       "variant_set has one bit per variant");

const char *op_name(enum op op)
{
	static const char *const names[OP_COUNT] = {
		[OP_CLEAR] = "clear", [OP_COPY] = "copy",
	};

	return op < OP_COUNT ? names[op] : "?";
}

int op_ratio_ref(enum op op)
{
	static variant_fn *const refs[OP_COUNT] = {
		[OP_CLEAR] = clear_stosb, [OP_COPY] = copy_movsq,
	};
	unsigned int i;

	for (i = 0; op < OP_COUNT && i < variant_count; i++)
		if (variants[i].fn == refs[op])
			return (int)i;
	return -1;
}

const char *shape_name(enum variant_shape shape)
{
	return shape == SHAPE_RANGE ? "range" : "page";
}

const char *store_name(enum store s)
{
	static const char *const names[STORE_COUNT] = {
		[STORE_NT] = "nt", [STORE_T] = "t", [STORE_REP] = "rep",
		[STORE_CLZERO] = "clzero", [STORE_CLZERO_NOFENCE] = "clzero_nofence",
		[STORE_DIR] = "dir",
		[STORE_KERNEL] = "kernel",
	};

	return s < STORE_COUNT ? names[s] : "?";
}

bool store_done_at_return(enum store s)
{
	return s != STORE_CLZERO_NOFENCE;
}

void variant_call(const struct variant *v, void *dst, const void *src,
		  size_t bytes)
{
	char *d = dst;
	const char *s = src;
	size_t off, n;

	if (v->shape == SHAPE_RANGE && v->op != OP_CLEAR) {
		v->fn(dst, src, bytes);
		return;
	}
	if (v->shape == SHAPE_RANGE) {
		for (off = 0; off < bytes; off += n) {
			n = bytes - off < CLEAR_RANGE_BATCH ? bytes - off :
							      CLEAR_RANGE_BATCH;
			v->fn(d + off, NULL, n);
		}
		return;
	}
	for (off = 0; off < bytes; off += PAGE_SIZE)
		v->fn(d + off, s ? s + off : NULL, PAGE_SIZE);
}

size_t variant_calls(const struct variant *v, size_t bytes)
{
	size_t step = v->shape == SHAPE_PAGE ? PAGE_SIZE :
		      v->op == OP_CLEAR ? CLEAR_RANGE_BATCH : bytes;

	return step && bytes ? (bytes + step - 1) / step : 1;
}

/*
 * clear_clzero_sf's line count and negated step, in variants/clear_clzero.asm's
 * data: 64 bytes, AMD's documented CLZERO line, until variants_configure()
 * sets Xen's. A forced clzeroline (force=) on a CPU without a usable size
 * keeps 64 rather than dividing by 0.
 */
extern uint32_t clear_clzero_lines;
extern int64_t clear_clzero_neg_step;

void variants_configure(const struct cpu_desc *d)
{
	uint32_t step = cpu_clzero_step(d);

	if (!step)
		step = 64;
	clear_clzero_lines = PAGE_SIZE / step;
	clear_clzero_neg_step = -(int64_t)step;
}
