// SPDX-License-Identifier: MIT
/*
 * The counters beside each timed window in user space (harness/measure/host.h),
 * read just outside it: one perf_event_open group of this thread, read
 * with one read(), and the thread's CPU clock.
 *
 * Cycles: perf's cycles and ref-cycles, user only (exclude_kernel: all
 * that perf_event_paranoid=2 lets an ordinary user count), in a pinned
 * group, so never multiplexed.
 *
 * Disturbed, by whichever of these the host allows:
 * - context switches: perf's software counter. It counts only with
 *   exclude_kernel=0, which perf_event_paranoid=2 refuses an ordinary
 *   user (with exclude_kernel=1 it never counts);
 * - the thread's CPU clock (CLOCK_THREAD_CPUTIME_ID), against the
 *   window's ticks: it stops while the thread is switched away, while the
 *   hypervisor runs another vCPU where the guest kernel subtracts steal
 *   time (CONFIG_PARAVIRT_TIME_ACCOUNTING), and during interrupts only
 *   where it accounts IRQ time apart (CONFIG_IRQ_TIME_ACCOUNTING, off in
 *   Debian's kernels);
 * - user-only reference cycles against the ticks: they stop at every
 *   entry to the kernel, interrupts included.
 * getrusage() would say what the switch counter says at the cost of a
 * system call more on each side.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <linux/perf_event.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>
#include "cpu/insn.h"
#include "harness/measure/host.h"
#include "harness/measure/sample.h"
#include "lib/out.h"
#include "linux/linux.h"

/* The group's events, in the order they join it. */
enum event { EV_CYCLES, EV_REF, EV_SWITCHES, EV_COUNT };

/* struct host_sample's at[] here: the group's values, then these. */
enum { AT_CLOCK_NS = EV_COUNT, AT_UNSCHEDULED, AT_COUNT };
_Static_assert(AT_COUNT <= sizeof(((struct host_sample *)0)->at) /
			   sizeof(uint64_t), "at[] holds a sample's readings");

/* Long enough for a counter that counts to move. */
#define PROBE_TICKS	100000
#define PARANOID	"/proc/sys/kernel/perf_event_paranoid"

static struct {
	int leader;		/* -1: no group */
	int fd[EV_COUNT];	/* -1: not in the group */
	int slot[EV_COUNT];	/* index in the group's values */
	unsigned int nr;	/* events in the group */
	bool clock;		/* the CPU-clock test can be made */
	uint64_t tsc_khz;
} perf = { .leader = -1, .fd = { -1, -1, -1 } };

/* The group counts the thread that opened it; suite=scrub's others read none. */
static __thread bool counting;

struct group_read {
	uint64_t nr, enabled, running, value[EV_COUNT];
};

static int perf_open(uint32_t type, uint64_t config, bool user_only)
{
	struct perf_event_attr a;

	memset(&a, 0, sizeof(a));
	a.size = sizeof(a);
	a.type = type;
	a.config = config;
	a.exclude_kernel = user_only;
	a.exclude_hv = 1;
	/* A pinned group that loses the PMU reads nothing rather than less. */
	a.pinned = perf.leader < 0;
	a.read_format = PERF_FORMAT_GROUP | PERF_FORMAT_TOTAL_TIME_ENABLED |
			PERF_FORMAT_TOTAL_TIME_RUNNING;
	return (int)syscall(SYS_perf_event_open, &a, 0, -1, perf.leader,
			    PERF_FLAG_FD_CLOEXEC);
}

/* Adds an event to the group (the first leads it); false with errno. */
static bool join(enum event e, uint32_t type, uint64_t config, bool user_only)
{
	int fd = perf_open(type, config, user_only);

	if (fd < 0)
		return false;
	if (perf.leader < 0)
		perf.leader = fd;
	perf.fd[e] = fd;
	perf.slot[e] = (int)perf.nr++;
	return true;
}

static void leave(enum event e)
{
	unsigned int i;

	if (perf.fd[e] < 0)
		return;
	close(perf.fd[e]);
	if (perf.fd[e] == perf.leader)
		perf.leader = -1;
	for (i = 0; i < EV_COUNT; i++)
		if (perf.fd[i] >= 0 && perf.slot[i] > perf.slot[e])
			perf.slot[i]--;
	perf.fd[e] = -1;
	perf.nr--;
}

static bool has(enum event e)
{
	return perf.fd[e] >= 0;
}

static bool group_read(struct group_read *g)
{
	size_t want = (3 + perf.nr) * sizeof(uint64_t);

	return perf.leader >= 0 &&
	       read(perf.leader, g, sizeof(*g)) >= (ssize_t)want && g->nr == perf.nr;
}

static uint64_t value(const struct group_read *g, enum event e)
{
	return has(e) ? g->value[perf.slot[e]] : 0;
}

static bool clock_ns(uint64_t *ns)
{
	struct timespec ts;

	if (clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts))
		return false;
	*ns = (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
	return true;
}

static void paranoid(char *buf, size_t len)
{
	FILE *f = fopen(PARANOID, "r");
	int level;

	if (f && fscanf(f, "%d", &level) == 1)
		snprintf(buf, len, "perf_event_paranoid=%d", level);
	else
		snprintf(buf, len, "%s unreadable", PARANOID);
	if (f)
		fclose(f);
}

static const char *open_hint(int err)
{
	switch (err) {
	case ENOENT:
	case EOPNOTSUPP:
	case ENODEV:
		return ": the CPU offers perf no hardware counter (a VM without a virtual PMU?)";
	case EACCES:
	case EPERM:
		return ": refused (perf_event_paranoid above 2, or a seccomp policy)";
	}
	return "";
}

/* cycles (and ref-cycles) open and counting; false with why not. */
static bool open_cycles(char *why, size_t len)
{
	struct group_read a, b;
	char level[64];
	uint64_t t0;

	if (!join(EV_CYCLES, PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES, true)) {
		int err = errno;

		paranoid(level, sizeof(level));
		snprintf(why, len, "perf_event_open(cycles, user only): %s%s; %s",
			 strerror(err), open_hint(err), level);
		return false;
	}
	/* AMD has no ref-cycles: the TSC is the reference there. */
	join(EV_REF, PERF_TYPE_HARDWARE, PERF_COUNT_HW_REF_CPU_CYCLES, true);
	if (!group_read(&a)) {
		snprintf(why, len, "perf cycles opened, but read() gives nothing (the PMU taken by another pinned event?)");
		goto fail;
	}
	t0 = rdtsc_ordered();
	while (rdtsc_ordered() - t0 < PROBE_TICKS)
		;
	if (!group_read(&b)) {
		snprintf(why, len, "perf cycles opened, but the second read() gives nothing");
		goto fail;
	}
	if (value(&b, EV_CYCLES) == value(&a, EV_CYCLES) ||
	    (has(EV_REF) && value(&b, EV_REF) == value(&a, EV_REF))) {
		snprintf(why, len, "perf cycles do not count: +%llu cycles, +%llu ref-cycles over %u TSC ticks",
			 (unsigned long long)(value(&b, EV_CYCLES) - value(&a, EV_CYCLES)),
			 (unsigned long long)(value(&b, EV_REF) - value(&a, EV_REF)),
			 PROBE_TICKS);
		goto fail;
	}
	return true;
fail:
	leave(EV_REF);
	leave(EV_CYCLES);
	return false;
}

/* The "linux retime" line: what finds a disturbed window here, and what not. */
static void print_signals(int switches_err)
{
	static const char *const names[] = { "cpu-clock", "switches", "ref-cycles" };
	bool on[] = { perf.clock, has(EV_SWITCHES), has(EV_REF) };
	char signals[64] = "", unseen[256] = "", level[64];
	size_t n = 0, u = 0;
	unsigned int i;

	for (i = 0; i < sizeof(on) / sizeof(on[0]); i++)
		if (on[i])
			n += (size_t)snprintf(signals + n, sizeof(signals) - n, "%s%s",
					      n ? "," : "", names[i]);
	if (!n)
		snprintf(signals, sizeof(signals), "none");
	if (!perf.clock)
		u += (size_t)snprintf(unseen + u, sizeof(unseen) - u,
				      "no TSC rate for the CPU clock; ");
	if (!has(EV_SWITCHES)) {
		paranoid(level, sizeof(level));
		u += (size_t)snprintf(unseen + u, sizeof(unseen) - u,
				      "no switch counter: perf_event_open(context-switches): %s, %s; ",
				      strerror(switches_err), level);
	}
	if (!has(EV_REF))
		u += (size_t)snprintf(unseen + u, sizeof(unseen) - u,
				      "interrupts: seen only where the kernel counts IRQ time apart, no user-only ref-cycles; ");
	if (u >= 2)
		unseen[u - 2] = '\0';
	out_line("linux retime=%u signals=%s%s%s%s", SAMPLE_RETIMES, signals,
		 u ? " (" : "", unseen, u ? ")" : "");
}

bool host_samples_start(const struct sample_plan *sp, char *what, size_t len)
{
	bool cycles = false;
	int switches_err = 0;
	uint64_t ns;

	perf.tsc_khz = sp->tsc_khz;
	perf.clock = sp->tsc_khz && clock_ns(&ns);
	if (!sp->cycles)
		snprintf(what, len, "cycles=off");
	else
		cycles = open_cycles(what, len);
	if (!join(EV_SWITCHES, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CONTEXT_SWITCHES, false))
		switches_err = errno;
	counting = perf.leader >= 0;
	if (cycles)
		snprintf(what, len, "source=perf-cycles ref=%s",
			 has(EV_REF) ? "perf-ref-cycles" : "tsc");
	print_signals(switches_err);
	return cycles;
}

void host_sample_begin(struct host_sample *s)
{
	struct group_read g;
	unsigned int e;

	s->disturbed = false;
	s->has_cycles = false;
	if (!perf.clock || !clock_ns(&s->at[AT_CLOCK_NS]))
		s->at[AT_CLOCK_NS] = 0;
	if (!counting || !group_read(&g)) {
		s->at[AT_UNSCHEDULED] = UINT64_MAX;	/* no group reading */
		return;
	}
	for (e = 0; e < EV_COUNT; e++)
		s->at[e] = value(&g, e);
	s->at[AT_UNSCHEDULED] = g.enabled - g.running;
	s->has_cycles = has(EV_CYCLES);
}

void host_sample_end(struct host_sample *s, uint64_t ticks)
{
	struct group_read g;
	bool counted = s->at[AT_UNSCHEDULED] != UINT64_MAX && group_read(&g) &&
		       g.enabled - g.running == s->at[AT_UNSCHEDULED];
	uint64_t ns;

	s->has_cycles = s->has_cycles && counted;
	if (s->has_cycles) {
		s->cycles = value(&g, EV_CYCLES) - s->at[EV_CYCLES];
		s->ref = value(&g, EV_REF) - s->at[EV_REF];
	}
	if (counted && has(EV_SWITCHES) && value(&g, EV_SWITCHES) != s->at[EV_SWITCHES])
		s->disturbed = true;
	if (s->at[AT_CLOCK_NS] && clock_ns(&ns) &&
	    sample_clock_behind(ticks, perf.tsc_khz, ns - s->at[AT_CLOCK_NS]))
		s->disturbed = true;
	if (s->has_cycles && has(EV_REF) && sample_ref_behind(ticks, s->ref))
		s->disturbed = true;
}
