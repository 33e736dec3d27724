/* SPDX-License-Identifier: MIT */
/*
 * The vector price: what a kernel pays, per entry, to run a routine that
 * uses vector registers (the tables' regs column VEC). Linux wraps such
 * a routine in kernel_fpu_begin() and kernel_fpu_end(); entered from a
 * user task (a page fault), begin saves the task's registers and the
 * return to user space loads them again (arch/x86/kernel/fpu/core.c,
 * save_fpregs_to_fpstate(); switch_fpu_return()). The save is the
 * first of XSAVES, XSAVEC, XSAVEOPT, XSAVE the CPU has, the restore
 * XRSTORS with XSAVES, else XRSTOR (arch/x86/kernel/fpu/xstate.h,
 * XSTATE_XSAVE and XSTATE_XRESTORE); without XSAVE, FXSAVE and FXRSTOR.
 *
 * The boot kernel and pagebench-linux time that pair themselves, of
 * every component XCR0 enables but AMX's tile data (which a task has
 * only once it asked for it, and which the kernel keeps apart), each
 * component made live first: a task that used AVX-512 pays that much
 * (a component in its initial state costs the optimised saves
 * little). Ring 0 takes the kernel's own choice; user space cannot run
 * XSAVES, so it takes XSAVEC before XSAVEOPT before XSAVE, the nearest
 * it can run. The module times kernel_fpu_begin/end itself
 * (module/fpu.c) and hands its figure in the same struct.
 *
 * Every answer adds the price to each VEC routine's figure, per kernel
 * entry: once a page for clear_page and copy_page, once a call for
 * clear_pages (harness/decide/answer.h). Integers only; the measurement is the
 * same code in ring 0 and in user space.
 */
#ifndef PB_VECTOR_PRICE_H
#define PB_VECTOR_PRICE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "cpu/cpu.h"
#include "harness/stats/interval.h"

/* Epochs of the measurement, and pairs timed in each: a few milliseconds in all. */
#define PRICE_EPOCHS		31
#define PRICE_SAMPLES		15
/* The largest save area timed: XCR0's components but AMX tile data fit. */
#define PRICE_AREA_BYTES	(16u * 1024)
/* XCR0 bit 18, AMX tile data: dynamic, saved only for tasks that asked (XFD). */
#define XSTATE_AMX_TILEDATA	(1ull << 18)

struct vector_price {
	bool measured;
	const char *how;	/* "xsavec+xrstor", "kernel_fpu_begin/end", ... */
	const char *where;	/* "user", "ring0", "module" */
	const char *why_not;	/* when not measured */
	uint64_t xcr0;		/* in force */
	uint64_t mask;		/* the components saved */
	unsigned int bytes;	/* the save area */
	unsigned int epochs;	/* of the figure below; 0: taken as given */
	/* One entry's pair, whole ticks: the median and its 95% interval. */
	uint64_t ticks, lo, hi;
	/*
	 * The module: its kthread's own pair, already inside every window of
	 * a VEC figure (host_vector_begin() around each call of a window),
	 * and that window's bytes; 0 elsewhere.
	 */
	uint64_t held_ticks;
	size_t window_bytes;
};

/*
 * Times the pair on this CPU, as ring 0 (XSAVES where the CPU has it)
 * or user space would; d: this CPU, with the XCR0 in force.
 */
void vector_price_measure(struct vector_price *p, const struct cpu_desc *d, bool ring0);

/*
 * The price's line: "vector_price how=... where=... ticks=N lo=N hi=N"
 * (docs/log-format.md, "The vector price"), with ns where the TSC rate
 * is known; or why it was not measured.
 */
void vector_price_print(const struct vector_price *p, uint64_t tsc_khz);

#endif
