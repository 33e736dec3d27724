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

#ifndef PB_VERSION
#error "build with -DPB_VERSION=\"...\" (the Makefile passes git describe)"
#endif

#define EXIT_OPTIONS 1
#define EXIT_DUMP 2

static void usage(FILE *f)
{
	fputs("Usage: pagebench-cpuid [OPTION=VALUE...] DUMP\n"
	      "Print the lines pagebench would print about the CPU recorded in\n"
	      "DUMP, before it starts measuring: the Xen header, cpu, cache,\n"
	      "features, ..., and which variants run or are skipped.\n"
	      "\n"
	      "DUMP is an InstLatx64/AIDA64 CPUID dump or the output of\n"
	      "'cpuid -r -1'; '-' reads standard input. Only the first logical\n"
	      "CPU of a dump is used.\n"
	      "OPTION=VALUE words are kernel command-line options, e.g.\n"
	      "tag=XEN suite=xen variants=avx,stosb.\n"
	      "\n"
	      "Exit status: 0 done, 1 option error, 2 bad dump or usage.\n",
	      f);
}

static void stdout_sink(const char *s, size_t len)
{
	fwrite(s, 1, len, stdout);
}

/* The words joined by spaces: the command line the kernel would get. */
static char *join_options(int argc, char **argv)
{
	size_t len = 1;
	char *cmdline;

	for (int i = 1; i < argc; i++)
		if (strchr(argv[i], '='))
			len += strlen(argv[i]) + 1;
	cmdline = calloc(1, len);
	if (!cmdline)
		return NULL;
	for (int i = 1; i < argc; i++) {
		if (!strchr(argv[i], '='))
			continue;
		if (cmdline[0])
			strcat(cmdline, " ");
		strcat(cmdline, argv[i]);
	}
	return cmdline;
}

int main(int argc, char **argv)
{
	const char *path = NULL;
	struct cpuid_source src;
	struct cpuid_dump dump;
	struct cpu_desc d;
	struct options o;
	struct plan plan;
	char *cmdline;

	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];

		if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
			usage(stdout);
			return 0;
		}
		if (strchr(a, '='))
			continue;
		if ((a[0] == '-' && a[1] != '\0') || path) {
			fprintf(stderr, "pagebench-cpuid: unexpected argument '%s'\n",
				a);
			usage(stderr);
			return EXIT_DUMP;
		}
		path = a;
	}
	if (!path) {
		fputs("pagebench-cpuid: no DUMP given\n", stderr);
		usage(stderr);
		return EXIT_DUMP;
	}

	if (cpuid_dump_load(&dump, path, stderr) < 0)
		return EXIT_DUMP;
	cpuid_dump_source(&src, &dump);

	cmdline = join_options(argc, argv);
	if (!cmdline) {
		perror("pagebench-cpuid");
		cpuid_dump_free(&dump);
		return EXIT_DUMP;
	}
	options_parse(&o, PROGRAM_KERNEL, cmdline);
	free(cmdline);
	/* The kernel enables exactly this XCR0 before it decodes (none with disable=xsave). */
	cpu_decode(&d, &src, (o.disable >> FEAT_XSAVE) & 1 ? 0 : cpu_xcr0_wanted(&src));

	out_set_tag(o.tag);
	out_add_sink(stdout_sink);
	describe_cpu(&d, PB_VERSION, NULL);
	options_print_errors(&o);
	/* A dump holds no memory map: the plan is the one of a roomy machine. */
	plan_build(&plan, &o, &d, UINT64_MAX);
	plan_print(&plan);

	cpuid_dump_free(&dump);
	fflush(stdout);
	return o.nerrors ? EXIT_OPTIONS : 0;
}
