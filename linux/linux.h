/* SPDX-License-Identifier: MIT */
/* pagebench-linux: the Linux user-space host of the harness. */
#ifndef PB_LINUX_H
#define PB_LINUX_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "cpu/describe.h"
#include "harness/options/options.h"
#include "harness/measure/plan.h"
#include "harness/decide/rules.h"
#include "harness/measure/buffers.h"
#include "lib/status.h"

/* host.c */
void linux_catch_faults(void);
void linux_progress_end(void);
/*
 * SIGINT and SIGTERM (unless ignored when the program started): the
 * first stops the run at its next yield point (host_may_yield()), the
 * second ends the program at once. linux_run_stoppable() calls fn(ctx)
 * and returns true, or false once a signal stopped it; linux_stop_signal()
 * is the signal, or 0.
 */
void linux_catch_stops(void);
bool linux_run_stoppable(void (*fn)(void *ctx), void *ctx);
int linux_stop_signal(void);

/*
 * log_file.c: where the log's lines go (log=): standard output, or a new file.
 * Open prints why it cannot on stderr; a write or close that fails ends
 * the run (status 3; a closed pipe: quietly, 0).
 */
bool linux_log_wants_file(const struct options *o);
bool linux_log_open(const struct options *o);
void linux_log_sink(const char *s, size_t len);
void linux_log_close(void);
bool linux_log_to_file(void);
const char *linux_log_path(void);	/* the file's, or "standard output" */

/* pin.c: pinning and scheduling */
/* Pins to o->cpu, or the last CPU this process may run on; false with why. */
bool linux_pin(const struct options *o, char *why, size_t len);
int linux_cpu(void);			/* the CPU pinned to */
bool linux_allowed(int cpu);		/* this process could run on it before pinning */
int linux_online_cpus(void);
/* SCHED_FIFO where allowed; prints the "linux sched" line. */
void linux_sched_fifo(void);

/* facts.c: what the description lines need, from /proc and the clock */
void linux_live_facts(struct live_facts *live, const struct cpu_desc *d,
		      const char *cmdline);
uint64_t linux_mem_available(void);
void linux_print_release(void);
/*
 * The running kernel's own view for the answer (harness/decide/rules.h): its
 * release from uname, its flags from /proc/cpuinfo, or from the file
 * the environment's PAGEBENCH_CPUINFO names (the tests' recorded ones).
 * Prints the "linux kernel_flags" line; false where it cannot tell.
 */
bool linux_running_kernel(struct rule_running *r);
/* A note: line when MISC_ENABLE.FAST_STRING could not be read (Intel). */
void linux_print_fast_string_note(void);

/* cpus.c: every CPU at once, for suite=scrub (host_cpus(), host_run_on_cpus()) */
/* The kernel's number of the NUMA node host_cpus() calls node i. */
int linux_node_id(unsigned int i);

/* buffers.c */
/* Maps, touches and locks the plan's buffers; prints their lines. */
bool linux_buffers(struct buffers *b, const struct plan *p);
/*
 * suite=scrub on more than one NUMA node: the plan skips the region (its
 * skipped line says why) when a node's free memory cannot hold it, before
 * anything is mapped.
 */
void linux_fit_scrub(struct plan *p);

/*
 * node_mem.c: whether a region of that many bytes fits each of the NUMA
 * nodes (kernel numbers) in at most half its MemFree, read from
 * root/nodeN/meminfo (root: /sys/devices/system/node); false with why.
 */
bool linux_scrub_fits_nodes(const char *root, const int *nodes, unsigned int n,
			    uint64_t region, char *why, size_t len);

/* irqs.c: the interrupts that reached one CPU, from /proc/interrupts */
#define IRQ_SOURCES_MAX 128
struct irq_counts {
	bool ok;
	unsigned int n;
	char name[IRQ_SOURCES_MAX][16];
	unsigned long long count[IRQ_SOURCES_MAX];
	unsigned long long total;
};
bool irq_counts_read(struct irq_counts *c, int cpu);
/* The sources that grew most from before to now: "LOC:12,CAL:3". */
void irq_counts_top(const struct irq_counts *now,
		    const struct irq_counts *before, char *buf, size_t len);

#endif
