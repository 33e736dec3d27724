/* SPDX-License-Identifier: MIT */
/*
 * Calls on every CPU at one TSC deadline (kernel/smp/call.c).
 */
#ifndef PB_SMP_CALL_H
#define PB_SMP_CALL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "kernel/smp/cpu_slots.h"

/* host_run_on_cpus() (harness/measure/host.h). */
bool smp_run(unsigned int n, uint64_t start_tsc,
	     void (*fn)(void *ctx, unsigned int i), void *ctx,
	     char *why, size_t whylen);

/* When CPU cpu began its wait for the last call's start_tsc. */
uint64_t smp_arrival(unsigned int cpu);


/* A started AP, from ap_main() on: calls, watching, until stopped. */
void __attribute__((noreturn)) smp_idle(struct cpu *self);

#endif
