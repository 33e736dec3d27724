/* SPDX-License-Identifier: MIT */
/*
 * pagebench-decide --combine (tools/pagebench-decide.c): runs of one CPU
 * combined into one bottom line per kernel pick, and CPU groups into a
 * fleet line per pick of an era, by harness/decide/combine.h.
 *
 * Input, a line each:
 *   group NAME       starts a CPU group (NAME: 1 to 40 of A-Z a-z 0-9 _ . + -)
 *   run NAME         starts one run (one log) of it (NAME to the end of line)
 *   bottom ...       that run's bottom lines, bottom_pass and bottom_sets
 *   bottom_pass ...  lines as the log has them without the tag
 *   bottom_sets ...  (docs/log-format.md, "The bottom line")
 * Output: per group "group NAME", then its combined lines, "(PB) bottom
 * ... runs=N", "(PB) bottom_pass ...", "(PB) bottom_sets ..."; then, where
 * two groups or more answer a pick of an era, "(PB) fleet ..." lines.
 * Every key's runs must weigh against one worth.
 */
#ifndef PB_DECIDE_COMBINE_H
#define PB_DECIDE_COMBINE_H

#include <stdio.h>

/* Reads in, prints the combined lines; errors go through fail(what, word), which does not return. */
void decide_combine(FILE *in, void (*fail)(const char *what, const char *word),
		    unsigned long *lineno);

#endif
