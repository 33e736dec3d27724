// SPDX-License-Identifier: MIT
/*
 * pagebench-store-value: does the value stored change the speed?
 *
 *     pagebench-store-value [--calls] [BYTES ...]    (defaults 24576 524288 8384512)
 *
 * A clear stores zeros; likwid-bench's store kernels and perf bench's
 * memset store other values. Where the peers' figure and pagebench's
 * differ on the same bytes (scripts/bench-vs-peers), this times the same
 * loop on the same buffer twice, changing only the value: zeros, then
 * 1.0 as a double in every word, what likwid-bench's kernels store
 * (SCALAR, bench/includes/isa_x86-64.h in RRZE-HPC/likwid). Each store
 * kind is one loop:
 *
 * - movnti: MOVNTI of a 64-bit register, 8 per 64 bytes, then SFENCE
 *   (any x86-64; the 2022 RFC's clear_pages_movnt, Xen's clear_page_sse2);
 * - movntdq_zmm: VMOVNTDQ of a zmm register, 4 per 256 bytes, then
 *   SFENCE (AVX-512F only; likwid's store_mem_avx512, pagebench's
 *   avx512_all);
 * - movdqa_zmm: VMOVDQA64 of a zmm register, temporal (AVX-512F only;
 *   likwid's store_avx512, pagebench's avx512_t);
 * - stosb: REP STOSB of the value's top byte (perf bench's memset
 *   x86-64-stosb, Linux's clear_page_erms).
 *
 * A buffer of BYTES is stored once untimed, then timed TAKES times, call
 * after call, as likwid and pagebench's hot-buffer passes do; the line
 * gives the median ticks of each value and pattern over zero.
 *
 * The statistic differs too: pagebench gives a call's median, the peers
 * their bytes over their whole loop's time, which is the mean call. So
 * the line also gives the zeros' mean ticks over the same calls, and
 * mean over median: where calls now and then run slow, the peers' figure
 * is that much lower on the same work. --calls prints instead each zeros
 * call's ticks in the order they ran: where a store kind runs at two
 * speeds in turn, a median call lands in either, and a loop's mean
 * between them.
 * A CPU without AVX-512F skips the zmm loops and says so. A figure, not a
 * test of speed. Exit status: 0 printed, 2 bad arguments, 3 no memory.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include "cpu/live.h"

#define TAKES		101
#define BYTES_MAX	((size_t)1 << 30)
#define ALIGN		((size_t)2 << 20)	/* a huge page, where THP gives it */
#define PATTERN		0x3ff0000000000000ull	/* 1.0, the value likwid-bench stores */

enum kind { MOVNTI, MOVNTDQ_ZMM, MOVDQA_ZMM, STOSB, KINDS };
static const char *const kind_name[KINDS] = {
	"movnti", "movntdq_zmm", "movdqa_zmm", "stosb",
};
static const enum feat kind_needs[KINDS] = {
	FEAT_SSE2, FEAT_AVX512F, FEAT_AVX512F, FEAT_NONE,
};

static inline uint64_t tsc(void)
{
	uint32_t lo, hi;

	__asm__ volatile("lfence; rdtsc; lfence" : "=a"(lo), "=d"(hi) :: "memory");
	return (uint64_t)hi << 32 | lo;
}

/* bytes a multiple of 256; v the 64-bit value in every word. */
static void store(enum kind k, void *dst, size_t bytes, uint64_t v)
{
	char *p = dst, *end = p + bytes;

	switch (k) {
	case MOVNTI:
		for (; p < end; p += 64)
			__asm__ volatile("movnti %1, 0(%0); movnti %1, 8(%0); movnti %1, 16(%0);"
					 "movnti %1, 24(%0); movnti %1, 32(%0); movnti %1, 40(%0);"
					 "movnti %1, 48(%0); movnti %1, 56(%0)"
					 :: "r"(p), "r"(v) : "memory");
		__asm__ volatile("sfence" ::: "memory");
		break;
	case MOVNTDQ_ZMM:
	case MOVDQA_ZMM:
		/* zmm0 is no variable of this program: it is built without vector code. */
		__asm__ volatile("vpbroadcastq %0, %%zmm0" :: "r"(v));
		if (k == MOVNTDQ_ZMM) {
			for (; p < end; p += 256)
				__asm__ volatile("vmovntdq %%zmm0, 0(%0); vmovntdq %%zmm0, 64(%0);"
						 "vmovntdq %%zmm0, 128(%0); vmovntdq %%zmm0, 192(%0)"
						 :: "r"(p) : "memory");
			__asm__ volatile("sfence" ::: "memory");
		} else {
			for (; p < end; p += 256)
				__asm__ volatile("vmovdqa64 %%zmm0, 0(%0); vmovdqa64 %%zmm0, 64(%0);"
						 "vmovdqa64 %%zmm0, 128(%0); vmovdqa64 %%zmm0, 192(%0)"
						 :: "r"(p) : "memory");
		}
		__asm__ volatile("vzeroupper");
		break;
	case STOSB: {
		size_t n = bytes;

		__asm__ volatile("rep stosb" : "+D"(p), "+c"(n) : "a"(v >> 56) : "memory");
		break;
	}
	default:
		break;
	}
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

struct calls {
	uint64_t median, mean;	/* ticks of a call */
};

static uint64_t last_calls[TAKES];	/* time_calls()'s last calls' ticks, in order */

/* The median and mean ticks of a call of k storing v over bytes of buf, call after call. */
static struct calls time_calls(enum kind k, char *buf, size_t bytes, uint64_t v)
{
	static uint64_t sorted[TAKES];
	uint64_t sum = 0;
	unsigned int i;

	store(k, buf, bytes, v);
	for (i = 0; i < TAKES; i++) {
		uint64_t a = tsc();

		store(k, buf, bytes, v);
		last_calls[i] = tsc() - a;
		sum += last_calls[i];
	}
	memcpy(sorted, last_calls, sizeof(last_calls));
	qsort(sorted, TAKES, sizeof(sorted[0]), cmp_u64);
	return (struct calls){ sorted[TAKES / 2], (sum + TAKES / 2) / TAKES };
}

static int parse_bytes(const char *s, size_t *out)
{
	char *end;
	unsigned long long v;

	errno = 0;
	v = strtoull(s, &end, 0);
	if (errno || end == s || *end || *s == '-' || v < 256 || v > BYTES_MAX || v % 256)
		return -1;
	*out = (size_t)v;
	return 0;
}

int main(int argc, char **argv)
{
	static const size_t defaults[] = { 24576, 524288, 8384512 };
	size_t sizes[16], n = 0, most = 0, i;
	struct cpu_desc d;
	bool calls = false;
	char *map, *buf;
	unsigned int k;

	for (i = 1; i < (size_t)argc; i++) {
		if (!strcmp(argv[i], "--calls") && i == 1) {
			calls = true;
			continue;
		}
		if (n == sizeof(sizes) / sizeof(sizes[0]) || parse_bytes(argv[i], &sizes[n]) < 0) {
			fprintf(stderr, "pagebench-store-value: %s: --calls comes first; BYTES is a multiple of 256 from "
				"256 to %zu, at most 16 of them\n", argv[i], BYTES_MAX);
			return 2;
		}
		n++;
	}
	for (i = 0; !n && i < 3; i++)
		sizes[i] = defaults[i];
	n = n ? n : 3;
	for (i = 0; i < n; i++)
		most = sizes[i] > most ? sizes[i] : most;
	map = mmap(NULL, most + ALIGN, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
		   -1, 0);
	if (map == MAP_FAILED) {
		fprintf(stderr, "pagebench-store-value: %zu bytes: %s\n", most, strerror(errno));
		return 3;
	}
	buf = (char *)(((uintptr_t)map + ALIGN - 1) & ~(uintptr_t)(ALIGN - 1));
	madvise(buf, most, MADV_HUGEPAGE);
	memset(buf, 1, most);
	cpu_describe_live(&d);
	if (calls)
		printf("# TSC ticks of each of %u calls on one buffer storing zeros, in the "
		       "order they ran\n", TAKES);
	else
		printf("# median TSC ticks of a call over %u calls on one buffer; zero, then "
		       "0x%llx in every word; the zeros' mean call, and mean over median\n",
		       TAKES, (unsigned long long)PATTERN);
	for (k = 0; k < KINDS; k++) {
		if (!cpu_has(&d, kind_needs[k])) {
			printf("store=%s skipped: the CPU lacks %s\n", kind_name[k],
			       feat_name(kind_needs[k]));
			continue;
		}
		for (i = 0; i < n && calls; i++) {
			unsigned int j;

			time_calls((enum kind)k, buf, sizes[i], 0);
			printf("store=%s bytes=%zu calls=", kind_name[k], sizes[i]);
			for (j = 0; j < TAKES; j++)
				printf("%s%llu", j ? "," : "", (unsigned long long)last_calls[j]);
			printf("\n");
		}
		for (i = 0; i < n && !calls; i++) {
			struct calls z = time_calls((enum kind)k, buf, sizes[i], 0);
			struct calls p = time_calls((enum kind)k, buf, sizes[i], PATTERN);

			printf("store=%s bytes=%zu zero_ticks=%llu pattern_ticks=%llu "
			       "pattern_over_zero=%.3f zero_mean_ticks=%llu mean_over_median=%.3f\n",
			       kind_name[k], sizes[i], (unsigned long long)z.median,
			       (unsigned long long)p.median,
			       z.median ? (double)p.median / (double)z.median : 0.0,
			       (unsigned long long)z.mean,
			       z.median ? (double)z.mean / (double)z.median : 0.0);
		}
	}
	if (fflush(stdout) || ferror(stdout)) {
		fprintf(stderr, "pagebench-store-value: stdout: %s\n", strerror(errno));
		return 3;
	}
	return 0;
}
