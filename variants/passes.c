/* SPDX-License-Identifier: MIT */
#include "variants/passes.h"

const struct pass_def passes[PASS_COUNT] = {
#define PASS(ID, opt, hdr, sz, fl, kd, op, xn, us) \
	[PASS_##ID] = { .id = #opt, .header = hdr, .size = SIZE_##sz, \
			.flush = fl, .kind = KIND_##kd, .ops = op, .xen = xn, \
			.use = us },
#include "variants/passes.def"
#undef PASS
};

const struct suite_def suites[SUITE_COUNT] = {
#define SUITE(ID, nm, op, xo, rp, hw) \
	[SUITE_##ID] = { .name = #nm, .ops = op, .xen_only = xo, .reps = rp, \
			 .how = HOW_##hw },
#include "variants/suites.def"
#undef SUITE
};

bool suite_has_pass(enum suite s, enum pass_id p)
{
	return suites[s].how == HOW_PASSES && (suites[s].ops & passes[p].ops) &&
	       (!suites[s].xen_only || passes[p].xen);
}

bool suite_has_variant(enum suite s, const struct variant *v)
{
	return (suites[s].ops & (1u << v->op)) &&
	       (!suites[s].xen_only || v->xen);
}

pass_set suite_passes(enum suite s)
{
	pass_set set = 0;
	unsigned int p;

	for (p = 0; p < PASS_COUNT; p++)
		if (suite_has_pass(s, p))
			set |= 1u << p;
	return set;
}

pass_set suite_default_passes(enum suite s)
{
	pass_set set = suite_passes(s);
	unsigned int p;

	for (p = 0; p < PASS_COUNT; p++)
		if (passes[p].kind == KIND_HOTBUF)
			set &= ~(1u << p);
	return set;
}

const char *pass_prefix(enum op op, enum pass_id p)
{
	return op == OP_COPY && passes[p].kind == KIND_TIMED ? "copy " : "";
}

bool pass_hot(enum pass_id p)
{
	return passes[p].kind == KIND_HOT || passes[p].kind == KIND_HOTBUF ||
	       (passes[p].kind == KIND_TIMED && !passes[p].flush &&
		(passes[p].size == SIZE_L1D || passes[p].size == SIZE_L2));
}
