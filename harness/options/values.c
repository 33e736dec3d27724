/* SPDX-License-Identifier: MIT */
/*
 * The options whose value is a number, a size, a time or text: console=,
 * tag=, reps=, precision=, budget=, time=, variants= (kept as given, checked once
 * the suite is known), cpu=, cpus=, watchdog=, scrub= and sizes=.
 */
#include "lib/run.h"
#include "harness/options/internal.h"

static const uint16_t com_ports[] = { 0x3f8, 0x2f8, 0x3e8, 0x2e8 };
static const uint32_t bauds[] = {
	115200, 57600, 38400, 19200, 9600, 4800, 2400, 1200
};

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

/* src into dst, cut to fit; its length there. */
static unsigned int copy_word(char *dst, size_t size, const char *src)
{
	unsigned int n;

	for (n = 0; src[n] && n + 1 < size; n++)
		dst[n] = src[n];
	dst[n] = '\0';
	return n;
}

/*
 * A whole number from min to max into *out; else the error
 * "key=: bad what 'val'; valid: range from min to max".
 */
static bool parse_count(struct options *o, const char *val, const char *key,
			const char *what, const char *range, unsigned int min,
			unsigned int max, unsigned int *out)
{
	uint64_t n;

	if (parse_u64(val, &n) && n >= min && n <= max) {
		*out = (unsigned int)n;
		return true;
	}
	opt_error(o, "%s=: bad %s '%s'; valid: %s from %u to %u",
		  key, what, val, range, min, max);
	return false;
}

void parse_console(struct options *o, char *val)
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
			opt_error(o, "console=: bad baud rate '%s'; valid: 115200 57600 38400 19200 9600 4800 2400 1200",
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
		opt_error(o, "console=: bad port '%s'; valid: ttyS0 ttyS1 ttyS2 ttyS3 or an I/O address like 0x3f8, then optionally ,BAUD",
			  val);
		return;
	}
	o->console_port = (uint16_t)port;
	o->baud = (uint32_t)baud;
}

void parse_tag(struct options *o, char *val)
{
	unsigned int n;

	for (n = 0; val[n]; n++) {
		char c = val[n];

		if (!((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') ||
		      (c >= '0' && c <= '9') || c == '_') || n >= sizeof(o->tag) - 1) {
			opt_error(o, "tag=: bad tag '%s'; valid: 1 to 15 characters of A-Z a-z 0-9 _",
				  val);
			return;
		}
	}
	if (!n) {
		opt_error(o, "tag=: empty; valid: 1 to 15 characters of A-Z a-z 0-9 _");
		return;
	}
	copy_word(o->tag, sizeof(o->tag), val);
}

void parse_reps(struct options *o, char *val)
{
	parse_count(o, val, "reps", "count", "a number", 1, REPS_MAX, &o->reps);
}

/*
 * key=P%: a per cent with at most decimals decimals (1 or 2), the %
 * optional, into hundredths of a per cent, from min_bp to max_bp.
 */
static void parse_percent(struct options *o, const char *key, char *val,
			  unsigned int decimals_max, unsigned int min_bp,
			  unsigned int max_bp, unsigned int *out)
{
	uint64_t whole = 0, frac = 0;
	unsigned int n = 0, decimals = 0;
	bool ok = val[0] >= '0' && val[0] <= '9';

	for (; ok && val[n] >= '0' && val[n] <= '9' && whole <= max_bp; n++)
		whole = whole * 10 + (uint64_t)(val[n] - '0');
	if (ok && val[n] == '.') {
		for (n++; val[n] >= '0' && val[n] <= '9' && decimals <= decimals_max; n++, decimals++)
			frac = frac * 10 + (uint64_t)(val[n] - '0');
		ok = decimals >= 1 && decimals <= decimals_max;
		if (decimals == 1)
			frac *= 10;
	}
	if (ok && val[n] == '%')
		n++;
	ok = ok && !val[n];
	if (ok && whole * 100 + frac >= min_bp && whole * 100 + frac <= max_bp)
		*out = (unsigned int)(whole * 100 + frac);
	else
		opt_error(o, "%s=: bad value '%s'; valid: a per cent from %u.%u%% to %u%%%s, like %s",
			  key, val, min_bp / 100, min_bp % 100 / 10, max_bp / 100,
			  decimals_max == 1 ? " in steps of 0.1%" : "",
			  decimals_max == 1 ? "3% or 0.5%" : "1% or 0.5%");
}

/* precision=P%: two decimals at most. */
void parse_precision(struct options *o, char *val)
{
	parse_percent(o, "precision", val, 2, PRECISION_MIN_BP, PRECISION_MAX_BP,
		      &o->precision_bp);
}

/* worth=P%: one decimal at most, as the answer lines print it. */
void parse_worth(struct options *o, char *val)
{
	parse_percent(o, "worth", val, 1, WORTH_MIN_BP, WORTH_MAX_BP, &o->worth_bp);
}

/* A time with its unit, 500ms or 2s, from min_ms to max_ms; false if not. */
static bool parse_ms(const char *val, uint64_t min_ms, uint64_t max_ms,
		     uint64_t *ms)
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
		if (!str_eq(val + n, units[i].unit) || !parse_u64(num, &v))
			continue;
		if (v <= max_ms / units[i].ms && v * units[i].ms >= min_ms) {
			*ms = v * units[i].ms;
			return true;
		}
		break;
	}
	return false;
}

/* budget=T: a time per pass, with its unit: 500ms, 2s. */
void parse_budget(struct options *o, char *val)
{
	if (!parse_ms(val, BUDGET_MIN_MS, BUDGET_MAX_MS, &o->budget_ms))
		opt_error(o, "budget=: bad time '%s'; valid: a time per pass from %ums to %us, like 500ms or 2s",
			  val, BUDGET_MIN_MS, BUDGET_MAX_MS / 1000);
}

/* time=T: the whole run's time, with its unit: 30s, 1500ms. */
void parse_time(struct options *o, char *val)
{
	if (!parse_ms(val, TIME_MIN_MS, TIME_MAX_MS, &o->time_ms))
		opt_error(o, "time=: bad time '%s'; valid: the whole run's time from %us to %us, like 30s or 2000ms",
			  val, TIME_MIN_MS / 1000, TIME_MAX_S);
}

void parse_variants(struct options *o, char *val)
{
	/* Names are checked in options_finish(), once the suite is known. */
	if (!copy_word(o->variants_arg, sizeof(o->variants_arg), val))
		opt_error(o, "variants=: empty list");
}

void parse_log(struct options *o, char *val)
{
	size_t n = 0;

	while (val[n])
		n++;
	if (!n)
		opt_error(o, "log=: empty; valid: the path of a new file, or - for standard output");
	else if (n + 1 > sizeof(o->log_path))
		opt_error(o, "log=: path longer than %u characters",
			  (unsigned int)sizeof(o->log_path) - 1);
	else
		copy_word(o->log_path, sizeof(o->log_path), val);
}

void parse_cpu(struct options *o, char *val)
{
	unsigned int cpu;

	if (parse_count(o, val, "cpu", "CPU", "a CPU number", 0, CPU_NUMBER_MAX, &cpu))
		o->cpu = (int)cpu;
}

/* cpus=N: how many CPUs take part, the first (the caller's) included. */
void parse_cpus(struct options *o, char *val)
{
	parse_count(o, val, "cpus", "count", "a number", 1, RUN_CPUS_MAX, &o->cpus);
}

/* watchdog=S: how long one step may run before its CPU counts as stuck. */
void parse_watchdog(struct options *o, char *val)
{
	parse_count(o, val, "watchdog", "time", "seconds", 1, WATCHDOG_S_MAX,
		    &o->watchdog_s);
}

void parse_stall_limit(struct options *o, char *val)
{
	parse_count(o, val, "stall_limit_ms", "time", "milliseconds", 1,
		    STALL_LIMIT_MS_MAX, &o->stall_limit_ms);
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

void parse_scrub(struct options *o, char *val)
{
	char given[OPT_WORD_MAX];
	uint64_t bytes;

	/* parse_size() cuts the suffix off val; the error shows it whole. */
	copy_word(given, sizeof(given), val);
	if (parse_size(val, &bytes) && bytes >= SCRUB_MIN && bytes <= SCRUB_MAX &&
	    bytes % 4096 == 0)
		o->scrub_bytes = bytes;
	else
		opt_error(o, "scrub=: bad size '%s'; valid: whole 4 KiB pages from 1M to 1T, like 256M or 4G",
			  given);
}

/* --- suite=strings (issue 12): sizes= --- */

/* One size into o->sizes, kept ascending; false (and the default) on error. */
static bool add_size(struct options *o, const char *word)
{
	uint64_t n;
	unsigned int i, j;

	if (!parse_u64(word, &n) || n > STRINGS_SIZE_LIMIT) {
		opt_error(o, "sizes=: bad size '%s'; valid: byte counts from 0 to %u, comma-separated",
			  word, STRINGS_SIZE_LIMIT);
		o->nsizes = 0;
		return false;
	}
	for (i = 0; i < o->nsizes && o->sizes[i] < n; i++)
		;
	if (i < o->nsizes && o->sizes[i] == n) {
		opt_error(o, "sizes=: %s given twice", word);
	} else if (o->nsizes == STRINGS_SIZES_MAX) {
		opt_error(o, "sizes=: more than %u sizes", STRINGS_SIZES_MAX);
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

void parse_sizes(struct options *o, char *val)
{
	o->nsizes = 0;
	opt_each_name(o, "sizes", val, add_size);
}
