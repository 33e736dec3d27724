// SPDX-License-Identifier: MIT
/*
 * harness/decide/rules.c's evaluation on rule tables made up here, in place of
 * build/gen/rules.c (this program defines the tables, so the linker takes
 * no rules of rules/ from the archive): the first row that holds decides,
 * read three-valued. A row that may hold (it needs a fact the run lacks)
 * is one way, the rows after it the other; the outcome is known where
 * every way leads to the same flag value or routine, unknown (with what
 * it needs) where they lead apart. An MSR bit the run could not read
 * (fast_string) is tried both ways, and a value that settles the pick
 * gives it "assuming fast_string=V" even where other facts stay unknown.
 * Prints "ok NAME" or "FAIL NAME: why" (tests/unit/check.h).
 */
#include <stdio.h>
#include <string.h>
#include "cpu/cpu.h"
#include "harness/decide/rules.h"
#include "tests/unit/check.h"

#define NONE { 0 }
#define A(n, op, neg, word, num) { n, op, neg, word, num }

static const struct rule_atom atom[] = {
	/* 0 */ A("erms", OP_TRUTH, true, NULL, 0),
	/* 1 */ A("vendor", OP_EQ, false, "GenuineIntel", 0),
	/* 2 */ A("fast_string", OP_TRUTH, true, NULL, 0),
	/* 3 */ A("vendor", OP_EQ, false, "AuthenticAMD", 0),
	/* 4 */ A("ERMS", OP_TRUTH, false, NULL, 0),
	/* 5 */ A("REP_GOOD", OP_TRUTH, false, NULL, 0),
	/* 6 */ A("SAME", OP_TRUTH, false, NULL, 0),
	/* 7 */ A("APART", OP_TRUTH, false, NULL, 0),
	/* 8 */ A("ONLY_INTEL", OP_TRUTH, false, NULL, 0),
};

#define FLAG(name, first, n, value) \
	{ RULE_LINUX, NONE, NONE, name, &atom[first], n, value, "test" }

const struct flag_rule flag_rules[] = {
	/* Linux's ERMS: cleared where Intel's fast strings are off. */
	FLAG("ERMS", 0, 1, 0),
	FLAG("ERMS", 1, 2, 0),
	FLAG("ERMS", 0, 0, 1),
	FLAG("REP_GOOD", 3, 1, 1),
	FLAG("REP_GOOD", 0, 0, 0),
	/* A row that may hold, then rows of the same value: known. */
	FLAG("SAME", 1, 1, 1),
	FLAG("SAME", 0, 0, 1),
	/* The same with the other value after: unknown. */
	FLAG("APART", 1, 1, 1),
	FLAG("APART", 0, 0, 0),
	/* No row for the other vendors. */
	FLAG("ONLY_INTEL", 1, 1, 1),
};
const unsigned int flag_rule_count = sizeof(flag_rules) / sizeof(flag_rules[0]);

#define PICK(entry, first, n, variant) \
	{ RULE_LINUX, NONE, NONE, "*", entry, entry, &atom[first], n, "test", variant, \
	  variant, NULL, "test" }

const struct pick_rule pick_rules[] = {
	/* Linux's clear_page: ERMS first, whatever REP_GOOD is. */
	PICK("clear", 4, 1, "stosb"),
	PICK("clear", 5, 1, "stosq"),
	PICK("clear", 0, 0, "orig"),
	/* Rows that may hold and rows that hold, alike or apart. */
	PICK("alike", 1, 1, "stosb"),
	PICK("alike", 0, 0, "stosb"),
	PICK("apart", 1, 1, "stosb"),
	PICK("apart", 0, 0, "orig"),
	PICK("flag_same", 6, 1, "stosb"),
	PICK("flag_same", 0, 0, "orig"),
	PICK("flag_apart", 7, 1, "stosb"),
	PICK("flag_apart", 0, 0, "orig"),
	PICK("flag_no_rule", 8, 1, "stosb"),
	PICK("flag_no_rule", 0, 0, "orig"),
	/* No row holds for sure: unknown even where the one that may agrees. */
	PICK("maybe_only", 1, 1, "stosb"),
};
const unsigned int pick_rule_count = sizeof(pick_rules) / sizeof(pick_rules[0]);

const struct rule_version *const rule_bounds[RULE_KERNELS] = { NULL, NULL };
const unsigned int rule_bound_count[RULE_KERNELS] = { 0, 0 };

/* "CELL", or "?(NEEDS|ASSUMING:CELL,...)". */
static void pick_text(char *out, size_t len, const char *entry,
		      const struct rule_facts *f)
{
	struct rule_pick p[4];
	unsigned int n, i;
	size_t at = 0;

	n = rule_picks(RULE_LINUX, entry, f, p, 4);
	if (n != 1) {
		snprintf(out, len, "%u picks", n);
		return;
	}
	if (p[0].rule) {
		snprintf(out, len, "%s", p[0].rule->variant);
		return;
	}
	at += snprintf(out + at, len - at, "?(");
	for (i = 0; i < p[0].unknown.n; i++)
		at += snprintf(out + at, len - at, "%s%s", i ? "," : "", p[0].unknown.name[i]);
	at += snprintf(out + at, len - at, "|");
	for (i = 0; i < p[0].nalts; i++)
		at += snprintf(out + at, len - at, "%s%s:%s", i ? "," : "",
			       p[0].alt[i].assuming, p[0].alt[i].rule->variant);
	snprintf(out + at, len - at, ")");
}

static void expect(const char *name, const char *entry, const struct rule_facts *f,
		   const char *want)
{
	char got[256];

	pick_text(got, sizeof(got), entry, f);
	result(!strcmp(got, want), name, "got \"%s\", want \"%s\"", got, want);
}

/* A log that names no CPU, with erms as given and fast strings unread. */
static struct rule_facts unnamed(struct cpu_desc *d, bool erms, int fast_string)
{
	struct rule_facts f;

	*d = (struct cpu_desc){ .feats = erms ? 1ull << FEAT_ERMS : 0 };
	rule_facts_init(&f, d, fast_string);
	f.cpu_known = false;
	f.feats_known = 1ull << FEAT_ERMS;
	return f;
}

int main(void)
{
	struct cpu_desc d, intel = { .vendor = "GenuineIntel", .family = 6,
				     .model = 0x55, .feats = 1ull << FEAT_ERMS };
	struct rule_facts f;

	/* ERMS=1 decides before REP_GOOD, whatever the vendor, with fast strings on. */
	f = unnamed(&d, true, FACT_UNKNOWN);
	expect("erms.fast_string_unknown", "clear", &f,
	       "?(fast_string,vendor|fast_string=1:stosb)");
	f = unnamed(&d, true, 1);
	expect("erms.fast_strings_on", "clear", &f, "stosb");
	/* Fast strings off: ERMS then hangs on the vendor. */
	f = unnamed(&d, true, 0);
	expect("erms.fast_strings_off", "clear", &f, "?(vendor|)");
	/* No ERMS: REP_GOOD matters and needs the vendor; no MSR bit settles it. */
	f = unnamed(&d, false, FACT_UNKNOWN);
	expect("no_erms", "clear", &f, "?(vendor|)");
	/* Rows alike whatever the vendor: known; apart: unknown. */
	expect("rows.alike", "alike", &f, "stosb");
	expect("rows.apart", "apart", &f, "?(vendor|)");
	expect("flag.alike", "flag_same", &f, "stosb");
	expect("flag.apart", "flag_apart", &f, "?(vendor|)");
	expect("flag.no_rule_elsewhere", "flag_no_rule", &f, "?(vendor|)");
	expect("pick.only_maybe", "maybe_only", &f, "?(vendor|)");
	/* A named CPU: everything known, the unknown-vendor ways never taken. */
	rule_facts_init(&f, &intel, FACT_UNKNOWN);
	expect("intel.fast_string_unknown", "clear", &f,
	       "?(fast_string|fast_string=1:stosb,fast_string=0:orig)");
	rule_facts_init(&f, &intel, 1);
	expect("intel.fast_strings_on", "clear", &f, "stosb");
	expect("intel.apart", "apart", &f, "stosb");
	expect("intel.flag_no_rule", "flag_no_rule", &f, "stosb");
	return check_exit();
}
