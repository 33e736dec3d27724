/* SPDX-License-Identifier: MIT */
/*
 * The selection rules evaluated on this CPU, for the answer
 * (harness/decide/answer.c): the one evaluator, the first-row reading
 * three-valued (a log that names no CPU: tests/unit/test_rules_logic.c);
 * the report reads the answer lines and evaluates no rule
 * (tests/report/test_report_decides_nothing.py).
 */
#include <stddef.h>
#include "cpu/cpu.h"
#include "cpu/describe.h"
#include "harness/decide/rules.h"
#include "lib/fmt.h"
#include "lib/str.h"

/* Facts whose every value can be tried (rules.py BOOL_FACTS): MSR bits. */
static const char *const bool_facts[] = { "fast_string" };
#define NBOOL_FACTS (sizeof(bool_facts) / sizeof(bool_facts[0]))
/* era_pick() tries the one the evaluator can assume. */
_Static_assert(NBOOL_FACTS == 1, "era_pick() assumes fast_string alone");

/* The hosts pass live_facts.fast_string on as it is. */
_Static_assert(FACT_UNKNOWN == FAST_STRING_UNKNOWN, "one value for an unread MSR");

/* Distinct flags a kernel's conditions name (rules/synthetic.rules has 8). */
#define MEMO_MAX 16

const char *rule_kernel_name(enum rule_kernel k)
{
	return k == RULE_LINUX ? "linux" : k == RULE_XEN ? "xen" : "?";
}

static int compare(const char *a, const char *b)
{
	while (*a && *a == *b)
		a++, b++;
	return (unsigned char)*a - (unsigned char)*b;
}

static bool is_flag(const char *name)
{
	for (; *name; name++)
		if (*name >= 'a' && *name <= 'z')
			return false;
	return true;
}

/*
 * CPUID.1 EAX put back together from the cpu line's family, model and
 * stepping, as rules.py's cpuid1_eax() does: the report has only the line,
 * and the verdict lines must agree with it. (The register also holds the
 * processor type, bits 12-13, which the line does not carry.)
 */
static uint32_t signature_eax(const struct cpu_desc *d)
{
	uint32_t base = d->family >= 0xf ? 0xf : d->family;
	uint32_t ext_f = d->family >= 0xf ? d->family - 0xf : 0;
	uint32_t ext_m = d->family == 0x6 || d->family >= 0xf ? d->model >> 4 : 0;

	return ext_f << 20 | ext_m << 16 | base << 8 | (d->model & 0xf) << 4 |
	       (d->stepping & 0xf);
}

void rule_facts_init(struct rule_facts *f, const struct cpu_desc *d,
		     int fast_string)
{
	unsigned int i, j = 0;

	/* describe.c's vendor token: no spaces, '?' for what is not printable. */
	for (i = 0; i < 12 && d->vendor[i]; i++)
		if (d->vendor[i] != ' ')
			f->vendor[j++] = d->vendor[i] > 0x20 && d->vendor[i] < 0x7f ?
					 d->vendor[i] : '?';
	if (!j)
		for (const char *s = "unknown"; *s; s++)
			f->vendor[j++] = *s;
	f->vendor[j] = '\0';
	f->cpu = d;
	f->fast_string = fast_string;
	f->cpu_known = true;
	f->feats_known = ~0ull;
}

/* -- versions ------------------------------------------------------------- */

static unsigned int vpart(const struct rule_version *v, unsigned int i)
{
	return i < v->n ? v->part[i] : 0;
}

/* a < b as releases: 6.4 < 6.4.1 < 6.15. */
static bool vless(const struct rule_version *a, const struct rule_version *b)
{
	unsigned int i;

	for (i = 0; i < RULE_VERSION_PARTS; i++)
		if (vpart(a, i) != vpart(b, i))
			return vpart(a, i) < vpart(b, i);
	return false;
}

static bool vequal(const struct rule_version *a, const struct rule_version *b)
{
	unsigned int i;

	if (a->n != b->n)
		return false;
	for (i = 0; i < a->n; i++)
		if (a->part[i] != b->part[i])
			return false;
	return true;
}

static bool contains(const struct rule_version *lo, const struct rule_version *hi,
		     const struct rule_version *v)
{
	return (!lo->n || !vless(v, lo)) && (!hi->n || vless(v, hi));
}

/* A version just below v: 7.0 -> 6.9999 (rules.py _before()). */
static struct rule_version before(const struct rule_version *v)
{
	struct rule_version b = *v;
	int i, k;

	for (i = v->n - 1; i >= 0; i--) {
		if (v->part[i]) {
			b.part[i]--;
			for (k = i + 1; k < v->n; k++)
				b.part[k] = 9999;
			return b;
		}
	}
	return (struct rule_version){ 1, { 0 } };
}

static struct rule_version bump(const struct rule_version *v)
{
	struct rule_version b = *v;

	b.part[b.n - 1]++;
	return b;
}

static size_t vtext(char *buf, size_t len, const struct rule_version *v)
{
	size_t at = 0;
	unsigned int i;

	for (i = 0; i < v->n; i++)
		at += fmt_snprintf(buf + at, at < len ? len - at : 0, "%s%u",
				   i ? "." : "", v->part[i]);
	return at;
}

/* rules.py era_text(). */
static void era_text(char *buf, size_t len, const struct rule_version *lo,
		     const struct rule_version *hi)
{
	char a[24], b[24];
	struct rule_version next;

	if (lo->n)
		vtext(a, sizeof(a), lo);
	if (hi->n)
		vtext(b, sizeof(b), hi);
	if (!lo->n && !hi->n) {
		fmt_snprintf(buf, len, "*");
		return;
	}
	if (!lo->n) {
		fmt_snprintf(buf, len, "<%s", b);
		return;
	}
	if (!hi->n) {
		fmt_snprintf(buf, len, ">=%s", a);
		return;
	}
	next = bump(lo);
	if (vequal(&next, hi))
		fmt_snprintf(buf, len, "%s", a);
	else
		fmt_snprintf(buf, len, ">=%s <%s", a, b);
}

/* -- truth with needs ------------------------------------------------------ */

enum truth { FALSE_, TRUE_, UNKNOWN_ };

static void needs_add(struct rule_needs *n, const char *name)
{
	unsigned int i, k;
	int c = 1;

	for (i = 0; i < n->n && (c = compare(n->name[i], name)) < 0; i++)
		;
	if (i < n->n && c == 0)
		return;
	if (n->n == RULE_NEEDS_MAX)
		return;		/* cannot happen with today's tables: 1 at most */
	for (k = n->n; k > i; k--)
		fmt_snprintf(n->name[k], RULE_NEED_LEN, "%s", n->name[k - 1]);
	fmt_snprintf(n->name[i], RULE_NEED_LEN, "%s", name);
	n->n++;
}

static void needs_merge(struct rule_needs *into, const struct rule_needs *from)
{
	unsigned int i;

	for (i = 0; i < from->n; i++)
		needs_add(into, from->name[i]);
}

/* A value: a number, a word, or unknown (with what it needs). */
struct value {
	enum truth known;	/* TRUE_ known, UNKNOWN_ not */
	const char *word;
	int64_t number;
	struct rule_needs needs;
};

struct evaluator {
	enum rule_kernel kernel;
	struct rule_version version;
	const struct rule_facts *facts;
	int fast_string;		/* the facts', or an assumed value */
	const struct rule_running *running;	/* its flags, or NULL */
	unsigned int nmemo;
	struct memo {
		const char *flag;
		struct value v;
	} memo[MEMO_MAX];
};

static struct value flag_value(struct evaluator *ev, const char *name);

static struct value number(int64_t x)
{
	return (struct value){ .known = TRUE_, .number = x };
}

static struct value unknown(const char *need)
{
	struct value v = { .known = UNKNOWN_ };

	needs_add(&v.needs, need);
	return v;
}

static struct value lookup(struct evaluator *ev, const char *name)
{
	const struct cpu_desc *d = ev->facts->cpu;
	unsigned int f;

	if (is_flag(name))
		return flag_value(ev, name);
	if (!ev->facts->cpu_known &&
	    (str_eq(name, "vendor") || str_eq(name, "family") || str_eq(name, "model") ||
	     str_eq(name, "stepping") || str_eq(name, "vfm") || str_eq(name, "cpuid1_eax")))
		return unknown(name);
	if (str_eq(name, "vendor"))
		return (struct value){ .known = TRUE_, .word = ev->facts->vendor };
	if (str_eq(name, "family"))
		return number(d->family);
	if (str_eq(name, "model"))
		return number(d->model);
	if (str_eq(name, "stepping"))
		return number(d->stepping);
	if (str_eq(name, "vfm"))
		return number(d->family << 8 | d->model);
	if (str_eq(name, "cpuid1_eax"))
		return number(signature_eax(d));
	if (str_eq(name, "fast_string"))
		return ev->fast_string == FACT_UNKNOWN ? unknown(name) :
		       number(ev->fast_string);
	for (f = FEAT_NONE + 1; f < FEAT_COUNT; f++)
		if (str_eq(name, feat_name(f)))
			return (ev->facts->feats_known >> f) & 1 ?
			       number(cpu_has(d, f)) : unknown(name);
	return unknown(name);
}

static enum truth eval_atom(struct evaluator *ev, const struct rule_atom *a,
			    struct rule_needs *needs)
{
	struct value got = lookup(ev, a->name);
	int c;

	if (got.known == UNKNOWN_) {
		needs_merge(needs, &got.needs);
		return UNKNOWN_;
	}
	if (a->op == OP_TRUTH) {
		bool t = got.word ? got.word[0] != '\0' : got.number != 0;

		return t != a->negated ? TRUE_ : FALSE_;
	}
	/* A number against a word is never equal (rules.py eval_atom()). */
	if (!a->word != !got.word)
		return a->op == OP_NE ? TRUE_ : FALSE_;
	c = a->word ? compare(got.word, a->word) :
	    got.number < a->number ? -1 : got.number > a->number;
	switch (a->op) {
	case OP_EQ: return c == 0 ? TRUE_ : FALSE_;
	case OP_NE: return c != 0 ? TRUE_ : FALSE_;
	case OP_GE: return c >= 0 ? TRUE_ : FALSE_;
	case OP_LE: return c <= 0 ? TRUE_ : FALSE_;
	case OP_LT: return c < 0 ? TRUE_ : FALSE_;
	case OP_GT: return c > 0 ? TRUE_ : FALSE_;
	case OP_TRUTH: break;
	}
	return FALSE_;
}

/* A conjunction: false if any atom is, else unknown if any is. */
static enum truth eval_condition(struct evaluator *ev, const struct rule_atom *a,
				 unsigned int n, struct rule_needs *needs)
{
	struct rule_needs mine = { 0 };
	unsigned int i;

	for (i = 0; i < n; i++)
		if (eval_atom(ev, &a[i], &mine) == FALSE_)
			return FALSE_;
	if (mine.n) {
		needs_merge(needs, &mine);
		return UNKNOWN_;
	}
	return TRUE_;
}

/*
 * A flag's rows, first that holds wins, read three-valued: a row that may
 * hold adds its value to what the flag may be and the next rows are read
 * too, as if it did not; a row that holds ends the reading. The flag is
 * known when every way through gives one value, whatever the unknown
 * facts are (ERMS=1 on a CPU of unknown vendor with fast strings on).
 */
static struct value flag_value(struct evaluator *ev, const char *name)
{
	struct value res = { .known = UNKNOWN_ };
	struct memo *m;
	unsigned int i;
	int64_t value = 0;
	bool seen = false, apart = false, held = false;
	char why[RULE_NEED_LEN];

	for (i = 0; i < ev->nmemo; i++)
		if (str_eq(ev->memo[i].flag, name))
			return ev->memo[i].v;
	/* What the running kernel shows is what it made of the CPU. */
	for (i = 0; ev->running && i < ev->running->nflags; i++)
		if (str_eq(ev->running->flag[i].flag, name))
			return number(ev->running->flag[i].value);
	if (ev->nmemo == MEMO_MAX)
		return unknown(name);
	m = &ev->memo[ev->nmemo++];
	m->flag = name;
	m->v = unknown(name);		/* a loop in the table */
	for (i = 0; i < flag_rule_count && !held; i++) {
		const struct flag_rule *r = &flag_rules[i];
		enum truth t;

		if (r->kernel != ev->kernel || !str_eq(r->flag, name) ||
		    !contains(&r->lo, &r->hi, &ev->version))
			continue;
		t = eval_condition(ev, r->atom, r->natoms, &res.needs);
		if (t == FALSE_)
			continue;
		held = t == TRUE_;
		apart = apart || (seen && r->value != value);
		value = seen ? value : r->value;
		seen = true;
	}
	if (held && !apart)
		res = number(value);	/* one value every way: known */
	else if (!seen) {
		fmt_snprintf(why, sizeof(why), "a rule for %s on this vendor", name);
		res = unknown(why);
	}
	m->v = res;
	return res;
}

/* Two rows select alike: the same routine and the same variant cell. */
static bool same_row_pick(const struct pick_rule *a, const struct pick_rule *b);

/*
 * The first row that holds, read three-valued as flag_value() reads a
 * flag's: a row that may hold is one way, the rows after it the other;
 * the pick is that row's where every way leads to the same routine.
 * Otherwise NULL, *is_unknown and what the undecidable rows need.
 */
static const struct pick_rule *eval_pick(struct evaluator *ev, const char *entry,
					 bool *is_unknown, struct rule_needs *needs)
{
	const struct pick_rule *first = NULL;
	struct rule_needs mine = { 0 };
	bool differ = false;
	unsigned int i;

	*is_unknown = false;
	for (i = 0; i < pick_rule_count; i++) {
		const struct pick_rule *r = &pick_rules[i];
		enum truth t;

		if (r->kernel != ev->kernel || !str_eq(r->entry, entry) ||
		    !contains(&r->lo, &r->hi, &ev->version))
			continue;
		t = eval_condition(ev, r->atom, r->natoms, &mine);
		if (t == FALSE_)
			continue;
		if (!first)
			first = r;
		else if (!same_row_pick(first, r))
			differ = true;
		if (t == TRUE_) {
			if (!differ)
				return first;
			break;
		}
	}
	if (!first)
		return NULL;		/* no row for this era */
	/* Rows that may hold and lead apart, or no row that surely holds. */
	*is_unknown = true;
	needs_merge(needs, &mine);
	return NULL;
}

static void evaluator_init(struct evaluator *ev, enum rule_kernel k,
			   const struct rule_version *v, const struct rule_facts *f,
			   const struct rule_running *running, int fast_string)
{
	ev->running = running;
	ev->kernel = k;
	ev->version = *v;
	ev->facts = f;
	ev->fast_string = fast_string;
	ev->nmemo = 0;
}

/* Whether an MSR bit is among the facts needed. */
static bool needs_bool_fact(const struct rule_needs *n)
{
	unsigned int i, k;

	for (i = 0; i < n->n; i++)
		for (k = 0; k < NBOOL_FACTS; k++)
			if (str_eq(n->name[i], bool_facts[k]))
				return true;
	return false;
}

/* A row's variant cell as written: the variant, or what it needs. */
static bool same_variant_cell(const struct pick_rule *a, const struct pick_rule *b)
{
	return str_eq(a->variant ? a->variant : "", b->variant ? b->variant : "") &&
	       str_eq(a->needs_variant ? a->needs_variant : "",
		    b->needs_variant ? b->needs_variant : "");
}

static bool same_row_pick(const struct pick_rule *a, const struct pick_rule *b)
{
	return str_eq(a->routine, b->routine) && same_variant_cell(a, b);
}

/* rules.py Pick.str_eq(): the same routine, needs and alternatives. */
static bool same_pick(const struct rule_pick *a, const struct rule_pick *b)
{
	unsigned int i;

	if (!a->rule != !b->rule)
		return false;
	if (a->rule)
		return same_row_pick(a->rule, b->rule);
	if (a->unknown.n != b->unknown.n || a->nalts != b->nalts)
		return false;
	for (i = 0; i < a->unknown.n; i++)
		if (!str_eq(a->unknown.name[i], b->unknown.name[i]))
			return false;
	for (i = 0; i < a->nalts; i++)
		if (!str_eq(a->alt[i].assuming, b->alt[i].assuming) ||
		    !same_variant_cell(a->alt[i].rule, b->alt[i].rule))
			return false;
	return true;
}

const char *rule_pick_variant(const struct rule_pick *p)
{
	return p->rule ? p->rule->variant : NULL;
}

/* One era's pick: false when no row of the kernel covers it. */
static bool era_pick(enum rule_kernel k, const char *entry,
		     const struct rule_facts *f, const struct rule_version *probe,
		     const struct rule_running *running, struct rule_pick *p)
{
	/* A few KiB of memo: not on a kernel stack (one caller at a time). */
	static struct evaluator ev;
	bool is_unknown;
	unsigned int v;

	*p = (struct rule_pick){ .kernel = k, .entry = entry };
	evaluator_init(&ev, k, probe, f, running, f->fast_string);
	p->rule = eval_pick(&ev, entry, &is_unknown, &p->unknown);
	if (!p->rule && !is_unknown)
		return false;
	if (p->rule || !needs_bool_fact(&p->unknown))
		return true;
	/*
	 * Each value of the MSR bit the run could not read, 1 first, with a
	 * pick where that value settles it: where other facts are unknown
	 * too (a log that names no CPU), a value can still settle it, as
	 * fast strings on settle ERMS on any vendor.
	 */
	for (v = 2; v-- > 0;) {
		struct rule_needs n2 = { 0 };
		const struct pick_rule *r;
		bool u2;

		/* bool_facts has one name: fast_string is the one assumed. */
		evaluator_init(&ev, k, probe, f, running, (int)v);
		r = eval_pick(&ev, entry, &u2, &n2);
		if (r && p->nalts < RULE_ALTS_MAX) {
			fmt_snprintf(p->alt[p->nalts].assuming, RULE_NEED_LEN,
				     "%s=%u", bool_facts[0], v);
			p->alt[p->nalts++].rule = r;
		}
	}
	if (p->nalts == 2 && same_row_pick(p->alt[0].rule, p->alt[1].rule)) {
		/* Both values lead to the same routine: known after all. */
		p->rule = p->alt[0].rule;
		p->unknown.n = 0;
		p->nalts = 0;
	}
	return true;
}

unsigned int rule_picks(enum rule_kernel k, const char *entry,
			const struct rule_facts *f, struct rule_pick *out,
			unsigned int max)
{
	const struct rule_version *b = rule_bounds[k];
	unsigned int nb = rule_bound_count[k], e, n = 0;
	static const struct rule_version none = { 0 };

	for (e = 0; e <= nb; e++) {
		const struct rule_version *lo = e ? &b[e - 1] : &none;
		const struct rule_version *hi = e < nb ? &b[e] : &none;
		struct rule_version probe = lo->n ? *lo : hi->n ? before(hi) :
					    (struct rule_version){ 1, { 0 } };
		struct rule_pick p;

		if (!era_pick(k, entry, f, &probe, NULL, &p))
			continue;
		p.lo = *lo;
		p.hi = *hi;
		if (n && same_pick(&out[n - 1], &p))
			out[n - 1].hi = *hi;
		else if (n < max)
			out[n++] = p;
	}
	for (e = 0; e < n; e++) {
		const struct pick_rule *r = out[e].rule;

		if (r && vequal(&r->lo, &out[e].lo) && vequal(&r->hi, &out[e].hi))
			fmt_snprintf(out[e].version, sizeof(out[e].version), "%s",
				     r->versions);
		else
			era_text(out[e].version, sizeof(out[e].version), &out[e].lo,
				 &out[e].hi);
	}
	return n;
}

unsigned int rule_entries(enum rule_kernel k, const char *measured,
			  const char **out, unsigned int max)
{
	unsigned int i, j, n = 0;

	for (i = 0; i < pick_rule_count; i++) {
		const struct pick_rule *r = &pick_rules[i];
		bool seen = false;

		if (r->kernel != k)
			continue;
		for (j = 0; j < n; j++)
			seen = seen || str_eq(out[j], r->entry);
		if (seen)
			continue;
		/* The entry counts when any of its rows is measured so. */
		for (j = 0; j < pick_rule_count; j++)
			if (pick_rules[j].kernel == k && str_eq(pick_rules[j].entry, r->entry) &&
			    str_eq(pick_rules[j].measured, measured))
				break;
		if (j < pick_rule_count && n < max)
			out[n++] = r->entry;
	}
	return n;
}

/* The leading dotted numbers of a release: "6.18.44-fc" -> 6.18.44. */
static bool release_version(const char *s, struct rule_version *v)
{
	unsigned int part = 0;
	bool digits = false;

	*v = (struct rule_version){ 0 };
	for (;; s++) {
		if (*s >= '0' && *s <= '9') {
			if (part > 9999)
				return false;
			part = part * 10 + (unsigned int)(*s - '0');
			digits = true;
			continue;
		}
		if (!digits || v->n == RULE_VERSION_PARTS)
			break;
		v->part[v->n++] = (uint16_t)part;
		part = 0;
		digits = false;
		if (*s != '.')
			break;
	}
	return v->n > 0;
}

/* Whether word (ending at a space or NUL) is in the space-separated flags. */
static bool has_word(const char *flags, const char *word)
{
	const char *p = flags;

	while (*p) {
		const char *w = word;

		while (*p == ' ' || *p == '\t')
			p++;
		while (*w && *p == *w)
			p++, w++;
		if (!*w && (!*p || *p == ' ' || *p == '\t' || *p == '\n'))
			return true;
		while (*p && *p != ' ' && *p != '\t')
			p++;
	}
	return false;
}

/*
 * The flags Linux never shows in /proc/cpuinfo: its cpufeatures.h entry
 * has no display name ("" before 6.10, no quoted name since the flip of
 * 78ce84b9e0a5), so their absence there says nothing; the rules give
 * them from the CPU's facts and the version instead. FSRS: set from
 * CPUID, and on AMD from FSRM (arch/x86/kernel/cpu/amd.c init_amd(),
 * e046fe5a36a9, 6.4).
 */
static const char *const linux_not_shown[] = { "FSRS" };

bool rule_flag_not_shown(const char *flag)
{
	unsigned int i;

	for (i = 0; i < sizeof(linux_not_shown) / sizeof(linux_not_shown[0]); i++)
		if (str_eq(flag, linux_not_shown[i]))
			return true;
	return false;
}

bool rule_running_linux(struct rule_running *r, const char *release,
			const char *flags, bool shows_all)
{
	unsigned int i, j, k;

	*r = (struct rule_running){ .kernel = RULE_LINUX };
	for (i = 0; release[i] && i + 1 < sizeof(r->release); i++)
		r->release[i] = release[i] == '"' || release[i] <= ' ' ? '?' : release[i];
	r->release[i] = '\0';
	/* Every flag the rules name for Linux, as cpuinfo spells it: in lower case. */
	for (i = 0; i < flag_rule_count; i++) {
		const char *name = flag_rules[i].flag;
		char lower[RULE_NEED_LEN];

		if (flag_rules[i].kernel != RULE_LINUX)
			continue;
		for (j = 0; j < r->nflags && !str_eq(r->flag[j].flag, name); j++)
			;
		if (j < r->nflags || r->nflags == RULE_RUNNING_FLAGS)
			continue;
		if (!shows_all && rule_flag_not_shown(name)) {
			for (j = 0; j < r->nnot_shown && !str_eq(r->not_shown[j], name); j++)
				;
			if (j == r->nnot_shown && r->nnot_shown < RULE_RUNNING_FLAGS)
				r->not_shown[r->nnot_shown++] = name;
			continue;
		}
		for (k = 0; name[k] && k + 1 < sizeof(lower); k++)
			lower[k] = name[k] >= 'A' && name[k] <= 'Z' ? name[k] - 'A' + 'a' : name[k];
		lower[k] = '\0';
		r->flag[r->nflags++] = (struct rule_flag_value){ name, has_word(flags, lower) };
	}
	return release_version(release, &r->version);
}

bool rule_pick_running(const struct rule_running *r, const char *entry,
		       const struct rule_facts *f, struct rule_pick *out)
{
	if (!era_pick(r->kernel, entry, f, &r->version, r, out))
		return false;
	out->lo = out->hi = r->version;
	fmt_snprintf(out->version, sizeof(out->version), "running %s", r->release);
	return true;
}
