/* SPDX-License-Identifier: MIT */
/*
 * Self-tests of every CPU at once and of the watchdog, for
 * tests/boot/test_smp.py: selftest=smp (and nosipi) starts a call on every
 * CPU at one TSC deadline and checks each ran once, on its own CPU, no
 * earlier than asked; selftest=hang and hang-ap hang on purpose, ud-ap
 * faults on an AP.
 */
#include "kernel/smp/cpu_slots.h"
#include "kernel/smp/call.h"
#include "kernel/smp/smp.h"
#include "kernel/smp/selftest.h"
#include "kernel/x86/apic.h"
#include "kernel/x86/delay.h"
#include "lib/fmt.h"
#include "lib/out.h"
#include "lib/run.h"
#include "kernel/x86/x86.h"

/*
 * Ample for an IPI and a wake-up from HLT. TCG's vCPU threads on a loaded
 * host were seen to miss 100 ms (late=1 with -smp 4 on 2 host CPUs): the
 * self-test waits a second, which costs it nothing.
 */
#define START_AFTER_MS	1000

struct start_record {
	uint64_t start_tsc;
	struct {
		uint64_t started;
		uint32_t apic_id;
		unsigned int calls;
	} cpu[HOST_CPUS_MAX];
};

static void record_start(void *ctx, unsigned int i)
{
	struct start_record *r = ctx;

	/* Only stores here, each to a line of its own CPU's, after the start. */
	r->cpu[i].started = rdtsc_ordered();
	r->cpu[i].apic_id = apic_id();
	r->cpu[i].calls++;
}

/*
 * within: from the first CPU's start to the last's. late: CPUs that
 * reached the spin only after the start time, so did not start together.
 */
static void start_skew(void)
{
	static struct start_record r;
	static struct host_cpus c;
	char why[160] = "";
	uint64_t first = UINT64_MAX, last = 0;
	unsigned int i, late = 0;
	bool ok;

	smp_cpus(&c);
	r = (struct start_record){ 0 };
	r.start_tsc = rdtsc_ordered() + delay_ticks_ms(START_AFTER_MS);
	run_step("selftest=smp: one call on each of %u CPUs", c.n);
	ok = smp_run(c.n, r.start_tsc, record_start, &r, why, sizeof(why));
	for (i = 0; ok && i < c.n; i++) {
		if (r.cpu[i].calls != 1)
			fmt_snprintf(why, sizeof(why), "cpu %u ran %u calls, not 1",
				     i, r.cpu[i].calls);
		else if (r.cpu[i].apic_id != c.id[i])
			fmt_snprintf(why, sizeof(why), "cpu %u ran on apic=%u, not apic=%u",
				     i, r.cpu[i].apic_id, c.id[i]);
		else if (r.cpu[i].started < r.start_tsc)
			fmt_snprintf(why, sizeof(why), "cpu %u started 0x%lx ticks early",
				     i, (unsigned long)(r.start_tsc - r.cpu[i].started));
		ok = !why[0];
		if (r.cpu[i].started < first)
			first = r.cpu[i].started;
		if (r.cpu[i].started > last)
			last = r.cpu[i].started;
		late += smp_arrival(i) > r.start_tsc;
	}
	if (ok) {
		out_line("selftest smp: ok cpus=%u started within=%lu ticks late=%u",
			 c.n, (unsigned long)(last - first), late);
		return;
	}
	out_line("selftest smp: FAILED cpus=%u started within=0 ticks late=0 (%s)",
		 c.n, why);
	run_fail();
}

static bool have_watcher(const char *what)
{
	if (smp_bsp_watched())
		return true;
	out_line("note: %s: not run: no other CPU watches this one (see the watchdog line)",
		 what);
	run_fail();
	return false;
}

static void __attribute__((noreturn)) hang(void)
{
	for (;;)
		asm volatile("cli; 1: jmp 1b");
}

static void hang_on_cpu1(void *ctx, unsigned int i)
{
	(void)ctx;
	if (i != 1)
		return;
	run_step("selftest=hang-ap: a deliberate hang with interrupts off on cpu 1");
	hang();
}

static void ud_on_cpu1(void *ctx, unsigned int i)
{
	(void)ctx;
	if (i != 1)
		return;
	run_step("selftest=ud-ap: a deliberate invalid opcode on cpu 1");
	asm volatile("ud2");
}

/* fn on cpus 0 and 1; what becomes of the run is fn's doing. */
static void on_cpu1(const char *what, void (*fn)(void *ctx, unsigned int i))
{
	char why[160];

	if (smp_online() < 2) {
		out_line("note: %s: not run: only one CPU is online", what);
		run_fail();
		return;
	}
	run_step("%s: cpus 0 and 1", what);
	smp_run(2, rdtsc_ordered() + delay_ticks_ms(START_AFTER_MS),
			 fn, 0, why, sizeof(why));
}

void smp_selftest(enum selftest t)
{
	switch (t) {
	case SELFTEST_SMP:
	case SELFTEST_NOSIPI:
		start_skew();
		break;
	case SELFTEST_HANG:
		if (!have_watcher("selftest=hang"))
			break;
		run_step("selftest=hang: a deliberate hang with interrupts off");
		hang();
	case SELFTEST_HANG_AP:
		/* The watchdog prints and counts it; the run goes on without cpu 1. */
		on_cpu1("selftest=hang-ap", hang_on_cpu1);
		break;
	case SELFTEST_UD_AP:
		/* The exception ends the run, from cpu 1. */
		on_cpu1("selftest=ud-ap", ud_on_cpu1);
		break;
	default:
		break;
	}
}
