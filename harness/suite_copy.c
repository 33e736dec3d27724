/* SPDX-License-Identifier: MIT */
/*
 * The copy suite: the clear suite's passes and meaning of pre/variant/post,
 * with src and dst of nr/4 pages each (together half the cache, as buf is
 * for clears); then Ma Ling's 2011 copy-hot and copy-cold measurements.
 */
#include "out.h"
#include "kernel/lib.h"
#include "run.h"
#include "suite.h"
#include "kernel/x86.h"
#include "variants/variants.h"

#define PAGE PAGE_SIZE

struct copy_op {
	const struct copy_variant *v;
	uint8_t *dst;
	const uint8_t *src;
	size_t bytes;
};

/* The timed region: one call per page, as copy_page() callers do. */
static void copy(void *ctx)
{
	const struct copy_op *c = ctx;
	size_t off;

	if (c->v->range) {
		c->v->range(c->dst, c->src, c->bytes);
		return;
	}
	for (off = 0; off < c->bytes; off += PAGE)
		c->v->page(c->dst + off, c->src + off);
}

static void verify(const char *pass, const struct copy_variant *v,
		   const uint8_t *dst, const uint8_t *src, size_t bytes)
{
	size_t off = find_mismatch(dst, src, bytes);

	if (off != NOT_FOUND) {
		out_line("verify FAILED: suite=copy pass=%s variant=%s offset=0x%lx dst 0x%x != src 0x%x",
			 pass, v->name, (unsigned long)off, dst[off], src[off]);
		run_fail();
	}
	verify_guards("copy", pass, v->name, dst, bytes);
}

/* src, guard, dst between the work area's guards: see WORK_PAGES(). */
static void layout(const struct buffers *b, size_t bytes, uint8_t **src,
		   uint8_t **dst)
{
	*src = b->work + PAGE;
	*dst = *src + bytes + PAGE;
}

void suite_copy_pass(struct bench_env *env, const struct plan *p,
		     enum pass_id id, const struct buffers *b)
{
	const char *pass = pass_header(id);
	size_t nr = p->nr[id];
	size_t fill_size = nr * PAGE, bytes = nr / 4 * PAGE;
	uint8_t *src, *dst;
	unsigned int rep, i;

	layout(b, bytes, &src, &dst);
	out_line("copy %s:", pass);
	run_step("copy %s: first flush", pass);
	flush_range(env, b->fill, fill_size);
	flush_range(env, src - PAGE, 2 * bytes + 3 * PAGE);
	guards_set(dst, bytes);

	for (rep = 0; rep < p->reps; rep++) {
		for (i = 0; i < copy_variant_count; i++) {
			const struct copy_variant *v = &copy_variants[i];
			struct copy_op op = { v, dst, src, bytes };
			struct timing t;

			if (!(p->copy_mask & (1ull << i)))
				continue;
			run_step("copy %s rep %u variant %s", pass, rep, v->name);

			/* A dst that already held src's bytes would hide a copy that did nothing. */
			fill_words(src, bytes, rep * 64 + i);
			fill_bytes(dst, (uint8_t)(0x11 * (rep % 15 + 1)), bytes);
			evict_or_fence(env, pass_flushes(id), src, bytes);
			evict_or_fence(env, pass_flushes(id), dst, bytes);
			t = time_between_probes(env, b->fill, nr, rep, copy, &op);
			out_line(" pre=%lx %s=%lx post=%lx", t.pre, v->name, t.ticks, t.post);
			verify(pass, v, dst, src, bytes);
		}
	}
}

static void sort(uint64_t *t, unsigned int n)
{
	unsigned int i, j;

	for (i = 1; i < n; i++)
		for (j = i; j && t[j - 1] > t[j]; j--) {
			uint64_t x = t[j];

			t[j] = t[j - 1];
			t[j - 1] = x;
		}
}

/*
 * copy-hot: the same page copied COPY_HOT_N times, each timed alone.
 * copy-cold: before each timed copy, COPY_COLD_BYTES of other data are
 * copied, pushing src and dst out of L1 and (on his Sandy Bridge) L2.
 * Both print decimal ticks per 4 KiB copy, as Ma Ling's tables did.
 */
void suite_copy_hot_cold(const struct plan *p, enum pass_id id,
			 const struct buffers *b)
{
	const char *pass = pass_header(id);
	uint64_t t[COPY_HOT_N > COPY_COLD_N ? COPY_HOT_N : COPY_COLD_N];
	unsigned int n = id == PASS_HOT ? COPY_HOT_N : COPY_COLD_N;
	uint8_t *src, *dst;
	unsigned int i, k;

	layout(b, PAGE, &src, &dst);
	guards_set(dst, PAGE);
	for (i = 0; i < copy_variant_count; i++) {
		const struct copy_variant *v = &copy_variants[i];
		struct copy_op op = { v, dst, src, PAGE };

		if (!(p->copy_mask & (1ull << i)))
			continue;
		run_step("%s variant %s", pass, v->name);
		fill_words(src, PAGE, 0xc0de + i);
		copy(&op);	/* warm: both pages in cache */
		for (k = 0; k < n; k++) {
			uint64_t t0, t1;

			fill_words(src, PAGE, k);
			fill_bytes(dst, 0x5a, PAGE);
			if (id == PASS_COLD)
				memcpy(b->cold + COPY_COLD_BYTES, b->cold,
				       COPY_COLD_BYTES);
			mfence();
			t0 = rdtsc_ordered();
			copy(&op);
			t1 = rdtsc_ordered();
			t[k] = t1 - t0;
			verify(pass, v, dst, src, PAGE);
		}
		sort(t, n);
		out_line("%s variant=%s n=%u min=%lu median=%lu max=%lu", pass,
			 v->name, n, t[0], (t[(n - 1) / 2] + t[n / 2]) / 2, t[n - 1]);
	}
}
