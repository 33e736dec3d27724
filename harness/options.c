/* SPDX-License-Identifier: MIT */
/*
 * Options. Every word is key=value; the table at the end says which keys
 * exist, which program takes each, the function that reads its value, and
 * what --help says of it. Error messages and --help list the valid keys and
 * values from the same tables, so they cannot drift from what the parser
 * accepts.
 */
#include "lib/fmt.h"
#include "harness/host.h"
#include "harness/options.h"
#include "lib/out.h"
#include "lib/run.h"
#include "variants/strings.h"

static const char *const tsc_pick_names[TSC_PICK_COUNT] = {
	[TSC_PICK_AUTO] = "auto", [TSC_PICK_CPUID] = "cpuid",
	[TSC_PICK_AMD] = "amd", [TSC_PICK_HPET] = "hpet",
	[TSC_PICK_PMTIMER] = "pmtimer", [TSC_PICK_PIT] = "pit",
};

/* The first of each is the default (--help says "ttyS0,115200"). */
static const uint16_t com_ports[] = { 0x3f8, 0x2f8, 0x3e8, 0x2e8 };
static const uint32_t bauds[] = {
	115200, 57600, 38400, 19200, 9600, 4800, 2400, 1200
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

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
/* A number's macro as text, for --help: STR(REPS_MAX) is "1000". */
#define STR_(x) #x
#define STR(x) STR_(x)

const char *suite_name(enum suite s)
{
	return s < SUITE_COUNT ? suites[s].name : "?";
}

const char *tsc_pick_name(enum tsc_pick p)
{
	return p < TSC_PICK_COUNT ? tsc_pick_names[p] : "?";
}

static void error(struct options *o, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void error(struct options *o, const char *fmt, ...)
{
	va_list ap;

	/* Past the last slot, the count still grows so done: reports them all. */
	if (o->nerrors < OPT_MAX_ERRORS) {
		va_start(ap, fmt);
		fmt_vsnprintf(o->errors[o->nerrors], OPT_ERROR_LEN, fmt, ap);
		va_end(ap);
	}
	o->nerrors++;
}

static bool streq(const char *a, const char *b)
{
	while (*a && *a == *b)
		a++, b++;
	return *a == *b;
}

/* Appends " word" to a list being built in buf. */
static void list_add(char *buf, size_t size, size_t *n, const char *word)
{
	*n += fmt_snprintf(buf + *n, *n < size ? size - *n : 0, " %s", word);
}

/* Parses a decimal or 0x-prefixed hex number that fills all of s. */
static bool parse_u64(const char *s, uint64_t *out)
{
	unsigned int base = 10;
	uint64_t v = 0;

	if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
		base = 16;
		s += 2;
	}
	if (!*s)
		return false;
	for (; *s; s++) {
		unsigned int d;

		if (*s >= '0' && *s <= '9')
			d = *s - '0';
		else if (base == 16 && *s >= 'a' && *s <= 'f')
			d = *s - 'a' + 10;
		else if (base == 16 && *s >= 'A' && *s <= 'F')
			d = *s - 'A' + 10;
		else
			return false;
		if (v > (UINT64_MAX - d) / base)
			return false;
		v = v * base + d;
	}
	*out = v;
	return true;
}

static void parse_console(struct options *o, char *val)
{
	char *comma = val;
	uint64_t port, baud = o->baud;
	unsigned int i;

	while (*comma && *comma != ',')
		comma++;
	if (*comma) {
		*comma = '\0';
		for (i = 0; i < ARRAY_SIZE(bauds); i++)
			if (parse_u64(comma + 1, &baud) && baud == bauds[i])
				break;
		if (i == ARRAY_SIZE(bauds)) {
			error(o, "console=: bad baud rate '%s'; valid: 115200 57600 38400 19200 9600 4800 2400 1200",
			      comma + 1);
			return;
		}
	}
	if (val[0] == 't' && val[1] == 't' && val[2] == 'y' && val[3] == 'S' &&
	    val[4] >= '0' && val[4] < '0' + (int)ARRAY_SIZE(com_ports) && !val[5]) {
		port = com_ports[val[4] - '0'];
	} else if (val[0] == '0' && val[1] == 'x' && parse_u64(val, &port) &&
		   port > 0 && port <= 0xfff8) {
		/* An I/O address for a UART not at a COM port's usual place. */
	} else {
		error(o, "console=: bad port '%s'; valid: ttyS0 ttyS1 ttyS2 ttyS3 or an I/O address like 0x3f8, then optionally ,BAUD",
		      val);
		return;
	}
	o->console_port = (uint16_t)port;
	o->baud = (uint32_t)baud;
}

static void parse_tag(struct options *o, char *val)
{
	unsigned int n;

	for (n = 0; val[n]; n++) {
		char c = val[n];

		if (!((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') ||
		      (c >= '0' && c <= '9') || c == '_') || n >= sizeof(o->tag) - 1) {
			error(o, "tag=: bad tag '%s'; valid: 1 to 15 characters of A-Z a-z 0-9 _",
			      val);
			return;
		}
	}
	if (!n) {
		error(o, "tag=: empty; valid: 1 to 15 characters of A-Z a-z 0-9 _");
		return;
	}
	for (n = 0; val[n]; n++)
		o->tag[n] = val[n];
	o->tag[n] = '\0';
}

/*
 * The names an option's value may be, for its parser, its error and --help:
 * the i-th for program p, NULL past the last.
 */
static const char *suite_names(enum program p, unsigned int i)
{
	(void)p;
	return i < SUITE_COUNT ? suites[i].name : NULL;
}

static const char *tsc_names(enum program p, unsigned int i)
{
	(void)p;
	return i < TSC_PICK_COUNT ? tsc_pick_names[i] : NULL;
}

static const char *exit_names(enum program p, unsigned int i)
{
	(void)p;
	return i < ARRAY_SIZE(exit_modes) ? exit_modes[i].name : NULL;
}

/* Only the selftests program p has. */
static const char *selftest_names(enum program p, unsigned int i)
{
	unsigned int t;

	for (t = 0; t < ARRAY_SIZE(selftests); t++)
		if ((selftests[t].programs & p) && !i--)
			return selftests[t].name;
	return NULL;
}

static const char *pass_names(enum program p, unsigned int i)
{
	(void)p;
	if (i < PASS_COUNT)
		return passes[i].id;
	return i == PASS_COUNT ? "all" : NULL;
}

static const char *feature_names(enum program p, unsigned int i)
{
	(void)p;
	return FEAT_NONE + 1 + i < FEAT_COUNT ? feat_name(FEAT_NONE + 1 + i) : NULL;
}

/* " a b c": every name of a list, for an error message. */
static void list_names(const char *(*name)(enum program, unsigned int),
		       enum program p, char *buf, size_t size)
{
	const char *one;
	size_t n = 0;
	unsigned int i;

	buf[0] = '\0';
	for (i = 0; (one = name(p, i)); i++)
		list_add(buf, size, &n, one);
}

static void parse_exit(struct options *o, char *val)
{
	char valid[64];
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(exit_modes); i++) {
		if (streq(val, exit_modes[i].name)) {
			o->exit = exit_modes[i].mode;
			return;
		}
	}
	list_names(exit_names, o->program, valid, sizeof(valid));
	error(o, "exit=: unknown '%s'; valid:%s", val, valid);
}

/*
 * Reading cycle counters costs time beside each call (under a hypervisor
 * an RDMSR may exit to it); off, the run has ticks only.
 */
static const char *const cycles_modes[] = { "on", "off" };

static const char *cycles_names(enum program p, unsigned int i)
{
	(void)p;
	return i < ARRAY_SIZE(cycles_modes) ? cycles_modes[i] : NULL;
}

static void parse_cycles(struct options *o, char *val)
{
	char valid[16];

	if (streq(val, "on")) {
		o->cycles_off = false;
	} else if (streq(val, "off")) {
		o->cycles_off = true;
	} else {
		list_names(cycles_names, o->program, valid, sizeof(valid));
		error(o, "cycles=: unknown '%s'; valid:%s", val, valid);
	}
}

static void parse_selftest(struct options *o, char *val)
{
	char valid[128], others[128];
	size_t n = 0, m = 0;
	unsigned int i;

	valid[0] = others[0] = '\0';
	for (i = 0; i < ARRAY_SIZE(selftests); i++) {
		bool ours = selftests[i].programs & o->program;

		if (ours && streq(val, selftests[i].name)) {
			o->selftest = selftests[i].t;
			return;
		}
		if (ours)
			list_add(valid, sizeof(valid), &n, selftests[i].name);
		else
			list_add(others, sizeof(others), &m, selftests[i].name);
	}
	/* The other program's selftests are named, so a user knows where they are. */
	if (m)
		error(o, "selftest=: unknown '%s'; valid:%s (%s are the kernel's)",
		      val, valid, others + 1);
	else
		error(o, "selftest=: unknown '%s'; valid:%s", val, valid);
}

/* Calls one(o, name) for each comma-separated name; "" names are errors. */
static void each_name(struct options *o, const char *key, char *list,
		      bool (*one)(struct options *, const char *))
{
	char *name = list;

	for (;;) {
		char *end = name;
		bool last;

		while (*end && *end != ',')
			end++;
		last = !*end;
		*end = '\0';
		if (!*name)
			error(o, "%s=: empty name in the list", key);
		else if (!one(o, name))
			return;
		if (last)
			break;
		name = end + 1;
	}
}

/* A feature name for disable= and force=, into *bits; false when unknown. */
static bool add_feature(struct options *o, const char *key, uint64_t *bits,
			const char *name)
{
	char valid[OPT_ERROR_LEN - 64];
	unsigned int f;

	for (f = FEAT_NONE + 1; f < FEAT_COUNT; f++) {
		if (streq(name, feat_name(f))) {
			*bits |= 1ull << f;
			return true;
		}
	}
	list_names(feature_names, o->program, valid, sizeof(valid));
	error(o, "%s=: unknown feature '%s'; valid:%s", key, name, valid);
	*bits = 0;
	return false;
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

static void parse_disable(struct options *o, char *val)
{
	o->disable = 0;
	each_name(o, "disable", val, add_disable);
}

static void parse_force(struct options *o, char *val)
{
	o->force = 0;
	each_name(o, "force", val, add_force);
}

static void parse_suite(struct options *o, char *val)
{
	char valid[128];
	unsigned int s;

	for (s = 0; s < SUITE_COUNT; s++) {
		if (streq(val, suites[s].name) && o->program == PROGRAM_MODULE &&
		    suites[s].how == HOW_SCRUB) {
			error(o, "suite=%s: not in the module: every CPU clearing memory at once is no run for a machine someone else uses; boot the kernel for it, or run pagebench-linux",
			      val);
			return;
		}
		if (streq(val, suites[s].name)) {
			o->suite = s;
			return;
		}
	}
	list_names(suite_names, o->program, valid, sizeof(valid));
	error(o, "suite=: unknown '%s'; valid:%s", val, valid);
}

static void parse_reps(struct options *o, char *val)
{
	uint64_t n;

	if (parse_u64(val, &n) && n >= 1 && n <= REPS_MAX)
		o->reps = (unsigned int)n;
	else
		error(o, "reps=: bad count '%s'; valid: a number from 1 to %u",
		      val, REPS_MAX);
}

/*
 * precision=P%: a decimal with at most two decimals, the % optional,
 * into hundredths of a per cent.
 */
static void parse_precision(struct options *o, char *val)
{
	uint64_t whole = 0, frac = 0;
	unsigned int n = 0, decimals = 0;
	bool ok = val[0] >= '0' && val[0] <= '9';

	for (; ok && val[n] >= '0' && val[n] <= '9' && whole <= PRECISION_MAX_BP; n++)
		whole = whole * 10 + (uint64_t)(val[n] - '0');
	if (ok && val[n] == '.') {
		for (n++; val[n] >= '0' && val[n] <= '9' && decimals < 3; n++, decimals++)
			frac = frac * 10 + (uint64_t)(val[n] - '0');
		ok = decimals >= 1 && decimals <= 2;
		if (decimals == 1)
			frac *= 10;
	}
	if (ok && val[n] == '%')
		n++;
	ok = ok && !val[n];
	if (ok && whole * 100 + frac >= PRECISION_MIN_BP &&
	    whole * 100 + frac <= PRECISION_MAX_BP)
		o->precision_bp = (unsigned int)(whole * 100 + frac);
	else
		error(o, "precision=: bad value '%s'; valid: a per cent from %u.%u%% to %u%%, like 1%% or 0.5%%",
		      val, PRECISION_MIN_BP / 100, PRECISION_MIN_BP % 100 / 10,
		      PRECISION_MAX_BP / 100);
}

/* budget=T: a time per pass, with its unit: 500ms, 2s. */
static void parse_budget(struct options *o, char *val)
{
	static const struct { const char *unit; uint64_t ms; } units[] = {
		{ "ms", 1 }, { "s", 1000 },
	};
	char num[OPT_WORD_MAX];
	uint64_t v;
	unsigned int i, n;

	for (n = 0; val[n] >= '0' && val[n] <= '9' && n + 1 < sizeof(num); n++)
		num[n] = val[n];
	num[n] = '\0';
	for (i = 0; n && i < ARRAY_SIZE(units); i++) {
		if (!streq(val + n, units[i].unit) || !parse_u64(num, &v))
			continue;
		if (v <= BUDGET_MAX_MS / units[i].ms &&
		    v * units[i].ms >= BUDGET_MIN_MS) {
			o->budget_ms = v * units[i].ms;
			return;
		}
		break;
	}
	error(o, "budget=: bad time '%s'; valid: a time per pass from %ums to %us, like 500ms or 2s",
	      val, BUDGET_MIN_MS, BUDGET_MAX_MS / 1000);
}

static bool add_pass(struct options *o, const char *name)
{
	char valid[160];
	unsigned int p;

	if (streq(name, "all")) {
		o->passes = (1u << PASS_COUNT) - 1;
		return true;
	}
	for (p = 0; p < PASS_COUNT; p++) {
		if (streq(name, passes[p].id)) {
			o->passes |= 1u << p;
			return true;
		}
	}
	list_names(pass_names, o->program, valid, sizeof(valid));
	error(o, "passes=: unknown pass '%s'; valid:%s", name, valid);
	o->passes = 0;
	return false;
}

static void parse_passes(struct options *o, char *val)
{
	o->passes = 0;
	each_name(o, "passes", val, add_pass);
}

static void parse_variants(struct options *o, char *val)
{
	unsigned int n;

	/* Names are checked in options_finish(), once the suite is known. */
	for (n = 0; val[n] && n + 1 < sizeof(o->variants_arg); n++)
		o->variants_arg[n] = val[n];
	o->variants_arg[n] = '\0';
	if (!n)
		error(o, "variants=: empty list");
}

static void parse_cpu(struct options *o, char *val)
{
	uint64_t n;

	if (parse_u64(val, &n) && n <= CPU_NUMBER_MAX)
		o->cpu = (int)n;
	else
		error(o, "cpu=: bad CPU '%s'; valid: a CPU number from 0 to %u",
		      val, CPU_NUMBER_MAX);
}

/* cpus=N: how many CPUs take part, the first (the caller's) included. */
static void parse_cpus(struct options *o, char *val)
{
	uint64_t n;

	if (parse_u64(val, &n) && n >= 1 && n <= HOST_CPUS_MAX)
		o->cpus = (unsigned int)n;
	else
		error(o, "cpus=: bad count '%s'; valid: a number from 1 to %u",
		      val, HOST_CPUS_MAX);
}

/* watchdog=S: how long one step may run before its CPU counts as stuck. */
static void parse_watchdog(struct options *o, char *val)
{
	uint64_t n;

	if (parse_u64(val, &n) && n >= 1 && n <= WATCHDOG_S_MAX)
		o->watchdog_s = (unsigned int)n;
	else
		error(o, "watchdog=: bad time '%s'; valid: seconds from 1 to %u",
		      val, WATCHDOG_S_MAX);
}

static void parse_tsc(struct options *o, char *val)
{
	char valid[80];
	unsigned int t;

	for (t = 0; t < TSC_PICK_COUNT; t++) {
		if (streq(val, tsc_pick_names[t])) {
			o->tsc = t;
			return;
		}
	}
	list_names(tsc_names, o->program, valid, sizeof(valid));
	error(o, "tsc=: unknown '%s'; valid:%s", val, valid);
}

/* A size in bytes, with an optional K, M, G or T (binary) suffix. */
static bool parse_size(char *val, uint64_t *out)
{
	static const char units[] = "KMGT";
	unsigned int shift = 0, i, n = 0;
	uint64_t v;

	while (val[n])
		n++;
	for (i = 0; n && i < sizeof(units) - 1; i++) {
		if (val[n - 1] == units[i] || val[n - 1] == units[i] + ('a' - 'A')) {
			shift = 10 * (i + 1);
			val[--n] = '\0';
			break;
		}
	}
	if (!parse_u64(val, &v) || v > (UINT64_MAX >> shift))
		return false;
	*out = v << shift;
	return true;
}

static void parse_scrub(struct options *o, char *val)
{
	char given[OPT_WORD_MAX];
	uint64_t bytes;
	unsigned int i;

	for (i = 0; val[i] && i + 1 < sizeof(given); i++)
		given[i] = val[i];
	given[i] = '\0';
	if (parse_size(val, &bytes) && bytes >= SCRUB_MIN && bytes <= SCRUB_MAX &&
	    bytes % 4096 == 0)
		o->scrub_bytes = bytes;
	else
		error(o, "scrub=: bad size '%s'; valid: whole 4 KiB pages from 1M to 1T, like 256M or 4G",
		      given);
}

/* --- suite=strings (issue 12): sizes= --- */

/* One size into o->sizes, kept ascending; false (and the default) on error. */
static bool add_size(struct options *o, const char *word)
{
	uint64_t n;
	unsigned int i, j;

	if (!parse_u64(word, &n) || n > STRINGS_SIZE_LIMIT) {
		error(o, "sizes=: bad size '%s'; valid: byte counts from 0 to %u, comma-separated",
		      word, STRINGS_SIZE_LIMIT);
		o->nsizes = 0;
		return false;
	}
	for (i = 0; i < o->nsizes && o->sizes[i] < n; i++)
		;
	if (i < o->nsizes && o->sizes[i] == n) {
		error(o, "sizes=: %s given twice", word);
	} else if (o->nsizes == STRINGS_SIZES_MAX) {
		error(o, "sizes=: more than %u sizes", STRINGS_SIZES_MAX);
	} else {
		for (j = o->nsizes; j > i; j--)
			o->sizes[j] = o->sizes[j - 1];
		o->sizes[i] = (uint16_t)n;
		o->nsizes++;
		return true;
	}
	o->nsizes = 0;
	return false;
}

static void parse_sizes(struct options *o, char *val)
{
	o->nsizes = 0;
	each_name(o, "sizes", val, add_size);
}

/* --help's default of reps=: the first suite's, then those that differ. */
static void reps_default(char *buf, size_t size)
{
	size_t n;
	unsigned int i, others = 0;

	/* 0: epochs until precise (precision=, budget=). */
	n = suites[0].reps ? fmt_snprintf(buf, size, "%u", suites[0].reps) :
			     fmt_snprintf(buf, size, "epochs until precise");
	for (i = 1; i < SUITE_COUNT; i++)
		if (suites[i].reps != suites[0].reps)
			n += fmt_snprintf(buf + n, n < size ? size - n : 0, "%s%s %u",
					  others++ ? ", " : " (", suites[i].name,
					  suites[i].reps);
	if (others)
		fmt_snprintf(buf + n, n < size ? size - n : 0, ")");
}

static const struct option_def {
	const char *key;
	void (*parse)(struct options *o, char *val);
	unsigned int programs;		/* enum program bits */
	/* The valid names of the value, or NULL where it is not a name. */
	const char *(*names)(enum program p, unsigned int i);
	/*
	 * What --help says. value: the value's form (NULL: one of names, as
	 * a|b|c; else its first word in capitals, as FEAT, stands for one of
	 * names); what: what it does; dflt: its default (NULL: the first of
	 * names, or what dflt_fn writes).
	 */
	const char *value, *what, *dflt;
	void (*dflt_fn)(char *buf, size_t size);
} option_defs[] = {
	{ .key = "console", .parse = parse_console, .programs = PROGRAM_KERNEL,
	  .value = "ttyS0..3[,BAUD]|0xPORT[,BAUD]",
	  .what = "the serial port the log goes to, and its rate",
	  .dflt = "ttyS0,115200" },
	{ .key = "tag", .parse = parse_tag,
	  .programs = PROGRAM_KERNEL | PROGRAM_LINUX | PROGRAM_MODULE,
	  .value = "NAME",
	  .what = "the line prefix, 1 to 15 of A-Z a-z 0-9 _; tag=XEN makes "
		  "the lines look exactly like Xen's",
	  .dflt = TAG_DEFAULT },
	{ .key = "exit", .parse = parse_exit, .programs = PROGRAM_KERNEL,
	  .names = exit_names,
	  .what = "how the run ends; qemu writes the status to isa-debug-exit "
		  "(port 0xf4)",
	  .dflt = "qemu under QEMU/KVM, else halt" },
	/* Not the module's: a deliberate #UD in ring 0 would be an oops. */
	{ .key = "selftest", .parse = parse_selftest,
	  .programs = PROGRAM_KERNEL | PROGRAM_LINUX,
	  .names = selftest_names,
	  .what = "a deliberate failure, to test how it is caught and reported "
		  "(README.md, \"Options\", says what each does)",
	  .dflt = "off" },
	{ .key = "disable", .parse = parse_disable,
	  .programs = PROGRAM_KERNEL | PROGRAM_LINUX | PROGRAM_MODULE,
	  .names = feature_names, .value = "FEAT,...",
	  .what = "treat CPU features as absent: their variants are skipped "
		  "and say so",
	  .dflt = "none" },
	{ .key = "force", .parse = parse_force,
	  .programs = PROGRAM_KERNEL | PROGRAM_LINUX | PROGRAM_MODULE,
	  .names = feature_names, .value = "FEAT,...",
	  .what = "treat CPU features as present: their variants run although "
		  "CPUID does not report them; a fault is a failure and the "
		  "run goes on",
	  .dflt = "none" },
	{ .key = "suite", .parse = parse_suite,
	  .programs = PROGRAM_KERNEL | PROGRAM_LINUX | PROGRAM_MODULE,
	  .names = suite_names,
	  .what = "what to measure: all is clear and copy; xen exactly the "
		  "2021 experiment (7 variants, L1/L2, 3 reps, Jan's line "
		  "shapes); scrub every CPU clearing one region at once; "
		  "strings memset and memcpy by size" },
	{ .key = "reps", .parse = parse_reps,
	  .programs = PROGRAM_KERNEL | PROGRAM_LINUX | PROGRAM_MODULE,
	  .value = "N",
	  .what = "iterations per pass, 1 to " STR(REPS_MAX)
		  " (suite=strings: 1 to " STR(STRINGS_REPS_MAX) ")",
	  .dflt_fn = reps_default },
	{ .key = "precision", .parse = parse_precision,
	  .programs = PROGRAM_KERNEL | PROGRAM_LINUX,
	  .value = "P%",
	  .what = "suites all, clear and copy, in place of reps=: add epochs "
		  "to a pass until every figure's 95% interval is within P% of "
		  "its median, 0.1% to 50% (docs/method.md, \"Epochs\")",
	  .dflt = "1%" },
	{ .key = "budget", .parse = parse_budget,
	  .programs = PROGRAM_KERNEL | PROGRAM_LINUX,
	  .value = "T",
	  .what = "the same: the time a pass may take, 10ms to 3600s, like "
		  "500ms or 2s (3 epochs run whatever it says)",
	  .dflt = "1000ms" },
	{ .key = "passes", .parse = parse_passes,
	  .programs = PROGRAM_KERNEL | PROGRAM_LINUX | PROGRAM_MODULE,
	  .names = pass_names, .value = "PASS,...",
	  .what = "the passes to run (f: with a flush before each iteration; "
		  "hot and cold: copy only)",
	  .dflt = "all of the suite's" },
	{ .key = "variants", .parse = parse_variants,
	  .programs = PROGRAM_KERNEL | PROGRAM_LINUX | PROGRAM_MODULE,
	  .value = "NAME,...",
	  .what = "the variants to run; a name selects it in every table of "
		  "the suite that has it",
	  .dflt = "all of the suite's" },
	{ .key = "cpus", .parse = parse_cpus,
	  .programs = PROGRAM_KERNEL | PROGRAM_LINUX,
	  .value = "N",
	  .what = "how many CPUs take part, the first included, 1 to "
		  STR(HOST_CPUS_MAX) ": suite=scrub's largest count (the "
		  "kernel starts no more)",
	  .dflt = "all" },
	{ .key = "scrub", .parse = parse_scrub,
	  .programs = PROGRAM_KERNEL | PROGRAM_LINUX,
	  .value = "SIZE",
	  .what = "suite=scrub's region: whole 4 KiB pages from 1M to 1T, "
		  "with a K, M, G or T suffix",
	  .dflt = "the MEM pass's size, twice the last cache level" },
	{ .key = "sizes", .parse = parse_sizes,
	  .programs = PROGRAM_KERNEL | PROGRAM_LINUX | PROGRAM_MODULE,
	  .value = "N,...",
	  .what = "suite=strings: the sizes in bytes, 0 to "
		  STR(STRINGS_SIZE_LIMIT) ", at most " STR(STRINGS_SIZES_MAX),
	  .dflt = "small sizes, and each power of two to "
		  STR(STRINGS_SIZE_LIMIT) " with most of their neighbours" },
	{ .key = "tsc", .parse = parse_tsc, .programs = PROGRAM_KERNEL,
	  .names = tsc_names,
	  .what = "where the TSC rate comes from; a source that is absent "
		  "prints a note: and the run falls back to auto" },
	{ .key = "cycles", .parse = parse_cycles,
	  .programs = PROGRAM_KERNEL | PROGRAM_LINUX | PROGRAM_MODULE,
	  .names = cycles_names,
	  .what = "read core cycles beside the TSC around each timed call "
		  "(APERF/MPERF in the kernel, perf cycles in pagebench-linux) "
		  "and print each variant's effective frequency per pass; off "
		  "where reading them costs too much (an RDMSR that exits to a "
		  "hypervisor)" },
	{ .key = "cpu", .parse = parse_cpu,
	  .programs = PROGRAM_LINUX | PROGRAM_MODULE,
	  .value = "N",
	  .what = "the CPU to pin to (the module: to run on), 0 to " STR(CPU_NUMBER_MAX),
	  .dflt = "the last CPU this process may run on" },
	{ .key = "watchdog", .parse = parse_watchdog, .programs = PROGRAM_KERNEL,
	  .value = "S",
	  .what = "seconds one step may take before its CPU counts as hung, "
		  "1 to " STR(WATCHDOG_S_MAX) "; another CPU then stops the "
		  "run, a failure",
	  .dflt = STR(WATCHDOG_S_DEFAULT) },
};

static const char *program_name(enum program h)
{
	return h == PROGRAM_LINUX ? "pagebench-linux" :
	       h == PROGRAM_MODULE ? "the module" : "the kernel";
}

/* " console= tag= ..." for the keys this program takes. */
static void valid_keys(const struct options *o, char *buf, size_t size)
{
	size_t n = 0;
	unsigned int i;

	buf[0] = '\0';
	for (i = 0; i < ARRAY_SIZE(option_defs); i++)
		if (option_defs[i].programs & o->program)
			n += fmt_snprintf(buf + n, n < size ? size - n : 0, " %s=",
					  option_defs[i].key);
}

void options_init(struct options *o, enum program program)
{
	*o = (struct options){
		.program = program,
		.tag = TAG_DEFAULT,
		.console_port = com_ports[0],
		.baud = bauds[0],
		.cpu = CPU_DEFAULT,
		.watchdog_s = WATCHDOG_S_DEFAULT,
	};
}

/*
 * A control character (a newline above all) would end the log line that
 * echoes the word and start a forged one, so such a word is refused, and
 * only the part before it is shown: the key, where that is all of it.
 */
static bool refuse_control(struct options *o, const char *w)
{
	char key[OPT_WORD_MAX];
	unsigned int i, eq = 0;

	for (i = 0; w[i] && (unsigned char)w[i] >= ' ' && w[i] != 0x7f; i++)
		if (!eq && w[i] == '=')
			eq = i;
	if (!w[i])
		return false;
	if (eq) {
		for (i = 0; i < eq; i++)
			key[i] = w[i];
		key[eq] = '\0';
		for (i = eq; (unsigned char)w[i] >= ' ' && w[i] != 0x7f; i++)
			;
		error(o, "%s=: control character 0x%02x in the value; values are printable text",
		      key, (unsigned char)w[i]);
	} else
		error(o, "option with a control character (0x%02x) refused; options are printable key=value words",
		      (unsigned char)w[i]);
	return true;
}

/* One word of len characters at s, not NUL-terminated. */
static void parse_one(struct options *o, const char *s, size_t len)
{
	char w[OPT_WORD_MAX], keys[200];
	char *val;
	unsigned int i;

	if (len >= sizeof(w)) {
		error(o, "option too long (%u characters, at most %u)",
		      (unsigned int)len, (unsigned int)sizeof(w) - 1);
		return;
	}
	for (i = 0; i < len; i++)
		w[i] = s[i];
	w[len] = '\0';
	if (refuse_control(o, w))
		return;

	valid_keys(o, keys, sizeof(keys));
	for (val = w; *val && *val != '='; val++)
		;
	if (!*val || val == w) {
		error(o, "malformed option '%s'; options are key=value:%s", w, keys);
		return;
	}
	*val++ = '\0';

	for (i = 0; i < ARRAY_SIZE(option_defs); i++) {
		if (!streq(w, option_defs[i].key))
			continue;
		if (option_defs[i].programs & o->program)
			option_defs[i].parse(o, val);
		else
			error(o, "%s=: not an option of %s; valid:%s", w,
			      program_name(o->program), keys);
		return;
	}
	error(o, "unknown option '%s'; valid:%s", w, keys);
}

void options_word(struct options *o, const char *word)
{
	size_t len = 0;

	while (word[len])
		len++;
	parse_one(o, word, len);
}

/* The names variants= may use in suite s, for an error message. */
static void list_variant_names(enum suite s, char *buf, size_t size)
{
	size_t n = 0;
	unsigned int i, j;

	buf[0] = '\0';
	for (i = 0; i < variant_count; i++) {
		if (!suite_has_variant(s, &variants[i]))
			continue;
		/* sse2, avx, avx512 and their _t exist in both tables: list them once. */
		for (j = 0; j < i; j++)
			if (suite_has_variant(s, &variants[j]) &&
			    streq(variants[j].name, variants[i].name))
				break;
		if (j == i)
			list_add(buf, size, &n, variants[i].name);
	}
	/* suite=strings: memset and memcpy share orig, avx_t and avx512_t too. */
	for (i = 0; (suites[s].ops & OPS_STRINGS) && i < string_variant_count; i++) {
		for (j = 0; j < i; j++)
			if (streq(string_variants[j].name, string_variants[i].name))
				break;
		if (j == i)
			list_add(buf, size, &n, string_variants[i].name);
	}
}

/*
 * A name selects the variant of that name in each table of the suite that
 * has one (sse2, avx, avx512 and their _t exist in both).
 */
static bool add_variant(struct options *o, const char *name)
{
	char valid[OPT_ERROR_LEN - 96];
	bool found = false;
	unsigned int i;

	for (i = 0; i < variant_count; i++) {
		if (suite_has_variant(o->suite, &variants[i]) &&
		    streq(name, variants[i].name)) {
			o->variants |= 1ull << i;
			found = true;
		}
	}
	for (i = 0; (suites[o->suite].ops & OPS_STRINGS) && i < string_variant_count; i++) {
		if (streq(name, string_variants[i].name)) {
			o->str_variants |= 1ull << i;
			found = true;
		}
	}
	if (!found) {
		list_variant_names(o->suite, valid, sizeof(valid));
		error(o, "variants=: no variant '%s' in suite %s; valid:%s",
		      name, suite_name(o->suite), valid);
		/* Fall back to the suite's own variants, as for any bad option. */
		o->variants = 0;
		o->str_variants = 0;
		o->variants_arg[0] = '\0';
	}
	return found;
}

void options_finish(struct options *o)
{
	pass_set allowed = suite_passes(o->suite);
	char list[sizeof(o->variants_arg)], valid[160];
	size_t n = 0;
	unsigned int i;

	/* each_name() cuts its argument up; variants_arg stays as given. */
	for (i = 0; i < sizeof(list); i++)
		list[i] = o->variants_arg[i];
	o->variants = 0;
	o->str_variants = 0;
	if (list[0])
		each_name(o, "variants", list, add_variant);

	if (o->scrub_bytes && suites[o->suite].how != HOW_SCRUB) {
		error(o, "scrub=: suite %s clears no scrub region; it is for suite=scrub",
		      suite_name(o->suite));
		o->scrub_bytes = 0;
	}
	/* suite=strings: no passes, sizes instead, reps bounded by the line. */
	if (o->passes && !allowed) {
		error(o, "passes=: suite %s has no passes", suite_name(o->suite));
		o->passes = 0;
	}
	if (o->nsizes && !(suites[o->suite].ops & OPS_STRINGS)) {
		error(o, "sizes=: only suite=strings measures sizes");
		o->nsizes = 0;
	}
	if ((suites[o->suite].ops & OPS_STRINGS) && o->reps > STRINGS_REPS_MAX) {
		error(o, "reps=: suite strings takes 1 to %u (each rep's figure goes on its line)",
		      STRINGS_REPS_MAX);
		o->reps = 0;
	}

	/* reps= fixes the reps; precision= and budget= add epochs instead. */
	if ((o->precision_bp || o->budget_ms) && suites[o->suite].reps) {
		error(o, "%s=: suite %s runs a fixed number of reps (reps=); only suites all, clear and copy add epochs until precise",
		      o->precision_bp ? "precision" : "budget", suite_name(o->suite));
		o->precision_bp = 0;
		o->budget_ms = 0;
	} else if ((o->precision_bp || o->budget_ms) && o->reps) {
		error(o, "reps=: fixes the reps of each pass, while %s= adds epochs until precise; give one of them",
		      o->precision_bp ? "precision" : "budget");
		o->precision_bp = 0;
		o->budget_ms = 0;
	}

	if (o->passes & ~allowed) {
		valid[0] = '\0';
		for (i = 0; i < PASS_COUNT; i++)
			if (allowed & (1u << i))
				list_add(valid, sizeof(valid), &n, passes[i].id);
		error(o, "passes=: suite %s has only%s", suite_name(o->suite),
		      valid);
		o->passes = 0;
	}
}

void options_parse(struct options *o, enum program program, const char *cmdline)
{
	const char *p = cmdline ? cmdline : "";
	bool first = true;

	options_init(o, program);
	while (*p) {
		const char *start;
		bool has_eq = false;

		while (*p == ' ' || *p == '\t')
			p++;
		if (!*p)
			break;
		for (start = p; *p && *p != ' ' && *p != '\t'; p++)
			has_eq |= *p == '=';
		/* Multiboot loaders put the image's path first: it is no option. */
		if (first && program == PROGRAM_KERNEL && !has_eq) {
			first = false;
			continue;
		}
		first = false;
		parse_one(o, start, (size_t)(p - start));
	}
	options_finish(o);
}

bool option_selects_string(const struct options *o, unsigned int i)
{
	if (!(suites[o->suite].ops & OPS_STRINGS))
		return false;
	if (o->variants_arg[0])
		return (o->str_variants >> i) & 1;
	return true;
}

bool option_selects(const struct options *o, unsigned int i)
{
	if (!suite_has_variant(o->suite, &variants[i]))
		return false;
	if (o->variants_arg[0])
		return (o->variants >> i) & 1;
	return true;
}

void options_print_errors(const struct options *o)
{
	unsigned int i;

	for (i = 0; i < o->nerrors; i++) {
		if (i < OPT_MAX_ERRORS)
			out_line("option error: %s", o->errors[i]);
		run_fail();
	}
	if (o->nerrors > OPT_MAX_ERRORS)
		out_line("option error: %u more not shown", o->nerrors - OPT_MAX_ERRORS);
}

#define HELP_WIDTH	78	/* columns of a --help line */
#define HELP_INDENT	6	/* of the text under an option */

/* text, cut at spaces into lines of at most HELP_WIDTH, each indented. */
static void help_wrap(const char *text, void (*put)(const char *line))
{
	char line[HELP_WIDTH + 1];
	const char *p = text;

	while (*p) {
		const char *cut = NULL, *q;
		size_t n;

		for (q = p; *q && q - p <= HELP_WIDTH - HELP_INDENT; q++)
			if (*q == ' ')
				cut = q;
		if (!*q || !cut)
			cut = q;	/* the rest fits, or one word is too long */
		for (n = 0; n < HELP_INDENT; n++)
			line[n] = ' ';
		for (q = p; q < cut && n < HELP_WIDTH; q++)
			line[n++] = *q;
		line[n] = '\0';
		put(line);
		p = *cut == ' ' ? cut + 1 : cut;
	}
}

void options_help(enum program program, void (*put)(const char *line))
{
	char form[OPT_ERROR_LEN], text[2 * OPT_ERROR_LEN], dflt[OPT_ERROR_LEN];
	const struct option_def *d;
	const char *name;
	unsigned int i, k;
	size_t n;

	for (d = option_defs; d < option_defs + ARRAY_SIZE(option_defs); d++) {
		if (!(d->programs & program))
			continue;
		n = fmt_snprintf(form, sizeof(form), "  %s=", d->key);
		for (i = 0; !d->value && (name = d->names(program, i)); i++)
			n += fmt_snprintf(form + n, n < sizeof(form) ? sizeof(form) - n : 0,
					  "%s%s", i ? "|" : "", name);
		if (d->value)
			fmt_snprintf(form + n, n < sizeof(form) ? sizeof(form) - n : 0,
				     "%s", d->value);
		put(form);

		n = fmt_snprintf(text, sizeof(text), "%s", d->what);
		if (d->value && d->names) {
			/* FEAT,... : FEAT is one of the names. */
			for (k = 0; d->value[k] >= 'A' && d->value[k] <= 'Z' &&
				    k + 1 < sizeof(dflt); k++)
				dflt[k] = d->value[k];
			dflt[k] = '\0';
			n += fmt_snprintf(text + n, n < sizeof(text) ? sizeof(text) - n : 0,
					  "; %s:", dflt);
			for (i = 0; (name = d->names(program, i)); i++)
				n += fmt_snprintf(text + n, n < sizeof(text) ? sizeof(text) - n : 0,
						  " %s", name);
		}
		if (d->dflt_fn)
			d->dflt_fn(dflt, sizeof(dflt));
		else
			fmt_snprintf(dflt, sizeof(dflt), "%s",
				     d->dflt ? d->dflt : d->names(program, 0));
		fmt_snprintf(text + n, n < sizeof(text) ? sizeof(text) - n : 0,
			     ". Default: %s.", dflt);
		help_wrap(text, put);
	}
}
