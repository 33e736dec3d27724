/* SPDX-License-Identifier: MIT */
/*
 * The pieces every timed iteration is made of, shared by both suites: fill
 * a buffer with a pattern, evict it, probe the cache, issue an IBPB, check
 * the result. Nothing in here is timed except probe().
 */
#ifndef PB_BENCH_H
#define PB_BENCH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "cpu/cpu.h"
#include "harness/measure/host.h"
#include "variants/variants.h"

/* How a line is evicted; WBINVD comes first where the host may run it. */
enum flush_method { FLUSH_CLFLUSH, FLUSH_CLFLUSHOPT, FLUSH_NONE };

struct bench_env {
	bool wbinvd;		/* the host may execute WBINVD */
	enum flush_method lines;
	bool ibpb;		/* cleared if the MSR write ever faults */
	size_t window_bytes;	/* host_caps(); 0: no limit */
};

void bench_env_init(struct bench_env *env, const struct cpu_desc *d);
/* "wbinvd+clflushopt" in the kernel, "clflushopt" in user space. */
const char *flush_method_name(const struct bench_env *env);

/* Time, in TSC ticks, to read one word of each line of fill (nr pages). */
uint64_t probe(const void *fill, size_t nr_pages);

/* WBINVD (ring 0), then flush_lines(): docs/method.md. */
void flush_range(const struct bench_env *env, const void *p, size_t bytes);
/* CLFLUSH(OPT) each line of [p, p + bytes), then MFENCE: those lines alone. */
void flush_lines(const struct bench_env *env, const void *p, size_t bytes);
void ibpb(struct bench_env *env);

/* A "w/ flush" pass evicts p from every cache; the others only MFENCE. */
void evict_or_fence(const struct bench_env *env, bool flush, const void *p,
		    size_t bytes);

struct timing {
	uint64_t pre, ticks, post;
	struct host_sample host;	/* the call's cycles, and whether it was disturbed */
};

/*
 * Times op(ctx) alone, the host counting beside it into *host
 * (harness/measure/sample.h retimes a disturbed one); false, with *f, when it
 * faulted.
 */
bool time_guarded(void (*op)(void *ctx), void *ctx, uint64_t *ticks,
		  struct host_sample *host, struct fault *f);

/* What one window of a call does: the part [off, off + len) of its bytes. */
typedef void window_fn(void *ctx, size_t off, size_t len);

/*
 * Times op over its bytes in windows of at most env->window_bytes (in one
 * window where the host sets no limit), each a guarded call of its own;
 * *ticks is their sum, *host the sum of what the host counted (disturbed
 * when any window was). The module turns interrupts on between windows,
 * and they are yield points (harness/measure/host.h).
 * false, with *f, when a window faulted.
 */
bool time_windows(const struct bench_env *env, window_fn *op, void *ctx,
		  size_t bytes, uint64_t *ticks, struct host_sample *host,
		  struct fault *f);
/* How many windows time_windows() cuts bytes into. */
unsigned int window_count(const struct bench_env *env, size_t bytes);

/*
 * Steps 3 to 7 of docs/method.md, shared by both tables: write a pattern of
 * this rep over fill (nr pages), IBPB, probe fill (pre), time op over bytes
 * alone (time_windows()), IBPB, probe fill again (post). false, with *f,
 * when op faulted.
 */
bool time_between_probes(struct bench_env *env, uint8_t *fill, size_t nr,
			 unsigned int rep, window_fn *op, void *ctx,
			 size_t bytes, struct timing *t, struct fault *f);

/* variant_call(), inside host_vector_begin()/_end() when v uses vector registers. */
void variant_call_hosted(const struct variant *v, void *dst, const void *src,
			 size_t bytes);

/*
 * The same up to the call, without the post probe: a sample of a batch of
 * calls (harness/stats/interval.h), whose post would be the damage of them all.
 */
bool time_after_probe(struct bench_env *env, uint8_t *fill, size_t nr,
		      unsigned int rep, void (*op)(void *ctx), void *ctx,
		      uint64_t *ticks, struct host_sample *host, struct fault *f);

/*
 * The use probe: the same up to the call, then MFENCE and probe(dst) at
 * once, timed: what the call costs the code that touches its destination
 * next (dst_pages pages). docs/method.md, "The next user's view".
 */
bool time_then_use(struct bench_env *env, uint8_t *fill, size_t nr,
		   unsigned int rep, window_fn *op, void *ctx, size_t bytes,
		   const void *dst, size_t dst_pages, uint64_t *ticks,
		   uint64_t *use, struct host_sample *host, struct fault *f);

void fill_bytes(void *p, uint8_t byte, size_t bytes);
/* A pattern unique to each 8-byte word, page and seed: catches misplaced copies. */
void fill_words(void *p, size_t bytes, uint64_t seed);

/* Offset of the first byte that differs, or (size_t)-1 when none does. */
size_t find_nonzero(const void *p, size_t bytes);
size_t find_not_byte(const void *p, uint8_t byte, size_t bytes);
size_t find_mismatch(const void *a, const void *b, size_t bytes);

/* A guard page on each side of [p, p + bytes), and checking them. */
void guards_set(uint8_t *p, size_t bytes);
/* false, with *bad the offset from p of the first damaged byte, when damaged. */
bool guards_check(const uint8_t *p, size_t bytes, long *bad);

/* Prints a "verify FAILED" line and counts a failure when a guard is damaged. */
void verify_guards(const char *suite, const char *pass, const char *variant,
		   const uint8_t *p, size_t bytes);

#define GUARD_BYTE 0xc3
#define NOT_FOUND ((size_t)-1)

#endif
