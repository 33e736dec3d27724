// SPDX-License-Identifier: MIT
/*
 * pagebench-core-probe: what does the core give this CPU, minute by minute?
 *
 *     pagebench-core-probe [SECONDS [WINDOW]]    (defaults 60 and 10)
 *
 * A guest cannot see what runs on its core's other hardware thread, yet
 * that thread takes a share of the issue width and of L1's bandwidth that
 * moves every figure of a pass together, and for minutes at a time
 * (docs/method.md, "Ratios"). Pinned to the CPU it starts on, this times
 * three loops every 20 ms, each sample the median of five:
 *
 * - imul: a chain of dependent IMULs, bound by their latency, so by the
 *   core's clock alone: it stays put when only the sibling changes;
 * - add: four independent chains of ADDs, bound by how many instructions
 *   the core issues for this thread;
 * - stosb: REP STOSB over 24 KiB (L1), 32 times: pagebench's L1 clear.
 *
 * It prints each WINDOW seconds' medians in TSC ticks, then each probe's
 * range over the windows as a share of its median, and how add and stosb
 * follow each other. A figure, not a test of speed. Exit status: 0
 * printed, 2 bad arguments, 3 no CPU to pin to or no memory.
 */
#define _GNU_SOURCE
#include <math.h>
#include <errno.h>
#include <sched.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define PAUSE_US	20000
#define TAKES		5
#define IMULS		40000	/* per sample, dependent */
#define ADDS		10000	/* per chain and sample; four chains */
#define L1_BYTES	24576
#define CLEARS		32
#define SECONDS_MAX	3600

enum probe { IMUL, ADD, STOSB, PROBES };
static const char *const probe_name[PROBES] = { "imul", "add", "stosb" };

static inline uint64_t tsc(void)
{
	uint32_t lo, hi;

	asm volatile("lfence; rdtsc; lfence" : "=a"(lo), "=d"(hi) :: "memory");
	return (uint64_t)hi << 32 | lo;
}

static uint64_t time_imul(void)
{
	uint64_t x = 3, t0 = tsc();

	for (unsigned int i = 0; i < IMULS / 4; i++)
		asm volatile("imul %0, %0; imul %0, %0; imul %0, %0; imul %0, %0"
			     : "+r"(x));
	return tsc() - t0;
}

static uint64_t time_add(void)
{
	uint64_t a = 0, b = 0, c = 0, d = 0, t0 = tsc();

	for (unsigned int i = 0; i < ADDS; i++)
		asm volatile("add $1, %0; add $1, %1; add $1, %2; add $1, %3"
			     : "+r"(a), "+r"(b), "+r"(c), "+r"(d));
	return tsc() - t0;
}

static uint64_t time_stosb(uint8_t *buf)
{
	uint64_t t0 = tsc();

	for (unsigned int i = 0; i < CLEARS; i++) {
		void *dst = buf;
		size_t n = L1_BYTES;

		asm volatile("rep stosb" : "+D"(dst), "+c"(n) : "a"(0) : "memory");
	}
	return (tsc() - t0) / CLEARS;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

static double median(double *v, size_t n)
{
	double *s = malloc(n * sizeof(*s)), m;

	if (!s)
		return NAN;
	memcpy(s, v, n * sizeof(*s));
	for (size_t i = 1; i < n; i++)	/* insertion sort: windows are few */
		for (size_t j = i; j && s[j - 1] > s[j]; j--) {
			double t = s[j];

			s[j] = s[j - 1];
			s[j - 1] = t;
		}
	m = n % 2 ? s[n / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
	free(s);
	return m;
}

static double correlation(const double *x, const double *y, size_t n)
{
	double mx = 0, my = 0, sxy = 0, sxx = 0, syy = 0;

	for (size_t i = 0; i < n; i++)
		mx += x[i] / n, my += y[i] / n;
	for (size_t i = 0; i < n; i++) {
		sxy += (x[i] - mx) * (y[i] - my);
		sxx += (x[i] - mx) * (x[i] - mx);
		syy += (y[i] - my) * (y[i] - my);
	}
	return sxx > 0 && syy > 0 ? sxy / sqrt(sxx * syy) : NAN;
}

/*
 * A probe that took the same time in every window has no variance, and
 * no correlation to print: say so in words, never "nan".
 */
static void print_correlation(const char *pair, const double *x,
			      const double *y, size_t n, const char *sep)
{
	double r = correlation(x, y, n);

	if (isnan(r))
		printf("%s n/a (no variation)%s", pair, sep);
	else
		printf("%s %.2f%s", pair, r, sep);
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* A whole number of seconds from 1 to SECONDS_MAX, else 0. */
static unsigned int seconds_arg(const char *s)
{
	char *end;
	long v = strtol(s, &end, 10);

	return *s && !*end && v >= 1 && v <= SECONDS_MAX ? (unsigned int)v : 0;
}

int main(int argc, char **argv)
{
	unsigned int seconds = 60, window = 10, windows, w = 0, cpu;
	double *win[PROBES], t_end, w_end;
	uint64_t *samples[PROBES];
	size_t cap = 0, n = 0;
	cpu_set_t one;
	uint8_t *buf;

	if (argc > 3 || (argc > 1 && !(seconds = seconds_arg(argv[1]))) ||
	    (argc > 2 && !(window = seconds_arg(argv[2]))) || window > seconds) {
		fprintf(stderr, "usage: pagebench-core-probe [SECONDS [WINDOW]]: "
			"whole seconds from 1 to %u, WINDOW at most SECONDS "
			"(defaults 60 and 10)\n", SECONDS_MAX);
		return 2;
	}
	signal(SIGPIPE, SIG_IGN);	/* a closed pipe is EPIPE, seen at the end */
	cpu = (unsigned int)sched_getcpu();
	CPU_ZERO(&one);
	CPU_SET(cpu, &one);
	if (sched_setaffinity(0, sizeof(one), &one)) {
		perror("pagebench-core-probe: pinning to its CPU");
		return 3;
	}
	windows = seconds / window;
	buf = aligned_alloc(4096, L1_BYTES);
	for (int p = 0; p < PROBES; p++) {
		win[p] = calloc(windows, sizeof(double));
		samples[p] = NULL;
	}
	if (!buf || !win[IMUL] || !win[ADD] || !win[STOSB]) {
		fprintf(stderr, "pagebench-core-probe: out of memory\n");
		return 3;
	}
	memset(buf, 1, L1_BYTES);
	printf("# pagebench-core-probe: cpu %u, %u s in windows of %u s; "
	       "ticks per sample, each the median of %d, one every %d ms\n",
	       cpu, seconds, window, TAKES, PAUSE_US / 1000);
	printf("# imul: %d dependent IMULs; add: 4 x %d independent ADDs; "
	       "stosb: REP STOSB over %d bytes\n", IMULS, ADDS, L1_BYTES);
	t_end = now_s() + windows * window;
	w_end = now_s() + window;
	while (w < windows) {
		uint64_t take[PROBES][TAKES];

		for (int k = 0; k < TAKES; k++) {
			take[IMUL][k] = time_imul();
			take[ADD][k] = time_add();
			take[STOSB][k] = time_stosb(buf);
		}
		if (n == cap) {
			cap = cap ? 2 * cap : 1024;
			for (int p = 0; p < PROBES; p++) {
				uint64_t *q = realloc(samples[p], cap * sizeof(uint64_t));

				if (!q) {
					fprintf(stderr, "pagebench-core-probe: out of memory\n");
					return 3;
				}
				samples[p] = q;
			}
		}
		for (int p = 0; p < PROBES; p++) {
			qsort(take[p], TAKES, sizeof(uint64_t), cmp_u64);
			samples[p][n] = take[p][TAKES / 2];
		}
		n++;
		usleep(PAUSE_US);
		if (now_s() < w_end && now_s() < t_end)
			continue;
		printf("window=%u t=%us", w, (w + 1) * window);
		for (int p = 0; p < PROBES; p++) {
			double *v = malloc(n * sizeof(double));

			if (!v) {
				fprintf(stderr, "pagebench-core-probe: out of memory\n");
				return 3;
			}
			for (size_t i = 0; i < n; i++)
				v[i] = (double)samples[p][i];
			win[p][w] = median(v, n);
			free(v);
			printf(" %s=%.0f", probe_name[p], win[p][w]);
		}
		printf(" samples=%zu\n", n);
		n = 0;
		w++;
		w_end += window;
	}
	for (int p = 0; p < PROBES; p++) {
		double m = median(win[p], windows), lo = win[p][0], hi = win[p][0];

		for (unsigned int i = 1; i < windows; i++) {
			lo = win[p][i] < lo ? win[p][i] : lo;
			hi = win[p][i] > hi ? win[p][i] : hi;
		}
		printf("range %s: %+.1f%% to %+.1f%% of its median %.0f over %u windows\n",
		       probe_name[p], 100 * (lo / m - 1), 100 * (hi / m - 1), m, windows);
	}
	if (windows < 3)
		printf("correlation over the windows: none (fewer than 3 windows)\n");
	else {
		printf("correlation over the windows: ");
		print_correlation("add-stosb", win[ADD], win[STOSB], windows, ", ");
		print_correlation("imul-stosb", win[IMUL], win[STOSB], windows, ", ");
		print_correlation("imul-add", win[IMUL], win[ADD], windows, "\n");
	}
	/* As lib/status.h says: a closed pipe quietly, other errors 3. */
	errno = 0;
	if (fflush(stdout) || ferror(stdout)) {
		if (errno == EPIPE)
			return 0;
		fprintf(stderr, "pagebench-core-probe: cannot write to standard output: %s\n",
			strerror(errno ? errno : EIO));
		return 3;
	}
	return 0;
}
