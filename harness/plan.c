/* SPDX-License-Identifier: MIT */
#include "fmt.h"
#include "out.h"
#include "plan.h"
#include "variants/variants.h"

void plan_disable_features(struct cpu_desc *d, const struct options *o)
{
	d->disabled = d->feats & o->disable;
	d->feats &= ~o->disable;
	/* AVX lives only in XSAVE state. */
	if (o->disable & (1ull << FEAT_XSAVE))
		d->feats &= ~((1ull << FEAT_AVX) | (1ull << FEAT_AVX2) |
			      (1ull << FEAT_AVX512F));
	/* AVX512BW extends AVX512F (strings suite): gone when F is. */
	if (!cpu_has(d, FEAT_AVX512F))
		d->feats &= ~(1ull << FEAT_AVX512BW);
}

const char *cpu_lacks(const struct cpu_desc *d, enum feat f)
{
	static const char *const off[FEAT_COUNT] = {
#define F_OFF(id, name) [FEAT_##id] = "needs " #name " (turned off by disable=" #name ")",
		FEATURES(F_OFF)
#undef F_OFF
	};

	static const char *const why[FEAT_COUNT] = {
#define F_WHY(id, name) [FEAT_##id] = "needs " #name,
		FEATURES(F_WHY)
#undef F_WHY
	};

	if (cpu_has(d, f))
		return NULL;
	if ((d->disabled >> f) & 1)
		return off[f];
	/* AVX is there only once XSAVE is on: say which half is missing. */
	if (f == FEAT_AVX || f == FEAT_AVX512F) {
		if ((d->disabled >> FEAT_XSAVE) & 1)
			return "needs xsave state (turned off by disable=xsave)";
		if (!cpu_has(d, FEAT_XSAVE))
			return f == FEAT_AVX ? "needs avx (no xsave to enable it)" :
					       "needs avx512f (no xsave to enable it)";
	}
	return why[f];
}

static void print_suite(const char *suite, unsigned int count,
			const char *(*name)(unsigned int),
			enum feat (*need)(unsigned int),
			bool (*selected)(const struct options *, unsigned int),
			const struct options *o, const struct cpu_desc *d)
{
	char list[OUT_LINE_MAX];
	size_t n = 0;
	unsigned int i;

	list[0] = '\0';
	for (i = 0; i < count; i++)
		if (selected(o, i) && !cpu_lacks(d, need(i)) && n < sizeof(list))
			n += fmt_snprintf(list + n, sizeof(list) - n, " %s", name(i));
	out_line("variants %s:%s", suite, list);
	for (i = 0; i < count; i++)
		if (selected(o, i) && cpu_lacks(d, need(i)))
			out_line("skipped: %s (%s): %s", name(i), suite,
				 cpu_lacks(d, need(i)));
}

static const char *clear_name(unsigned int i) { return clear_variants[i].name; }
static enum feat clear_need(unsigned int i) { return clear_variants[i].need; }
static const char *copy_name(unsigned int i) { return copy_variants[i].name; }
static enum feat copy_need(unsigned int i) { return copy_variants[i].need; }

void plan_print_variants(const struct options *o, const struct cpu_desc *d)
{
	if (o->suite != SUITE_COPY)
		print_suite("clear", clear_variant_count, clear_name, clear_need,
			    option_runs_clear, o, d);
	if (o->suite == SUITE_ALL || o->suite == SUITE_COPY)
		print_suite("copy", copy_variant_count, copy_name, copy_need,
			    option_runs_copy, o, d);
}

#define PAGE_KIB 4

static const char *const headers[PASS_COUNT] = {
	[PASS_L1] = "L1 w/o flush", [PASS_L1F] = "L1 w/ flush",
	[PASS_L2] = "L2 w/o flush", [PASS_L2F] = "L2 w/ flush",
	[PASS_L3] = "L3 w/o flush", [PASS_L3F] = "L3 w/ flush",
	[PASS_MEM] = "MEM", [PASS_HOT] = "copy-hot", [PASS_COLD] = "copy-cold",
};

const char *pass_header(enum pass_id id)
{
	return id < PASS_COUNT ? headers[id] : "?";
}

bool pass_flushes(enum pass_id id)
{
	return id == PASS_L1F || id == PASS_L2F || id == PASS_L3F;
}

static uint32_t default_passes(enum suite s)
{
	uint32_t cache = (1u << PASS_HOT) - 1;
	uint32_t xen = (1u << PASS_L1) | (1u << PASS_L1F) |
		       (1u << PASS_L2) | (1u << PASS_L2F);

	switch (s) {
	case SUITE_XEN:
		return xen;
	case SUITE_CLEAR:
		return cache;
	case SUITE_COPY:
	case SUITE_ALL:
		break;
	}
	return cache | (1u << PASS_HOT) | (1u << PASS_COLD);
}

/*
 * nr for each cache pass. The buffers of a pass are fill (nr pages) and a
 * work area of nr/2 pages plus guard pages, which must fit in mem_bytes
 * together, with 1 MiB left for copy-cold's other data.
 */
static void size_passes(struct plan *p, const struct cpu_desc *d,
			uint64_t mem_bytes)
{
	uint64_t room = mem_bytes > (2u << 20) ? mem_bytes - (2u << 20) : 0;
	size_t fit = (size_t)(room / 4096 * 2 / 3) & ~(size_t)3;
	size_t l3 = d->l3.size_kib / PAGE_KIB;
	size_t big = l3 ? l3 : d->l2.size_kib / PAGE_KIB;
	unsigned int id;

	p->nr[PASS_L1] = p->nr[PASS_L1F] = d->l1d.size_kib / PAGE_KIB;
	p->nr[PASS_L2] = p->nr[PASS_L2F] = d->l2.size_kib / PAGE_KIB;
	p->nr[PASS_L3] = p->nr[PASS_L3F] = l3;
	p->nr[PASS_MEM] = 2 * big;
	if (p->nr[PASS_MEM] > fit)
		p->nr[PASS_MEM] = fit;

	for (id = PASS_L1; id <= PASS_MEM; id++) {
		if (!(p->passes & (1u << id)))
			continue;
		if (id == PASS_MEM && !big)
			p->skip_why[id] = "this CPU reports no L2 or L3 to size it from";
		else if (id == PASS_MEM && p->nr[id] <= big)
			p->skip_why[id] = "not enough memory for buffers larger than the last cache level";
		else if (!p->nr[id])
			p->skip_why[id] = (id >= PASS_L3) ? "this CPU reports no L3" :
				"this CPU reports no cache of this level";
		else if (p->nr[id] < 4)
			p->skip_why[id] = "cache smaller than 4 pages";
		else if (p->nr[id] > fit)
			p->skip_why[id] = "not enough memory for this cache size";
		if (p->skip_why[id]) {
			p->passes &= ~(1u << id);
			p->nr[id] = 0;
		} else if (p->nr[id] > p->max_nr) {
			p->max_nr = p->nr[id];
		}
	}
}

void plan_build(struct plan *p, const struct options *o,
		const struct cpu_desc *d, uint64_t mem_bytes)
{
	unsigned int i;

	*p = (struct plan){ .suite = o->suite };
	p->reps = o->reps ? o->reps :
		  o->suite == SUITE_XEN ? REPS_XEN : REPS_DEFAULT;
	p->passes = o->passes ? o->passes : default_passes(o->suite);
	for (i = 0; i < clear_variant_count; i++)
		if (option_runs_clear(o, i) && !cpu_lacks(d, clear_variants[i].need))
			p->clear_mask |= 1ull << i;
	for (i = 0; i < copy_variant_count; i++)
		if (option_runs_copy(o, i) && !cpu_lacks(d, copy_variants[i].need))
			p->copy_mask |= 1ull << i;
	size_passes(p, d, mem_bytes);
	/* copy-hot and copy-cold need a page each way, inside the work area. */
	if ((p->passes & ((1u << PASS_HOT) | (1u << PASS_COLD))) && p->max_nr < 8)
		p->max_nr = 8;
}

void plan_print(const struct plan *p)
{
	char list[OUT_LINE_MAX];
	size_t n = 0;
	unsigned int id;

	list[0] = '\0';
	for (id = 0; id < PASS_COUNT; id++)
		if (p->passes & (1u << id))
			n += fmt_snprintf(list + n, sizeof(list) - n, "%s%s",
					  n ? "," : "", pass_id_name(id));
	out_line("plan suite=%s reps=%u passes=%s", suite_name(p->suite),
		 p->reps, n ? list : "none");
	for (id = 0; id < PASS_COUNT; id++)
		if (p->skip_why[id])
			out_line("skipped pass: %s: %s", pass_header(id),
				 p->skip_why[id]);
}
