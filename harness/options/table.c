/* SPDX-License-Identifier: MIT */
/*
 * The options: every key, the programs that take it, the function that
 * reads its value and what --help says of it. The parser's errors and
 * --help list the valid keys and values from this table and the names'
 * tables, so they cannot drift from what the parser accepts.
 */
#include "lib/run.h"
#include "harness/options/internal.h"

/* A number's macro as text, for --help: STR(REPS_MAX) is "1000". */
#define STR_(x) #x
#define STR(x) STR_(x)

/* --help's default of reps=: the first suite's, then those that differ. */
static void reps_default(char *buf, size_t size)
{
	size_t n = 0;
	unsigned int i, others = 0;

	/* 0: epochs until time= is spent (or precision=, budget=). */
	if (suites[0].reps)
		opt_append(buf, size, &n, "%u", suites[0].reps);
	else
		opt_append(buf, size, &n, "epochs until time= is spent");
	for (i = 1; i < SUITE_COUNT; i++)
		if (suites[i].reps != suites[0].reps)
			opt_append(buf, size, &n, "%s%s %u", others++ ? ", " : " (",
				   suites[i].name, suites[i].reps);
	if (others)
		opt_append(buf, size, &n, ")");
}

const struct option_def option_defs[] = {
	{ .key = "console", .parse = parse_console, .programs = PROGRAM_KERNEL,
	  .value = "ttyS0..3[,BAUD]|0xPORT[,BAUD]",
	  .what = "the serial port the log goes to, and its rate",
	  .dflt = "ttyS0,115200" },
	{ .key = "tag", .parse = parse_tag,
	  .programs = PROGRAM_KERNEL | PROGRAM_LINUX | PROGRAM_MODULE,
	  .value = "NAME",
	  .what = "the line prefix, 1 to 15 of A-Z a-z 0-9 _; tag=XEN makes "
		  "the lines look exactly like Xen's",
	  .dflt = TAG_DEFAULT },
	{ .key = "log", .parse = parse_log, .programs = PROGRAM_LINUX,
	  .value = "PATH|-",
	  .what = "the file the log's lines go to, created new (never "
		  "overwritten); -: standard output. Standard output then ends "
		  "with the answer and the log's path",
	  .dflt = "- where standard output is not a terminal (a pipe, a "
		  "file), else pagebench-HOST-YYYYMMDDTHHMMSSZ.log here" },
	{ .key = "exit", .parse = parse_exit, .programs = PROGRAM_KERNEL,
	  .names = exit_names,
	  .what = "how the run ends; qemu writes the status to isa-debug-exit "
		  "(port 0xf4)",
	  .dflt = "qemu under QEMU/KVM, else halt" },
	/* Not the module's: a deliberate #UD in ring 0 would be an oops. */
	{ .key = "selftest", .parse = parse_selftest,
	  .programs = PROGRAM_KERNEL | PROGRAM_LINUX,
	  .names = selftest_names,
	  .what = "a deliberate failure, to test how it is caught and reported "
		  "(docs/running.md, \"Options\", says what each does)",
	  .dflt = "off" },
	{ .key = "disable", .parse = parse_disable,
	  .programs = PROGRAM_KERNEL | PROGRAM_LINUX | PROGRAM_MODULE,
	  .names = feature_names, .value = "FEAT,...",
	  .what = "treat CPU features as absent: their variants are skipped "
		  "and say so",
	  .dflt = "none" },
	{ .key = "force", .parse = parse_force,
	  .programs = PROGRAM_KERNEL | PROGRAM_LINUX | PROGRAM_MODULE,
	  .names = feature_names, .value = "FEAT,...",
	  .what = "treat CPU features as present: their variants run although "
		  "CPUID does not report them; a fault is a failure and the "
		  "run goes on",
	  .dflt = "none" },
	{ .key = "suite", .parse = parse_suite,
	  .programs = PROGRAM_KERNEL | PROGRAM_LINUX | PROGRAM_MODULE,
	  .names = suite_names,
	  .what = "what to measure: all is clear and copy; xen exactly the "
		  "2021 experiment (7 variants, L1/L2, 3 reps, Jan's line "
		  "shapes); scrub every CPU clearing one region at once; "
		  "strings memset and memcpy by size" },
	{ .key = "reps", .parse = parse_reps,
	  .programs = PROGRAM_KERNEL | PROGRAM_LINUX | PROGRAM_MODULE,
	  .value = "N",
	  .what = "iterations per pass, 1 to " STR(REPS_MAX)
		  " (suite=strings: 1 to " STR(STRINGS_REPS_MAX) ")",
	  .dflt_fn = reps_default },
	{ .key = "precision", .parse = parse_precision,
	  .programs = PROGRAM_KERNEL | PROGRAM_LINUX,
	  .value = "P%",
	  .what = "suites all, clear and copy, in place of reps= and time=: "
		  "add epochs to a pass until every figure's 95% interval is "
		  "within P% of its median, 0.1% to 50% (docs/method.md, "
		  "\"Epochs\")",
	  .dflt = "1% where given without time=" },
	{ .key = "budget", .parse = parse_budget,
	  .programs = PROGRAM_KERNEL | PROGRAM_LINUX,
	  .value = "T",
	  .what = "the same: the time a pass may take, 10ms to 3600s, like "
		  "500ms or 2s (3 epochs run whatever it says)",
	  .dflt = "1000ms where given without time=" },
	{ .key = "worth", .parse = parse_worth,
	  .programs = PROGRAM_KERNEL | PROGRAM_LINUX,
	  .value = "P%",
	  .what = "the answer lines' least saving worth acting on: a "
		  "switch only where the 95% interval of the saving lies "
		  "wholly above P%, 0.1% to 50% in steps of 0.1% "
		  "(docs/log-format.md, \"The answer\")",
	  .dflt = "3%" },
	{ .key = "time", .parse = parse_time,
	  .programs = PROGRAM_KERNEL | PROGRAM_LINUX,
	  .value = "T",
	  .what = "suites all, clear and copy: the whole run's time, 1s to "
		  STR(TIME_MAX_S) "s, like 30s or 2000ms, shared between the passes by "
		  "what they still need to decide (docs/method.md, \"One time "
		  "budget\"); it wins over precision= and budget=",
	  .dflt = "30s" },
	{ .key = "passes", .parse = parse_passes,
	  .programs = PROGRAM_KERNEL | PROGRAM_LINUX | PROGRAM_MODULE,
	  .names = pass_names, .value = "PASS,...",
	  .what = "the passes to run (f: with a flush before each iteration; "
		  "hot and cold: copy only)",
	  .dflt = "all of the suite's" },
	{ .key = "variants", .parse = parse_variants,
	  .programs = PROGRAM_KERNEL | PROGRAM_LINUX | PROGRAM_MODULE,
	  .value = "NAME,...",
	  .what = "the variants to run; a name selects it in every table of "
		  "the suite that has it",
	  .dflt = "all of the suite's" },
	{ .key = "cpus", .parse = parse_cpus,
	  .programs = PROGRAM_KERNEL | PROGRAM_LINUX,
	  .value = "N",
	  .what = "how many CPUs take part, the first included, 1 to "
		  STR(RUN_CPUS_MAX) ": suite=scrub's largest count (the "
		  "kernel starts no more)",
	  .dflt = "all" },
	{ .key = "scrub", .parse = parse_scrub,
	  .programs = PROGRAM_KERNEL | PROGRAM_LINUX,
	  .value = "SIZE",
	  .what = "suite=scrub's region: whole 4 KiB pages from 1M to 1T, "
		  "with a K, M, G or T suffix",
	  .dflt = "the MEM pass's size, twice the last cache level" },
	{ .key = "sizes", .parse = parse_sizes,
	  .programs = PROGRAM_KERNEL | PROGRAM_LINUX | PROGRAM_MODULE,
	  .value = "N,...",
	  .what = "suite=strings: the sizes in bytes, 0 to "
		  STR(STRINGS_SIZE_LIMIT) ", at most " STR(STRINGS_SIZES_MAX),
	  .dflt = "small sizes, and each power of two to "
		  STR(STRINGS_SIZE_LIMIT) " with most of their neighbours" },
	{ .key = "tsc", .parse = parse_tsc, .programs = PROGRAM_KERNEL,
	  .names = tsc_names,
	  .what = "where the TSC rate comes from; a source that is absent "
		  "prints a note: and the run falls back to auto" },
	{ .key = "cycles", .parse = parse_cycles,
	  .programs = PROGRAM_KERNEL | PROGRAM_LINUX | PROGRAM_MODULE,
	  .names = cycles_names,
	  .what = "read core cycles beside the TSC around each timed call "
		  "(APERF/MPERF in the kernel, perf cycles in pagebench-linux) "
		  "and print each variant's effective frequency per pass; off "
		  "where reading them costs too much (an RDMSR that exits to a "
		  "hypervisor)" },
	{ .key = "cpu", .parse = parse_cpu,
	  .programs = PROGRAM_LINUX | PROGRAM_MODULE,
	  .value = "N",
	  .what = "the CPU to pin to (the module: to run on), 0 to " STR(CPU_NUMBER_MAX),
	  .dflt = "the last CPU this process may run on" },
	{ .key = "watchdog", .parse = parse_watchdog, .programs = PROGRAM_KERNEL,
	  .value = "S",
	  .what = "seconds one step may take before its CPU counts as hung, "
		  "1 to " STR(WATCHDOG_S_MAX) "; another CPU then stops the "
		  "run, a failure",
	  .dflt = STR(WATCHDOG_S_DEFAULT) },
	{ .key = "stall_limit_ms", .parse = parse_stall_limit,
	  .programs = PROGRAM_MODULE,
	  .value = "MS",
	  .what = "the longest the run may keep its CPU from the rest of the "
		  "kernel, between two of its reschedule points, 1 to "
		  STR(STALL_LIMIT_MS_MAX) "; a run that took longer says so "
		  "in a linux-module stall line, a failure",
	  .dflt = STR(STALL_LIMIT_MS_DEFAULT) },
};

const unsigned int option_def_count = ARRAY_SIZE(option_defs);
