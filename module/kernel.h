/* SPDX-License-Identifier: MIT */
/*
 * What the module's harness side (run_host.c, which includes harness/ headers)
 * asks of its kernel side (the other files here, which include the
 * kernel's headers). The two cannot meet in one file: both define
 * cpu_has(), rdtsc_ordered(), clflush() and struct cpuid_regs, each its
 * own way. Only plain C types cross this header.
 */
#ifndef PB_MODULE_KERNEL_H
#define PB_MODULE_KERNEL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/*
 * host.c: the most bytes one call may clear or copy with interrupts off.
 * At a slow 1 byte per ns (a clear of memory far from the CPU, a slow
 * variant) 1 MiB takes about 1 ms; a pass of L2 size or less stays whole
 * on current CPUs (docs/running.md, "pagebench.ko").
 */
#define PBK_WINDOW_BYTES	(1024u * 1024)
/* host_pause() sleeps in slices of this, or up to twice it. */
#define PBK_PAUSE_SLICE_US	100
/*
 * host_may_yield() offers to reschedule once this long has passed since
 * the last offer: with a window's call and a chunk's fill or flush
 * (HOST_CHUNK_BYTES) each well under a millisecond on current CPUs, the
 * stretches stay far below stall_limit_ms='s default.
 */
#define PBK_YIELD_MS		2

struct pbk_windows {
	uint64_t n;		/* calls made with interrupts off */
	uint64_t longest;	/* ticks, the longest of them */
	uint64_t over_1ms;	/* how many lasted longer than 1 ms */
	/* ticks, the longest stretch between two reschedule points, and the step it ended in */
	uint64_t preempt_longest;
	char longest_during[96];
};
void pbk_windows(struct pbk_windows *w);
/* From the run's start: reschedule points every PBK_YIELD_MS at most. */
void pbk_yield_start(uint64_t tsc_khz);
/*
 * Around a call into the kernel that may sleep and reschedules as it needs
 * (the page allocator, with GFP_KERNEL): its time is not the run's stretch.
 */
void pbk_may_sleep_begin(void);
void pbk_may_sleep_end(void);

/*
 * Ending a run early (host.c): pbk_stop() (main.c, at unload) asks, and
 * the run's next yield point ends pbk_run_stoppable()'s fn(ctx), which
 * then returns false; true when fn returned by itself.
 */
void pbk_stop(void);
bool pbk_stop_wanted(void);
bool pbk_run_stoppable(void (*fn)(void *ctx), void *ctx);

/* The die notifier that turns a trap in a guarded call into a fault (host.c). */
int pbk_guard_init(void);
void pbk_guard_exit(void);

/* jump.asm: setjmp and longjmp for the run's thread; struct pbk_jump is its layout. */
struct pbk_jump {
	uint64_t rbx, rbp, r12, r13, r14, r15, rsp, rip;
};
int pbk_jump_set(struct pbk_jump *j) __attribute__((returns_twice));
void pbk_jump_back(struct pbk_jump *j) __attribute__((noreturn));

/* proc_log.c: the run's lines, readable at /proc/pagebench */
int pbk_log_init(void);
void pbk_log_sink(const char *s, size_t len);	/* an out_sink */
unsigned long pbk_log_lost(void);		/* lines no memory was left for */
void pbk_log_to_printk(void);			/* every line so far, to the kernel's log */
int pbk_log_publish(void);			/* creates /proc/pagebench */
void pbk_log_free(void);			/* removes it, frees the lines */

/* facts.c: the running kernel */
const char *pbk_release(void);
unsigned int pbk_online_cpus(void);
int pbk_last_online_cpu(void);
bool pbk_cpu_online(int cpu);
int pbk_this_cpu(void);
uint64_t pbk_tsc_khz(void);
uint64_t pbk_ram_bytes(void);
uint64_t pbk_available_bytes(void);
uint32_t pbk_microcode(int cpu);
/* " rep_good=1 erms=1 ...": the kernel's X86_FEATURE_* bits, "unknown" where it has none. */
void pbk_kernel_features(char *buf, size_t len);
/*
 * One flag the rules name ("REP_GOOD"), as this kernel's alternatives
 * test it: boot_cpu_has(X86_FEATURE_REP_GOOD), 0 where this kernel has no
 * such bit; -1 where the module's table does not name the flag.
 */
int pbk_kernel_flag(const char *flag);
/* MISC_ENABLE.FAST_STRING of this CPU: 1, 0, or -1 where its RDMSR faults. */
int pbk_fast_string(void);

/* buffers.c: NULL when the page allocator cannot give it; how says where from, or why not. */
void *pbk_buffer_alloc(size_t bytes, char *how, size_t howlen);
void pbk_buffer_free(void *p, size_t bytes);

/* fpu.c: what kernel_fpu_begin() and kernel_fpu_end() cost, in TSC ticks */
#define PBK_FPU_SAMPLES	64
struct pbk_fpu_cost {
	int cpu;
	bool task;		/* in a task with user registers to save, not a kthread */
	uint64_t empty_min;	/* the timed region with nothing in it */
	uint64_t begin_end[PBK_FPU_SAMPLES];	/* ascending */
	uint64_t restore[PBK_FPU_SAMPLES];	/* task: giving the registers back, ascending */
};
void pbk_fpu_cost(struct pbk_fpu_cost *c);

/* kernel_routines.c: why the kernel routine fn cannot run here, or NULL. */
const char *pbk_routine_missing(const void *fn);

#endif
