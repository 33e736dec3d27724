/* SPDX-License-Identifier: MIT */
/*
 * A chain of dependent loads of one hot line, in TSC ticks: whether a CPU
 * runs this program, or an instruction emulator does. A KVM without
 * hardware virtualization (PVM, docs/method.md) carries out a guest that
 * is not built for it one instruction at a time, and nothing in CPUID or
 * the hypervisor leaf tells that KVM from one whose guest runs on the CPU.
 * The log then looks like a CPU's while every figure measures the
 * emulator; a load's latency tells them apart by three orders of magnitude.
 */
#ifndef PB_CPU_HOT_LOAD_H
#define PB_CPU_HOT_LOAD_H

#include <stdbool.h>
#include <stdint.h>

#define HOT_LOADS		1000	/* dependent loads per chain */
#define HOT_LOAD_TRIES		8	/* chains; the fastest is kept */

/*
 * The most a CPU's hot load can take, in hundredths of a ns. An L1 hit is
 * 4 or 5 cycles on every x86-64 core, so 12.5 ns even at a 400 MHz clock;
 * KVM's emulator takes microseconds. QEMU's TCG translates the chain into
 * host loads as fast as a CPU's (4.76 ns on an Emerald Rapids host), so
 * only its hypervisor leaf tells it.
 */
#define HOT_LOAD_CPU_MAX_CNS	(20 * 100)

enum hot_load_runner {
	HOT_LOAD_CPU, HOT_LOAD_EMULATOR, HOT_LOAD_TCG, HOT_LOAD_UNKNOWN,
};

/* The fastest of HOT_LOAD_TRIES chains of HOT_LOADS loads, in ticks. */
uint64_t hot_load_ticks(void);

/* One load in hundredths of a ns; 0 when the TSC rate is unknown. */
uint64_t hot_load_cns(uint64_t ticks, uint64_t tsc_khz);

/*
 * What ran the chain: tcg where the hypervisor leaf says so, else by its
 * speed; HOT_LOAD_UNKNOWN without a TSC rate or a chain.
 */
enum hot_load_runner hot_load_runner(uint64_t ticks, uint64_t tsc_khz, bool tcg);

#endif
