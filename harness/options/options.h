/* SPDX-License-Identifier: MIT */
/*
 * The options: "key=value" words, from the kernel command line or from
 * pagebench-linux's arguments, read by one parser. Parsing is pure (no
 * output); errors are kept as messages for the caller to print once it can.
 * A bad word becomes one error naming the option and its valid choices, and
 * that option keeps its default. The parser is harness/options/parse.c;
 * harness/options/internal.h lists its pieces.
 */
#ifndef PB_OPTIONS_H
#define PB_OPTIONS_H

#include <stdbool.h>
#include <stdint.h>
#include "variants/passes.h"
#include "variants/variants.h"

/* The programs that read options; an option names the ones it is for. */
enum program {
	PROGRAM_KERNEL = 1 << 0,	/* the kernel, and pagebench-cpuid predicting it */
	PROGRAM_LINUX = 1 << 1,	/* pagebench-linux */
	PROGRAM_MODULE = 1 << 2,	/* pagebench.ko, the Linux kernel module */
};

enum exit_mode { EXIT_AUTO, EXIT_QEMU, EXIT_HALT, EXIT_REBOOT };
enum selftest { SELFTEST_NONE, SELFTEST_UD, SELFTEST_MAP,
		/* every CPU at once (kernel/smp/selftest.c) */
		SELFTEST_SMP, SELFTEST_NOSIPI, SELFTEST_HANG, SELFTEST_HANG_AP,
		SELFTEST_UD_AP };
/* tsc=: where the kernel takes the TSC rate from (kernel/time/tsc.c); auto tries in order. */
enum tsc_pick { TSC_PICK_AUTO, TSC_PICK_CPUID, TSC_PICK_AMD, TSC_PICK_HPET,
		TSC_PICK_PMTIMER, TSC_PICK_PIT, TSC_PICK_COUNT };

#define OPT_MAX_ERRORS 8
#define OPT_ERROR_LEN 400
#define OPT_WORD_MAX 256
#define REPS_MAX 1000
#define CPU_DEFAULT (-1)	/* cpu= not given: each host takes its last CPU */
#define CPU_NUMBER_MAX 4095	/* cpu=: the largest CPU number taken */
#define SCRUB_MIN (1ull << 20)	/* scrub=: from 1 MiB */
#define SCRUB_MAX (1ull << 40)	/* to 1 TiB (memory permitting) */
#define WATCHDOG_S_MAX 3600
/* stall_limit_ms=: the module's longest stretch without a reschedule point that is not a failure. */
#define STALL_LIMIT_MS_MAX 10000
/* suite=strings: sizes= takes at most this many sizes, each at most the limit. */
#define STRINGS_SIZES_MAX 32
#define STRINGS_SIZE_LIMIT 4096
/* Each rep's figure goes on its value line, so the line bounds the reps. */
#define STRINGS_REPS_MAX 31
/*
 * precision= (hundredths of a per cent) and budget= (ms per pass): the
 * page suites add epochs until every interval is that precise or the
 * budget is spent (harness/measure/epochs.h).
 */
#define PRECISION_MIN_BP 10
#define PRECISION_MAX_BP 5000
#define BUDGET_MIN_MS 10
#define BUDGET_MAX_MS 3600000
/*
 * worth=: the least saving the answer acts on (harness/decide/answer.h), in
 * hundredths of a per cent, in steps of 0.1%.
 */
#define WORTH_MIN_BP 10
#define WORTH_MAX_BP 5000
/* mix=: the largest weight of a pass. */
#define MIX_WEIGHT_MAX 100
/*
 * time=: the whole run's time budget in the page suites but suite=xen,
 * shared between the passes by need (harness/measure/budget.h); in place of
 * precision= and budget=, which stay for experts.
 */
#define TIME_MIN_MS 1000
#define TIME_MAX_S 86400
/*
 * time='s default where no CPU runs (harness/measure/plan.c): the translator's
 * or the emulator's figures advise nothing (the answer says n/a), so a
 * longer run would only narrow figures nobody acts on; the first round
 * still times and verifies every variant, whatever the time
 * (harness/measure/budget.h).
 */
#define TIME_NOT_A_CPU_MS TIME_MIN_MS
#define TIME_MAX_MS (TIME_MAX_S * 1000ull)

struct options {
	enum program program;
	char tag[16];
	uint16_t console_port;		/* I/O base of the UART */
	uint32_t baud;
	enum exit_mode exit;
	enum selftest selftest;
	uint64_t disable;		/* bit per enum feat: treat as absent */
	uint64_t force;			/* bit per enum feat: treat as present */
	enum suite suite;
	enum tsc_pick tsc;
	/*
	 * Once finished (options_finish()): reps 0 runs epochs until time=
	 * is spent (time_ms), or until precise (precision_bp, budget_ms);
	 * time_over: precision= or budget= was given too, and time= won.
	 */
	unsigned int reps;
	unsigned int precision_bp;
	uint64_t budget_ms;
	uint64_t time_ms;
	bool time_over;
	unsigned int worth_bp;
	/* mix=: each pass's weight in the bottom line's one figure; all 0: none */
	unsigned int mix[PASS_COUNT];
	pass_set passes;
	/* variants= as given; when empty, each suite runs all its variants */
	char variants_arg[OPT_WORD_MAX];
	variant_set variants;		/* resolved once the suite is known */
	variant_set str_variants;	/* the same over string_variants[] */
	/* sizes= for suite=strings, ascending; nsizes 0: the default list */
	uint16_t sizes[STRINGS_SIZES_MAX];
	unsigned int nsizes;
	/* pagebench-linux: where the log goes; "" the default, "-" stdout */
	char log_path[OPT_WORD_MAX];
	int cpu;			/* pagebench-linux, the module: CPU to run on */
	unsigned int cpus;		/* CPUs to use, the first included; 0: all */
	uint64_t scrub_bytes;		/* suite=scrub: the region; 0: the MEM pass's size */
	unsigned int watchdog_s;	/* kernel: seconds one step may take */
	unsigned int stall_limit_ms;	/* module: the longest stretch between reschedule points */
	bool cycles_off;		/* cycles=off: no cycle counters beside the TSC */
	unsigned int nerrors;
	char errors[OPT_MAX_ERRORS][OPT_ERROR_LEN];
	uint64_t defaulted;		/* bit per option of the table: no word gave it */
};

/*
 * Defaults, then every word of cmdline (which may be NULL), then
 * options_finish(). The kernel's loader may put the image's path first: a
 * first word without '=' is skipped there.
 */
void options_parse(struct options *o, enum program program, const char *cmdline);

/*
 * The same, one word at a time, for argument vectors: options_init() sets
 * the defaults that stand alone, options_finish() checks what needs the
 * whole command line and adds the defaults that depend on other options
 * (the suite's reps and passes; time=, or precision= and budget=). Every
 * host calls it once, after the last word.
 */
void options_init(struct options *o, enum program program);
void options_word(struct options *o, const char *word);
void options_finish(struct options *o);

/*
 * Whether key's value is its default, no word having given it (a bad
 * word counts as given): the plan lowers time='s where no CPU runs.
 */
bool option_defaulted(const struct options *o, const char *key);

/*
 * --help's lines on the options of program: for each, "  key=VALUE", then
 * what it does, its valid names and its default, indented and wrapped.
 * put() gets one line at a time, without its newline.
 */
void options_help(enum program program, void (*put)(const char *line));

/* An "option error" line per error of o, each counted as a failure. */
void options_print_errors(const struct options *o);

/* Whether variant i of the table was selected (it may still be skipped). */
bool option_selects(const struct options *o, unsigned int i);
/* The same for string_variants[i] (suite=strings). */
bool option_selects_string(const struct options *o, unsigned int i);

const char *suite_name(enum suite s);
const char *tsc_pick_name(enum tsc_pick p);	/* "auto", "cpuid", ... */

#endif
