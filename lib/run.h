/* SPDX-License-Identifier: MIT */
/*
 * The state of the run that a fault handler must see: what step is
 * executing, how many failures so far, and the one way a run ends.
 */
#ifndef PB_RUN_H
#define PB_RUN_H

#include <stdint.h>

/* The most CPUs any host runs on (harness/host.h's HOST_CPUS_MAX). */
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
/* The "done: N failures" line, the last of a run. */
void run_print_done(void);

/*
 * Ending the run early (a fatal exception, the watchdog) goes through one
 * hook, which the host sets once: the kernel's prints done: and exits.
 */
void run_set_end(void (*end)(void));
void __attribute__((noreturn)) run_end(void);

#endif
