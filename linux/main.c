// SPDX-License-Identifier: MIT
/*
 * pagebench-linux: the kernel's benchmark in Linux user space, for machines
 * that cannot boot the image. The run, in the order the data flows:
 * options, pinning, CPU description, the plan, the buffers, the suites,
 * the summary and the exit status. The lines are the kernel's, plus
 * "linux ..." lines saying how this run differs.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cpu/describe.h"
#include "cpu/insn.h"
#include "lib/out.h"
#include "lib/run.h"
#include "cpu/live.h"
#include "harness/summary.h"
#include "harness/verdict.h"
#include "linux/linux.h"

#ifndef PB_VERSION
#error "build with -DPB_VERSION=\"...\" (the Makefile passes git describe)"
#endif

static void usage(FILE *f)
{
	fputs("Usage: pagebench-linux [OPTION=VALUE]...\n"
	      "Run pagebench's clear and copy suites (or suite=strings) in user\n"
	      "space, on one CPU, and print the kernel's log lines on standard\n"
	      "output.\n"
	      "\n"
	      "OPTIONs are the kernel's (suite= reps= passes= variants= sizes=\n"
	      "disable= force= tag= selftest=, see README.md), plus cpu=N: the CPU to run\n"
	      "on (default: the last one this process may use).\n"
	      "\n"
	      "Exit status: 0 no failures; 1 failures (an option error, a\n"
	      "verification failure, a fault), as the kernel reports them.\n",
	      f);
}

static void stdout_sink(const char *s, size_t len)
{
	fwrite(s, 1, len, stdout);
}

/* The arguments joined by spaces: what the "cmdline:" line shows. */
static char *join_args(int argc, char **argv)
{
	size_t len = 1;
	char *s;
	int i;

	for (i = 1; i < argc; i++)
		len += strlen(argv[i]) + 1;
	s = calloc(1, len);
	for (i = 1; s && i < argc; i++) {
		if (i > 1)
			strcat(s, " ");
		strcat(s, argv[i]);
	}
	return s;
}

/* The end of the run: the done line and the status the kernel would give. */
static int finish(void)
{
	linux_progress_end();
	run_print_done();
	fflush(stdout);
	return run_failures() ? EXIT_FAILED : EXIT_OK;
}

int main(int argc, char **argv)
{
	static struct options o;
	static struct cpu_desc d;
	static struct live_facts live;
	static struct plan plan;
	static struct summary sum;
	static struct rule_facts facts;
	struct buffers bufs;
	char pin_error[200];
	uint64_t t_start = rdtsc_ordered();
	char *cmdline;
	bool pinned;
	int i;

	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
			usage(stdout);
			return EXIT_OK;
		}
	}
	setvbuf(stdout, NULL, _IOLBF, 0);
	options_init(&o, PROGRAM_LINUX);
	for (i = 1; i < argc; i++)
		options_word(&o, argv[i]);
	options_finish(&o);
	out_set_tag(o.tag);
	out_add_sink(stdout_sink);
	linux_catch_faults();

	/* Pinned first: CPUID and the TSC are read on the CPU that runs the suites. */
	pinned = linux_pin(&o, pin_error, sizeof(pin_error));
	cpu_describe_live(&d);
	cmdline = join_args(argc, argv);
	linux_live_facts(&live, &d, cmdline ? cmdline : "");
	describe_cpu(&d, PB_VERSION, &live);
	linux_print_release();
	linux_print_fast_string_note();
	options_print_errors(&o);
	if (!pinned) {
		out_line("option error: %s", pin_error);
		run_fail();
	}
	/* Unlike the kernel, which cannot be asked again, stop before measuring. */
	if (run_failures())
		return finish();

	if (o.selftest == SELFTEST_UD) {
		run_step("selftest=ud: a deliberate invalid opcode");
		asm volatile("ud2");
	}

	plan_build(&plan, &o, &d, linux_mem_available() / 2);
	plan_print(&plan);
	if (linux_buffers(&bufs, &plan)) {
		linux_sched_fifo();
		out_line("linux wbinvd=no ibpb=no interrupts=on");
		suite_run(&plan, &d, &bufs, live.tsc_khz, &sum);
	} else {
		run_fail();
	}
	rule_facts_init(&facts, &d, live.fast_string);
	verdict_report(&sum.verdict, &facts);

	run_print_runtime(rdtsc_ordered() - t_start, live.tsc_khz);
	free(cmdline);
	return finish();
}
