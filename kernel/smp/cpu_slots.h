/* SPDX-License-Identifier: MIT */
/*
 * The CPU slots (kernel/smp/cpu_slots.c), and which one the calling CPU is.
 * Only kernel/smp/ reads a slot; the rest of the kernel asks for indexes
 * and APIC ids.
 */
#ifndef PB_SMP_CPU_SLOTS_H
#define PB_SMP_CPU_SLOTS_H

#include <stdbool.h>
#include <stdint.h>
#include "harness/measure/host.h"

#define VEC_WAKE	0xf0		/* a call, or the watcher's timer */
#define WATCH_PERIOD_MS	100
#define CACHE_PAIR	128		/* a line and the one prefetched with it */

enum cpu_state { CPU_IDLE, CPU_BUSY, CPU_WAITING, CPU_PARKED };

struct cpu {
	unsigned int index;		/* at %gs:0: host_cpus() order */
	uint32_t apic_id;
	volatile uint32_t alive;	/* the AP runs C on its own stack */
	volatile uint32_t state;	/* enum cpu_state */
	/* A call: written by the BSP, then job_seq moves and the AP wakes. */
	void (*fn)(void *ctx, unsigned int i);
	void *ctx;
	uint64_t start_tsc;
	uint64_t arrived;		/* TSC as it began to wait for start_tsc */
	uint32_t job_seq, done_seq;
	/* Stopping: park is asked, then an NMI; parked is the answer. */
	volatile uint32_t park, parked;
	uint64_t parked_rip;
} __attribute__((aligned(CACHE_PAIR)));

extern struct cpu smp_cpu[HOST_CPUS_MAX];	/* [0] the BSP, then as started */
extern unsigned int smp_ncpus;
extern unsigned int smp_watcher;	/* the AP that watches the BSP, 0: none */
extern uint32_t smp_watch_ticks;	/* its APIC timer period */
/*
 * CPUID.6:EAX.ARAT: the APIC timer runs in every C-state. Without it
 * (older CPUs; AMD's C1E stops it) the watcher stays awake instead.
 */
extern bool smp_timer_runs_in_halt;

/* The calling CPU's index (0 before smp_init()). */
unsigned int smp_cpu_index(void);
unsigned int smp_online(void);
uint32_t smp_apic_id(unsigned int cpu);
/* True while another CPU watches the BSP (the watchdog can catch a hang). */
bool smp_bsp_watched(void);

static inline struct cpu *this_cpu(void)
{
	return &smp_cpu[smp_cpu_index()];
}

/* The calling CPU's slot from now on: %gs:0 is its index. */
void smp_cpu_enter(struct cpu *self);


#endif
