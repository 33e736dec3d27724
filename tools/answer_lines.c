// SPDX-License-Identifier: MIT
/*
 * A log's answer and bottom lines read back into the engine's records
 * (tools/answer_lines.h). Every field is key=value (a quoted value for
 * the texts that hold blanks); a field the grammar does not give the
 * line, a field named twice, a number of another shape or beyond its
 * range, a name this build's tables lack, and a text longer than its
 * record are each refused with what is wrong.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "harness/decide/answer_strings.h"
#include "harness/decide/prefer.h"
#include "tools/answer_lines.h"
#include "variants/passes.h"
#include "variants/string_variants.h"
#include "variants/variants.h"

#define FIELDS_MAX	40
#define NAME_MAX_LEN	31
#define ERR_LEN		200
/* The largest whole numbers a line carries: epochs, sizes, runs, weights. */
#define EPOCHS_LIMIT	1000000u
#define SIZE_LIMIT	(1u << 30)
#define RUNS_LIMIT	1000u
#define WEIGHT_LIMIT	1000000u
/* A ratio's whole part has at most this many digits; ns at most twelve. */
#define RATIO_DIGITS	6
#define NS_DIGITS	12

struct field {
	const char *key;
	char *val;
	bool quoted, used;
};

struct fields {
	const char *kind;
	unsigned int n;
	struct field f[FIELDS_MAX];
};

static char err[ERR_LEN];

static const char *fail(const char *key, const char *what, const char *val)
{
	if (val)
		snprintf(err, sizeof(err), "%s=: %s: \"%.40s\"", key, what, val);
	else
		snprintf(err, sizeof(err), "%s=: %s", key, what);
	return err;
}

/* -- names: interned, valid until lines_forget() ------------------------- */

static char pool[1 << 16];
static size_t pool_used;

void lines_forget(void)
{
	pool_used = 0;
}

/* s, kept: an earlier equal one, else a copy; NULL where the pool is full. */
static const char *intern(const char *s)
{
	size_t at = 0, len = strlen(s) + 1;

	while (at < pool_used) {
		if (!strcmp(pool + at, s))
			return pool + at;
		at += strlen(pool + at) + 1;
	}
	if (pool_used + len > sizeof(pool))
		return NULL;
	memcpy(pool + pool_used, s, len);
	pool_used += len;
	return pool + at;
}

/* A pass's name: the table's own text for a page pass, else interned. */
static const char *pass_name(const char *s)
{
	unsigned int p;

	for (p = 0; p < PASS_COUNT; p++)
		if (!strcmp(passes[p].id, s))
			return passes[p].id;
	return intern(s);
}

/* -- the fields of a line ----------------------------------------------- */

static bool key_char(char c)
{
	return (c >= 'a' && c <= 'z') || c == '_';
}

/* The line's kind and its key=value fields, split in place. */
static const char *split(char *line, struct fields *out)
{
	char *s = line;
	unsigned int i;

	out->kind = s;
	out->n = 0;
	while (*s && *s != ' ')
		s++;
	if (*s)
		*s++ = '\0';
	while (*s) {
		struct field *f;
		char *key = s;

		while (key_char(*s))
			s++;
		if (*s != '=' || s == key)
			return fail("?", "a field is key=value", key);
		*s++ = '\0';
		if (out->n == FIELDS_MAX)
			return fail(key, "too many fields", NULL);
		f = &out->f[out->n];
		*f = (struct field){ .key = key };
		if (*s == '"') {
			f->val = ++s;
			f->quoted = true;
			while (*s && *s != '"')
				s++;
			if (*s != '"')
				return fail(key, "a quote is not closed", f->val);
			*s++ = '\0';
			if (*s && *s != ' ')
				return fail(key, "a blank follows a quoted value", s);
		} else {
			f->val = s;
			while (*s && *s != ' ' && *s != '"')
				s++;
			if (*s == '"')
				return fail(key, "a quote inside a value", f->val);
		}
		if (*s == ' ') {
			*s++ = '\0';
			if (!*s || *s == ' ')
				return fail(key, "one blank between fields, none at the end", NULL);
		}
		for (i = 0; i < out->n; i++)
			if (!strcmp(out->f[i].key, key))
				return fail(key, "named twice", NULL);
		out->n++;
	}
	return NULL;
}

static struct field *field_of(struct fields *fs, const char *key)
{
	unsigned int i;

	for (i = 0; i < fs->n; i++)
		if (!strcmp(fs->f[i].key, key)) {
			fs->f[i].used = true;
			return &fs->f[i];
		}
	return NULL;
}

/* The value of key (NULL: absent), unquoted unless quoted says it is. */
static const char *get(struct fields *fs, const char *key, bool quoted, const char **e)
{
	struct field *f = field_of(fs, key);

	if (!f)
		return NULL;
	if (f->quoted != quoted)
		*e = fail(key, quoted ? "a quoted value is expected" : "no quotes expected",
			  f->val);
	return f->val;
}

/* Every field read: a key the line's kind does not have is an error. */
static const char *all_used(const struct fields *fs)
{
	unsigned int i;

	for (i = 0; i < fs->n; i++)
		if (!fs->f[i].used)
			return fail(fs->f[i].key, "not a field of this line", NULL);
	return NULL;
}

static bool is_digit(char c)
{
	return c >= '0' && c <= '9';
}

/* 1 to max decimal digits at s, their value; s moved past them. False: none, or more. */
static bool digits(const char **s, unsigned int max, uint64_t *out)
{
	unsigned int n = 0;

	*out = 0;
	while (is_digit(**s)) {
		if (++n > max)
			return false;
		*out = *out * 10 + (uint64_t)(**s - '0');
		(*s)++;
	}
	return n > 0;
}

static const char *whole(const char *key, const char *v, uint64_t max, uint64_t *out)
{
	const char *s = v;

	if (!digits(&s, 19, out) || *s || *out > max)
		return fail(key, "not a whole number in range", v);
	return NULL;
}

/* "N.NNNN": a ratio, in millionths. */
static const char *ratio4(const char *key, const char *v, uint64_t *ppm)
{
	const char *s = v;
	uint64_t w, frac;

	if (!digits(&s, RATIO_DIGITS, &w) || *s++ != '.' || !digits(&s, 4, &frac) ||
	    s - v < 6 || s[-5] != '.' || *s)
		return fail(key, "not a ratio N.NNNN", v);
	*ppm = w * RATIO_ONE + frac * 100;
	return NULL;
}

/* "N.N": tenths. */
static const char *tenths(const char *key, const char *v, uint64_t *out)
{
	const char *s = v;
	uint64_t w, frac;

	if (!digits(&s, NS_DIGITS, &w) || *s++ != '.' || !digits(&s, 1, &frac) || *s)
		return fail(key, "not a figure N.N", v);
	*out = w * 10 + frac;
	return NULL;
}

/* "N.N%": worth=, in hundredths of a per cent, 0.1% to 50%. */
static const char *worth(const char *v, unsigned int *bp)
{
	const char *s = v;
	uint64_t w, frac;

	if (!digits(&s, 3, &w) || *s++ != '.' || !digits(&s, 1, &frac) || *s++ != '%' || *s ||
	    w * 100 + frac * 10 < 10 || w * 100 + frac * 10 > 5000)
		return fail("worth", "not a worth N.N% of 0.1 to 50", v);
	*bp = (unsigned int)(w * 100 + frac * 10);
	return NULL;
}

/* A \w+ name of at most NAME_MAX_LEN characters. */
static const char *word(const char *key, const char *v)
{
	size_t i;

	for (i = 0; v[i]; i++)
		if (!key_char(v[i]) && !is_digit(v[i]) && !(v[i] >= 'A' && v[i] <= 'Z'))
			return fail(key, "not a name", v);
	if (!i || i > NAME_MAX_LEN)
		return fail(key, "not a name of 1 to 31 characters", v);
	return NULL;
}

/* -- the tables the names are in ---------------------------------------- */

enum lines_table lines_table_of(const char *fn)
{
	if (!strcmp(fn, "memset"))
		return TABLE_MEMSET;
	if (!strcmp(fn, "memcpy"))
		return TABLE_MEMCPY;
	return TABLE_PAGES;
}

const char *lines_name(enum lines_table t, unsigned int id)
{
	if (t == TABLE_PAGES)
		return id < variant_count ? variants[id].name : "?";
	return id < string_variant_count ? string_variants[id].name : "?";
}

unsigned int lines_rank(enum lines_table t, unsigned int id)
{
	if (t == TABLE_PAGES)
		return id < variant_count ? prefer_rank(variants[id].regs, id) : 2 * VARIANTS_MAX;
	return id < string_variant_count ? prefer_rank(string_variants[id].regs, id) :
					   2 * VARIANTS_MAX;
}

/* The op a page function's candidates are of (scrub: clear's). */
static enum op op_of(const char *fn)
{
	return !strcmp(fn, "copy_page") ? OP_COPY : OP_CLEAR;
}

/* The id of name among fn's candidates, or -1. */
static int id_of(const char *fn, const char *name)
{
	enum lines_table t = lines_table_of(fn);
	unsigned int i;

	if (t == TABLE_PAGES) {
		for (i = 0; i < variant_count && i < VARIANTS_MAX; i++)
			if (variants[i].op == op_of(fn) && !strcmp(variants[i].name, name))
				return (int)i;
		return -1;
	}
	for (i = 0; i < string_variant_count && i < VARIANTS_MAX; i++)
		if (string_variants[i].op == (t == TABLE_MEMSET ? STRING_MEMSET : STRING_MEMCPY) &&
		    !strcmp(string_variants[i].name, name))
			return (int)i;
	return -1;
}

/* A routine of fn by name ("-": none, -1). */
static const char *routine_id(const char *fn, const char *key, const char *v, int *id)
{
	const char *e;

	*id = -1;
	if (!strcmp(v, "-"))
		return NULL;
	if ((e = word(key, v)))
		return e;
	*id = id_of(fn, v);
	if (*id < 0)
		return fail(key, "no such variant in this build's table", v);
	return NULL;
}

/* "a,b,c" of fn's candidates ("-": none) as a set. */
static const char *name_set(const char *fn, const char *key, char *v, variant_set *out)
{
	char *tok, *save;

	*out = 0;
	if (!strcmp(v, "-"))
		return NULL;
	if (!*v || v[strlen(v) - 1] == ',')
		return fail(key, "a list of names", v);
	for (tok = strtok_r(v, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		int id;
		const char *e = routine_id(fn, key, tok, &id);

		if (e)
			return e;
		if (id < 0 || ((*out >> id) & 1))
			return fail(key, "a name twice, or -", tok);
		*out |= 1ull << id;
	}
	return NULL;
}

static const char *kernel_of(const char *v, enum rule_kernel *k)
{
	for (*k = 0; *k < RULE_KERNELS; (*k)++)
		if (!strcmp(rule_kernel_name(*k), v))
			return NULL;
	return fail("kernel", "linux or xen", v);
}

static const char *why_of(const char *v, enum answer_why *w)
{
	for (*w = WHY_NONE + 1; *w < WHY_COUNT; (*w)++)
		if (!strcmp(answer_why_name(*w), v))
			return NULL;
	return fail("why", "no such reason", v);
}

/* The pick of a line: kernel, versions, entry, pick, assuming; routine and when NULL. */
static const char *pick_of(struct fields *fs, struct answer_pick *p)
{
	const char *e = NULL, *kernel = get(fs, "kernel", false, &e);
	const char *versions = get(fs, "versions", true, &e);
	const char *entry = get(fs, "entry", false, &e), *pick = get(fs, "pick", false, &e);
	const char *assuming = get(fs, "assuming", false, &e);

	if (e)
		return e;
	if (!kernel || !versions || !entry || !pick)
		return fail("kernel, versions, entry, pick", "each is needed", NULL);
	*p = (struct answer_pick){ .why = WHY_NONE };
	if ((e = kernel_of(kernel, &p->kernel)) || (e = word("entry", entry)))
		return e;
	if (strlen(versions) >= sizeof(p->versions))
		return fail("versions", "longer than 63 characters", versions);
	snprintf(p->versions, sizeof(p->versions), "%s", versions);
	p->entry = intern(entry);
	if (strcmp(pick, "-")) {
		if ((e = word("pick", pick)))
			return e;
		p->variant = intern(pick);
	}
	if (assuming) {
		const char *eq = strchr(assuming, '=');

		if (!eq || eq == assuming || !is_digit(eq[1]) || eq[2] ||
		    strlen(assuming) >= sizeof(p->assuming))
			return fail("assuming", "NAME=DIGIT", assuming);
		snprintf(p->assuming, sizeof(p->assuming), "%s", assuming);
	}
	if (!p->entry || (pick && strcmp(pick, "-") && !p->variant))
		return fail("entry", "too many names for this build's pool", entry);
	return NULL;
}

static bool same_pick(const struct answer_pick *x, const struct answer_pick *y)
{
	return x->kernel == y->kernel && !strcmp(x->versions, y->versions) &&
	       !strcmp(x->entry, y->entry);
}

/* The index of p among picks (n of them), added where new; -1: full, or it disagrees. */
static int pick_index(struct answer_pick *picks, unsigned int *n, const struct answer_pick *p,
		      const char **e)
{
	unsigned int i;

	for (i = 0; i < *n; i++)
		if (same_pick(&picks[i], p)) {
			if ((picks[i].variant == NULL) != (p->variant == NULL) ||
			    (p->variant && strcmp(picks[i].variant, p->variant)) ||
			    strcmp(picks[i].assuming, p->assuming)) {
				*e = fail("pick", "another pick= or assuming= than this pick's "
					  "earlier line", p->variant);
				return -1;
			}
			return (int)i;
		}
	if (*n == ANSWER_PICKS_MAX) {
		*e = fail("entry", "more kernel picks than a function has room for", p->entry);
		return -1;
	}
	picks[*n] = *p;
	return (int)(*n)++;
}

/* -- answer lines ------------------------------------------------------- */

/* The decision's fields, into a: everything but the routine's names. */
static const char *decision_of(struct fields *fs, struct answer *a, unsigned int *worth_bp)
{
	const char *e = NULL, *action = get(fs, "action", false, &e);
	const char *ratio = get(fs, "ratio", false, &e), *lo = get(fs, "lo", false, &e);
	const char *hi = get(fs, "hi", false, &e), *epochs = get(fs, "epochs", false, &e);
	const char *pick_ns = get(fs, "pick_ns", false, &e);
	const char *routine_ns = get(fs, "routine_ns", false, &e);
	const char *price = get(fs, "price", false, &e), *fpu = get(fs, "fpu", false, &e);
	const char *w = get(fs, "worth", false, &e), *need = get(fs, "need", false, &e);
	const char *why = get(fs, "why", false, &e), *drift = get(fs, "drift", false, &e);
	uint64_t x;

	if (e)
		return e;
	if (!action || !w)
		return fail("action, worth", "each is needed", NULL);
	for (a->action = 0; a->action < ANSWER_NONE &&
	     strcmp(answer_action_name(a->action), action); a->action++)
		;
	if (strcmp(answer_action_name(a->action), action))
		return fail("action", "keep, switch, undecided or none", action);
	if ((e = worth(w, worth_bp)))
		return e;
	if (!ratio != !lo || !ratio != !hi || !ratio != !epochs)
		return fail("ratio", "ratio, lo, hi and epochs come together", NULL);
	if (ratio) {
		a->has_ratio = true;
		a->ratio.has_interval = true;
		if ((e = ratio4("ratio", ratio, &a->ratio.median)) ||
		    (e = ratio4("lo", lo, &a->ratio.lo)) || (e = ratio4("hi", hi, &a->ratio.hi)) ||
		    (e = whole("epochs", epochs, EPOCHS_LIMIT, &x)))
			return e;
		if (a->ratio.lo > a->ratio.median || a->ratio.median > a->ratio.hi)
			return fail("lo", "lo <= ratio <= hi is needed", lo);
		a->epochs = (unsigned int)x;
	}
	if (!pick_ns != !routine_ns)
		return fail("pick_ns", "pick_ns and routine_ns come together", NULL);
	if (pick_ns) {
		a->has_ns = true;
		if ((e = tenths("pick_ns", pick_ns, &a->pick_ns10)) ||
		    (e = tenths("routine_ns", routine_ns, &a->routine_ns10)))
			return e;
	}
	if (price) {
		if (!pick_ns)
			return fail("price", "comes with the ns", price);
		a->has_price = true;
		if ((e = tenths("price", price, &a->price_ns10)))
			return e;
	}
	/* fpu=, from before the price: read, and drawn as nothing (harness/render/matrix.c). */
	if (fpu && strcmp(fpu, "?") && (strlen(fpu) < 5 || strcmp(fpu + strlen(fpu) - 2, "ns") ||
					 !is_digit(fpu[0])))
		return fail("fpu", "N.Nns or ?", fpu);
	if (!need != (a->action != ANSWER_UNDECIDED))
		return fail("need", "comes with action=undecided, and only with it", need);
	if (need) {
		if (strncmp(need, "epochs>=", 8) || (e = whole("need", need + 8, EPOCHS_LIMIT, &x)))
			return fail("need", "epochs>=N", need);
		a->need_epochs = (unsigned int)x;
	}
	if (!why != (a->action != ANSWER_NONE))
		return fail("why", "comes with action=none, and only with it", why);
	if (why && (e = why_of(why, &a->why)))
		return e;
	if (drift) {
		char *slash = strchr(drift, '/');

		if (!slash)
			return fail("drift", "FIRST/LAST", drift);
		*slash = '\0';
		if ((e = ratio4("drift", drift, &a->drift.first)) ||
		    (e = ratio4("drift", slash + 1, &a->drift.last)))
			return e;
		a->drift.moved = true;
	}
	return NULL;
}

/* "NAME:RATIO" of unpriced=: the name is left in v. */
static const char *unpriced_of(char *v, uint64_t *ratio)
{
	char *colon = v ? strchr(v, ':') : NULL;

	if (!colon)
		return fail("unpriced", "NAME:RATIO", v);
	*colon = '\0';
	return ratio4("unpriced", colon + 1, ratio);
}

static const char *page_answer(struct answers *a, struct fields *fs, unsigned int fn,
			       const struct answer_pick *p, unsigned int *worth_bp)
{
	const char *e = NULL, *pass = get(fs, "pass", false, &e);
	const char *routine = get(fs, "routine", false, &e), *alike = get(fs, "alike", false, &e);
	char *unpriced = (char *)get(fs, "unpriced", false, &e);
	struct answer r = { .fn = fn };
	unsigned int k;
	int id, i;

	if (e || (e = decision_of(fs, &r, worth_bp)))
		return e;
	if (get(fs, "sizes", false, &e))
		return fail("sizes", "only memset and memcpy have size classes", NULL);
	for (k = 0; pass && k < PASS_COUNT && strcmp(passes[k].id, pass); k++)
		;
	if (!pass || k == PASS_COUNT)
		return fail("pass", "no such pass of the page suites", pass);
	r.pass = k;
	if (!routine || (e = routine_id(answer_fn_name(fn), "routine", routine, &id)))
		return e ? e : fail("routine", "is needed", NULL);
	r.routine = id >= 0 ? &variants[id] : NULL;
	if (alike) {
		if ((e = routine_id(answer_fn_name(fn), "alike", alike, &id)) || id < 0)
			return e ? e : fail("alike", "a name", alike);
		r.alike = &variants[id];
	}
	if (unpriced) {
		if ((e = unpriced_of(unpriced, &r.unpriced_ratio)) ||
		    (e = routine_id(answer_fn_name(fn), "unpriced", unpriced, &id)) || id < 0)
			return e ? e : fail("unpriced", "a name", unpriced);
		r.unpriced = &variants[id];
	}
	if (a->n == ANSWERS_MAX)
		return fail("fn", "more answer lines than a run makes", NULL);
	i = pick_index(a->pick[fn], &a->npicks[fn], p, &e);
	if (i < 0)
		return e;
	r.pick = (unsigned int)i;
	a->rec[a->n++] = r;
	a->run.not_a_cpu |= r.why == WHY_NOT_A_CPU;
	return NULL;
}

/* A routine of another question by name: its table's own text, and whether it is VEC. */
static const char *x_routine(unsigned int fn, const char *key, const char *v, const char **out,
			     bool *vec)
{
	const char *name = answer_xfn_name(fn), *e;
	int id;

	*out = NULL;
	if ((e = routine_id(name, key, v, &id)) || id < 0)
		return e;
	if (lines_table_of(name) == TABLE_PAGES) {
		*out = variants[id].name;
		*vec = variants[id].regs == REGS_VEC;
	} else {
		*out = string_variants[id].name;
		*vec = string_variants[id].regs == REGS_VEC;
	}
	return NULL;
}

static const char *x_answer(struct answers *a, struct fields *fs, unsigned int fn,
			    const struct answer_pick *p, unsigned int *worth_bp)
{
	const char *e = NULL, *pass = get(fs, "pass", false, &e);
	const char *routine = get(fs, "routine", false, &e), *alike = get(fs, "alike", false, &e);
	char *unpriced = (char *)get(fs, "unpriced", false, &e);
	char *sizes = (char *)get(fs, "sizes", false, &e);
	struct answer_x *x = &a->xrec[a->nx];
	bool vec = false;
	int i;

	if (e)
		return e;
	if (a->nx == ANSWERS_X_MAX)
		return fail("fn", "more answer lines than a run makes", NULL);
	*x = (struct answer_x){ .fn = fn, .a = { .fn = ANSWER_FNS } };
	if ((e = decision_of(fs, &x->a, worth_bp)))
		return e;
	if (!pass || (e = word("pass", pass)) || strlen(pass) >= sizeof(x->pass))
		return e ? e : fail("pass", "a name of at most 15 characters", pass);
	snprintf(x->pass, sizeof(x->pass), "%s", pass);
	if (!sizes != (fn == ANSWER_SCRUB))
		return fail("sizes", "memset and memcpy have sizes=LO-HI, scrub none", sizes);
	if (sizes) {
		char *dash = strchr(sizes, '-');
		uint64_t lo, hi;

		if (!dash)
			return fail("sizes", "LO-HI", sizes);
		*dash = '\0';
		if ((e = whole("sizes", sizes, SIZE_LIMIT, &lo)) ||
		    (e = whole("sizes", dash + 1, SIZE_LIMIT, &hi)))
			return e;
		if (lo > hi)
			return fail("sizes", "LO <= HI", sizes);
		x->sized = true;
		x->lo = (unsigned int)lo;
		x->hi = (unsigned int)hi;
	}
	if (!routine)
		return fail("routine", "is needed", NULL);
	if ((e = x_routine(fn, "routine", routine, &x->routine, &x->vec)))
		return e;
	if (alike && ((e = x_routine(fn, "alike", alike, &x->alike, &vec)) || !x->alike))
		return e ? e : fail("alike", "a name", alike);
	if (unpriced && ((e = unpriced_of(unpriced, &x->a.unpriced_ratio)) ||
			 (e = x_routine(fn, "unpriced", unpriced, &x->unpriced, &vec)) ||
			 !x->unpriced))
		return e ? e : fail("unpriced", "a name", unpriced);
	i = pick_index(a->xpick[fn], &a->nxpicks[fn], p, &e);
	if (i < 0)
		return e;
	x->pick = (unsigned int)i;
	a->nx++;
	a->run.not_a_cpu |= x->a.why == WHY_NOT_A_CPU;
	return NULL;
}

static const char *answer_line_of(struct answers *a, struct fields *fs)
{
	const char *e = NULL, *fn = get(fs, "fn", false, &e);
	struct answer_pick p;
	unsigned int f, worth_bp = 0;
	bool found = false;

	if (e || (e = pick_of(fs, &p)))
		return e;
	for (f = 0; fn && !found && f < ANSWER_FNS; f++)
		if (!strcmp(answer_fn_name(f), fn)) {
			found = true;
			e = page_answer(a, fs, f, &p, &worth_bp);
		}
	for (f = 0; fn && !found && f < ANSWER_XFNS; f++)
		if (!strcmp(answer_xfn_name(f), fn)) {
			found = true;
			e = x_answer(a, fs, f, &p, &worth_bp);
		}
	if (!found)
		return fail("fn", "no such function", fn);
	if (e)
		return e;
	/* Every line of one run weighs against the same worth. */
	if (a->run.worth_bp && a->run.worth_bp != worth_bp)
		return fail("worth", "another worth than the machine's earlier lines", NULL);
	a->run.worth_bp = worth_bp;
	return all_used(fs);
}

/* -- bottom lines ------------------------------------------------------- */

static int pass_at(const struct bottom *b, const char *name)
{
	unsigned int p;

	for (p = 0; p < b->npass; p++)
		if (!strcmp(b->pass[p], name))
			return (int)p;
	return -1;
}

/* The passes of a list ("-": none) take verdict v; each must be one of b's, once. */
static const char *verdicts(struct bottom *b, const char *key, char *v, enum bottom_verdict cv,
			    bool *said)
{
	char *tok, *save;

	if (!v)
		return fail(key, "is needed", NULL);
	if (!strcmp(v, "-"))
		return NULL;
	for (tok = strtok_r(v, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		int p = pass_at(b, tok);

		if (p < 0 || said[p])
			return fail(key, "not one of passes=, or said twice", tok);
		said[p] = true;
		b->cell[p].verdict = cv;
	}
	return NULL;
}

static const char *passes_of(struct bottom *b, char *v)
{
	char *tok, *save;
	const char *e;

	if (!v[0] || v[strlen(v) - 1] == ',')
		return fail("passes", "a list of passes", v);
	for (tok = strtok_r(v, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		if ((e = word("passes", tok)))
			return e;
		if (pass_at(b, tok) >= 0 || b->npass == BOTTOM_PASSES_MAX)
			return fail("passes", "a pass twice, or more than 16", tok);
		b->pass[b->npass] = pass_name(tok);
		if (!b->pass[b->npass])
			return fail("passes", "too many names for this build's pool", tok);
		b->cell[b->npass++] = (struct bottom_cell){ .verdict = CELL_EVEN };
	}
	return NULL;
}

/* mix=PASS:W,...: each a pass of b's, W from 1. */
static const char *mix_of(struct bottom *b, char *v)
{
	char *tok, *save;
	const char *e;

	for (tok = strtok_r(v, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		char *colon = strchr(tok, ':');
		uint64_t w;
		int p;

		if (!colon)
			return fail("mix", "PASS:WEIGHT", tok);
		*colon = '\0';
		p = pass_at(b, tok);
		if (p < 0 || b->weight[p])
			return fail("mix", "not one of passes=, or weighed twice", tok);
		if ((e = whole("mix", colon + 1, WEIGHT_LIMIT, &w)) || !w)
			return e ? e : fail("mix", "a weight from 1", colon + 1);
		b->weight[p] = (unsigned int)w;
	}
	return NULL;
}

static const char *bottom_head(struct lines_bottom *cur, struct fields *fs)
{
	const char *e = NULL, *fn = get(fs, "fn", false, &e);
	const char *kr = get(fs, "kernel_routine", true, &e);
	const char *sel = get(fs, "selected_by", true, &e);
	const char *action = get(fs, "action", false, &e), *routine = get(fs, "routine", false, &e);
	char *alike = (char *)get(fs, "alike", false, &e);
	const char *w = get(fs, "worth", false, &e), *why = get(fs, "why", false, &e);
	char *passes = (char *)get(fs, "passes", false, &e);
	char *saves = (char *)get(fs, "saves", false, &e), *costs = (char *)get(fs, "costs", false, &e);
	char *open = (char *)get(fs, "open", false, &e), *mix = (char *)get(fs, "mix", false, &e);
	const char *ratio = get(fs, "ratio", false, &e), *lo = get(fs, "lo", false, &e);
	const char *hi = get(fs, "hi", false, &e);
	char *unpriced = (char *)get(fs, "unpriced", false, &e);
	const char *runs = get(fs, "runs", false, &e), *differ = get(fs, "differ", true, &e);
	struct bottom *b = &cur->b;
	bool said[BOTTOM_PASSES_MAX] = { false };
	unsigned int f;
	int id;

	if (e || (e = pick_of(fs, &cur->pick)))
		return e;
	for (f = 0; fn && f < ANSWER_FNS && strcmp(answer_fn_name(f), fn); f++)
		;
	if (fn && f == ANSWER_FNS)
		for (f = 0; f < ANSWER_XFNS && strcmp(answer_xfn_name(f), fn); f++)
			;
	if (!fn || f == ANSWER_XFNS)
		return fail("fn", "no such function", fn);
	cur->fn = intern(fn);
	*b = (struct bottom){ .action = BOTTOM_NONE, .routine = -1, .unpriced = -1 };
	if (!kr != !sel)
		return fail("kernel_routine", "comes with selected_by", NULL);
	if (kr && (!(cur->pick.routine = intern(kr)) || !(cur->pick.when = intern(sel))))
		return fail("kernel_routine", "too many names for this build's pool", kr);
	if (!action)
		return fail("action", "is needed", NULL);
	for (b->action = 0; b->action < BOTTOM_NONE &&
	     strcmp(bottom_action_name(b->action), action); b->action++)
		;
	if (strcmp(bottom_action_name(b->action), action))
		return fail("action", "keep, switch, trade-off, undecided or none", action);
	if (!routine || (e = routine_id(fn, "routine", routine, &b->routine)))
		return e ? e : fail("routine", "is needed", NULL);
	if (alike && (e = name_set(fn, "alike", alike, &b->alike)))
		return e;
	if (!w || (e = worth(w, &cur->worth_bp)))
		return e ? e : fail("worth", "is needed", NULL);
	if (!why != (b->action != BOTTOM_NONE) || !why == !passes)
		return fail("why", "action=none has why=, any other passes=", why);
	if (why)
		return (e = why_of(why, &b->why)) ? e : NULL;
	if ((e = passes_of(b, passes)) ||
	    (e = verdicts(b, "saves", saves, CELL_SAVES, said)) ||
	    (e = verdicts(b, "costs", costs, CELL_COSTS, said)) ||
	    (e = verdicts(b, "open", open, CELL_OPEN, said)))
		return e;
	if (!mix != !ratio || !mix != !lo || !mix != !hi)
		return fail("mix", "mix, ratio, lo and hi come together", NULL);
	if (mix) {
		b->mixed = true;
		b->mix.has_interval = true;
		if ((e = mix_of(b, mix)) || (e = ratio4("ratio", ratio, &b->mix.median)) ||
		    (e = ratio4("lo", lo, &b->mix.lo)) || (e = ratio4("hi", hi, &b->mix.hi)))
			return e;
		if (b->mix.lo > b->mix.median || b->mix.median > b->mix.hi)
			return fail("lo", "lo <= ratio <= hi is needed", lo);
	}
	if (unpriced) {
		char *colon = strchr(unpriced, ':');
		int p;

		if (!colon)
			return fail("unpriced", "NAME:PASS:RATIO", unpriced);
		*colon = '\0';
		if ((e = unpriced_of(colon + 1, &b->unpriced_ratio)))
			return e;
		p = pass_at(b, colon + 1);
		if (p < 0)
			return fail("unpriced", "its pass is not one of passes=", colon + 1);
		b->unpriced_pass = (unsigned int)p;
		if ((e = routine_id(fn, "unpriced", unpriced, &id)) || id < 0)
			return e ? e : fail("unpriced", "a name", unpriced);
		b->unpriced = id;
	}
	if (differ && !runs)
		return fail("differ", "comes after runs=", differ);
	if (runs) {
		uint64_t n;

		if ((e = whole("runs", runs, RUNS_LIMIT, &n)) || !n)
			return e ? e : fail("runs", "from 1", runs);
		b->runs = (unsigned int)n;
		if (differ && !(b->differ = intern(differ)))
			return fail("differ", "too many names for this build's pool", differ);
	}
	return NULL;
}

static const char *bottom_cell(struct lines_bottom *cur, struct fields *fs)
{
	const char *e = NULL, *pass = get(fs, "pass", false, &e);
	const char *routine = get(fs, "routine", false, &e);
	const char *verdict = get(fs, "verdict", false, &e);
	const char *ratio = get(fs, "ratio", false, &e), *lo = get(fs, "lo", false, &e);
	const char *hi = get(fs, "hi", false, &e), *epochs = get(fs, "epochs", false, &e);
	const char *pick_ns = get(fs, "pick_ns", false, &e);
	const char *routine_ns = get(fs, "routine_ns", false, &e);
	const char *price = get(fs, "price", false, &e), *need = get(fs, "need", false, &e);
	struct bottom *b = &cur->b;
	struct bottom_cell *c;
	enum bottom_verdict v;
	uint64_t x;

	if (e)
		return e;
	if (b->routine < 0 || cur->cells == b->npass)
		return fail("pass", "more bottom_pass lines than its bottom line has passes", pass);
	c = &b->cell[cur->cells];
	if (!pass || strcmp(pass, b->pass[cur->cells]))
		return fail("pass", "not the next of its bottom line's passes=", pass);
	if (!routine || strcmp(routine, lines_name(lines_table_of(cur->fn),
						   (unsigned int)b->routine)))
		return fail("routine", "not its bottom line's routine", routine);
	for (v = 0; verdict && v <= CELL_MISSING && strcmp(bottom_verdict_name(v), verdict); v++)
		;
	if (!verdict || v > CELL_MISSING)
		return fail("verdict", "even, saves, costs, open or missing", verdict);
	/* saves=, costs= and open= of the bottom line said it first. */
	if ((c->verdict == CELL_EVEN) != (v == CELL_EVEN || v == CELL_MISSING) ||
	    (c->verdict != CELL_EVEN && c->verdict != v))
		return fail("verdict", "not what its bottom line's saves=, costs= and open= say",
			    verdict);
	c->verdict = v;
	if (!ratio != !lo || !ratio != !hi || !ratio != !epochs || !ratio != (v == CELL_MISSING))
		return fail("ratio", "ratio, lo, hi and epochs come together, where measured", NULL);
	if (ratio) {
		c->ratio.has_interval = true;
		if ((e = ratio4("ratio", ratio, &c->ratio.median)) ||
		    (e = ratio4("lo", lo, &c->ratio.lo)) || (e = ratio4("hi", hi, &c->ratio.hi)) ||
		    (e = whole("epochs", epochs, EPOCHS_LIMIT, &x)))
			return e;
		if (c->ratio.lo > c->ratio.median || c->ratio.median > c->ratio.hi)
			return fail("lo", "lo <= ratio <= hi is needed", lo);
		c->epochs = (unsigned int)x;
	}
	if (!pick_ns != !routine_ns || (price && !pick_ns))
		return fail("pick_ns", "pick_ns and routine_ns come together, price after them", NULL);
	if (pick_ns) {
		c->has_ns = true;
		if ((e = tenths("pick_ns", pick_ns, &c->pick_ns10)) ||
		    (e = tenths("routine_ns", routine_ns, &c->routine_ns10)))
			return e;
	}
	if (price) {
		b->vec = true;
		if ((e = tenths("price", price, &c->price_ns10)))
			return e;
	}
	if (!need != (v != CELL_OPEN))
		return fail("need", "comes with verdict=open, and only with it", need);
	if (need) {
		if (strncmp(need, "epochs>=", 8) || whole("need", need + 8, EPOCHS_LIMIT, &x))
			return fail("need", "epochs>=N", need);
		c->need = (unsigned int)x;
	}
	cur->cells++;
	return NULL;
}

/* Every pass of the bottom line has its bottom_pass line (where it names a routine). */
static const char *cells_whole(const struct lines_bottom *cur)
{
	if (cur->b.routine >= 0 && cur->cells != cur->b.npass)
		return fail("passes", "its bottom_pass lines are fewer than its passes", NULL);
	return NULL;
}

static const char *bottom_sets(struct lines_bottom *cur, struct fields *fs)
{
	const char *e = NULL;
	char *safe = (char *)get(fs, "safe", false, &e), *saves = (char *)get(fs, "saves", false, &e);

	if (e)
		return e;
	if (cur->sets || cur->b.action == BOTTOM_NONE || (e = cells_whole(cur)))
		return e ? e : fail("safe", "a second bottom_sets line, or one after none", NULL);
	if (!safe || !saves)
		return fail("safe, saves", "each is needed", NULL);
	if ((e = name_set(cur->fn, "safe", safe, &cur->b.safe)) ||
	    (e = name_set(cur->fn, "saves", saves, &cur->b.saves)))
		return e;
	cur->sets = true;
	return NULL;
}

/* The key of a bottom_pass or bottom_sets line: its bottom line's. */
static const char *same_key(const struct lines_bottom *cur, struct fields *fs)
{
	const char *e = NULL, *fn = get(fs, "fn", false, &e);
	const char *kernel = get(fs, "kernel", false, &e);
	const char *versions = get(fs, "versions", true, &e), *entry = get(fs, "entry", false, &e);

	if (e)
		return e;
	if (!fn || !kernel || !versions || !entry || strcmp(fn, cur->fn) ||
	    strcmp(kernel, rule_kernel_name(cur->pick.kernel)) ||
	    strcmp(versions, cur->pick.versions) || strcmp(entry, cur->pick.entry))
		return fail("fn", "not its bottom line's fn, kernel, versions and entry", fn);
	return NULL;
}

const char *lines_bottom_line(struct lines_bottom *cur, bool *started, char *line)
{
	struct fields fs;
	const char *e = split(line, &fs);

	if (e)
		return e;
	if (!strcmp(fs.kind, "bottom")) {
		*cur = (struct lines_bottom){ 0 };
		*started = true;
		e = bottom_head(cur, &fs);
	} else if (!*started) {
		snprintf(err, sizeof(err), "%.20s: comes after its bottom line", fs.kind);
		return err;
	} else if ((e = same_key(cur, &fs))) {
		return e;
	} else if (!strcmp(fs.kind, "bottom_pass")) {
		e = bottom_cell(cur, &fs);
	} else if (!strcmp(fs.kind, "bottom_sets")) {
		e = bottom_sets(cur, &fs);
	} else {
		snprintf(err, sizeof(err), "%.20s: not a bottom line", fs.kind);
		return err;
	}
	return e ? e : all_used(&fs);
}

const char *lines_bottom_whole(const struct lines_bottom *cur)
{
	const char *e = cells_whole(cur);

	if (!e && cur->b.action != BOTTOM_NONE && !cur->sets)
		return fail("safe", "a bottom line lacks its bottom_sets line", NULL);
	return e;
}

/* -- one machine's lines into its records -------------------------------- */

static struct lines_bottom cur;
static bool started;
static bool have[ANSWER_FNS][ANSWER_PICKS_MAX];

void lines_begin(struct answers *a)
{
	unsigned int f, i;

	a->on = true;
	a->printed = a->ended = false;
	a->run = (struct answer_run){ 0 };
	a->n = a->nx = a->npass = 0;
	for (f = 0; f < ANSWER_FNS; f++) {
		a->npicks[f] = 0;
		for (i = 0; i < ANSWER_PICKS_MAX; i++) {
			/* No bottom line: drawn as none (harness/render/matrix.c). */
			a->bottom[f][i] = (struct bottom){ .action = BOTTOM_NONE, .routine = -1,
							   .unpriced = -1 };
			have[f][i] = false;
		}
	}
	for (f = 0; f < ANSWER_XFNS; f++)
		a->nxpicks[f] = 0;
	started = false;
}

/* The bottom line read last, into its pick's place. */
static const char *bottom_keep(struct answers *a)
{
	const char *e;
	unsigned int f;
	int i;

	if (!started)
		return NULL;
	started = false;
	if ((e = lines_bottom_whole(&cur)))
		return e;
	for (f = 0; f < ANSWER_FNS && strcmp(answer_fn_name(f), cur.fn); f++)
		;
	if (f == ANSWER_FNS)
		return fail("fn", "this build draws the bottom lines of clear_page, clear_pages "
			    "and copy_page only", cur.fn);
	if (cur.worth_bp != a->run.worth_bp && a->run.worth_bp)
		return fail("worth", "another worth than the machine's earlier lines", NULL);
	a->run.worth_bp = cur.worth_bp;
	i = pick_index(a->pick[f], &a->npicks[f], &cur.pick, &e);
	if (i < 0)
		return e;
	if (have[f][i])
		return fail("entry", "a second bottom line of one pick", cur.pick.entry);
	have[f][i] = true;
	a->pick[f][i].routine = cur.pick.routine;
	a->pick[f][i].when = cur.pick.when;
	/* A pick the rules could not make has its none line with no passes: as the engine's. */
	if (cur.b.action == BOTTOM_NONE)
		a->pick[f][i].why = cur.b.why;
	a->bottom[f][i] = cur.b;
	return NULL;
}

const char *lines_line(struct answers *a, char *line)
{
	struct fields fs;
	const char *e;

	if (!strncmp(line, "answer ", 7)) {
		if ((e = bottom_keep(a)) || (e = split(line, &fs)))
			return e;
		return answer_line_of(a, &fs);
	}
	if (!strncmp(line, "bottom ", 7) && (e = bottom_keep(a)))
		return e;
	return lines_bottom_line(&cur, &started, line);
}

const char *lines_end(struct answers *a)
{
	const char *e = bottom_keep(a);

	a->ended = true;
	return e;
}
