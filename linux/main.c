// SPDX-License-Identifier: MIT
/*
 * pagebench-linux: the kernel's benchmark in Linux user space, for machines
 * that cannot boot the image. The run, in the order the data flows:
 * options, pinning, CPU description, the plan, the buffers, the suites,
 * the summary and the exit status. The lines are the kernel's, plus
 * "linux ..." lines saying how this run differs.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "cpu/describe.h"
#include "cpu/insn.h"
#include "lib/out.h"
#include "lib/run.h"
#include "lib/status.h"
#include "cpu/live.h"
#include "harness/answer_matrix.h"
#include "harness/progress.h"
#include "harness/summary.h"
#include "harness/vector_price.h"
#include "linux/linux.h"

#ifndef PB_VERSION
#error "build with -DPB_VERSION=\"...\" (the Makefile passes git describe)"
#endif

/*
 * The first error of a write to standard output: stdio keeps only that
 * one happened (ferror), and a help longer than its buffer fails in the
 * middle, long before stdout_close() asks.
 */
static int stdout_errno;

static void stdout_check(void)
{
	if (!stdout_errno && ferror(stdout))
		stdout_errno = errno ? errno : EIO;
}

static void help_line(const char *line)
{
	puts(line);
	stdout_check();
}

static void usage(void)
{
	fputs("Usage: pagebench-linux [OPTION=VALUE]...\n"
	      "       pagebench-linux --help | --version\n"
	      "Run pagebench's suites in user space, pinned to one CPU (every CPU\n"
	      "for suite=scrub), and print the kernel's log lines: on standard\n"
	      "output into a pipe or a file; from a terminal into a new log file\n"
	      "(log=), the terminal ending with the answer and the log's path.\n"
	      "OPTION=VALUE words are read as the kernel reads its command line;\n"
	      "these are the ones that apply here:\n"
	      "\n", stdout);
	stdout_check();
	options_help(PROGRAM_LINUX, help_line);
	fputs("\n"
	      "Exit status:\n"
	      "  0  done, no failures\n"
	      "  1  the run found failures (a verification failure, a fault)\n"
	      "  2  usage or option error: nothing was measured (the error is\n"
	      "     also on standard error)\n"
	      "  3  this machine cannot do what was asked: nothing of it can be\n"
	      "     measured (no memory for it, no CPU feature for any selected\n"
	      "     variant), the buffers cannot be mapped, or the log cannot be\n"
	      "     written (an existing log= file, a full disk, >/dev/full);\n"
	      "     standard error says which\n"
	      "  130, 143  interrupted by SIGINT (Ctrl-C) or SIGTERM: the run stops\n"
	      "     at its next safe point (between epochs, reps, variants: well\n"
	      "     under a second) and the log ends with \"done: interrupted by\n"
	      "     SIGINT at N% of the run, ...\", the progress it had come to; a\n"
	      "     second one ends the program at once. Ignored by whoever started\n"
	      "     it (nohup), they stay ignored\n"
	      "A closed pipe (the reader gone, as with | head) stops the run\n"
	      "quietly with status 0.\n", stdout);
	stdout_check();
}

/* --help and --version: everything written reached standard output. */
static int stdout_close(int status)
{
	errno = 0;
	if (fflush(stdout) || ferror(stdout) || fclose(stdout)) {
		int err = stdout_errno ? stdout_errno : errno ? errno : EIO;

		if (err == EPIPE)
			return STATUS_DONE;
		fprintf(stderr, "pagebench-linux: cannot write the log to standard output: %s\n",
			strerror(err));
		return STATUS_CANNOT;
	}
	return status;
}

static void matrix_line(const char *line, void *ctx)
{
	(void)ctx;
	puts(line);
	stdout_check();
}

/*
 * With the log in a file, what the terminal keeps: the answer, the
 * failures if any, and where the log is. The log is safe by now, so a
 * closed pipe or a full disk here only costs this screen, but is said.
 */
static int print_answer(const struct summary *sum, int status)
{
	static const struct matrix_style style = { .width = 100, .height = 38 };

	char done[96];

	/* A run stopped before measuring (status 2, 3) has no answer to speak of. */
	if (!answer_matrix(&sum->answers, &style, matrix_line, NULL) &&
	    (status == STATUS_DONE || status == STATUS_FAILURES))
		puts("answer: none (the answer decides clear_page, clear_pages and copy_page: "
		     "this run measured none of them)");
	else if (run_interrupted_by())
		puts("answer: none (the run was interrupted: a run cut short answers nothing)");
	run_done_text(done, sizeof(done));
	printf("log: %s (%s)\n", linux_log_path(), done);
	stdout_check();
	errno = 0;
	if (fflush(stdout) || ferror(stdout) || stdout_errno) {
		int err = stdout_errno ? stdout_errno : errno ? errno : EIO;

		if (err != EPIPE) {
			fprintf(stderr, "pagebench-linux: cannot write the answer to standard "
				"output: %s; the log is complete in %s\n", strerror(err),
				linux_log_path());
			return STATUS_CANNOT;
		}
	}
	return status;
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

/* The end of the run: the done line, the log closed, the answer, and the status. */
static int finish(int status, const struct summary *sum)
{
	linux_progress_end();
	run_print_done();
	if (status == STATUS_DONE && run_failures())
		status = STATUS_FAILURES;
	linux_log_close();
	if (run_interrupted_by())
		fprintf(stderr, "pagebench-linux: interrupted by %s at %u%% of the run: the log "
			"ends there, with a done: line that says so\n", run_interrupted_by(),
			progress_percent());
	return linux_log_to_file() ? print_answer(sum, status) : status;
}

/* What the run measures, in one call that a signal may end early. */
struct suites_call {
	const struct plan *plan;
	const struct cpu_desc *d;
	const struct buffers *bufs;
	uint64_t tsc_khz;
	struct summary *sum;
};

static void run_suites(void *ctx)
{
	const struct suites_call *c = ctx;

	suite_run(c->plan, c->d, c->bufs, c->tsc_khz, c->sum);
}

/*
 * Option errors go to the log, as the kernel prints them, and to stderr
 * too: with stdout in a file, the user would see nothing and no reason.
 */
static void print_option_errors(const struct options *o, const char *pin_error,
				bool to_log)
{
	unsigned int i;

	if (to_log)
		options_print_errors(o);
	for (i = 0; i < o->nerrors && i < OPT_MAX_ERRORS; i++)
		fprintf(stderr, "pagebench-linux: option error: %s\n", o->errors[i]);
	if (o->nerrors > OPT_MAX_ERRORS)
		fprintf(stderr, "pagebench-linux: option error: %u more not shown\n",
			o->nerrors - OPT_MAX_ERRORS);
	if (pin_error) {
		out_line("option error: %s", pin_error);
		fprintf(stderr, "pagebench-linux: option error: %s\n", pin_error);
		run_fail();
	}
}

/*
 * time= is the whole run's (docs/method.md, "One time budget"): what the
 * run took before the suite, mostly mapping and touching the buffers,
 * comes off the suite's share; the first round runs whatever is left.
 */
static void spend_time_so_far(struct plan *p, uint64_t ticks, uint64_t tsc_khz)
{
	uint64_t ms = tsc_khz ? ticks / tsc_khz : 0;

	if (!p->time_ms || !ms)
		return;
	out_line("note: time=%lums: %lu ms went before the suite (its buffers), which has the rest",
		 (unsigned long)p->time_ms, (unsigned long)ms);
	p->time_ms = ms < p->time_ms ? p->time_ms - ms : 1;
}

int main(int argc, char **argv)
{
	static struct options o;
	static struct cpu_desc d;
	static struct live_facts live;
	static struct plan plan;
	static struct summary sum;
	static struct rule_facts facts;
	struct answer_run run;
	static struct rule_running running;
	bool have_running;
	struct buffers bufs;
	char pin_error[200], nothing[OUT_LINE_MAX];
	uint64_t t_start = rdtsc_ordered(), mem;
	struct suites_call call = { &plan, &d, &bufs, 0, &sum };
	int status = STATUS_DONE;
	char *cmdline;
	bool pinned;
	int i;

	/* With fd 1 closed, the next file opened would get it, and the log. */
	if (fcntl(STDOUT_FILENO, F_GETFD) < 0) {
		fputs("pagebench-linux: standard output is closed: the log would be lost\n",
		      stderr);
		return STATUS_CANNOT;
	}
	signal(SIGPIPE, SIG_IGN);	/* a closed pipe is EPIPE, which linux/log.c handles */
	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
			usage();
			return stdout_close(STATUS_DONE);
		}
		if (!strcmp(argv[i], "--version")) {
			printf("pagebench-linux %s\n", PB_VERSION);
			return stdout_close(STATUS_DONE);
		}
	}
	setvbuf(stdout, NULL, _IOLBF, 0);
	options_init(&o, PROGRAM_LINUX);
	for (i = 1; i < argc; i++)
		options_word(&o, argv[i]);
	options_finish(&o);
	/* A mistyped option leaves no file behind: its errors go to stderr. */
	if (o.nerrors && linux_log_wants_file(&o)) {
		print_option_errors(&o, NULL, false);
		return STATUS_USAGE;
	}
	if (!linux_log_open(&o))
		return STATUS_CANNOT;
	out_set_tag(o.tag);
	out_add_sink(linux_log_sink);
	linux_catch_faults();
	linux_catch_stops();

	/* Pinned first: CPUID and the TSC are read on the CPU that runs the suites. */
	pinned = linux_pin(&o, pin_error, sizeof(pin_error));
	cpu_describe_live(&d);
	cmdline = join_args(argc, argv);
	linux_live_facts(&live, &d, cmdline ? cmdline : "");
	describe_cpu(&d, PB_VERSION, &live);
	linux_print_release();
	have_running = linux_running_kernel(&running);
	linux_print_fast_string_note();
	print_option_errors(&o, pinned ? NULL : pin_error, true);
	/* Unlike the kernel, which cannot be asked again, stop before measuring. */
	if (run_failures())
		return finish(STATUS_USAGE, &sum);

	if (o.selftest == SELFTEST_UD) {
		run_step("selftest=ud: a deliberate invalid opcode");
		asm volatile("ud2");
	}

	rule_facts_init(&facts, &d, live.fast_string);
	run = answer_run_live(&d, &live, &o);
	vector_price_measure(&run.price, &d, false);
	vector_price_print(&run.price, live.tsc_khz);
	mem = linux_mem_available();
	plan_build(&plan, &o, &d, mem / 2, run.not_a_cpu);
	linux_fit_scrub(&plan);
	plan_print(&plan);
	/*
	 * A run that can measure none of what was asked must not look like
	 * one that did: the skipped lines say why, stderr says so once, and
	 * the status is not 0.
	 */
	if (plan_measures_nothing(&plan, nothing, sizeof(nothing))) {
		fprintf(stderr, "pagebench-linux: nothing to measure: %s%s\n", nothing,
			mem ? "" : " (/proc/meminfo gives no MemAvailable, so no memory is free)");
		status = STATUS_CANNOT;
	} else if (linux_buffers(&bufs, &plan)) {
		spend_time_so_far(&plan, rdtsc_ordered() - t_start, live.tsc_khz);
		linux_sched_fifo();
		out_line("linux wbinvd=no ibpb=no interrupts=on");
		answers_begin(&sum.answers, &facts, have_running ? &running : NULL, &run);
		call.tsc_khz = live.tsc_khz;
		if (!linux_run_stoppable(run_suites, &call)) {
			int sig = linux_stop_signal();
			const char *name = sig == SIGINT ? "SIGINT" : "SIGTERM";

			out_line("stopped: interrupted by %s, during: %s", name, run_step_now());
			run_set_interrupted(name, progress_percent());
			sum.answers.on = false;	/* a run cut short answers nothing, as the module's */
			status = STATUS_INTERRUPTED + sig;
		}
	} else {
		fputs("pagebench-linux: cannot map the buffers of this plan (see the note: line)\n",
		      stderr);
		status = STATUS_CANNOT;
	}
	answers_print(&sum.answers);

	run_print_runtime(rdtsc_ordered() - t_start, live.tsc_khz);
	free(cmdline);
	return finish(status, &sum);
}
