// SPDX-License-Identifier: MIT
/* Which CPU the run stays on, and at what priority. */
#define _GNU_SOURCE
#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include "lib/out.h"
#include "linux/linux.h"

/* A low real-time priority is enough to stay ahead of every normal task. */
#define FIFO_PRIORITY 1

static int pinned = -1;
static cpu_set_t allowed;	/* before pinning: the CPUs suite=scrub may use */

int linux_cpu(void)
{
	return pinned;
}

int linux_online_cpus(void)
{
	long n = sysconf(_SC_NPROCESSORS_ONLN);

	return n > 0 ? (int)n : 1;
}

/* "0-3,6" for the error message. */
static void describe_set(const cpu_set_t *set, char *buf, size_t len)
{
	size_t n = 0;
	int cpu, first = -1;

	buf[0] = '\0';
	for (cpu = 0; cpu <= CPU_SETSIZE; cpu++) {
		bool in = cpu < CPU_SETSIZE && CPU_ISSET(cpu, set);

		if (in && first < 0)
			first = cpu;
		if (!in && first >= 0) {
			if (n < len)
				n += snprintf(buf + n, len - n, "%s%d", n ? "," : "", first);
			if (cpu - 1 > first && n < len)
				n += snprintf(buf + n, len - n, "-%d", cpu - 1);
			first = -1;
		}
	}
}

bool linux_allowed(int cpu)
{
	return cpu >= 0 && cpu < CPU_SETSIZE && CPU_ISSET(cpu, &allowed);
}

bool linux_pin(const struct options *o, char *why, size_t len)
{
	cpu_set_t one;
	char list[128];
	int cpu;

	if (sched_getaffinity(0, sizeof(allowed), &allowed)) {
		snprintf(why, len, "cpu=: sched_getaffinity: %s", strerror(errno));
		return false;
	}
	cpu = o->cpu;
	/* The default keeps off CPU 0, where much of the system's work lands. */
	if (cpu == CPU_DEFAULT)
		for (cpu = CPU_SETSIZE - 1; cpu > 0 && !CPU_ISSET(cpu, &allowed); cpu--)
			;
	if (cpu >= CPU_SETSIZE || !CPU_ISSET(cpu, &allowed)) {
		describe_set(&allowed, list, sizeof(list));
		snprintf(why, len, "cpu=: CPU %d is not one this process may run on; valid: %s",
			 cpu, list);
		return false;
	}
	CPU_ZERO(&one);
	CPU_SET(cpu, &one);
	if (sched_setaffinity(0, sizeof(one), &one)) {
		snprintf(why, len, "cpu=: cannot pin to CPU %d: %s", cpu, strerror(errno));
		return false;
	}
	pinned = cpu;
	return true;
}

void linux_sched_fifo(void)
{
	struct sched_param sp = { .sched_priority = FIFO_PRIORITY };

	if (sched_setscheduler(0, SCHED_FIFO, &sp) == 0)
		out_line("linux sched=fifo (priority %d)", FIFO_PRIORITY);
	else
		out_line("linux sched=other (SCHED_FIFO refused: %s)", strerror(errno));
}
