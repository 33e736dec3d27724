/* SPDX-License-Identifier: MIT */
/*
 * The state of the run that a fault handler must see: what step is
 * executing, how many failures so far, and the one way a run ends.
 */
#ifndef PB_RUN_H
#define PB_RUN_H

#include <stddef.h>
#include <stdint.h>

/* The most CPUs any host runs on (harness/measure/host.h's HOST_CPUS_MAX). */
#define RUN_CPUS_MAX	256

/* Names what is executing now, e.g. "clear L1 w/o flush rep 2 variant avx". */
void run_step(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
const char *run_step_now(void);

/*
 * Steps are kept per CPU (index as in host_cpus()); the host says which
 * CPU is calling. Without this hook every caller is CPU 0.
 */
void run_set_cpu_index(unsigned int (*index)(void));
/* Another CPU's step, and a count that changes with each run_step() there. */
const char *run_step_of(unsigned int cpu);
unsigned long run_step_seq(unsigned int cpu);

void run_fail(void);
unsigned int run_failures(void);

/* The "runtime" line, from the TSC ticks of the whole run (khz may be 0). */
void run_print_runtime(uint64_t ticks, uint64_t tsc_khz);
/*
 * A run cut short at a point where the host could stop it (SIGINT or
 * SIGTERM in pagebench-linux, rmmod in the module): by what, and how far
 * its progress had come (harness/measure/progress.h), which its done: line says.
 */
void run_set_interrupted(const char *by, unsigned int percent);
const char *run_interrupted_by(void);	/* NULL: it was not */

/*
 * The done: line's text: "done: N failures", or for a run cut short
 * "done: interrupted by SIGINT at 20% of the run, N failures".
 */
void run_done_text(char *buf, size_t len);
/* The done: line, the last of a run. */
void run_print_done(void);

/*
 * Ending the run early (a fatal exception, the watchdog) goes through one
 * hook, which the host sets once: the kernel's prints done: and exits.
 */
void run_set_end(void (*end)(void));
void __attribute__((noreturn)) run_end(void);

#endif
