// SPDX-License-Identifier: MIT
/*
 * Every CPU at once in user space: one thread pinned to each CPU this
 * process may run on, the pinned CPU of the main thread first, and each
 * CPU's NUMA node as sysfs tells it.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "harness/measure/host.h"
#include "linux/linux.h"

/* However slow the step, a thread that has not returned by then is stuck. */
#define JOIN_SECONDS 600

static int node_ids[HOST_NODES_MAX];
static unsigned int nnodes;

int linux_node_id(unsigned int i)
{
	return i < nnodes ? node_ids[i] : 0;
}

/* The kernel's node of a CPU: the nodeN entry in its sysfs directory. */
static int sysfs_node(int cpu)
{
	char path[64];
	struct dirent *e;
	DIR *dir;
	int node = 0;

	snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%d", cpu);
	dir = opendir(path);
	if (!dir)
		return 0;
	while ((e = readdir(dir)))
		if (!strncmp(e->d_name, "node", 4) && e->d_name[4] >= '0' &&
		    e->d_name[4] <= '9') {
			node = atoi(e->d_name + 4);
			break;
		}
	closedir(dir);
	return node;
}

/* Node ids as the harness numbers them: 0, 1, ... in order of first use. */
static unsigned int dense_node(int id)
{
	unsigned int i;

	for (i = 0; i < nnodes; i++)
		if (node_ids[i] == id)
			return i;
	if (nnodes == HOST_NODES_MAX)
		return 0;
	node_ids[nnodes] = id;
	return nnodes++;
}

void host_cpus(struct host_cpus *c)
{
	int cpu, first = linux_cpu();

	nnodes = 0;
	c->n = 0;
	c->id[c->n] = (uint32_t)first;
	c->node[c->n++] = dense_node(sysfs_node(first));
	for (cpu = 0; cpu < CPU_SETSIZE && c->n < HOST_CPUS_MAX; cpu++) {
		if (cpu == first || !linux_allowed(cpu))
			continue;
		c->id[c->n] = (uint32_t)cpu;
		c->node[c->n++] = dense_node(sysfs_node(cpu));
	}
	c->nodes = nnodes;
}

struct worker {
	pthread_t thread;
	int cpu;
	unsigned int index;
	void (*fn)(void *ctx, unsigned int i);
	void *ctx;
};

static void *work(void *arg)
{
	struct worker *w = arg;

	w->fn(w->ctx, w->index);
	return NULL;
}

/*
 * Created on its CPU: a thread made on the caller's CPU would wait there
 * behind the caller, a SCHED_FIFO thread spinning to the same deadline.
 */
static int start_on(struct worker *w)
{
	pthread_attr_t attr;
	cpu_set_t one;
	int err;

	CPU_ZERO(&one);
	CPU_SET(w->cpu, &one);
	pthread_attr_init(&attr);
	err = pthread_attr_setaffinity_np(&attr, sizeof(one), &one);
	if (!err)
		err = pthread_create(&w->thread, &attr, work, w);
	pthread_attr_destroy(&attr);
	return err;
}

bool host_run_on_cpus(unsigned int n, uint64_t start_tsc,
		      void (*fn)(void *ctx, unsigned int i), void *ctx,
		      char *why, size_t whylen)
{
	static struct worker w[HOST_CPUS_MAX];
	struct host_cpus c;
	struct timespec deadline;
	unsigned int i, started;
	bool ok = true;

	(void)start_tsc;	/* each call spins until it itself */
	host_cpus(&c);
	if (n > c.n) {
		snprintf(why, whylen, "%u CPUs asked for, %u can run work", n, c.n);
		return false;
	}
	for (started = 1; started < n; started++) {
		int err;

		w[started] = (struct worker){ .cpu = (int)c.id[started],
					      .index = started, .fn = fn, .ctx = ctx };
		err = start_on(&w[started]);
		if (err) {
			snprintf(why, whylen, "cannot start a thread on CPU %u: %s",
				 c.id[started], strerror(err));
			ok = false;
			break;
		}
	}
	if (ok)
		fn(ctx, 0);
	clock_gettime(CLOCK_REALTIME, &deadline);
	deadline.tv_sec += JOIN_SECONDS;
	for (i = 1; i < started; i++) {
		int err = pthread_timedjoin_np(w[i].thread, NULL, &deadline);

		if (err && ok)
			snprintf(why, whylen, "CPU %u did not finish in %u s", c.id[i],
				 JOIN_SECONDS);
		ok = ok && !err;
	}
	return ok;
}
