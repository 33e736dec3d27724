/* SPDX-License-Identifier: MIT */
#include <stdarg.h>
#include <stdint.h>
#include "lib/fmt.h"
#include "lib/out.h"
#include "lib/run.h"

/*
 * One step per CPU, each on cache lines of its own: the kernel's watchdog
 * reads another CPU's (kernel/smp/watchdog.c), and seq tells it the step moved.
 */
static struct step {
	char text[160];
	unsigned long seq;
} __attribute__((aligned(64))) steps[RUN_CPUS_MAX] = { [0] = { "boot", 0 } };
static unsigned int (*cpu_index)(void);
static unsigned int failures;
static void (*end_hook)(void);

void run_set_cpu_index(unsigned int (*index)(void))
{
	cpu_index = index;
}

static struct step *my_step(void)
{
	unsigned int i = cpu_index ? cpu_index() : 0;

	return &steps[i < RUN_CPUS_MAX ? i : 0];
}

void run_step(const char *fmt, ...)
{
	struct step *s = my_step();
	va_list ap;

	va_start(ap, fmt);
	fmt_vsnprintf(s->text, sizeof(s->text), fmt, ap);
	va_end(ap);
	__atomic_store_n(&s->seq, s->seq + 1, __ATOMIC_RELEASE);
}

const char *run_step_now(void)
{
	return my_step()->text;
}

const char *run_step_of(unsigned int cpu)
{
	return steps[cpu < RUN_CPUS_MAX ? cpu : 0].text;
}

unsigned long run_step_seq(unsigned int cpu)
{
	return __atomic_load_n(&steps[cpu < RUN_CPUS_MAX ? cpu : 0].seq,
			       __ATOMIC_ACQUIRE);
}

void run_fail(void)
{
	__atomic_fetch_add(&failures, 1, __ATOMIC_RELAXED);
}

unsigned int run_failures(void)
{
	return failures;
}

void run_print_runtime(uint64_t ticks, uint64_t tsc_khz)
{
	out_line("runtime ms=%lu ticks=0x%lx",
		 (unsigned long)(tsc_khz ? ticks / tsc_khz : 0),
		 (unsigned long)ticks);
}

static const char *interrupted_by;
static unsigned int interrupted_at;

void run_set_interrupted(const char *by, unsigned int percent)
{
	interrupted_by = by;
	interrupted_at = percent;
}

const char *run_interrupted_by(void)
{
	return interrupted_by;
}

void run_done_text(char *buf, size_t len)
{
	if (interrupted_by)
		fmt_snprintf(buf, len, "done: interrupted by %s at %u%% of the run, %u failure%s",
			     interrupted_by, interrupted_at, failures, failures == 1 ? "" : "s");
	else
		fmt_snprintf(buf, len, "done: %u failure%s", failures, failures == 1 ? "" : "s");
}

void run_print_done(void)
{
	char text[96];

	run_done_text(text, sizeof(text));
	out_line("%s", text);
}

void run_set_end(void (*end)(void))
{
	end_hook = end;
}

void run_end(void)
{
	if (end_hook)
		end_hook();
	/* A host that set no end, or whose end returned: stop here. */
	for (;;)
		asm volatile("" : : : "memory");
}
