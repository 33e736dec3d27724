/* SPDX-License-Identifier: MIT */
/*
 * The kernel command line: "key=value" words. Parsing is pure (no output),
 * so the host tests and the host tools use it too; errors are kept as
 * messages for the caller to print once the console is up.
 */
#ifndef PB_OPTIONS_H
#define PB_OPTIONS_H

#include <stdbool.h>
#include <stdint.h>

enum exit_mode { EXIT_AUTO, EXIT_QEMU, EXIT_HALT, EXIT_REBOOT };
enum selftest { SELFTEST_NONE, SELFTEST_UD, SELFTEST_MAP };
enum suite { SUITE_ALL, SUITE_XEN, SUITE_CLEAR, SUITE_COPY };

/* Passes, in the order they run. */
enum pass_id {
	PASS_L1, PASS_L1F, PASS_L2, PASS_L2F, PASS_L3, PASS_L3F, PASS_MEM,
	PASS_HOT, PASS_COLD,
	PASS_COUNT
};

#define OPT_MAX_ERRORS 8
#define OPT_ERROR_LEN 400
#define REPS_DEFAULT 10
#define REPS_XEN 3
#define REPS_MAX 1000

struct options {
	char tag[16];
	uint16_t console_port;		/* I/O base of the UART */
	uint32_t baud;
	enum exit_mode exit;
	enum selftest selftest;
	uint64_t disable;		/* bit per enum feat: treat as absent */
	enum suite suite;
	unsigned int reps;		/* 0: the suite's default */
	uint32_t passes;		/* bit per enum pass_id; 0: the suite's default */
	/* variants= as given; when empty, each suite runs all its variants */
	char variants_arg[256];
	uint64_t clear_variants;	/* bit per clear table index */
	uint64_t copy_variants;		/* bit per copy table index */
	unsigned int nerrors;
	char errors[OPT_MAX_ERRORS][OPT_ERROR_LEN];
};

/* Defaults, then every word of cmdline (which may be NULL). */
void options_parse(struct options *o, const char *cmdline);

/* Whether the run includes variant i of a suite's table. */
bool option_runs_clear(const struct options *o, unsigned int i);
bool option_runs_copy(const struct options *o, unsigned int i);

const char *pass_id_name(enum pass_id p);	/* "l1", "l1f", ... */
const char *suite_name(enum suite s);

#endif
