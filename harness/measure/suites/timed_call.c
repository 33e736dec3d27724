/* SPDX-License-Identifier: MIT */
/*
 * The calls a page pass times (struct call): one variant on a layout's
 * slots, in the shapes the timing functions of harness/measure/bench.h take, so
 * that one call, its windows and a batch all run the same way.
 */
#include "harness/measure/bench.h"
#include "harness/measure/suites/timed_call.h"

/* The timed region, or one window of it. */
void call_variant(void *arg, size_t off, size_t len)
{
	const struct call *c = arg;

	variant_call_hosted(c->v, c->l->dst + off,
			    c->l->src ? c->l->src + off : NULL, len);
}

/* The whole call untimed, in one guarded call: copy-hot's warm-up, one page. */
void call_whole(void *arg)
{
	const struct call *c = arg;

	call_variant(arg, 0, c->l->bytes);
}

/* The timed region of a batch: one call per slot, or all on slot 0. */
void call_batch(void *arg)
{
	const struct call *c = arg;
	size_t step = c->same_slot ? 0 : c->l->stride;
	uint8_t *dst = c->l->dst, *src = c->l->src;
	unsigned int k;

	for (k = 0; k < c->calls; k++, dst += step, src = src ? src + step : NULL)
		variant_call_hosted(c->v, dst, src, c->l->bytes);
}
