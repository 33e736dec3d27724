// SPDX-License-Identifier: MIT
/*
 * pagebench-cpuid: what would pagebench say on the machine a CPUID dump was
 * taken on? It prints the kernel's description and variant lines, made by
 * the kernel's own code, from the recorded registers.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "tools/cpuid_dump.h"
#include "cpu/cpu.h"
#include "cpu/describe.h"
#include "harness/options.h"
#include "lib/out.h"
#include "harness/plan.h"
#include "lib/run.h"
#include "lib/status.h"

#ifndef PB_VERSION
#error "build with -DPB_VERSION=\"...\" (the Makefile passes git describe)"
#endif

static void help_line(const char *line)
{
	puts(line);
}

static void usage(void)
{
	fputs("Usage: pagebench-cpuid [OPTION=VALUE...] DUMP\n"
	      "       pagebench-cpuid --help | --version\n"
	      "Print the lines pagebench would print about the CPU recorded in\n"
	      "DUMP, before it starts measuring: the Xen header, cpu, cache,\n"
	      "features, ..., and which variants run or are skipped.\n"
	      "\n"
	      "DUMP is an InstLatx64/AIDA64 CPUID dump or the output of\n"
	      "'cpuid -r -1'; '-' reads standard input. Only the first logical\n"
	      "CPU of a dump is used.\n"
	      "OPTION=VALUE words are the kernel's command-line options, e.g.\n"
	      "tag=XEN suite=xen variants=avx,stosb:\n"
	      "\n", stdout);
	options_help(PROGRAM_KERNEL, help_line);
	fputs("\n"
	      "Exit status:\n"
	      "  0  done\n"
	      "  2  usage or option error, or DUMP is not a readable CPUID dump\n"
	      "     (the error is on standard error)\n"
	      "  1 is not used: nothing is measured, so nothing can fail.\n",
	      stdout);
}

static void usage_error(const char *fmt, const char *arg)
{
	fputs("pagebench-cpuid: ", stderr);
	fprintf(stderr, fmt, arg);
	fputs("\nTry 'pagebench-cpuid --help'.\n", stderr);
}

static void stdout_sink(const char *s, size_t len)
{
	fwrite(s, 1, len, stdout);
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

	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];

		if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
			usage();
			return STATUS_DONE;
		}
		if (!strcmp(a, "--version")) {
			printf("pagebench-cpuid %s\n", PB_VERSION);
			return STATUS_DONE;
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

	out_set_tag(o.tag);
	out_add_sink(stdout_sink);
	describe_cpu(&d, PB_VERSION, NULL);
	print_option_errors(&o);
	/* A dump holds no memory map: the plan is the one of a roomy machine. */
	plan_build(&plan, &o, &d, UINT64_MAX);
	plan_print(&plan);

	cpuid_dump_free(&dump);
	fflush(stdout);
	return o.nerrors ? STATUS_USAGE : STATUS_DONE;
}
