/* SPDX-License-Identifier: MIT */
/*
 * pagebench-decide --compare (tools/pagebench-decide.c): the statistics
 * pagebench-report shows, made by the engine's own arithmetic
 * (harness/stats/interval.h), so that the report computes none: each figure's
 * median and 95% interval over its epochs (interval_of_epochs), and one
 * figure's time over another's, epoch by epoch, with its interval
 * (interval_of_ratio: the arithmetic of the ratio lines and the answer).
 *
 * Input, a line each, words key=value:
 *   machine NAME     optional: echoed, and forgets the series read so far
 *   pass KEY         starts a set of series (KEY: the rest of the line,
 *                    echoed; the figures' "pass op=clear pass=l1 bytes=N"
 *                    reads as one)
 *   series variant=NAME quantum=N med=N,N,...
 *                    one figure of the set, as the figures' form has it:
 *                    each epoch's median and the timer's step over the
 *                    calls of a sample, hundredths of a tick (any other
 *                    unit works alike, the same for all); of an even
 *                    count of epochs the first is left out, as the
 *                    answer leaves it (interval_odd_epochs()); NAME: 1 to
 *                    63 characters, once in the set; other words are
 *                    read as the figures' form reads them: not at all
 *   compare num=NAME den=NAME
 *                    after both series: num's time over den's
 *   end              optional: ends the machine
 * Output, a line for each series and compare line, in input order, after
 * the machine and pass lines echoed:
 *   interval variant=NAME epochs=E median=N lo=N hi=N
 *                    hundredths, as the input; lo=? hi=? with fewer than 3
 *                    epochs (no interval)
 *   ratio num=NAME den=NAME epochs=E median=R lo=R hi=R
 *                    R: a ratio, six decimals (below 1: num is faster),
 *                    over the epochs both have, the first ones; lo=? hi=?
 *                    without an interval
 *   ratio num=NAME den=NAME none
 *                    no ratio: no epoch in common, or a zero median
 *
 * Every number is whole, a figure 0 to figure_max, a series at most
 * INTERVAL_EPOCHS_MAX epochs: one outside refuses the input with its
 * line, never cut to fit.
 */
#ifndef PB_DECIDE_COMPARE_H
#define PB_DECIDE_COMPARE_H

#include <stdint.h>
#include <stdio.h>

/* Reads in, prints the lines above; errors go through fail(what, word), which does not return. */
void decide_compare(FILE *in, uint64_t figure_max,
		    void (*fail)(const char *what, const char *word), unsigned long *lineno);

#endif
