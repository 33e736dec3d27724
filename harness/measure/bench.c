/* SPDX-License-Identifier: MIT */
#include "harness/measure/bench.h"
#include "harness/measure/host.h"
#include "cpu/insn.h"
#include "lib/out.h"
#include "lib/run.h"

#define PAGE		4096u
#define LINE		64u
#define LINES_PER_PAGE	(PAGE / LINE)

static volatile uint32_t probe_sink;

void bench_env_init(struct bench_env *env, const struct cpu_desc *d)
{
	struct host_caps caps = { 0 };

	host_caps(&caps);
	env->wbinvd = caps.wbinvd;
	env->window_bytes = caps.window_bytes;
	env->lines = cpu_has(d, FEAT_CLFLUSHOPT) ? FLUSH_CLFLUSHOPT :
		     cpu_has(d, FEAT_CLFLUSH) ? FLUSH_CLFLUSH : FLUSH_NONE;
	env->ibpb = caps.ibpb && cpu_has(d, FEAT_IBPB);
}

const char *flush_method_name(const struct bench_env *env)
{
	static const char *const names[2][3] = {
		[0] = { [FLUSH_CLFLUSH] = "clflush", [FLUSH_CLFLUSHOPT] = "clflushopt",
			[FLUSH_NONE] = "none" },
		[1] = { [FLUSH_CLFLUSH] = "wbinvd+clflush",
			[FLUSH_CLFLUSHOPT] = "wbinvd+clflushopt",
			[FLUSH_NONE] = "wbinvd" },
	};

	return names[env->wbinvd][env->lines];
}

/*
 * Loads of a probe between two of its yield points: a probe of a large
 * cache's fill (the L3 and MEM passes) is a long loop, and only its loads
 * are timed. Smaller probes (up to 256 KiB of fill) run without a pause.
 */
#define PROBE_CHUNK_LOADS	4096u

/*
 * One 32-bit load per line. The outer loop is the line index, visited as
 * (i * 7) mod 64 within a page, the inner loop walks the pages: neighbouring
 * loads are a page apart and the line order jumps, which defeats the
 * adjacent-line and stride prefetchers, as in the 2021 experiment. After
 * every PROBE_CHUNK_LOADS loads or more, the clock stops for a yield point.
 */
uint64_t probe(const void *fill, size_t nr_pages)
{
	const volatile uint8_t *base = fill;
	uint32_t sum = 0;
	uint64_t t0, ticks = 0;
	unsigned int i;
	size_t pg, from, to, loads = 0;

	t0 = rdtsc_ordered();
	for (i = 0; i < LINES_PER_PAGE; i++) {
		size_t off = (i * 7 % LINES_PER_PAGE) * LINE;

		for (from = 0; from < nr_pages; from = to) {
			to = nr_pages - from < PROBE_CHUNK_LOADS ? nr_pages :
			     from + PROBE_CHUNK_LOADS;
			for (pg = from; pg < to; pg++)
				sum += *(const volatile uint32_t *)(base + pg * PAGE + off);
			loads += to - from;
			if (loads >= PROBE_CHUNK_LOADS &&
			    (i + 1 < LINES_PER_PAGE || to < nr_pages)) {
				ticks += rdtsc_ordered() - t0;
				host_may_yield();
				loads = 0;
				t0 = rdtsc_ordered();
			}
		}
	}
	ticks += rdtsc_ordered() - t0;
	probe_sink = sum;
	return ticks;
}

/*
 * KVM does not execute a guest's WBINVD unless the VM has non-coherent
 * DMA, so WBINVD alone would leave the buffer cached without anyone
 * noticing. CLFLUSH(OPT) of every line evicts it from every cache under any
 * hypervisor.
 */
void flush_range(const struct bench_env *env, const void *p, size_t bytes)
{
	if (env->wbinvd)
		host_wbinvd();
	flush_lines(env, p, bytes);
}

/* The length of the chunk at off of a loop over bytes; a yield point before each but the first. */
static size_t chunk_at(size_t off, size_t bytes)
{
	if (off)
		host_may_yield();
	return bytes - off < HOST_CHUNK_BYTES ? bytes - off : HOST_CHUNK_BYTES;
}

void flush_lines(const struct bench_env *env, const void *p, size_t bytes)
{
	const char *c = p;
	size_t off, at, n;

	for (at = 0; at < bytes; at += n) {
		n = chunk_at(at, bytes);
		if (env->lines == FLUSH_CLFLUSHOPT)
			for (off = at; off < at + n; off += LINE)
				clflushopt(c + off);
		else if (env->lines == FLUSH_CLFLUSH)
			for (off = at; off < at + n; off += LINE)
				clflush(c + off);
	}
	mfence();
}

void evict_or_fence(const struct bench_env *env, bool flush, const void *p,
		    size_t bytes)
{
	if (flush)
		flush_range(env, p, bytes);
	else
		mfence();
}

struct timed_call {
	void (*op)(void *ctx);
	void *ctx;
	uint64_t ticks;
	struct host_sample *host;
};

/*
 * The guard is set up outside the timed region, and the host's counters
 * are read just outside it: only op lies between the RDTSCs.
 */
static void timed(void *arg)
{
	struct timed_call *c = arg;
	uint64_t t0, t1;

	host_sample_begin(c->host);
	t0 = rdtsc_ordered();
	c->op(c->ctx);
	t1 = rdtsc_ordered();
	c->ticks = t1 - t0;
	host_sample_end(c->host, c->ticks);
}

bool time_guarded(void (*op)(void *ctx), void *ctx, uint64_t *ticks,
		  struct host_sample *host, struct fault *f)
{
	struct timed_call c = { op, ctx, 0, host };

	if (!host_call_guarded(timed, &c, f))
		return false;
	*ticks = c.ticks;
	return true;
}

/* Steps 3 to 5 of docs/method.md: fill's pattern, IBPB, the pre probe. */
static uint64_t fill_and_probe(struct bench_env *env, uint8_t *fill, size_t nr,
			       unsigned int rep)
{
	fill_bytes(fill, (uint8_t)(0xe1 - rep), nr * PAGE);
	mfence();
	ibpb(env);
	return probe(fill, nr);
}

struct window {
	window_fn *op;
	void *ctx;
	size_t off, len;
};

static void window(void *arg)
{
	const struct window *w = arg;

	w->op(w->ctx, w->off, w->len);
}

static size_t window_len(const struct bench_env *env, size_t bytes)
{
	return env->window_bytes && env->window_bytes < bytes ?
	       env->window_bytes : bytes;
}

unsigned int window_count(const struct bench_env *env, size_t bytes)
{
	size_t len = window_len(env, bytes);

	return len ? (unsigned int)((bytes + len - 1) / len) : 1;
}

/* The windows' counts as one sample: cycles only where every window had them. */
static void sample_add(struct host_sample *sum, const struct host_sample *w,
		       bool first)
{
	if (first) {
		*sum = *w;
		return;
	}
	sum->disturbed |= w->disturbed;
	sum->has_cycles &= w->has_cycles;
	sum->cycles += w->cycles;
	sum->ref += w->ref;
}

bool time_windows(const struct bench_env *env, window_fn *op, void *ctx,
		  size_t bytes, uint64_t *ticks, struct host_sample *host,
		  struct fault *f)
{
	struct window w = { op, ctx, 0, 0 };
	size_t step = window_len(env, bytes);
	struct host_sample h;
	uint64_t sum = 0, t;

	do {
		w.len = bytes - w.off < step ? bytes - w.off : step;
		if (w.off)
			host_may_yield();	/* untimed, as the interrupts between windows */
		if (!time_guarded(window, &w, &t, &h, f))
			return false;
		sample_add(host, &h, w.off == 0);
		sum += t;
		w.off += w.len;
	} while (w.off < bytes);
	*ticks = sum;
	return true;
}

void variant_call_hosted(const struct variant *v, void *dst, const void *src,
			 size_t bytes)
{
	if (v->regs == REGS_VEC)
		host_vector_begin();
	variant_call(v, dst, src, bytes);
	if (v->regs == REGS_VEC)
		host_vector_end();
}

bool time_between_probes(struct bench_env *env, uint8_t *fill, size_t nr,
			 unsigned int rep, window_fn *op, void *ctx,
			 size_t bytes, struct timing *t, struct fault *f)
{
	bool ok;

	t->pre = fill_and_probe(env, fill, nr, rep);
	ok = time_windows(env, op, ctx, bytes, &t->ticks, &t->host, f);
	ibpb(env);
	t->post = probe(fill, nr);
	return ok;
}

bool time_after_probe(struct bench_env *env, uint8_t *fill, size_t nr,
		      unsigned int rep, void (*op)(void *ctx), void *ctx,
		      uint64_t *ticks, struct host_sample *host, struct fault *f)
{
	fill_and_probe(env, fill, nr, rep);
	return time_guarded(op, ctx, ticks, host, f);
}

bool time_then_use(struct bench_env *env, uint8_t *fill, size_t nr,
		   unsigned int rep, window_fn *op, void *ctx, size_t bytes,
		   const void *dst, size_t dst_pages, uint64_t *ticks,
		   uint64_t *use, struct host_sample *host, struct fault *f)
{
	fill_and_probe(env, fill, nr, rep);
	if (!time_windows(env, op, ctx, bytes, ticks, host, f))
		return false;
	mfence();
	*use = probe(dst, dst_pages);
	return true;
}

void ibpb(struct bench_env *env)
{
	if (env->ibpb && !host_ibpb()) {
		env->ibpb = false;
		out_line("note: IBPB (wrmsr 0x49) faulted although CPUID offers it; runs on without it");
	}
}

void fill_bytes(void *p, uint8_t byte, size_t bytes)
{
	uint64_t word = 0x0101010101010101ull * byte;
	size_t at, n;

	for (at = 0; at < bytes; at += n) {
		void *d = (uint8_t *)p + at;
		size_t words;

		n = chunk_at(at, bytes);
		words = n / 8;
		asm volatile("rep stosq" : "+D"(d), "+c"(words) : "a"(word) : "memory");
	}
}

void fill_words(void *p, size_t bytes, uint64_t seed)
{
	uint64_t *w = p;
	size_t i, at, n;

	/* Page number in the high half, word index and seed in the low. */
	for (at = 0; at < bytes; at += n) {
		n = chunk_at(at, bytes);
		for (i = at / 8; i < (at + n) / 8; i++)
			w[i] = ((uint64_t)(i / (PAGE / 8)) << 40) ^ (seed << 20) ^
			       (i % (PAGE / 8)) ^ 0x5a5a000000000000ull;
	}
}

static size_t first_diff_in_word(uint64_t x)
{
	return (size_t)__builtin_ctzll(x) / 8;
}

size_t find_nonzero(const void *p, size_t bytes)
{
	return find_not_byte(p, 0, bytes);
}

size_t find_not_byte(const void *p, uint8_t byte, size_t bytes)
{
	const uint64_t *w = p;
	uint64_t want = 0x0101010101010101ull * byte;
	size_t i, at, n;

	for (at = 0; at < bytes; at += n) {
		n = chunk_at(at, bytes);
		for (i = at / 8; i < (at + n) / 8; i++)
			if (w[i] != want)
				return i * 8 + first_diff_in_word(w[i] ^ want);
	}
	return NOT_FOUND;
}

size_t find_mismatch(const void *a, const void *b, size_t bytes)
{
	const uint64_t *x = a, *y = b;
	size_t i, at, n;

	for (at = 0; at < bytes; at += n) {
		n = chunk_at(at, bytes);
		for (i = at / 8; i < (at + n) / 8; i++)
			if (x[i] != y[i])
				return i * 8 + first_diff_in_word(x[i] ^ y[i]);
	}
	return NOT_FOUND;
}

void guards_set(uint8_t *p, size_t bytes)
{
	fill_bytes(p - PAGE, GUARD_BYTE, PAGE);
	fill_bytes(p + bytes, GUARD_BYTE, PAGE);
}

bool guards_check(const uint8_t *p, size_t bytes, long *bad)
{
	size_t off = find_not_byte(p - PAGE, GUARD_BYTE, PAGE);

	if (off != NOT_FOUND) {
		*bad = (long)off - (long)PAGE;
		return false;
	}
	off = find_not_byte(p + bytes, GUARD_BYTE, PAGE);
	if (off != NOT_FOUND) {
		*bad = (long)(bytes + off);
		return false;
	}
	return true;
}

void verify_guards(const char *suite, const char *pass, const char *variant,
		   const uint8_t *p, size_t bytes)
{
	long bad;

	if (guards_check(p, bytes, &bad))
		return;
	out_line("verify FAILED: suite=%s pass=%s variant=%s offset=0x%lx %s",
		 suite, pass, variant, (unsigned long)(bad < 0 ? -bad : bad),
		 bad < 0 ? "guard byte before the buffer was written (offset counts back)" :
			   "guard byte after the buffer was written");
	run_fail();
}
