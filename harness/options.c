/* SPDX-License-Identifier: MIT */
/*
 * Kernel command-line options. Every word is key=value; a bad word becomes
 * one error message naming the option and its valid choices, and the run
 * goes on with the default for that option.
 */
#include "fmt.h"
#include "options.h"
#include "variants/variants.h"

#define WORD_MAX 256

static const char *const pass_names[PASS_COUNT] = {
	[PASS_L1] = "l1", [PASS_L1F] = "l1f", [PASS_L2] = "l2",
	[PASS_L2F] = "l2f", [PASS_L3] = "l3", [PASS_L3F] = "l3f",
	[PASS_MEM] = "mem", [PASS_HOT] = "hot", [PASS_COLD] = "cold",
};

static const char *const suite_names[] = {
	[SUITE_ALL] = "all", [SUITE_XEN] = "xen",
	[SUITE_CLEAR] = "clear", [SUITE_COPY] = "copy",
};

static const uint16_t com_ports[] = { 0x3f8, 0x2f8, 0x3e8, 0x2e8 };

const char *pass_id_name(enum pass_id p)
{
	return p < PASS_COUNT ? pass_names[p] : "?";
}

const char *suite_name(enum suite s)
{
	return s <= SUITE_COPY ? suite_names[s] : "?";
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
	static const uint32_t bauds[] = {
		115200, 57600, 38400, 19200, 9600, 4800, 2400, 1200
	};
	char *comma = val;
	uint64_t port, baud = o->baud;
	unsigned int i;

	while (*comma && *comma != ',')
		comma++;
	if (*comma) {
		*comma = '\0';
		for (i = 0; i < sizeof(bauds) / sizeof(bauds[0]); i++)
			if (parse_u64(comma + 1, &baud) && baud == bauds[i])
				break;
		if (i == sizeof(bauds) / sizeof(bauds[0])) {
			error(o, "console=: bad baud rate '%s'; valid: 115200 57600 38400 19200 9600 4800 2400 1200",
			      comma + 1);
			return;
		}
	}
	if (val[0] == 't' && val[1] == 't' && val[2] == 'y' && val[3] == 'S' &&
	    val[4] >= '0' && val[4] <= '3' && !val[5]) {
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

static void parse_tag(struct options *o, const char *val)
{
	unsigned int n;

	for (n = 0; val[n]; n++) {
		char c = val[n];

		if (!((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') ||
		      (c >= '0' && c <= '9') || c == '_') || n >= 15) {
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

static bool add_pass(struct options *o, const char *name)
{
	unsigned int p;

	if (streq(name, "all")) {
		o->passes = (1u << PASS_COUNT) - 1;
		return true;
	}
	for (p = 0; p < PASS_COUNT; p++) {
		if (streq(name, pass_names[p])) {
			o->passes |= 1u << p;
			return true;
		}
	}
	error(o, "passes=: unknown pass '%s'; valid: l1 l1f l2 l2f l3 l3f mem hot cold all",
	      name);
	o->passes = 0;
	return false;
}

static bool suite_has_clear(enum suite s)
{
	return s != SUITE_COPY;
}

static bool suite_has_copy(enum suite s)
{
	return s == SUITE_ALL || s == SUITE_COPY;
}

static void list_variant_names(const struct options *o, char *buf, size_t size)
{
	size_t n = 0;
	unsigned int i;

	buf[0] = '\0';
	for (i = 0; i < clear_variant_count && n < size; i++)
		if (suite_has_clear(o->suite) &&
		    (o->suite != SUITE_XEN || clear_variants[i].xen))
			n += fmt_snprintf(buf + n, size - n, " %s", clear_variants[i].name);
	for (i = 0; i < copy_variant_count && n < size; i++)
		if (suite_has_copy(o->suite))
			n += fmt_snprintf(buf + n, size - n, " %s", copy_variants[i].name);
}

/*
 * A name selects the variant of that name in each suite of the run that has
 * one (sse2, avx and avx512 exist in both). Checked once the suite is known,
 * so the order of the words does not matter.
 */
static bool add_variant(struct options *o, const char *name)
{
	char valid[OPT_ERROR_LEN - 96];
	bool found = false;
	unsigned int i;

	for (i = 0; i < clear_variant_count; i++) {
		if (suite_has_clear(o->suite) && streq(name, clear_variants[i].name) &&
		    (o->suite != SUITE_XEN || clear_variants[i].xen)) {
			o->clear_variants |= 1ull << i;
			found = true;
		}
	}
	for (i = 0; i < copy_variant_count; i++) {
		if (suite_has_copy(o->suite) && streq(name, copy_variants[i].name)) {
			o->copy_variants |= 1ull << i;
			found = true;
		}
	}
	if (!found) {
		list_variant_names(o, valid, sizeof(valid));
		error(o, "variants=: no variant '%s' in suite %s; valid:%s",
		      name, suite_names[o->suite], valid);
		/* Fall back to the suite's own variants, as for any bad option. */
		o->clear_variants = o->copy_variants = 0;
		o->variants_arg[0] = '\0';
	}
	return found;
}

/*
 * A feature the CPU offers but cannot execute (a hypervisor's quirk) can be
 * turned off: its variants are then skipped, and say why.
 */
static bool add_disable(struct options *o, const char *name)
{
	char valid[OPT_ERROR_LEN - 64];
	size_t n = 0;
	unsigned int f;

	for (f = FEAT_NONE + 1; f < FEAT_COUNT; f++) {
		if (streq(name, feat_name(f))) {
			o->disable |= 1ull << f;
			return true;
		}
		n += fmt_snprintf(valid + n, n < sizeof(valid) ? sizeof(valid) - n : 0,
				  " %s", feat_name(f));
	}
	error(o, "disable=: unknown feature '%s'; valid:%s", name, valid);
	o->disable = 0;
	return false;
}

static void parse_word(struct options *o, char *word)
{
	char *val = word;
	uint64_t n;

	while (*val && *val != '=')
		val++;
	if (!*val || val == word) {
		error(o, "malformed option '%s'; options are key=value: console= tag= exit= selftest= disable= suite= reps= passes= variants=",
		      word);
		return;
	}
	*val++ = '\0';

	if (streq(word, "console")) {
		parse_console(o, val);
	} else if (streq(word, "tag")) {
		parse_tag(o, val);
	} else if (streq(word, "exit")) {
		if (streq(val, "qemu"))
			o->exit = EXIT_QEMU;
		else if (streq(val, "halt"))
			o->exit = EXIT_HALT;
		else if (streq(val, "reboot"))
			o->exit = EXIT_REBOOT;
		else
			error(o, "exit=: unknown '%s'; valid: qemu halt reboot", val);
	} else if (streq(word, "selftest")) {
		if (streq(val, "ud"))
			o->selftest = SELFTEST_UD;
		else if (streq(val, "map"))	/* screen: mapping a far framebuffer */
			o->selftest = SELFTEST_MAP;
		else
			error(o, "selftest=: unknown '%s'; valid: ud map", val);
	} else if (streq(word, "disable")) {
		o->disable = 0;
		each_name(o, "disable", val, add_disable);
	} else if (streq(word, "suite")) {
		unsigned int s;

		for (s = 0; s <= SUITE_COPY; s++)
			if (streq(val, suite_names[s]))
				break;
		if (s <= SUITE_COPY)
			o->suite = s;
		else
			error(o, "suite=: unknown '%s'; valid: all xen clear copy", val);
	} else if (streq(word, "reps")) {
		if (parse_u64(val, &n) && n >= 1 && n <= REPS_MAX)
			o->reps = (unsigned int)n;
		else
			error(o, "reps=: bad count '%s'; valid: a number from 1 to %u",
			      val, REPS_MAX);
	} else if (streq(word, "passes")) {
		o->passes = 0;
		each_name(o, "passes", val, add_pass);
	} else if (streq(word, "variants")) {
		for (n = 0; val[n]; n++)
			o->variants_arg[n] = val[n];
		o->variants_arg[n] = '\0';
		if (!n)
			error(o, "variants=: empty list");
	} else {
		error(o, "unknown option '%s'; valid: console= tag= exit= selftest= disable= suite= reps= passes= variants=",
		      word);
	}
}

/* Checks that need the suite, which may come after the other words. */
static void check_with_suite(struct options *o)
{
	uint32_t xen_passes = (1u << PASS_L1) | (1u << PASS_L1F) |
			      (1u << PASS_L2) | (1u << PASS_L2F);
	uint32_t copy_passes = (1u << PASS_HOT) | (1u << PASS_COLD);
	char list[sizeof(o->variants_arg)];
	unsigned int i;

	/* each_name() cuts its argument up; variants_arg stays as given. */
	for (i = 0; i < sizeof(list); i++)
		list[i] = o->variants_arg[i];
	if (list[0])
		each_name(o, "variants", list, add_variant);

	if (o->suite == SUITE_XEN && (o->passes & ~xen_passes)) {
		error(o, "passes=: suite xen has only l1 l1f l2 l2f");
		o->passes = 0;
	} else if (o->suite == SUITE_CLEAR && (o->passes & copy_passes)) {
		error(o, "passes=: hot and cold are copy passes; suite clear has l1 l1f l2 l2f l3 l3f mem");
		o->passes = 0;
	}
}

void options_parse(struct options *o, const char *cmdline)
{
	char word[WORD_MAX];
	bool first = true;
	const char *p = cmdline ? cmdline : "";

	*o = (struct options){
		.tag = "PB",
		.console_port = 0x3f8,
		.baud = 115200,
	};

	while (*p) {
		unsigned int n = 0;

		while (*p == ' ' || *p == '\t')
			p++;
		if (!*p)
			break;
		while (*p && *p != ' ' && *p != '\t') {
			if (n + 1 < sizeof(word))
				word[n] = *p;
			n++;
			p++;
		}
		word[n < sizeof(word) ? n : sizeof(word) - 1] = '\0';
		/* Multiboot loaders put the image's path first: it is no option. */
		if (first) {
			unsigned int k;
			bool has_eq = false;

			first = false;
			for (k = 0; word[k]; k++)
				has_eq |= word[k] == '=';
			if (!has_eq)
				continue;
		}
		if (n >= sizeof(word)) {
			error(o, "option too long (%u characters, at most %u)",
			      n, (unsigned int)sizeof(word) - 1);
			continue;
		}
		parse_word(o, word);
	}
	check_with_suite(o);
}

bool option_runs_clear(const struct options *o, unsigned int i)
{
	if (!suite_has_clear(o->suite))
		return false;
	if (o->variants_arg[0])
		return (o->clear_variants >> i) & 1;
	return o->suite != SUITE_XEN || clear_variants[i].xen;
}

bool option_runs_copy(const struct options *o, unsigned int i)
{
	if (!suite_has_copy(o->suite))
		return false;
	if (o->variants_arg[0])
		return (o->copy_variants >> i) & 1;
	return true;
}
