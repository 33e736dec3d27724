// SPDX-License-Identifier: MIT
/*
 * The plan's buffers in user space, as close to the kernel's as Linux
 * allows: backed by 2 MiB pages where it gives them (hugetlbfs, else
 * transparent huge pages), touched before the run, and locked in memory.
 * Each step that needs privileges is tried; a refusal is reported and the
 * run goes on.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <linux/mman.h>
#include "harness/out.h"
#include "linux.h"

#define HUGE_PAGE	((size_t)2 << 20)
#define MIB		((size_t)1 << 20)

static size_t round_up(size_t x, size_t to)
{
	return (x + to - 1) / to * to;
}

/* Bytes of [p, p + len) that the kernel backs with huge pages. */
static size_t thp_bytes(const void *p, size_t len)
{
	unsigned long start, end, lo = (unsigned long)p, hi = lo + len;
	unsigned long long kib, total = 0;
	bool inside = false;
	char line[512];
	FILE *f = fopen("/proc/self/smaps", "r");

	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%lx-%lx ", &start, &end) == 2)
			inside = start < hi && end > lo;
		else if (inside && sscanf(line, "AnonHugePages: %llu kB", &kib) == 1)
			total += kib * 1024;
	}
	fclose(f);
	return total;
}

static void thp_mode(char *buf, size_t len)
{
	FILE *f = fopen("/sys/kernel/mm/transparent_hugepage/enabled", "r");
	char line[128], *a, *b;

	snprintf(buf, len, "unknown");
	if (!f)
		return;
	if (fgets(line, sizeof(line), f) && (a = strchr(line, '[')) &&
	    (b = strchr(a, ']'))) {
		*b = '\0';
		snprintf(buf, len, "%s", a + 1);
	}
	fclose(f);
}

/* One mapping for all buffers, 2 MiB aligned: hugetlbfs first, then THP. */
static void *map_buffers(size_t len, bool *hugetlb)
{
	void *p = mmap(NULL, len, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS | MAP_HUGETLB | MAP_HUGE_2MB |
		       MAP_POPULATE, -1, 0);
	char *q;
	size_t skew;

	*hugetlb = p != MAP_FAILED;
	if (*hugetlb)
		return p;
	q = mmap(NULL, len + HUGE_PAGE, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (q == MAP_FAILED)
		return NULL;
	skew = round_up((uintptr_t)q, HUGE_PAGE) - (uintptr_t)q;
	if (skew)
		munmap(q, skew);
	munmap(q + skew + len, HUGE_PAGE - skew);
	q += skew;
	/* Refused (no THP in this kernel): 4 KiB pages, as the line will say. */
	madvise(q, len, MADV_HUGEPAGE);
	/* Touch every page now, so no page fault lands in a timed region. */
	memset(q, 0x5a, len);
	return q;
}

/* mlock, raising the soft limit to the hard one if that is what it takes. */
static void lock(void *p, size_t len)
{
	struct rlimit rl;
	int err;

	if (!mlock(p, len)) {
		out_line("linux mlock=yes (%zuM)", len / MIB);
		return;
	}
	err = errno;
	if (!getrlimit(RLIMIT_MEMLOCK, &rl) && rl.rlim_cur < len &&
	    (rl.rlim_max == RLIM_INFINITY || rl.rlim_max >= len)) {
		rl.rlim_cur = rl.rlim_max;
		if (!setrlimit(RLIMIT_MEMLOCK, &rl) && !mlock(p, len)) {
			out_line("linux mlock=yes (%zuM, after raising RLIMIT_MEMLOCK)", len / MIB);
			return;
		}
		err = errno;
	}
	getrlimit(RLIMIT_MEMLOCK, &rl);
	if (rl.rlim_cur == RLIM_INFINITY)
		out_line("linux mlock=no (%s)", strerror(err));
	else
		out_line("linux mlock=no (%s; RLIMIT_MEMLOCK is %lluK, the buffers need %zuK)",
			 strerror(err), (unsigned long long)rl.rlim_cur / 1024, len / 1024);
}

bool linux_buffers(struct buffers *b, const struct plan *p)
{
	struct buffer_sizes s;
	size_t fill, work, len, huge;
	bool hugetlb;
	char mode[32];
	uint8_t *base;

	*b = (struct buffers){ 0 };
	plan_buffer_sizes(p, &s);
	if (!p->passes && !s.strings)
		return true;
	if (p->passes) {
		fill = round_up(s.fill ? s.fill : 1, HUGE_PAGE);
		work = round_up(s.work, HUGE_PAGE);
		len = fill + work + round_up(s.cold, HUGE_PAGE);
	} else {		/* suite=strings: its buffer alone */
		fill = work = len = 0;
	}
	len += round_up(s.strings, HUGE_PAGE);
	base = map_buffers(len, &hugetlb);
	if (!base) {
		out_line("note: cannot map %zuM for the buffers of this plan: %s",
			 len / MIB, strerror(errno));
		return false;
	}
	b->fill = base;
	b->work = base + fill;
	b->cold = base + fill + work;
	b->strings = s.strings ? base + len - round_up(s.strings, HUGE_PAGE) : NULL;

	huge = hugetlb ? len : thp_bytes(base, len);
	if (hugetlb) {
		out_line("linux buffers=%zuM pages=2M huge=100%% via=hugetlb", len / MIB);
	} else {
		thp_mode(mode, sizeof(mode));
		out_line("linux buffers=%zuM pages=%s huge=%zu%% via=%s (no hugetlb pages reserved; transparent_hugepage=%s)",
			 len / MIB, huge == len ? "2M" : huge ? "2M+4k" : "4k",
			 huge * 100 / len, huge ? "thp" : "none", mode);
	}
	lock(base, len);
	return true;
}
