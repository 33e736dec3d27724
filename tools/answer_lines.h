/* SPDX-License-Identifier: MIT */
/*
 * A log's own answer and bottom lines (docs/log-format.md, "The answer",
 * "The bottom line") read back into the engine's records
 * (harness/decide/answers.h), so that pagebench-decide draws what the run said
 * and never decides it again, and combines runs from what each said
 * (harness/decide/combine.h). Each line is the text after its tag; every field
 * is checked against the grammar's shape and its range, and a value that
 * does not fit its record is refused, never cut.
 */
#ifndef PB_ANSWER_LINES_H
#define PB_ANSWER_LINES_H

#include <stdbool.h>
#include "harness/decide/answers.h"
#include "harness/decide/bottom.h"

/*
 * One bottom line and its bottom_pass and bottom_sets lines: the
 * function (any the grammar names), its kernel pick, and the bottom line,
 * whose candidate ids index the function's table (lines_table_of()).
 */
struct lines_bottom {
	const char *fn;
	struct answer_pick pick;
	struct bottom b;
	unsigned int worth_bp;
	unsigned int cells;		/* bottom_pass lines read */
	bool sets;			/* its bottom_sets line was read */
};

/* The table a function's candidates are named in. */
enum lines_table { TABLE_PAGES, TABLE_MEMSET, TABLE_MEMCPY };
enum lines_table lines_table_of(const char *fn);
/* A candidate's name by its id in t; "?" beyond it. */
const char *lines_name(enum lines_table t, unsigned int id);
/* Its place in the order of preference (harness/decide/prefer.h). */
unsigned int lines_rank(enum lines_table t, unsigned int id);

/*
 * Forgets the names read so far: the pointers handed out before stay
 * valid only until then (a machine's end, a --combine run's end).
 */
void lines_forget(void);

/*
 * The reading of one machine's lines into a (answers_begin() not
 * called: the picks are the lines'). lines_begin() empties a;
 * lines_line() reads one line, "answer ...", "bottom ...",
 * "bottom_pass ..." or "bottom_sets ...", and returns NULL, or what is
 * wrong with it (the caller names the line); lines_end() checks that the
 * last bottom line is whole and marks a's bottom lines made
 * (answers_end() then keeps them). line is changed in place.
 */
void lines_begin(struct answers *a);
const char *lines_line(struct answers *a, char *line);
const char *lines_end(struct answers *a);

/*
 * A bottom, bottom_pass or bottom_sets line into cur (a bottom line
 * starts it anew; the others must follow theirs): NULL, or what is
 * wrong. lines_bottom_whole(): NULL where cur has every line it needs.
 */
const char *lines_bottom_line(struct lines_bottom *cur, bool *started, char *line);
const char *lines_bottom_whole(const struct lines_bottom *cur);

#endif
