/* SPDX-License-Identifier: MIT */
/*
 * The options: every key, the programs that take it, the function that
 * reads its value, its default and what --help says of it. The parser's
 * errors and --help list the valid keys and values from this table and
 * the names' tables, so they cannot drift from what the parser accepts;
 * a default is written here once, as a value the option's own parser
 * reads (options_init() and options_finish() apply it, --help prints it).
 */
#include "lib/run.h"
#include "harness/options/internal.h"

/* A number's macro as text, for --help: STR(REPS_MAX) is "1000". */
#define STR_(x) #x
#define STR(x) STR_(x)

/*
 * time=, precision= and budget= have their defaults only where reps are
 * not fixed (reps=, or a suite's own): time= where none of the three was
 * given, precision= and budget= where the other was given without time=.
 * precision= and budget= are for experts; the defaults of all three keep
 * a full default run near a minute on this project's 2-vCPU VMs
 * (docs/method.md).
 */
static bool time_default_applies(const struct options *o)
{
	return !o->reps && !o->time_ms && !o->precision_bp && !o->budget_ms;
}

static bool precision_default_applies(const struct options *o)
{
	return !o->reps && !o->time_ms && !o->precision_bp && o->budget_ms;
}

static bool budget_default_applies(const struct options *o)
{
	return !o->reps && !o->time_ms && o->precision_bp && !o->budget_ms;
}

/* sizes=: only suite=strings measures sizes. */
static bool sizes_default_applies(const struct options *o)
{
	return !o->nsizes && (suites[o->suite].ops & OPS_STRINGS);
}

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
	  .dflt = "PB" },
	{ .key = "log", .parse = parse_log, .programs = PROGRAM_LINUX,
	  .value = "PATH|-",
	  .what = "the file the log's lines go to, created new (never "
		  "overwritten); -: standard output. Standard output then ends "
		  "with the answer and the log's path",
	  .dflt_is = "- where standard output is not a terminal (a pipe, a "
		  "file), else pagebench-HOST-YYYYMMDDTHHMMSSZ.log here" },	/* linux/ */
	{ .key = "exit", .parse = parse_exit, .programs = PROGRAM_KERNEL,
	  .names = exit_names,
	  .what = "how the run ends; qemu writes the status to isa-debug-exit "
		  "(port 0xf4)",
	  .dflt_is = "qemu under QEMU/KVM, else halt" },	/* kernel/exit.c */
	/* Not the module's: a deliberate #UD in ring 0 would be an oops. */
	{ .key = "selftest", .parse = parse_selftest,
	  .programs = PROGRAM_KERNEL | PROGRAM_LINUX,
	  .names = selftest_names,
	  .what = "a deliberate failure, to test how it is caught and reported "
		  "(docs/running.md, \"Options\", says what each does)",
	  .dflt_is = "off" },
	{ .key = "disable", .parse = parse_disable,
	  .programs = PROGRAM_KERNEL | PROGRAM_LINUX | PROGRAM_MODULE,
	  .names = feature_names, .value = "FEAT,...",
	  .what = "treat CPU features as absent: their variants are skipped "
		  "and say so",
	  .dflt_is = "none" },
	{ .key = "force", .parse = parse_force,
	  .programs = PROGRAM_KERNEL | PROGRAM_LINUX | PROGRAM_MODULE,
	  .names = feature_names, .value = "FEAT,...",
	  .what = "treat CPU features as present: their variants run although "
		  "CPUID does not report them; a fault is a failure and the "
		  "run goes on",
	  .dflt_is = "none" },
	{ .key = "suite", .parse = parse_suite,
	  .programs = PROGRAM_KERNEL | PROGRAM_LINUX | PROGRAM_MODULE,
	  .names = suite_names,
	  .what = "what to measure: all is clear and copy; xen exactly the "
		  "2021 experiment (7 variants, L1/L2, 3 reps, Jan's line "
		  "shapes); scrub every CPU clearing one region at once; "
		  "strings memset and memcpy by size",
	  .dflt = "all" },
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
	  .dflt = "1%", .dflt_when = "where given without time=",
	  .dflt_applies = precision_default_applies },
	{ .key = "budget", .parse = parse_budget,
	  .programs = PROGRAM_KERNEL | PROGRAM_LINUX,
	  .value = "T",
	  .what = "the same: the time a pass may take, 10ms to 3600s, like "
		  "500ms or 2s (3 epochs run whatever it says)",
	  .dflt = "1000ms", .dflt_when = "where given without time=",
	  .dflt_applies = budget_default_applies },
	{ .key = "worth", .parse = parse_worth,
	  .programs = PROGRAM_KERNEL | PROGRAM_LINUX | PROGRAM_MODULE,
	  .value = "P%",
	  .what = "the answer lines' least saving worth acting on: a "
		  "switch only where the 95% interval of the saving lies "
		  "wholly above P%, 0.1% to 50% in steps of 0.1% "
		  "(docs/log-format.md, \"The answer\")",
	  .dflt = "3%" },
	{ .key = "mix", .parse = parse_mix,
	  .programs = PROGRAM_KERNEL | PROGRAM_LINUX | PROGRAM_MODULE,
	  .names = pass_names, .value = "PASS:W,...",
	  .what = "the bottom lines weigh these passes into one figure, each "
		  "pass's time a page by its weight W (1 to " STR(MIX_WEIGHT_MAX)
		  "), where you know where your pages are, like l2f:1,mem:1 "
		  "(docs/method.md, \"The bottom line\")",
	  .dflt_is = "none: each pass on its own" },
	{ .key = "time", .parse = parse_time,
	  .programs = PROGRAM_KERNEL | PROGRAM_LINUX | PROGRAM_MODULE,
	  .value = "T",
	  .what = "suites all, clear and copy: the whole run's time, 1s to "
		  STR(TIME_MAX_S) "s, like 30s or 2000ms, shared between the passes by "
		  "what they still need to decide (docs/method.md, \"One time "
		  "budget\"); a pass stops at its cap of epochs (stop=epochs), so "
		  "a run whose passes all reach it or settle ends sooner (a note: line "
		  "says so): narrow it (variants=) to decide more; it wins over "
		  "precision= and budget=; where no CPU "
		  "runs this (runs_on tcg or emulator) its default is "
		  STR(TIME_NOT_A_CPU_MS) "ms, the first round alone, whose figures "
		  "advise nothing",
	  .dflt = "30s", .dflt_applies = time_default_applies },
	{ .key = "passes", .parse = parse_passes,
	  .programs = PROGRAM_KERNEL | PROGRAM_LINUX | PROGRAM_MODULE,
	  .names = pass_names, .value = "PASS,...",
	  .what = "the passes to run (f: with a flush before each iteration; "
		  "hot and cold: copy only; l1h to memh: one buffer reused call "
		  "after call, as likwid-bench and perf bench do, only when named)",
	  .dflt_is = "all of the suite's but l1h to memh" },	/* options_finish() */
	{ .key = "variants", .parse = parse_variants,
	  .programs = PROGRAM_KERNEL | PROGRAM_LINUX | PROGRAM_MODULE,
	  .value = "NAME,...",
	  .what = "the variants to run; a name selects it in every table of "
		  "the suite that has it",
	  .dflt_is = "all of the suite's" },	/* option_selects() */
	{ .key = "cpus", .parse = parse_cpus,
	  .programs = PROGRAM_KERNEL | PROGRAM_LINUX,
	  .value = "N",
	  .what = "how many CPUs take part, the first included, 1 to "
		  STR(RUN_CPUS_MAX) ": suite=scrub's largest count (the "
		  "kernel starts no more)",
	  .dflt_is = "all" },	/* each host */
	{ .key = "scrub", .parse = parse_scrub,
	  .programs = PROGRAM_KERNEL | PROGRAM_LINUX,
	  .value = "SIZE",
	  .what = "suite=scrub's region: whole 4 KiB pages from 1M to 1T, "
		  "with a K, M, G or T suffix",
	  .dflt_is = "the MEM pass's size, twice the last cache level" },	/* plan.c */
	{ .key = "sizes", .parse = parse_sizes,
	  .programs = PROGRAM_KERNEL | PROGRAM_LINUX | PROGRAM_MODULE,
	  .value = "N,...",
	  .what = "suite=strings: the sizes in bytes, 0 to "
		  STR(STRINGS_SIZE_LIMIT) ", at most " STR(STRINGS_SIZES_MAX),
	  /* Small sizes, and each power of two to 4096 with most of its neighbours. */
	  .dflt = "0,1,2,3,4,7,8,15,16,31,32,63,64,127,128,255,256,511,512,"
		  "1023,1024,2048,4095,4096",
	  .dflt_applies = sizes_default_applies },
	{ .key = "tsc", .parse = parse_tsc, .programs = PROGRAM_KERNEL,
	  .names = tsc_names,
	  .what = "where the TSC rate comes from; a source that is absent "
		  "prints a note: and the run falls back to auto",
	  .dflt = "auto" },
	{ .key = "cycles", .parse = parse_cycles,
	  .programs = PROGRAM_KERNEL | PROGRAM_LINUX | PROGRAM_MODULE,
	  .names = cycles_names,
	  .what = "read core cycles beside the TSC around each timed call "
		  "(APERF/MPERF in the kernel, perf cycles in pagebench-linux) "
		  "and print each variant's effective frequency per pass; off "
		  "where reading them costs too much (an RDMSR that exits to a "
		  "hypervisor)",
	  .dflt = "on" },
	{ .key = "cpu", .parse = parse_cpu,
	  .programs = PROGRAM_LINUX | PROGRAM_MODULE,
	  .value = "N",
	  .what = "the CPU to pin to (the module: to run on), 0 to " STR(CPU_NUMBER_MAX),
	  .dflt_is = "the last CPU this process may run on" },	/* each host */
	{ .key = "watchdog", .parse = parse_watchdog, .programs = PROGRAM_KERNEL,
	  .value = "S",
	  .what = "seconds one step may take before its CPU counts as hung, "
		  "1 to " STR(WATCHDOG_S_MAX) "; another CPU then stops the "
		  "run, a failure",
	  .dflt = "120" },	/* docs/method.md */
	{ .key = "stall_limit_ms", .parse = parse_stall_limit,
	  .programs = PROGRAM_MODULE,
	  .value = "MS",
	  .what = "the longest the run may keep its CPU from the rest of the "
		  "kernel, between two of its reschedule points, 1 to "
		  STR(STALL_LIMIT_MS_MAX) "; a run that took longer says so "
		  "in a linux-module stall line, a failure",
	  /*
	   * A tenth of the shortest soft lockup threshold Linux allows
	   * (watchdog_thresh=1: 2 s) and a fifth of a 100 Hz kernel's tick;
	   * the module offers to reschedule every PBK_YIELD_MS.
	   */
	  .dflt = "20" },
};

const unsigned int option_def_count = ARRAY_SIZE(option_defs);
/* struct options' defaulted has a bit per option. */
_Static_assert(ARRAY_SIZE(option_defs) <= 64, "more options than defaulted's bits");
