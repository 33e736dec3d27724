// SPDX-License-Identifier: MIT
/* The description's live facts, as Linux tells them. */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <time.h>
#include <errno.h>
#include <fcntl.h>
#include <unistd.h>
#include "cpu/hot_load.h"
#include "cpu/insn.h"
#include "harness/decide/answers.h"
#include "lib/out.h"
#include "linux/linux.h"

/* Calibration: the median of a few windows against the kernel's clock. */
#define CALIBRATE_WINDOWS 5
#define CALIBRATE_NS 20000000ll

/* "microcode : 0x..." of the processor we run on, from /proc/cpuinfo. */
static bool read_ucode(int cpu, uint64_t *ucode)
{
	FILE *f = fopen("/proc/cpuinfo", "r");
	char line[512];
	int cur = -1;
	bool found = false;

	if (!f)
		return false;
	while (!found && fgets(line, sizeof(line), f)) {
		char *colon = strchr(line, ':');

		if (!colon)
			continue;
		if (!strncmp(line, "processor", 9))
			cur = atoi(colon + 1);
		else if (cur == cpu && !strncmp(line, "microcode", 9))
			found = sscanf(colon + 1, " %lx", (unsigned long *)ucode) == 1;
	}
	fclose(f);
	return found;
}

/* A /proc/meminfo field, in bytes; 0 when absent. */
static uint64_t meminfo(const char *field)
{
	FILE *f = fopen("/proc/meminfo", "r");
	size_t n = strlen(field);
	unsigned long long kib = 0;
	char line[256];

	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f))
		if (!strncmp(line, field, n) && line[n] == ':' &&
		    sscanf(line + n + 1, " %llu", &kib) == 1)
			break;
	fclose(f);
	return (uint64_t)kib * 1024;
}

uint64_t linux_mem_available(void)
{
	return meminfo("MemAvailable");
}

static long long clock_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC_RAW, &ts);
	return ts.tv_sec * 1000000000ll + ts.tv_nsec;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/*
 * TSC ticks per ms of CLOCK_MONOTONIC_RAW (the clock NTP does not slew).
 * Each window spins, so the task is on its CPU throughout; the median
 * window drops one that a preemption stretched.
 */
static uint64_t calibrate_khz(void)
{
	uint64_t khz[CALIBRATE_WINDOWS];
	unsigned int i;

	for (i = 0; i < CALIBRATE_WINDOWS; i++) {
		long long c0 = clock_ns(), c1;
		uint64_t t0 = rdtsc_ordered(), t1;

		do {
			c1 = clock_ns();
			t1 = rdtsc_ordered();
		} while (c1 - c0 < CALIBRATE_NS);
		khz[i] = (t1 - t0) * 1000000ull / (uint64_t)(c1 - c0);
	}
	qsort(khz, CALIBRATE_WINDOWS, sizeof(khz[0]), cmp_u64);
	return khz[CALIBRATE_WINDOWS / 2];
}

/* Why MISC_ENABLE could not be read, for the note after the description. */
static char fast_string_why[200];

/*
 * MISC_ENABLE through the msr driver, on Intel only (where Linux and Xen
 * read it); why not, when it cannot be read.
 */
static int read_fast_string(const struct cpu_desc *d, int cpu, char *why,
			    size_t len)
{
	char path[64];
	uint64_t misc;
	ssize_t got;
	int fd;

	why[0] = '\0';
	if (strcmp(d->vendor, "GenuineIntel"))
		return FAST_STRING_UNKNOWN;
	snprintf(path, sizeof(path), "/dev/cpu/%d/msr", cpu);
	fd = open(path, O_RDONLY);
	if (fd < 0) {
		snprintf(why, len, "%s: %s%s", path, strerror(errno),
			 errno == ENOENT ? " (the msr module, modprobe msr)" :
			 errno == EACCES || errno == EPERM ? " (root, CAP_SYS_RAWIO)" : "");
		return FAST_STRING_UNKNOWN;
	}
	got = pread(fd, &misc, sizeof(misc), MSR_MISC_ENABLE);
	if (got != (ssize_t)sizeof(misc))
		snprintf(why, len, "%s: reading MSR 0x%x: %s", path, MSR_MISC_ENABLE,
			 got < 0 ? strerror(errno) : "short read");
	close(fd);
	return got == (ssize_t)sizeof(misc) ? (misc & MISC_ENABLE_FAST_STRING) != 0 :
	       FAST_STRING_UNKNOWN;
}

void linux_live_facts(struct live_facts *live, const struct cpu_desc *d,
		      const char *cmdline)
{
	live->ucode_readable = read_ucode(linux_cpu(), &live->ucode);
	live->fast_string = read_fast_string(d, linux_cpu(), fast_string_why,
					     sizeof(fast_string_why));
	live->tsc_khz = d->tsc_khz;
	live->tsc_src = d->tsc_src;
	if (!live->tsc_khz) {
		live->tsc_khz = calibrate_khz();
		live->tsc_src = TSC_SRC_LINUX_CLOCK;
	}
	live->hot_load_ticks = hot_load_ticks();
	live->mem_usable = meminfo("MemTotal");
	live->cmdline = cmdline;
}

void linux_print_fast_string_note(void)
{
	if (fast_string_why[0])
		out_line("note: fast_string unknown: %s", fast_string_why);
}

void linux_print_release(void)
{
	struct utsname u;

	if (uname(&u))
		strcpy(u.release, "unknown");
	out_line("linux release=%s cpu=%d online=%d", u.release, linux_cpu(),
		 linux_online_cpus());
}

/*
 * The first "flags" line of path into buf (its value, after the colon);
 * false with why where there is none.
 */
static bool cpuinfo_flags(const char *path, char **buf, char *why, size_t len)
{
	FILE *f = fopen(path, "r");
	size_t cap = 0;
	bool found = false;

	if (!f) {
		snprintf(why, len, "%s: %s", path, strerror(errno));
		return false;
	}
	while (!found && getline(buf, &cap, f) > 0) {
		char *colon = strchr(*buf, ':');

		if (strncmp(*buf, "flags", 5) || !colon)
			continue;
		memmove(*buf, colon + 1, strlen(colon + 1) + 1);
		(*buf)[strcspn(*buf, "\n")] = '\0';
		found = true;
	}
	fclose(f);
	if (!found)
		snprintf(why, len, "%s: no flags line", path);
	return found;
}

bool linux_running_kernel(struct rule_running *r)
{
	const char *path = getenv("PAGEBENCH_CPUINFO");
	char *flags = NULL, why[300];
	struct utsname u;
	bool ok;

	if (!path || !*path)
		path = "/proc/cpuinfo";
	if (uname(&u)) {
		out_line("linux kernel_flags unknown (uname: %s)", strerror(errno));
		return false;
	}
	ok = cpuinfo_flags(path, &flags, why, sizeof(why));
	if (ok && !rule_running_linux(r, u.release, flags, false)) {
		snprintf(why, sizeof(why), "release %s has no version", u.release);
		ok = false;
	}
	free(flags);
	if (!ok) {
		out_line("linux kernel_flags unknown (%s)", why);
		return false;
	}
	answer_print_kernel_flags(path, r);
	return true;
}
