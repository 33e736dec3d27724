// SPDX-License-Identifier: MIT
/*
 * Parsing CPUID dumps. The input is untrusted text of unknown origin, so
 * every read is bounded by the line length, never by a NUL terminator.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "tools/cpuid_dump.h"

/* One CPU of the largest known dump has ~150 register lines. */
#define DUMP_MAX_ENTRIES 65536
#define DUMP_MAX_BYTES (256u << 20)

#define L1_ECX_XSAVE	(1u << 26)
#define L1_ECX_OSXSAVE	(1u << 27)

/* A cursor over one line. */
struct cur {
	const char *p, *end;
};

static int hexval(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

static void skip_blanks(struct cur *c)
{
	while (c->p < c->end && (*c->p == ' ' || *c->p == '\t'))
		c->p++;
}

static bool eat(struct cur *c, const char *lit)
{
	size_t n = strlen(lit);

	if ((size_t)(c->end - c->p) < n || memcmp(c->p, lit, n) != 0)
		return false;
	c->p += n;
	return true;
}

/* Exactly `digits` hex digits, as both formats print registers. */
static bool hex_exact(struct cur *c, int digits, uint32_t *v)
{
	uint32_t x = 0;

	if (c->end - c->p < digits)
		return false;
	for (int i = 0; i < digits; i++) {
		int h = hexval(c->p[i]);

		if (h < 0)
			return false;
		x = x << 4 | (uint32_t)h;
	}
	c->p += digits;
	*v = x;
	return true;
}

/* 1 to 8 hex digits, for subleaf labels. */
static bool hex_var(struct cur *c, uint32_t *v)
{
	uint32_t x = 0;
	int n = 0;

	while (c->p < c->end && hexval(*c->p) >= 0) {
		if (++n > 8)
			return false;
		x = x << 4 | (uint32_t)hexval(*c->p);
		c->p++;
	}
	*v = x;
	return n > 0;
}

/* After the last register: end of line, or blanks and comments. */
static bool at_field_end(const struct cur *c)
{
	return c->p == c->end || *c->p == ' ' || *c->p == '\t' ||
	       *c->p == '\r' || *c->p == '[';
}

/*
 * "CPUID 0000" (cut short) is a broken register line, but "CPUID CPU
 * Name : ..." is AIDA64's text: the word after "CPUID " must be all hex.
 */
static bool hex_word(const struct cur *c)
{
	const char *q = c->p;

	while (q < c->end && *q != ':' && *q != ' ' && *q != '\t' &&
	       *q != '\r') {
		if (hexval(*q) < 0)
			return false;
		q++;
	}
	return q > c->p;
}

enum line_kind { LINE_OTHER, LINE_REGS, LINE_BAD };

struct parsed {
	uint32_t leaf, subleaf;
	bool leaf_known, has_subleaf;
	struct cpuid_regs r;
	const char *why;
};

/* "CPUID 00000007: 00000000-D39FFFFB-00000000-00000000 [SL 00] [...]" */
static enum line_kind parse_aida(struct cur *c, struct parsed *out)
{
	uint32_t regs[4];

	if (!eat(c, "CPUID ") || !hex_word(c))
		return LINE_OTHER;
	if (!hex_exact(c, 8, &out->leaf) || !eat(c, ":")) {
		out->why = "bad leaf number";
		return LINE_BAD;
	}
	out->leaf_known = true;
	skip_blanks(c);
	for (int i = 0; i < 4; i++) {
		if (i > 0 && !eat(c, "-")) {
			out->why = i == 3 ? "only three registers" :
					    "fewer than four registers";
			return LINE_BAD;
		}
		if (!hex_exact(c, 8, &regs[i])) {
			out->why = "register is not 8 hex digits (truncated line?)";
			return LINE_BAD;
		}
	}
	if (!at_field_end(c)) {
		out->why = "junk after the fourth register";
		return LINE_BAD;
	}
	out->r = (struct cpuid_regs){ regs[0], regs[1], regs[2], regs[3] };

	/* Only a label in the first bracket is a subleaf; later ones are notes. */
	skip_blanks(c);
	if (eat(c, "[SL ")) {
		if (!hex_var(c, &out->subleaf) || !eat(c, "]")) {
			out->why = "bad [SL nn] label";
			return LINE_BAD;
		}
		out->has_subleaf = true;
	}
	return LINE_REGS;
}

/* "   0x00000007 0x00: eax=0x00000001 ebx=0xf1bf07ab ecx=... edx=..." */
static enum line_kind parse_cpuid_tool(struct cur *c, struct parsed *out)
{
	static const char *const names[4] = { "eax=0x", "ebx=0x", "ecx=0x",
					      "edx=0x" };
	uint32_t regs[4];

	if (!eat(c, "0x"))
		return LINE_OTHER;
	if (!hex_exact(c, 8, &out->leaf)) {
		out->why = "bad leaf number";
		return LINE_BAD;
	}
	out->leaf_known = true;
	skip_blanks(c);
	if (!eat(c, "0x") || !hex_var(c, &out->subleaf) || !eat(c, ":")) {
		out->why = "bad subleaf";
		return LINE_BAD;
	}
	out->has_subleaf = true;
	for (int i = 0; i < 4; i++) {
		skip_blanks(c);
		if (!eat(c, names[i])) {
			out->why = i == 3 ? "only three registers" :
					    "fewer than four registers";
			return LINE_BAD;
		}
		if (!hex_exact(c, 8, &regs[i]) || !at_field_end(c)) {
			out->why = "register is not 8 hex digits (truncated line?)";
			return LINE_BAD;
		}
	}
	out->r = (struct cpuid_regs){ regs[0], regs[1], regs[2], regs[3] };
	return LINE_REGS;
}

static enum line_kind parse_line(const char *p, size_t n, struct parsed *out)
{
	struct cur c = { p, p + n };
	enum line_kind k;

	*out = (struct parsed){ 0 };
	skip_blanks(&c);
	k = parse_aida(&c, out);
	if (k != LINE_OTHER)
		return k;
	c.p = p;
	skip_blanks(&c);
	return parse_cpuid_tool(&c, out);
}

static struct cpuid_dump_entry *find(const struct cpuid_dump *dump,
				     uint32_t leaf, uint32_t subleaf)
{
	for (size_t i = 0; i < dump->count; i++)
		if (dump->entries[i].leaf == leaf &&
		    dump->entries[i].subleaf == subleaf)
			return &dump->entries[i];
	return NULL;
}

static int add(struct cpuid_dump *dump, uint32_t leaf, uint32_t subleaf,
	       const struct cpuid_regs *r)
{
	if (find(dump, leaf, subleaf))
		return 0;	/* the first recording wins */
	if (dump->count == dump->cap) {
		size_t cap = dump->cap ? dump->cap * 2 : 256;
		struct cpuid_dump_entry *e;

		if (cap > DUMP_MAX_ENTRIES)
			return -1;
		e = realloc(dump->entries, cap * sizeof(*e));
		if (!e)
			return -1;
		dump->entries = e;
		dump->cap = cap;
	}
	dump->entries[dump->count++] =
		(struct cpuid_dump_entry){ leaf, subleaf, *r };
	return 0;
}

int cpuid_dump_parse(struct cpuid_dump *dump, const char *buf, size_t len,
		     const char *name, FILE *err)
{
	const char *p = buf, *end = buf + len;
	unsigned long lineno = 0;
	uint32_t run_leaf = 0;
	unsigned int run_len = 0;	/* lines of run_leaf so far */
	bool seen_leaf0 = false, any_line = false;

	*dump = (struct cpuid_dump){ 0 };
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t n = nl ? (size_t)(nl - p) : (size_t)(end - p);
		struct parsed ln;
		enum line_kind k;

		lineno++;
		k = parse_line(p, n, &ln);
		p += n + (nl ? 1 : 0);
		if (k == LINE_OTHER)
			continue;

		if (ln.leaf_known) {
			/* A second leaf 0 is the next logical CPU. */
			if (ln.leaf == 0 && seen_leaf0)
				break;
			if (ln.leaf == 0)
				seen_leaf0 = true;
			if (any_line && ln.leaf == run_leaf) {
				run_len++;
			} else {
				run_leaf = ln.leaf;
				run_len = 1;
			}
			any_line = true;
		}
		if (k == LINE_BAD) {
			dump->rejected++;
			if (err)
				fprintf(err, "%s:%lu: rejected register line: %s\n",
					name, lineno, ln.why);
			continue;
		}
		/* Unlabelled lines of one leaf are its subleaves in order. */
		if (!ln.has_subleaf)
			ln.subleaf = run_len - 1;
		if (add(dump, ln.leaf, ln.subleaf, &ln.r) < 0) {
			if (err)
				fprintf(err, "%s:%lu: too many register lines\n",
					name, lineno);
			break;
		}
	}

	if (dump->count == 0) {
		if (err)
			fprintf(err, "%s: not a CPUID dump: no register line found\n",
				name);
		cpuid_dump_free(dump);
		return -1;
	}
	if (!find(dump, 0, 0)) {
		if (err)
			fprintf(err, "%s: no usable leaf 0 (vendor and max leaf)\n",
				name);
		cpuid_dump_free(dump);
		return -1;
	}
	return 0;
}

static char *slurp(FILE *f, size_t *len)
{
	size_t cap = 1 << 16, n = 0;
	char *buf = malloc(cap);

	if (!buf)
		return NULL;
	for (;;) {
		size_t got = fread(buf + n, 1, cap - n, f);

		n += got;
		if (n < cap) {
			if (ferror(f)) {
				free(buf);
				return NULL;
			}
			break;
		}
		if (cap >= DUMP_MAX_BYTES) {
			free(buf);
			errno = EFBIG;
			return NULL;
		}
		char *nb = realloc(buf, cap * 2);

		if (!nb) {
			free(buf);
			return NULL;
		}
		buf = nb;
		cap *= 2;
	}
	*len = n;
	return buf;
}

int cpuid_dump_load(struct cpuid_dump *dump, const char *path, FILE *err)
{
	bool is_stdin = strcmp(path, "-") == 0;
	const char *name = is_stdin ? "<stdin>" : path;
	FILE *f = is_stdin ? stdin : fopen(path, "rb");
	size_t len = 0;
	char *buf;
	int ret;

	*dump = (struct cpuid_dump){ 0 };
	if (!f) {
		if (err)
			fprintf(err, "%s: %s\n", name, strerror(errno));
		return -1;
	}
	errno = 0;
	buf = slurp(f, &len);
	if (!buf) {
		if (err)
			fprintf(err, "%s: cannot read: %s\n", name,
				strerror(errno ? errno : EIO));
		if (!is_stdin)
			fclose(f);
		return -1;
	}
	if (!is_stdin)
		fclose(f);
	ret = cpuid_dump_parse(dump, buf, len, name, err);
	free(buf);
	return ret;
}

void cpuid_dump_free(struct cpuid_dump *dump)
{
	free(dump->entries);
	*dump = (struct cpuid_dump){ 0 };
}

bool cpuid_dump_get(const struct cpuid_dump *dump, uint32_t leaf,
		    uint32_t subleaf, struct cpuid_regs *out)
{
	const struct cpuid_dump_entry *e = find(dump, leaf, subleaf);

	*out = e ? e->regs : (struct cpuid_regs){ 0 };
	return e != NULL;
}

/* The max leaf of leaf's range, or UINT32_MAX for ranges without one. */
static uint32_t range_max(const struct cpuid_dump *dump, uint32_t leaf)
{
	uint32_t base = leaf & 0xf0000000u;
	struct cpuid_regs r;

	if (base != 0 && base != 0x40000000u && base != 0x80000000u)
		return UINT32_MAX;
	if (!cpuid_dump_get(dump, base, 0, &r))
		return 0;
	if (base == 0)
		return r.eax;
	/* A range whose first leaf does not name a leaf in it is absent. */
	if ((r.eax & 0xf0000000u) != base)
		return base == 0x40000000u ? base : 0;
	return r.eax;
}

static bool has_leaf(const struct cpuid_dump *dump, uint32_t leaf)
{
	for (size_t i = 0; i < dump->count; i++)
		if (dump->entries[i].leaf == leaf)
			return true;
	return false;
}

/*
 * The basic and extended ranges say how far they go, so a leaf of theirs
 * that no line gives was cut from the dump, not absent from the CPU. The
 * hypervisor range is not checked: bare-metal dumps have none.
 */
static void note_missing(struct cpuid_dump *dump, uint32_t leaf)
{
	uint32_t base = leaf & 0xf0000000u;
	unsigned int i;

	if ((base != 0 && base != 0x80000000u) || has_leaf(dump, leaf))
		return;
	if (leaf != base && leaf > range_max(dump, leaf))
		return;
	for (i = 0; i < dump->nmissing; i++)
		if (dump->missing[i] == leaf)
			return;
	if (dump->nmissing < CPUID_DUMP_MISSING_MAX)
		dump->missing[dump->nmissing++] = leaf;
}

static void dump_query(void *ctx, uint32_t leaf, uint32_t subleaf,
		       struct cpuid_regs *out)
{
	struct cpuid_dump *dump = ctx;
	uint32_t base = leaf & 0xf0000000u;

	note_missing(dump, leaf);
	if (leaf != base && leaf > range_max(dump, leaf)) {
		*out = (struct cpuid_regs){ 0 };
		return;
	}
	cpuid_dump_get(dump, leaf, subleaf, out);
	/*
	 * pagebench's boot sets CR4.OSXSAVE whenever CPUID reports XSAVE,
	 * whatever the OS that made the dump did; the host tool pairs this
	 * with XCR0 = cpu_xcr0_wanted(), so it predicts what the kernel
	 * will decide rather than what the dumping OS had enabled.
	 */
	if (leaf == 1) {
		out->ecx &= ~L1_ECX_OSXSAVE;
		if (out->ecx & L1_ECX_XSAVE)
			out->ecx |= L1_ECX_OSXSAVE;
	}
}

void cpuid_dump_source(struct cpuid_source *src, struct cpuid_dump *dump)
{
	src->query = dump_query;
	src->ctx = dump;
}
