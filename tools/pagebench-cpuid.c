// SPDX-License-Identifier: MIT
/*
 * pagebench-cpuid: what would pagebench say on the machine a CPUID dump was
 * taken on? It prints the kernel's description and variant lines, made by
 * the kernel's own code, from the recorded registers.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "tools/cpuid_dump.h"
#include "cpu/cpu.h"
#include "cpu/describe.h"
#include "harness/options/options.h"
#include "lib/out.h"
#include "harness/measure/plan.h"
#include "lib/run.h"
#include "lib/status.h"

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
	fputs("Usage: pagebench-cpuid [--partial] [OPTION=VALUE...] DUMP\n"
	      "       pagebench-cpuid --help | --version\n"
	      "Print the lines pagebench would print about the CPU recorded in\n"
	      "DUMP, before it starts measuring: the Xen header, cpu, cache,\n"
	      "features, ..., and which variants run or are skipped.\n"
	      "\n"
	      "DUMP is an InstLatx64/AIDA64 CPUID dump or the output of\n"
	      "'cpuid -r -1'; '-' reads standard input. Only the first logical\n"
	      "CPU of a dump is used. A dump that lacks leaves its own leaf 0 and\n"
	      "0x80000000 say the CPU has is refused, naming them; --partial\n"
	      "describes it anyway, with those leaves as zero.\n"
	      "OPTION=VALUE words are the kernel's command-line options, e.g.\n"
	      "tag=XEN suite=xen variants=avx,stosb:\n"
	      "\n", stdout);
	stdout_check();
	options_help(PROGRAM_KERNEL, help_line);
	fputs("\n"
	      "Exit status:\n"
	      "  0  done\n"
	      "  2  usage or option error, or DUMP is not a readable, complete\n"
	      "     CPUID dump (the error is on standard error)\n"
	      "  3  the lines cannot be written to standard output (a full\n"
	      "     disk, >/dev/full)\n"
	      "  1 is not used: nothing is measured, so nothing can fail.\n"
	      "A closed pipe (the reader gone, as with | head) stops it quietly\n"
	      "with status 0.\n",
	      stdout);
	stdout_check();
}

static void usage_error(const char *fmt, const char *arg)
{
	fputs("pagebench-cpuid: ", stderr);
	fprintf(stderr, fmt, arg);
	fputs("\nTry 'pagebench-cpuid --help'.\n", stderr);
}

static void stdout_sink(const char *s, size_t len)
{
	fwrite(s, 1, len, stdout);	/* an error stays until the end */
	stdout_check();
}

/*
 * What was printed reached the file, the final flush and close included;
 * a reader that went away (EPIPE) took what it wanted: quietly, status 0
 * (lib/status.h).
 */
static int stdout_close(int status)
{
	errno = 0;
	if (fflush(stdout) || ferror(stdout) || fclose(stdout)) {
		int err = stdout_errno ? stdout_errno : errno ? errno : EIO;

		if (err == EPIPE)
			return STATUS_DONE;
		fprintf(stderr, "pagebench-cpuid: cannot write to standard output: %s\n",
			strerror(err));
		return STATUS_CANNOT;
	}
	return status;
}

/*
 * A dump cut short (head -3 of a real one) would describe a CPU with no
 * cache and no AVX: the leaves the description read that the dump's own
 * leaf 0 and 0x80000000 promise, and no line gives, are named. With
 * --partial the CPU is described with them as zero; else it is not.
 */
static bool missing_leaves(const struct cpuid_dump *dump, const char *path,
			   bool partial)
{
	unsigned int i;

	fprintf(stderr, "pagebench-cpuid: %s: leaves missing from the dump:",
		strcmp(path, "-") ? path : "<stdin>");
	for (i = 0; i < dump->nmissing; i++)
		fprintf(stderr, " 0x%x", dump->missing[i]);
	if (partial)
		fputs(" (its leaf 0 and 0x80000000 say the CPU has them); "
		      "described as zero (--partial)\n", stderr);
	else
		fputs(" (its leaf 0 and 0x80000000 say the CPU has them); "
		      "not described: give --partial to describe it with them as zero\n",
		      stderr);
	return partial;
}

/* On stderr too: the log on stdout may be going to a file. */
static void print_option_errors(const struct options *o)
{
	unsigned int i;

	options_print_errors(o);
	for (i = 0; i < o->nerrors && i < OPT_MAX_ERRORS; i++)
		fprintf(stderr, "pagebench-cpuid: option error: %s\n", o->errors[i]);
	if (o->nerrors > OPT_MAX_ERRORS)
		fprintf(stderr, "pagebench-cpuid: option error: %u more not shown\n",
			o->nerrors - OPT_MAX_ERRORS);
}

int main(int argc, char **argv)
{
	const char *path = NULL;
	struct cpuid_source src;
	struct cpuid_dump dump;
	struct cpu_desc d;
	struct options o;
	struct plan plan;
	bool partial = false;
	int status;

	/* With fd 1 closed, the dump opened next would take its place. */
	if (fcntl(STDOUT_FILENO, F_GETFD) < 0) {
		fputs("pagebench-cpuid: standard output is closed: its lines would be lost\n",
		      stderr);
		return STATUS_CANNOT;
	}
	signal(SIGPIPE, SIG_IGN);	/* a closed pipe is EPIPE: stdout_close() */
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];

		if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
			usage();
			return stdout_close(STATUS_DONE);
		}
		if (!strcmp(a, "--version")) {
			printf("pagebench-cpuid %s\n", PB_VERSION);
			stdout_check();
			return stdout_close(STATUS_DONE);
		}
		if (!strcmp(a, "--partial")) {
			partial = true;
			continue;
		}
		if (strchr(a, '='))
			continue;
		if ((a[0] == '-' && a[1] != '\0') || path) {
			usage_error("unexpected argument '%s'", a);
			return STATUS_USAGE;
		}
		path = a;
	}
	if (!path) {
		usage_error("no DUMP given%s", "");
		return STATUS_USAGE;
	}

	if (cpuid_dump_load(&dump, path, stderr) < 0)
		return STATUS_USAGE;
	cpuid_dump_source(&src, &dump);

	/* The kernel's parser, one word at a time as the kernel splits them. */
	options_init(&o, PROGRAM_KERNEL);
	for (int i = 1; i < argc; i++)
		if (strchr(argv[i], '='))
			options_word(&o, argv[i]);
	options_finish(&o);
	/* The kernel enables exactly this XCR0 before it decodes (none with disable=xsave). */
	cpu_decode(&d, &src, (o.disable >> FEAT_XSAVE) & 1 ? 0 : cpu_xcr0_wanted(&src));
	if (dump.nmissing && !missing_leaves(&dump, path, partial)) {
		cpuid_dump_free(&dump);
		return STATUS_USAGE;
	}

	out_set_tag(o.tag);
	out_add_sink(stdout_sink);
	describe_cpu(&d, PB_VERSION, NULL);
	print_option_errors(&o);
	/* A dump holds no memory map: the plan is the one of a roomy machine. */
	plan_build(&plan, &o, &d, UINT64_MAX, false);
	plan_print(&plan);

	cpuid_dump_free(&dump);
	status = o.nerrors ? STATUS_USAGE : STATUS_DONE;
	return stdout_close(status);
}
