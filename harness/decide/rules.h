/* SPDX-License-Identifier: MIT */
/*
 * What Linux and Xen select on this CPU: the rows of rules/synthetic.rules
 * and rules/selection.rules (scripts/rules2c turns them into
 * build/gen/rules.c at build time), evaluated on the CPU's facts (the one
 * evaluator: the report reads the answer lines). The grammar and
 * the evaluation are docs/report.md's, "Selection rules": a condition is
 * true, false or unknown (it needs a fact this run lacks, named), the first
 * row that holds decides (read three-valued: known where every way through
 * the rows that may hold gives one outcome), every era of versions in which
 * the rules differ gets its own pick, and adjacent eras that pick alike are
 * merged.
 */
#ifndef PB_RULES_H
#define PB_RULES_H

#include <stdbool.h>
#include <stdint.h>
#include "cpu/cpu.h"

enum rule_kernel { RULE_LINUX, RULE_XEN, RULE_KERNELS };

/* A dotted version, "4.21.1"; n == 0 is no bound. */
#define RULE_VERSION_PARTS 4
struct rule_version {
	uint8_t n;
	uint16_t part[RULE_VERSION_PARTS];
};

enum rule_op { OP_TRUTH, OP_EQ, OP_NE, OP_GE, OP_LE, OP_LT, OP_GT };

/* NAME, !NAME or NAME OP VALUE; upper-case names are kernel flags. */
struct rule_atom {
	const char *name;
	enum rule_op op;
	bool negated;
	const char *word;	/* the value when it is a word, else NULL */
	int64_t number;
};

struct flag_rule {
	enum rule_kernel kernel;
	struct rule_version lo, hi;
	const char *flag;
	const struct rule_atom *atom;
	unsigned int natoms;
	int value;
	const char *where;	/* "rules/synthetic.rules:22" */
};

struct pick_rule {
	enum rule_kernel kernel;
	struct rule_version lo, hi;
	const char *versions;	/* the row's own text: ">=6.1 <7.0" */
	const char *entry;	/* the kernel's function: "clear_page_cold" */
	const char *measured;	/* the verdict function: "clear_page" */
	const struct rule_atom *atom;
	unsigned int natoms;
	const char *condition;	/* the row's own text: "ERMS", "*" */
	const char *routine;
	const char *variant;	/* NULL when no pagebench variant runs it */
	const char *needs_variant; /* then the one to add */
	const char *where;
};

/* build/gen/rules.c */
extern const struct flag_rule flag_rules[];
extern const unsigned int flag_rule_count;
extern const struct pick_rule pick_rules[];
extern const unsigned int pick_rule_count;
/* Per kernel, every version where one of its rules starts or stops, in order. */
extern const struct rule_version *const rule_bounds[RULE_KERNELS];
extern const unsigned int rule_bound_count[RULE_KERNELS];

const char *rule_kernel_name(enum rule_kernel k);	/* "linux", "xen" */

/* A fact the CPU description has not, such as MSR bits user space cannot read. */
#define FACT_UNKNOWN (-1)

/* What the rules read: the cpu and features lines, and fast_string. */
struct rule_facts {
	const struct cpu_desc *cpu;
	char vendor[13];	/* the cpu line's vendor token */
	int fast_string;	/* IA32_MISC_ENABLE bit 0: 1, 0 or FACT_UNKNOWN */
	/*
	 * What a log from elsewhere does not say (pagebench-decide): the
	 * CPU's identity (vendor, family, model, stepping), and the feature
	 * bits outside feats_known. rule_facts_init() knows them all.
	 */
	bool cpu_known;
	uint64_t feats_known;
};

void rule_facts_init(struct rule_facts *f, const struct cpu_desc *d,
		     int fast_string);

/* The facts a condition needs and this run lacks, sorted, no repeats. */
#define RULE_NEEDS_MAX	4
#define RULE_NEED_LEN	48
struct rule_needs {
	unsigned int n;
	char name[RULE_NEEDS_MAX][RULE_NEED_LEN];
};

/* What one era of a kernel selects for one entry point. */
#define RULE_ALTS_MAX	2
struct rule_pick {
	enum rule_kernel kernel;
	const char *entry;
	const struct pick_rule *rule;	/* NULL: unknown */
	struct rule_needs unknown;	/* what it needs, when rule is NULL */
	/* With an MSR bit among the unknown: the pick for each value that settles it. */
	unsigned int nalts;
	struct rule_alt {
		char assuming[RULE_NEED_LEN];	/* "fast_string=1" */
		const struct pick_rule *rule;
	} alt[RULE_ALTS_MAX];
	struct rule_version lo, hi;
	char version[64];		/* ">=6.1 <6.15", "4.15-4.20", "*", "running 6.18.44" */
};

/*
 * The picks of kernel k for entry in every era where the entry has rules,
 * in version order; returns how many (at most max).
 */
unsigned int rule_picks(enum rule_kernel k, const char *entry,
			const struct rule_facts *f, struct rule_pick *out,
			unsigned int max);

/* The variant that measures a pick (NULL: unknown, or none runs it). */
const char *rule_pick_variant(const struct rule_pick *p);

/*
 * The running kernel's own view of the CPU, where its host can read it
 * (pagebench-linux: uname -r and /proc/cpuinfo's flags): its release, and
 * the value of every flag the rules of rules/synthetic.rules name for
 * that kernel, as it shows them; those values stand in for the rules'
 * evaluation of the flags, the rest of the rules apply to its version.
 */
#define RULE_RUNNING_FLAGS	8
struct rule_running {
	enum rule_kernel kernel;
	char release[48];		/* as uname -r gives it */
	struct rule_version version;	/* its leading numbers: 6.18.44 */
	unsigned int nflags;
	struct rule_flag_value {
		const char *flag;	/* "REP_GOOD" */
		int value;
	} flag[RULE_RUNNING_FLAGS];
	/* Flags the rules name that this source never shows (rule_flag_not_shown()). */
	unsigned int nnot_shown;
	const char *not_shown[RULE_RUNNING_FLAGS];
};

/*
 * A running Linux from its release and the words of a /proc/cpuinfo
 * "flags" line (its flags in lower case: "rep_good", "erms"; a flag not
 * there is clear, but for those Linux never shows, which stay the
 * rules'); shows_all: the flags come from a source that knows them all
 * (the module's boot_cpu_has()), none left to the rules. False where the
 * release starts with no version.
 */
bool rule_flag_not_shown(const char *flag);
bool rule_running_linux(struct rule_running *r, const char *release,
			const char *flags, bool shows_all);

/*
 * The running kernel's pick for entry: rule_picks()'s for its version,
 * with its flags; its version text "running RELEASE". False where no row
 * of the kernel covers that version.
 */
bool rule_pick_running(const struct rule_running *r, const char *entry,
		       const struct rule_facts *f, struct rule_pick *out);

/* Entry points of kernel k that the verdict function measures, in table order. */
#define RULE_ENTRIES_MAX 8
unsigned int rule_entries(enum rule_kernel k, const char *measured,
			  const char **out, unsigned int max);

#endif
