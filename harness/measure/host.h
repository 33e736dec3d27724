/* SPDX-License-Identifier: MIT */
/*
 * What the harness asks of the program it runs in. Three programs
 * implement this: the kernel (kernel/host.c, ring 0, interrupts off),
 * pagebench-linux (linux/host.c, user space) and the Linux kernel module
 * (module/host.c, ring 0 inside a running kernel). Everything else in
 * harness/ is the same code in all three.
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
	/*
	 * The most bytes one guarded call may clear or copy, a whole number of
	 * pages; 0: no limit. The module keeps interrupts off for each call
	 * and bounds how long that lasts; larger calls are split (bench.c).
	 */
	size_t window_bytes;
};
/* Fills what it knows; what it leaves alone stays as the caller zeroed it. */
void host_caps(struct host_caps *c);

void host_wbinvd(void);
/* false when the MSR write faulted. */
bool host_ibpb(void);

/* A CPU exception (kernel) or signal (Linux) raised by guarded code. */
struct fault {
	char what[64];		/* "#UD (invalid opcode)", "SIGILL (illegal instruction)" */
	uint64_t rip;
};

/*
 * Calls fn(ctx); true when it returned, false with *f when it faulted
 * (the module: an invalid opcode, a general protection or another trap the
 * kernel offers its die notifiers, raised in the module's own code).
 */
bool host_call_guarded(void (*fn)(void *ctx), void *ctx, struct fault *f);

/*
 * A point where the harness holds nothing a reschedule could disturb:
 * between passes, epochs, reps, variants and probes, and between the
 * chunks of a long untimed loop (a fill, a flush, a check: HOST_CHUNK_BYTES
 * at most between two calls). Never inside a guarded call. The module
 * offers to reschedule there once a few ms have passed since it last did,
 * and stops the run there when it is being unloaded (module/host.c); the
 * kernel owns its CPU and pagebench-linux is preempted anyway: no-ops.
 */
void host_may_yield(void);
#define HOST_CHUNK_BYTES	(1024u * 1024)

/*
 * Between a pass's epochs (harness/measure/epochs.h): returns once the TSC has
 * reached until_tsc. The kernel spins, interrupts off; pagebench-linux
 * sleeps, so that what the system has queued for the CPU runs then
 * rather than inside a timed call.
 */
void host_pause(uint64_t until_tsc);

/*
 * Around every call of a variant that uses vector registers (REGS_VEC):
 * the module saves the interrupted task's with kernel_fpu_begin() and
 * gives them back with kernel_fpu_end(). The boot kernel and user space
 * own their registers: no-ops there. Never nested.
 */
void host_vector_begin(void);
void host_vector_end(void);

/*
 * Around each timed window (harness/measure/bench.c, harness/measure/suites/scrub.c):
 * host_sample_begin() right before its first RDTSC, host_sample_end()
 * right after its last, both outside it and on the CPU that runs it.
 * They count what the host can count beside the TSC: core cycles and
 * reference cycles (ring 0: APERF and MPERF; pagebench-linux: perf
 * cycles and ref-cycles, user only), and whether the CPU was taken away
 * from the window (pagebench-linux: a context switch, or the thread's CPU
 * clock or its reference cycles fell behind the window's ticks). The
 * harness times a disturbed sample again (harness/measure/sample.h).
 */
struct host_sample {
	bool has_cycles;	/* cycles (and ref) were counted over the window */
	bool disturbed;
	uint64_t cycles;	/* core cycles */
	uint64_t ref;		/* reference cycles at the TSC's rate; 0: the host has none */
	uint64_t at[6];		/* the host's own readings at begin, for end */
};
void host_sample_begin(struct host_sample *s);
void host_sample_end(struct host_sample *s, uint64_t ticks);

/* What the harness asks of the samples, once per run (harness/measure/sample.c). */
struct sample_plan {
	bool cycles;		/* cycles=on */
	bool aperfmperf;	/* ring 0 may read APERF/MPERF (CPUID.06H:ECX[0], disable=, force=) */
	const char *no_aperfmperf; /* why not, when not */
	uint64_t tsc_khz;	/* 0: unknown */
};
/*
 * Before the first sample: true when host_sample_end() gives cycles, with
 * where they come from in what ("source=aperf ref=mperf"), false with why
 * not ("cycles=off").
 */
bool host_samples_start(const struct sample_plan *sp, char *what, size_t len);

/* What the samples of a pass came to, for its disturbance line. */
struct sample_tally {
	unsigned int samples;	/* kept: the figures of the pass */
	unsigned int retimed;	/* windows timed again for being disturbed */
	unsigned int kept;	/* samples still disturbed when the retimes ran out */
	unsigned int cpus;	/* CPUs that ran windows: host_cpus() indices 0..cpus-1 */
	unsigned int disturbed[RUN_CPUS_MAX];	/* disturbed windows, by CPU index */
};

/* Around the iterations of one pass: Linux prints what disturbed them. */
void host_pass_begin(void);
void host_pass_end(const char *suite, const char *pass,
		   const struct sample_tally *t);

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
