/* SPDX-License-Identifier: MIT */
/*
 * The clear suite: Jan Beulich's 2021 Xen clear_page experiment, step for
 * step (docs/method.md), over the passes of the plan.
 */
#include "out.h"
#include "run.h"
#include "suite.h"
#include "kernel/x86.h"
#include "variants/variants.h"

#define PAGE PAGE_SIZE

struct clear_op {
	const struct clear_variant *v;
	uint8_t *buf;
	size_t bytes;
};

/* The timed region: one call per page, as clear_page() callers do. */
static void clear(void *ctx)
{
	const struct clear_op *c = ctx;
	size_t off;

	if (c->v->range) {
		c->v->range(c->buf, c->bytes);
		return;
	}
	for (off = 0; off < c->bytes; off += PAGE)
		c->v->page(c->buf + off);
}

static void verify(const char *pass, const struct clear_variant *v,
		   const uint8_t *buf, size_t bytes)
{
	size_t off = find_nonzero(buf, bytes);

	if (off != NOT_FOUND) {
		out_line("verify FAILED: suite=clear pass=%s variant=%s offset=0x%lx byte 0x%x is not zero",
			 pass, v->name, (unsigned long)off, buf[off]);
		run_fail();
	}
	verify_guards("clear", pass, v->name, buf, bytes);
}

void suite_clear_pass(struct bench_env *env, const struct plan *p,
		      enum pass_id id, const struct buffers *b)
{
	const char *pass = pass_header(id);
	size_t nr = p->nr[id];
	size_t fill_size = nr * PAGE, buf_size = nr / 2 * PAGE;
	uint8_t *buf = b->work + PAGE;
	unsigned int rep, i;

	out_line("%s:", pass);
	run_step("clear %s: first flush", pass);
	flush_range(env, b->fill, fill_size);
	flush_range(env, buf - PAGE, buf_size + 2 * PAGE);
	guards_set(buf, buf_size);

	for (rep = 0; rep < p->reps; rep++) {
		for (i = 0; i < clear_variant_count; i++) {
			const struct clear_variant *v = &clear_variants[i];
			struct clear_op op = { v, buf, buf_size };
			struct timing t;

			if (!(p->clear_mask & (1ull << i)))
				continue;
			run_step("clear %s rep %u variant %s", pass, rep, v->name);

			fill_bytes(buf, (uint8_t)(0x11 * (rep % 15 + 1)), buf_size);
			evict_or_fence(env, pass_flushes(id), buf, buf_size);
			t = time_between_probes(env, b->fill, nr, rep, clear, &op);
			out_line(" pre=%lx %s=%lx post=%lx", t.pre, v->name, t.ticks, t.post);
			verify(pass, v, buf, buf_size);
		}
	}
}
