/* SPDX-License-Identifier: MIT */
/*
 * The options whose value is one of a table's names (exit=, selftest=,
 * suite=, tsc=, cycles=) or a list of them (disable=, force=, passes=).
 * Each table gives its parser, its error's valid choices and --help's.
 */
#include "harness/options/internal.h"

static const char *const tsc_pick_names[TSC_PICK_COUNT] = {
	[TSC_PICK_AUTO] = "auto", [TSC_PICK_CPUID] = "cpuid",
	[TSC_PICK_AMD] = "amd", [TSC_PICK_HPET] = "hpet",
	[TSC_PICK_PMTIMER] = "pmtimer", [TSC_PICK_PIT] = "pit",
};

static const struct { const char *name; enum exit_mode mode; } exit_modes[] = {
	{ "qemu", EXIT_QEMU }, { "halt", EXIT_HALT }, { "reboot", EXIT_REBOOT },
};

static const struct {
	const char *name;
	enum selftest t;
	unsigned int programs;		/* enum program bits */
} selftests[] = {
	{ "ud", SELFTEST_UD, PROGRAM_KERNEL | PROGRAM_LINUX },
	{ "map", SELFTEST_MAP, PROGRAM_KERNEL },	/* mapping a far framebuffer */
	{ "smp", SELFTEST_SMP, PROGRAM_KERNEL },	/* every CPU at once */
	{ "nosipi", SELFTEST_NOSIPI, PROGRAM_KERNEL },
	{ "hang", SELFTEST_HANG, PROGRAM_KERNEL },	/* the watchdog */
	{ "hang-ap", SELFTEST_HANG_AP, PROGRAM_KERNEL },
	{ "ud-ap", SELFTEST_UD_AP, PROGRAM_KERNEL },	/* an exception on an AP */
};

const char *suite_name(enum suite s)
{
	return s < SUITE_COUNT ? suites[s].name : "?";
}

const char *tsc_pick_name(enum tsc_pick p)
{
	return p < TSC_PICK_COUNT ? tsc_pick_names[p] : "?";
}

const char *suite_names(enum program p, unsigned int i)
{
	(void)p;
	return i < SUITE_COUNT ? suites[i].name : NULL;
}

const char *tsc_names(enum program p, unsigned int i)
{
	(void)p;
	return i < TSC_PICK_COUNT ? tsc_pick_names[i] : NULL;
}

const char *exit_names(enum program p, unsigned int i)
{
	(void)p;
	return i < ARRAY_SIZE(exit_modes) ? exit_modes[i].name : NULL;
}

/* Only the selftests program p has. */
const char *selftest_names(enum program p, unsigned int i)
{
	unsigned int t;

	for (t = 0; t < ARRAY_SIZE(selftests); t++)
		if ((selftests[t].programs & p) && !i--)
			return selftests[t].name;
	return NULL;
}

const char *pass_names(enum program p, unsigned int i)
{
	(void)p;
	if (i < PASS_COUNT)
		return passes[i].id;
	return i == PASS_COUNT ? "all" : NULL;
}

const char *feature_names(enum program p, unsigned int i)
{
	(void)p;
	return FEAT_NONE + 1 + i < FEAT_COUNT ? feat_name(FEAT_NONE + 1 + i) : NULL;
}

/*
 * Which of the names val is, for o's program; else -1 and the error
 * "key=: unknown [what ]'val'; valid: a b c" (what: "", "feature ", ...).
 */
static int name_index(struct options *o, option_names_fn *names,
		      const char *key, const char *what, const char *val)
{
	char valid[OPT_ERROR_LEN - 64];
	const char *name;
	size_t n = 0;
	unsigned int i;

	for (i = 0; (name = names(o->program, i)); i++)
		if (str_eq(val, name))
			return (int)i;
	valid[0] = '\0';
	opt_append_names(valid, sizeof(valid), &n, names, o->program, " ", " ");
	opt_error(o, "%s=: unknown %s'%s'; valid:%s", key, what, val, valid);
	return -1;
}

void parse_exit(struct options *o, char *val)
{
	int i = name_index(o, exit_names, "exit", "", val);

	if (i >= 0)
		o->exit = exit_modes[i].mode;
}

/*
 * Reading cycle counters costs time beside each call (under a hypervisor
 * an RDMSR may exit to it); off, the run has ticks only.
 */
enum { CYCLES_ON, CYCLES_OFF };
static const char *const cycles_modes[] = {
	[CYCLES_ON] = "on", [CYCLES_OFF] = "off",
};

const char *cycles_names(enum program p, unsigned int i)
{
	(void)p;
	return i < ARRAY_SIZE(cycles_modes) ? cycles_modes[i] : NULL;
}

void parse_cycles(struct options *o, char *val)
{
	int i = name_index(o, cycles_names, "cycles", "", val);

	if (i >= 0)
		o->cycles_off = i == CYCLES_OFF;
}

void parse_selftest(struct options *o, char *val)
{
	char valid[128], others[128];
	size_t n = 0, m = 0;
	unsigned int i;

	valid[0] = others[0] = '\0';
	for (i = 0; i < ARRAY_SIZE(selftests); i++) {
		bool ours = selftests[i].programs & o->program;

		if (ours && str_eq(val, selftests[i].name)) {
			o->selftest = selftests[i].t;
			return;
		}
		if (ours)
			opt_append(valid, sizeof(valid), &n, " %s", selftests[i].name);
		else
			opt_append(others, sizeof(others), &m, " %s", selftests[i].name);
	}
	/* The other program's selftests are named, so a user knows where they are. */
	if (m)
		opt_error(o, "selftest=: unknown '%s'; valid:%s (%s are the kernel's)",
			  val, valid, others + 1);
	else
		opt_error(o, "selftest=: unknown '%s'; valid:%s", val, valid);
}

/* A feature name for disable= and force=, into *bits; false when unknown. */
static bool add_feature(struct options *o, const char *key, uint64_t *bits,
			const char *name)
{
	int i = name_index(o, feature_names, key, "feature ", name);

	if (i < 0) {
		*bits = 0;
		return false;
	}
	*bits |= 1ull << (FEAT_NONE + 1 + i);
	return true;
}

/*
 * A feature the CPU offers but cannot execute (a hypervisor's quirk) can be
 * turned off: its variants are then skipped, and say why.
 */
static bool add_disable(struct options *o, const char *name)
{
	return add_feature(o, "disable", &o->disable, name);
}

/*
 * The other way round: run the variants of a feature the CPU does not
 * report, to see what it does (a fault is reported, the run goes on).
 */
static bool add_force(struct options *o, const char *name)
{
	return add_feature(o, "force", &o->force, name);
}

void parse_disable(struct options *o, char *val)
{
	o->disable = 0;
	opt_each_name(o, "disable", val, add_disable);
}

void parse_force(struct options *o, char *val)
{
	o->force = 0;
	opt_each_name(o, "force", val, add_force);
}

void parse_suite(struct options *o, char *val)
{
	int s = name_index(o, suite_names, "suite", "", val);

	if (s < 0)
		return;
	if (o->program == PROGRAM_MODULE && suites[s].how == HOW_SCRUB)
		opt_error(o, "suite=%s: not in the module: every CPU clearing memory at once is no run for a machine someone else uses; boot the kernel for it, or run pagebench-linux",
			  val);
	else
		o->suite = s;
}

static bool add_pass(struct options *o, const char *name)
{
	int p = name_index(o, pass_names, "passes", "pass ", name);

	if (p < 0) {
		o->passes = 0;
		return false;
	}
	/* pass_names() ends with "all". */
	o->passes |= p == PASS_COUNT ? (1u << PASS_COUNT) - 1 : 1u << p;
	return true;
}

/* One PASS:WEIGHT of mix=, the weight 1 to MIX_WEIGHT_MAX. */
static bool add_mix(struct options *o, const char *item)
{
	char name[16];
	unsigned int n, weight = 0;
	int p;

	for (n = 0; item[n] && item[n] != ':' && n + 1 < sizeof(name); n++)
		name[n] = item[n];
	name[n] = '\0';
	if (item[n] != ':' || !item[n + 1]) {
		opt_error(o, "mix=: '%s' is not PASS:WEIGHT", item);
		return false;
	}
	p = name_index(o, pass_names, "mix", "pass ", name);
	if (p < 0 || p == PASS_COUNT) {
		if (p == PASS_COUNT)
			opt_error(o, "mix=: weigh passes one by one, not 'all'");
		return false;
	}
	for (n++; item[n] >= '0' && item[n] <= '9' && weight <= MIX_WEIGHT_MAX; n++)
		weight = weight * 10 + (unsigned int)(item[n] - '0');
	if (item[n] || !weight || weight > MIX_WEIGHT_MAX) {
		opt_error(o, "mix=: bad weight in '%s'; valid: 1 to %u", item, MIX_WEIGHT_MAX);
		return false;
	}
	o->mix[p] = weight;
	return true;
}

void parse_mix(struct options *o, char *val)
{
	unsigned int p;

	for (p = 0; p < PASS_COUNT; p++)
		o->mix[p] = 0;
	opt_each_name(o, "mix", val, add_mix);
}

void parse_passes(struct options *o, char *val)
{
	o->passes = 0;
	opt_each_name(o, "passes", val, add_pass);
}

void parse_tsc(struct options *o, char *val)
{
	int t = name_index(o, tsc_names, "tsc", "", val);

	if (t >= 0)
		o->tsc = t;
}
