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
#include <linux/mempolicy.h>
#include <sys/syscall.h>
#include <unistd.h>
#include "lib/out.h"
#include "linux/linux.h"

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

/*
 * Memory of one NUMA node (node >= 0), set before the first touch places
 * the pages: what suite=scrub's CPUs clear is their own node's.
 */
static void bind_to_node(void *p, size_t len, int node)
{
	unsigned long mask;

	if (node < 0)
		return;
	mask = 1ul << node;
	/* maxnode counts one past the mask's bits, as the kernel reads it. */
	if (syscall(SYS_mbind, p, len, MPOL_BIND, &mask, 8 * sizeof(mask) + 1, 0))
		out_line("note: mbind of %zuM to NUMA node %d failed (%s): the memory is wherever Linux puts it",
			 len / MIB, node, strerror(errno));
}

/*
 * A mapping 2 MiB aligned, on hugetlbfs pages where some are reserved,
 * else asking for transparent huge pages, every page touched now so no
 * page fault lands in a timed region.
 */
static void *map_buffers(size_t len, int node, bool *hugetlb)
{
	void *p = mmap(NULL, len, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS | MAP_HUGETLB | MAP_HUGE_2MB,
		       -1, 0);
	char *q;
	size_t skew;

	*hugetlb = p != MAP_FAILED;
	if (*hugetlb) {
		bind_to_node(p, len, node);
		memset(p, 0x5a, len);
		return p;
	}
	q = mmap(NULL, len + HUGE_PAGE, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (q == MAP_FAILED)
		return NULL;
	skew = round_up((uintptr_t)q, HUGE_PAGE) - (uintptr_t)q;
	if (skew)
		munmap(q, skew);
	munmap(q + skew + len, HUGE_PAGE - skew);
	q += skew;
	bind_to_node(q, len, node);
	/* Refused (no THP in this kernel): 4 KiB pages, as the line will say. */
	madvise(q, len, MADV_HUGEPAGE);
	memset(q, 0x5a, len);
	return q;
}

struct mapping {
	void *base;
	size_t len;
	bool hugetlb;
};

/*
 * mlock, raising the soft limit to the hard one if that is what it takes;
 * 0 or the errno of the refusal.
 */
static int lock(void *p, size_t len, size_t total, bool *raised)
{
	struct rlimit rl;

	if (!mlock(p, len))
		return 0;
	if (!getrlimit(RLIMIT_MEMLOCK, &rl) && rl.rlim_cur < total &&
	    (rl.rlim_max == RLIM_INFINITY || rl.rlim_max >= total)) {
		rl.rlim_cur = rl.rlim_max;
		if (!setrlimit(RLIMIT_MEMLOCK, &rl) && !mlock(p, len)) {
			*raised = true;
			return 0;
		}
	}
	return errno;
}

static void lock_all(const struct mapping *map, unsigned int n, size_t total)
{
	struct rlimit rl;
	bool raised = false;
	unsigned int i;
	int err = 0;

	for (i = 0; i < n && !err; i++)
		err = lock(map[i].base, map[i].len, total, &raised);
	if (!err) {
		out_line("linux mlock=yes (%zuM%s)", total / MIB,
			 raised ? ", after raising RLIMIT_MEMLOCK" : "");
		return;
	}
	getrlimit(RLIMIT_MEMLOCK, &rl);
	if (rl.rlim_cur == RLIM_INFINITY)
		out_line("linux mlock=no (%s)", strerror(err));
	else
		out_line("linux mlock=no (%s; RLIMIT_MEMLOCK is %lluK, the buffers need %zuK)",
			 strerror(err), (unsigned long long)rl.rlim_cur / 1024, total / 1024);
}

void linux_fit_scrub(struct plan *p)
{
	static char why[OUT_LINE_MAX];
	int ids[HOST_NODES_MAX];
	struct buffer_sizes s;
	struct host_cpus c;
	unsigned int i;

	if (!p->scrub_bytes)
		return;
	host_cpus(&c);
	if (c.nodes < 2)	/* one mapping, not bound: the plan's check is it */
		return;
	for (i = 0; i < c.nodes; i++)
		ids[i] = linux_node_id(i);
	plan_buffer_sizes(p, &s);
	if (linux_scrub_fits_nodes("/sys/devices/system/node", ids, c.nodes,
				   round_up(s.scrub, HUGE_PAGE), why, sizeof(why)))
		return;
	p->scrub_skip = why;
	p->scrub_bytes = 0;
}

bool linux_buffers(struct buffers *b, const struct plan *p)
{
	struct mapping map[1 + HOST_NODES_MAX];
	size_t fill, work, cold, len = 0, huge = 0;
	unsigned int n = 0, i, nodes = 1;
	struct buffer_sizes s;
	struct host_cpus c;
	char mode[32];

	*b = (struct buffers){ 0 };
	plan_buffer_sizes(p, &s);
	if (s.fill || s.work || s.cold || s.strings) {
		fill = round_up(s.fill, HUGE_PAGE);
		work = round_up(s.work, HUGE_PAGE);
		cold = round_up(s.cold, HUGE_PAGE);
		map[n].len = fill + work + cold + round_up(s.strings, HUGE_PAGE);
		map[n].base = map_buffers(map[n].len, -1, &map[n].hugetlb);
		if (!map[n].base)
			goto no_memory;
		b->fill = s.fill ? map[n].base : NULL;
		b->work = s.work ? (uint8_t *)map[n].base + fill : NULL;
		b->cold = s.cold ? (uint8_t *)map[n].base + fill + work : NULL;
		b->strings = s.strings ? (uint8_t *)map[n].base + fill + work + cold : NULL;
		n++;
	}
	if (s.scrub) {
		host_cpus(&c);
		nodes = c.nodes;
		for (i = 0; i < nodes; i++, n++) {
			map[n].len = round_up(s.scrub, HUGE_PAGE);
			map[n].base = map_buffers(map[n].len, nodes > 1 ? linux_node_id(i) : -1,
						  &map[n].hugetlb);
			if (!map[n].base)
				goto no_memory;
			b->scrub[i] = map[n].base;
		}
	}
	if (!n)
		return true;

	for (i = 0; i < n; i++) {
		len += map[i].len;
		huge += map[i].hugetlb ? map[i].len : thp_bytes(map[i].base, map[i].len);
	}
	if (huge == len && map[0].hugetlb) {
		out_line("linux buffers=%zuM pages=2M huge=100%% via=hugetlb", len / MIB);
	} else {
		thp_mode(mode, sizeof(mode));
		out_line("linux buffers=%zuM pages=%s huge=%zu%% via=%s (no hugetlb pages reserved; transparent_hugepage=%s)",
			 len / MIB, huge == len ? "2M" : huge ? "2M+4k" : "4k",
			 huge * 100 / len, huge ? "thp" : "none", mode);
	}
	lock_all(map, n, len);
	return true;

no_memory:
	out_line("note: cannot map %zuM for the buffers of this plan: %s",
		 map[n].len / MIB, strerror(errno));
	return false;
}
