/* SPDX-License-Identifier: MIT */
/*
 * What the harness asks of the program it runs in. Two programs implement
 * this: the kernel (kernel/host.c, ring 0, interrupts off) and
 * pagebench-linux (linux/host.c, user space). Everything else in harness/
 * is the same code in both.
 */
#ifndef PB_HOST_H
#define PB_HOST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "lib/run.h"

struct host_caps {
	bool wbinvd;		/* WBINVD may be executed (ring 0 only) */
	bool ibpb;		/* IBPB through MSR 0x49 may be tried (ring 0 only) */
};
void host_caps(struct host_caps *c);

void host_wbinvd(void);
/* false when the MSR write faulted. */
bool host_ibpb(void);

/* A CPU exception (kernel) or signal (Linux) raised by guarded code. */
struct fault {
	char what[64];		/* "#UD (invalid opcode)", "SIGILL (illegal instruction)" */
	uint64_t rip;
};

/* Calls fn(ctx); true when it returned, false with *f when it faulted. */
bool host_call_guarded(void (*fn)(void *ctx), void *ctx, struct fault *f);

/* Around the iterations of one pass: Linux prints what disturbed them. */
void host_pass_begin(void);
void host_pass_end(const char *suite, const char *pass);

struct progress {
	const char *suite;	/* the op's name: "clear", "copy" */
	const char *pass;	/* the pass's header */
	const char *variant;
	unsigned int rep, reps;
	unsigned int percent;	/* of the run's work, by bytes touched */
	uint64_t elapsed_ms;	/* 0 when the TSC rate is unknown */
	uint64_t left_ms;	/* estimate; PROGRESS_UNKNOWN before any work */
};
#define PROGRESS_UNKNOWN UINT64_MAX

/* For a person watching; called before each timed iteration. */
void host_progress(const struct progress *p);

/*
 * Every CPU at once (suite=scrub). The kernel brings up the CPUs of the
 * ACPI MADT; pagebench-linux uses one thread per CPU it may run on.
 */
#define HOST_CPUS_MAX	RUN_CPUS_MAX
#define HOST_NODES_MAX	16

struct host_cpus {
	unsigned int n;			/* CPUs that can run work; [0] is the caller's */
	uint32_t id[HOST_CPUS_MAX];	/* APIC id (kernel), CPU number (Linux) */
	unsigned int node[HOST_CPUS_MAX]; /* NUMA node; 0 where there is one */
	unsigned int nodes;		/* nodes with CPUs, at least 1 */
};
void host_cpus(struct host_cpus *c);

/*
 * Calls fn(ctx, i) on the first n CPUs of host_cpus() at once, i being
 * the CPU's index there (0: the calling CPU). Each spins until the TSC
 * reaches start_tsc before its call, so all start together. Returns when
 * every call has returned: true; false, with why, when a CPU did not
 * finish (the kernel's watchdog ended it) or could not be started.
 */
bool host_run_on_cpus(unsigned int n, uint64_t start_tsc,
		      void (*fn)(void *ctx, unsigned int i), void *ctx,
		      char *why, size_t whylen);

#endif
