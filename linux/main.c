// SPDX-License-Identifier: MIT
/*
 * pagebench-linux: the kernel's benchmark in Linux user space, for machines
 * that cannot boot the image: the options, the log and the pinning, then
 * the run (harness/sequence.h) with what user space does its own way, the
 * answer on the terminal and the exit status. The lines are the kernel's, plus
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
#include "harness/render/matrix.h"
#include "harness/measure/progress.h"
#include "harness/sequence.h"
#include "harness/measure/vector_price.h"
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
static int print_answer(const struct answers *answers, int status)
{
	static const struct matrix_style style = { .width = 100, .height = 38 };

	char done[96];

	/* A run stopped before measuring (status 2, 3) has no answer to speak of. */
	if (!answer_matrix(answers, &style, matrix_line, NULL) &&
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
static int finish(int status, const struct answers *answers)
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
	return linux_log_to_file() ? print_answer(answers, status) : status;
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

/* pagebench-linux's part of the run (harness/sequence.h). */
struct linux_run {
	struct options *o;
	const char *cmdline;
	const char *pin_error;		/* NULL: pinned */
	uint64_t t_start;
	uint64_t mem;			/* MemAvailable, bytes; 0: none */
	int sig;			/* the signal that stopped the suites */
};

/* Pinned first (main()): CPUID and the TSC are read on the CPU that runs the suites. */
static void linux_live(void *ctx, struct run_state *r)
{
	struct linux_run *l = ctx;

	cpu_describe_live(&r->d);
	linux_live_facts(&r->live, &r->d, l->cmdline);
}

static bool linux_described(void *ctx, struct run_state *r)
{
	struct linux_run *l = ctx;

	linux_print_release();
	r->has_running = linux_running_kernel(&r->running);
	linux_print_fast_string_note();
	print_option_errors(l->o, l->pin_error, true);
	/* Unlike the kernel, which cannot be asked again, stop before measuring. */
	if (run_failures())
		return false;

	if (l->o->selftest == SELFTEST_UD) {
		run_step("selftest=ud: a deliberate invalid opcode");
		asm volatile("ud2");
	}
	l->mem = linux_mem_available();
	r->mem_bytes = l->mem / 2;
	return true;
}

static void linux_trim_plan(void *ctx, struct plan *p)
{
	(void)ctx;
	linux_fit_scrub(p);
}

static bool linux_take_buffers(void *ctx, struct run_state *r)
{
	(void)ctx;
	return linux_buffers(&r->bufs, &r->plan);
}

static void linux_price(void *ctx, struct run_state *r, struct vector_price *p)
{
	(void)ctx;
	vector_price_measure(p, &r->d, false);
}

static void linux_before_suites(void *ctx, struct run_state *r)
{
	struct linux_run *l = ctx;

	spend_time_so_far(&r->plan, rdtsc_ordered() - l->t_start, r->live.tsc_khz);
	linux_sched_fifo();
	out_line("linux wbinvd=no ibpb=no interrupts=on");
}

/* The suites, which SIGINT or SIGTERM stops at its next safe point. */
static bool linux_stoppable(void *ctx, void (*suites)(void *arg), void *arg)
{
	struct linux_run *l = ctx;
	const char *name;

	if (linux_run_stoppable(suites, arg))
		return true;
	l->sig = linux_stop_signal();
	name = l->sig == SIGINT ? "SIGINT" : "SIGTERM";
	out_line("stopped: interrupted by %s, during: %s", name, run_step_now());
	run_set_interrupted(name, progress_percent());
	return false;
}

static const struct run_host linux_host = {
	.live_facts = linux_live,
	.described = linux_described,
	.trim_plan = linux_trim_plan,
	.buffers = linux_take_buffers,
	.price = linux_price,
	.before_suites = linux_before_suites,
	.stoppable = linux_stoppable,
};

/* The exit status of a run that got as far as r->outcome says, and stderr's why. */
static int run_status(const struct run_state *r, const struct linux_run *l)
{
	switch (r->outcome) {
	case RUN_NOTHING:
		/* The skipped lines say why; stderr says so once, and the status is not 0. */
		fprintf(stderr, "pagebench-linux: nothing to measure: %s%s\n", r->nothing,
			l->mem ? "" : " (/proc/meminfo gives no MemAvailable, so no memory is free)");
		return STATUS_CANNOT;
	case RUN_NO_BUFFERS:
		fputs("pagebench-linux: cannot map the buffers of this plan (see the note: line)\n",
		      stderr);
		return STATUS_CANNOT;
	case RUN_STOPPED:
		return STATUS_INTERRUPTED + l->sig;
	case RUN_NOT_STARTED:
		return STATUS_USAGE;
	case RUN_MEASURED:
	default:
		return STATUS_DONE;
	}
}

int main(int argc, char **argv)
{
	static struct options o;
	static struct run_state r = { .o = &o };
	static struct linux_run l = { .o = &o };
	char pin_error[200];
	char *cmdline;
	int status, i;

	l.t_start = rdtsc_ordered();
	/* With fd 1 closed, the next file opened would get it, and the log. */
	if (fcntl(STDOUT_FILENO, F_GETFD) < 0) {
		fputs("pagebench-linux: standard output is closed: the log would be lost\n",
		      stderr);
		return STATUS_CANNOT;
	}
	signal(SIGPIPE, SIG_IGN);	/* a closed pipe is EPIPE, which linux/log_file.c handles */
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

	l.pin_error = linux_pin(&o, pin_error, sizeof(pin_error)) ? NULL : pin_error;
	cmdline = join_args(argc, argv);
	l.cmdline = cmdline ? cmdline : "";
	run_sequence(&linux_host, &l, &r);
	status = run_status(&r, &l);
	if (r.outcome != RUN_NOT_STARTED)
		run_print_runtime(rdtsc_ordered() - l.t_start, r.live.tsc_khz);
	free(cmdline);
	return finish(status, &r.answers);
}
