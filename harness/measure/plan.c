/* SPDX-License-Identifier: MIT */
#include "lib/fmt.h"
#include "lib/out.h"
#include "harness/measure/epochs.h"
#include "harness/measure/plan.h"
#include "harness/measure/strings_plan.h"

#define PAGE		PAGE_SIZE
#define KIB_PER_PAGE	(PAGE / 1024)
#define MIB		(1024ull * 1024)
/* src, dst and three guard pages of the largest copy pass, or buf and two of a clear. */
#define WORK_PAGES(max_nr) ((max_nr) / 2 + 3)
/* copy-hot and copy-cold copy one page each way, inside the work area. */
#define ONE_PAGE_NR 4

#define FEAT_BIT(f) (1ull << (f))
/* Code with these touches register state that only XSAVE enables. */
#define XSAVE_STATE_FEATS (FEAT_BIT(FEAT_AVX) | FEAT_BIT(FEAT_AVX2) | \
			   FEAT_BIT(FEAT_AVX512F) | FEAT_BIT(FEAT_AVX512BW))

/* An extension is usable only with what it extends. */
static const enum feat extends[FEAT_COUNT] = {
	[FEAT_AVX512BW] = FEAT_AVX512F,
	[FEAT_CLZEROLINE] = FEAT_CLZERO,
};

/* NULL when the variant's feature is there for this run; otherwise why not. */
static const char *why_not(const struct cpu_desc *d, const struct options *o,
			   enum feat f)
{
	static const char *const off[FEAT_COUNT] = {
#define F_OFF(id, name) [FEAT_##id] = "needs " #name " (turned off by disable=" #name ")",
		FEATURES(F_OFF)
#undef F_OFF
	};
	static const char *const absent[FEAT_COUNT] = {
#define F_ABSENT(id, name) [FEAT_##id] = "needs " #name,
		FEATURES(F_ABSENT)
#undef F_ABSENT
	};
	static const char *const no_state[FEAT_COUNT] = {
#define F_STATE(id, name) [FEAT_##id] = "needs " #name " state, which XCR0 does not enable",
		FEATURES(F_STATE)
#undef F_STATE
	};
	static const char *const no_xsave[FEAT_COUNT] = {
#define F_NOXS(id, name) [FEAT_##id] = "needs " #name " (no xsave to enable it)",
		FEATURES(F_NOXS)
#undef F_NOXS
	};
	bool state = (XSAVE_STATE_FEATS >> f) & 1;

	if (f == FEAT_NONE || ((o->force >> f) & 1))
		return NULL;
	if ((o->disable >> f) & 1)
		return off[f];
	if (extends[f] && ((o->disable >> extends[f]) & 1))
		return off[extends[f]];
	if (state && ((o->disable >> FEAT_XSAVE) & 1))
		return "needs xsave state (turned off by disable=xsave)";
	if (cpu_has(d, f))
		return NULL;
	if (f == FEAT_CLZEROLINE)
		return cpu_has(d, FEAT_CLZERO) ?
		       "needs clzeroline: the CLFLUSH line size (CPUID.1 EBX[15:8] x 8, "
		       "at most 128) is 0 or not a power of two, where Xen drops CLZERO" :
		       "needs clzeroline: CLZERO itself (clzero=0)";
	/* AVX is there only once XSAVE is on: say which half is missing. */
	if (state && ((d->offered >> f) & 1))
		return cpu_has(d, FEAT_XSAVE) ? no_state[f] : no_xsave[f];
	return absent[f];
}

/* nr of a pass before it is checked against the CPU and memory. */
static size_t pass_nr(const struct pass_def *pd, const struct cpu_desc *d,
		      size_t fit)
{
	size_t last = d->l3.size_kib ? d->l3.size_kib : d->l2.size_kib;
	size_t nr = 0;

	switch (pd->size) {
	case SIZE_L1D:
		return d->l1d.size_kib / KIB_PER_PAGE;
	case SIZE_L2:
		return d->l2.size_kib / KIB_PER_PAGE;
	case SIZE_L3:
		return d->l3.size_kib / KIB_PER_PAGE;
	case SIZE_MEM:
		nr = 2 * last / KIB_PER_PAGE;
		return nr > fit ? fit : nr;
	case SIZE_ONE_PAGE:
		return ONE_PAGE_NR;
	}
	return 0;
}

static const char *pass_skip_reason(const struct pass_def *pd,
				    const struct cpu_desc *d, size_t nr,
				    size_t fit)
{
	size_t last = (d->l3.size_kib ? d->l3.size_kib : d->l2.size_kib) /
		      KIB_PER_PAGE;

	if (pd->size == SIZE_MEM && !last)
		return "this CPU reports no L2 or L3 to size it from";
	if (pd->size == SIZE_MEM && nr <= last)
		return "not enough memory for buffers larger than the last cache level";
	if (!nr)
		return pd->size == SIZE_L3 ? "this CPU reports no L3" :
					     "this CPU reports no cache of this level";
	if (nr < 4)
		return "cache smaller than 4 pages";
	if (nr > fit)
		return "not enough memory for this cache size";
	return NULL;
}

/* What stats add to the buffers, beside the passes' own sizes (struct buffer_sizes). */
static uint64_t stats_extra_bytes(const struct plan *p)
{
	return p->stats ? 2 * EPOCH_SHIFT_PAGES * PAGE + p->batch_room + PAGE : 0;
}

/*
 * The buffers of a pass are fill (nr pages) and a work area of nr/2 pages
 * plus guard pages, which must fit in mem_bytes together, with room left
 * for copy-cold's other data and alignment, and for what stats add.
 */
static void size_passes(struct plan *p, const struct cpu_desc *d,
			uint64_t mem_bytes)
{
	uint64_t reserved = 2 * MIB + stats_extra_bytes(p);
	uint64_t room = mem_bytes > reserved ? mem_bytes - reserved : 0;
	size_t fit = (size_t)(room / PAGE * 2 / 3) & ~(size_t)3;
	unsigned int id;

	for (id = 0; id < PASS_COUNT; id++) {
		if (!(p->passes & (1u << id)))
			continue;
		p->nr[id] = pass_nr(&passes[id], d, fit);
		p->pass_skip[id] = pass_skip_reason(&passes[id], d, p->nr[id], fit);
		if (p->pass_skip[id]) {
			p->passes &= ~(1u << id);
			p->nr[id] = 0;
		} else if (p->nr[id] > p->max_nr) {
			p->max_nr = p->nr[id];
		}
		if (p->nr[id])
			p->placements[id] = pass_placements(p, id);
	}
}

/*
 * suite=scrub: one region, beyond the last cache level: the MEM pass's
 * size unless scrub= gives one, and never more than memory holds.
 */
static void size_scrub(struct plan *p, const struct options *o,
		       const struct cpu_desc *d, uint64_t mem_bytes)
{
	uint64_t last = (uint64_t)(d->l3.size_kib ? d->l3.size_kib : d->l2.size_kib) * 1024;
	uint64_t room = mem_bytes > 4 * MIB ? (mem_bytes - 4 * MIB) & ~(uint64_t)(PAGE - 1) : 0;

	p->cpus = o->cpus;
	p->scrub_bytes = o->scrub_bytes ? o->scrub_bytes : 2 * last;
	if (!p->scrub_bytes)
		p->scrub_skip = "this CPU reports no L2 or L3 to size it from; give scrub=SIZE";
	else if (p->scrub_bytes > room)
		p->scrub_skip = "not enough memory for the region (scrub=SIZE sets a smaller one)";
	if (p->scrub_skip)
		p->scrub_bytes = 0;
}

/* The string variants and sizes, chosen and gated as the page tables are. */
static void plan_strings(struct plan *p, const struct options *o,
			 const struct cpu_desc *d)
{
	unsigned int i;

	/* sizes= or its default (options_finish()). */
	p->nsizes = o->nsizes;
	for (i = 0; i < p->nsizes; i++)
		p->sizes[i] = o->sizes[i];
	for (i = 0; i < string_variant_count; i++) {
		if (!option_selects_string(o, i))
			continue;
		p->str_selected |= 1ull << i;
		p->str_skip[i] = why_not(d, o, string_variants[i].need);
		if (!p->str_skip[i])
			p->str_runs |= 1ull << i;
	}
}

void plan_build(struct plan *p, const struct options *o,
		const struct cpu_desc *d, uint64_t mem_bytes, bool not_a_cpu)
{
	unsigned int i;

	/* Finished options (options_finish()) carry their defaults. */
	*p = (struct plan){ .suite = o->suite, .reps = o->reps,
			    .worth_bp = o->worth_bp, .time_ms = o->time_ms,
			    .time_over = o->time_over,
			    .precision_bp = o->precision_bp,
			    .budget_ms = o->budget_ms };
	if (not_a_cpu && p->time_ms && option_defaulted(o, "time")) {
		p->time_ms = TIME_NOT_A_CPU_MS;
		p->time_not_a_cpu = true;
	}
	p->stats = suites[o->suite].how == HOW_PASSES && !suites[o->suite].xen_only;
	if (p->stats) {
		p->batch_room = (size_t)d->l2.size_kib * 1024 / 2;
		if (p->batch_room < BATCH_ROOM_MIN)
			p->batch_room = BATCH_ROOM_MIN;
	}
	p->passes = o->passes;
	variants_configure(d);
	p->forced = o->force & ~d->feats;
	for (i = 0; i < variant_count; i++) {
		if (!option_selects(o, i))
			continue;
		p->selected |= 1ull << i;
		p->variant_skip[i] = why_not(d, o, variants[i].need);
		if (!p->variant_skip[i])
			p->runs |= 1ull << i;
	}
	if (suites[o->suite].ops & OPS_STRINGS)
		plan_strings(p, o, d);
	/* A pass whose tables have nothing to run is not run at all. */
	for (i = 0; i < PASS_COUNT; i++) {
		unsigned int op;
		bool any = false;

		for (op = 0; op < OP_COUNT; op++)
			any |= (passes[i].ops >> op & 1) && plan_runs_op(p, op);
		if (!any)
			p->passes &= ~(1u << i);
	}
	p->cycles = !o->cycles_off;
	if ((o->force >> FEAT_APERFMPERF) & 1)
		p->no_aperfmperf = NULL;
	else if ((o->disable >> FEAT_APERFMPERF) & 1)
		p->no_aperfmperf = "turned off by disable=aperfmperf";
	else if (!cpu_has(d, FEAT_APERFMPERF))
		p->no_aperfmperf = "CPUID.06H:ECX[0] is 0";
	size_passes(p, d, mem_bytes);
	if (suites[o->suite].how == HOW_SCRUB)
		size_scrub(p, o, d, mem_bytes);
}

/* The first selected variant's reason for not running, as "name (op): why". */
static void first_skip(const struct plan *p, char *why, size_t len)
{
	unsigned int i;

	for (i = 0; i < variant_count; i++)
		if (p->variant_skip[i]) {
			fmt_snprintf(why, len, "no selected variant can run here, e.g. %s (%s): %s",
				     variants[i].name, op_name(variants[i].op),
				     p->variant_skip[i]);
			return;
		}
	for (i = 0; i < string_variant_count; i++)
		if (p->str_skip[i]) {
			fmt_snprintf(why, len, "no selected variant can run here, e.g. %s (%s): %s",
				     string_variants[i].name,
				     string_op_name(string_variants[i].op),
				     p->str_skip[i]);
			return;
		}
	fmt_snprintf(why, len, "no variant selected");
}

bool plan_measures_nothing(const struct plan *p, char *why, size_t len)
{
	const char *suite = suite_name(p->suite);
	char because[OUT_LINE_MAX];
	unsigned int id;

	switch (suites[p->suite].how) {
	case HOW_STRINGS:
		if (p->str_runs)
			return false;
		first_skip(p, because, sizeof(because));
		break;
	case HOW_SCRUB:
		if (p->runs && !p->scrub_skip)
			return false;
		if (p->scrub_skip)
			fmt_snprintf(because, sizeof(because), "%s", p->scrub_skip);
		else
			first_skip(p, because, sizeof(because));
		break;
	case HOW_PASSES:
	default:
		if (p->runs && p->passes)
			return false;
		if (!p->runs) {
			first_skip(p, because, sizeof(because));
			break;
		}
		fmt_snprintf(because, sizeof(because), "no pass can run");
		for (id = 0; id < PASS_COUNT; id++)
			if (p->pass_skip[id]) {
				fmt_snprintf(because, sizeof(because),
					     "no pass can run, e.g. %s: %s",
					     passes[id].header, p->pass_skip[id]);
				break;
			}
		break;
	}
	fmt_snprintf(why, len, "suite=%s: %s", suite, because);
	return true;
}

bool plan_runs_op(const struct plan *p, enum op op)
{
	unsigned int i;

	for (i = 0; i < variant_count; i++)
		if (((p->runs >> i) & 1) && variants[i].op == op)
			return true;
	return false;
}

unsigned int pass_placements(const struct plan *p, enum pass_id id)
{
	if (!p->stats || (passes[id].size != SIZE_L3 && passes[id].size != SIZE_MEM))
		return 1;
	/* A copy's placement holds src and dst of 2 pages or more, each with its guard page. */
	return p->nr[id] / 4 / PLACEMENTS >= 3 ? PLACEMENTS : 1;
}

/*
 * Pages from one placement to the next, a call's bytes and a guard page:
 * to clear, a huge page; to copy, the 2021 region's share (nr/4 each
 * way), at most PLACEMENT_MAX_BYTES / 2.
 */
static size_t placement_pages(const struct plan *p, enum pass_id id, enum op op)
{
	size_t share = p->nr[id] / 4 / PLACEMENTS;
	size_t most = PLACEMENT_MAX_BYTES / 2 / PAGE;

	if (op == OP_CLEAR)
		return HUGE_PAGE_BYTES / PAGE + 1;
	return share < most ? share : most;
}

size_t pass_bytes(const struct plan *p, enum pass_id id, enum op op)
{
	if (passes[id].size == SIZE_ONE_PAGE)
		return op == OP_COPY ? PAGE : 0;
	if (p->placements[id] > 1)
		return (placement_pages(p, id, op) - 1) * PAGE;
	return (op == OP_COPY ? p->nr[id] / 4 : p->nr[id] / 2) * PAGE;
}

/* The work area's pages for pass id: its layout's span and a spare guard. */
static size_t work_pages(const struct plan *p, enum pass_id id)
{
	size_t clear, copy;

	if (p->placements[id] <= 1)
		return WORK_PAGES(p->nr[id]);
	clear = placement_pages(p, id, OP_CLEAR);
	copy = 2 * placement_pages(p, id, OP_COPY);
	return PLACEMENTS * (clear > copy ? clear : copy) + 3;
}

void plan_buffer_sizes(const struct plan *p, struct buffer_sizes *s)
{
	size_t shift = p->stats ? EPOCH_SHIFT_PAGES * PAGE : 0;
	size_t work = 0;
	unsigned int id;

	for (id = 0; id < PASS_COUNT; id++)
		if ((p->passes & (1u << id)) && work_pages(p, id) * PAGE > work)
			work = work_pages(p, id) * PAGE;

	/* A batch's buffers between guard pages, and the first guard. */
	if (p->stats && work < p->batch_room + PAGE)
		work = p->batch_room + PAGE;
	s->fill = p->max_nr ? p->max_nr * PAGE + shift : 0;
	s->work = p->passes ? work + shift : 0;
	s->cold = p->passes ? 2 * COPY_COLD_BYTES : 0;
	s->scrub = p->scrub_bytes ? p->scrub_bytes + 2 * PAGE : 0;
	s->strings = p->str_runs ? STRINGS_BUFFER_BYTES : 0;
}

static void print_variants(const struct plan *p, enum op op)
{
	char list[OUT_LINE_MAX];
	size_t n = 0;
	unsigned int i;

	list[0] = '\0';
	for (i = 0; i < variant_count; i++)
		if (variants[i].op == op && ((p->runs >> i) & 1))
			n += fmt_snprintf(list + n, n < sizeof(list) ? sizeof(list) - n : 0,
					  " %s", variants[i].name);
	out_line("variants %s:%s", op_name(op), list);
	for (i = 0; i < variant_count; i++)
		if (variants[i].op == op && p->variant_skip[i])
			out_line("skipped: %s (%s): %s", variants[i].name,
				 op_name(op), p->variant_skip[i]);
}

/* suite=strings: the sizes and method, then the variants as for the page tables. */
static void print_strings(const struct plan *p)
{
	static const unsigned int misaligns[] = STRINGS_MISALIGNS;
	char sizes[OUT_LINE_MAX], align[32];
	size_t n = 0, a = 0;
	enum string_op op;
	unsigned int i;

	sizes[0] = align[0] = '\0';
	for (i = 0; i < p->nsizes; i++)
		n += fmt_snprintf(sizes + n, n < sizeof(sizes) ? sizeof(sizes) - n : 0,
				  "%s%u", i ? "," : "", p->sizes[i]);
	for (i = 0; i < STRINGS_NMISALIGN; i++)
		a += fmt_snprintf(align + a, a < sizeof(align) ? sizeof(align) - a : 0,
				  "%s%u", i ? "," : "", misaligns[i]);
	out_line("strings sizes=%s calls=%u align=%s modes=tput,lat zero_calls=%u zero_n=%u",
		 sizes, STRINGS_CALLS, align, STRINGS_ZERO_CALLS,
		 STRINGS_ZERO_MIX_N);
	for (op = STRING_MEMSET; op <= STRING_MEMCPY; op++) {
		n = 0;
		sizes[0] = '\0';
		for (i = 0; i < string_variant_count; i++)
			if (string_variants[i].op == op && ((p->str_runs >> i) & 1))
				n += fmt_snprintf(sizes + n, n < sizeof(sizes) ? sizeof(sizes) - n : 0,
						  " %s", string_variants[i].name);
		out_line("variants %s:%s", string_op_name(op), sizes);
		for (i = 0; i < string_variant_count; i++)
			if (string_variants[i].op == op && p->str_skip[i])
				out_line("skipped: %s (%s): %s", string_variants[i].name,
					 string_op_name(op), p->str_skip[i]);
	}
}

/*
 * A "variant" line per selected variant, from its .def row: what its name
 * stands for, so that a log explains itself. suite=xen keeps to the lines
 * of the 2021 experiment.
 */
static void print_variant_rows(const struct plan *p)
{
	static const char fmt[] = "variant name=%s op=%s shape=%s store=%s needs=%s what=\"%s\"";
	const struct variant *v;
	const struct string_variant *s;
	unsigned int i;

	if (suites[p->suite].xen_only)
		return;
	for (i = 0; i < variant_count; i++) {
		v = &variants[i];
		if ((p->selected >> i) & 1)
			out_line(fmt, v->name, op_name(v->op), shape_name(v->shape),
				 store_name(v->store), feat_name(v->need), v->what);
	}
	for (i = 0; i < string_variant_count; i++) {
		s = &string_variants[i];
		if ((p->str_selected >> i) & 1)
			out_line(fmt, s->name, string_op_name(s->op), "string",
				 store_name(s->store), feat_name(s->need), s->what);
	}
}

void plan_print(const struct plan *p)
{
	char list[OUT_LINE_MAX];
	size_t n = 0;
	unsigned int id, op;

	list[0] = '\0';
	for (id = 0; id < PASS_COUNT; id++)
		if (p->passes & (1u << id))
			n += fmt_snprintf(list + n, sizeof(list) - n, "%s%s",
					  n ? "," : "", passes[id].id);
	if (p->reps)
		out_line("plan suite=%s reps=%u passes=%s", suite_name(p->suite),
			 p->reps, n ? list : "none");
	else if (p->time_ms)
		out_line("plan suite=%s reps=auto passes=%s time=%lums",
			 suite_name(p->suite), n ? list : "none",
			 (unsigned long)p->time_ms);
	else if (p->precision_bp % 100)
		out_line("plan suite=%s reps=auto passes=%s precision=%u.%02u%% budget=%lums",
			 suite_name(p->suite), n ? list : "none",
			 p->precision_bp / 100, p->precision_bp % 100,
			 (unsigned long)p->budget_ms);
	else
		out_line("plan suite=%s reps=auto passes=%s precision=%u%% budget=%lums",
			 suite_name(p->suite), n ? list : "none",
			 p->precision_bp / 100, (unsigned long)p->budget_ms);
	if (p->time_over)
		out_line("note: time=%lums: the run's time budget wins over precision= and budget=, which were given too",
			 (unsigned long)p->time_ms);
	if (p->time_not_a_cpu)
		out_line("note: time=%lums: no CPU runs this (runs_on above), so its figures advise nothing; without time= the run is its first round, every variant timed and verified (give time= for more)",
			 (unsigned long)p->time_ms);
	for (id = 0; id < PASS_COUNT; id++)
		if (p->passes & (1u << id))
			out_line("sizes pass=%s fill=%zu clear=%zu copy=%zu placements=%u",
				 passes[id].id,
				 passes[id].kind == KIND_TIMED ? p->nr[id] * PAGE : 0,
				 pass_bytes(p, id, OP_CLEAR),
				 pass_bytes(p, id, OP_COPY), p->placements[id]);
	for (id = 0; id < PASS_COUNT; id++)
		if (p->pass_skip[id])
			out_line("skipped pass: %s: %s", passes[id].header,
				 p->pass_skip[id]);
	if (p->scrub_bytes)
		out_line("sizes scrub=%lu", (unsigned long)p->scrub_bytes);
	if (p->scrub_skip)
		out_line("skipped scrub: %s", p->scrub_skip);
	for (op = 0; op < OP_COUNT; op++)
		if (suites[p->suite].ops & (1u << op))
			print_variants(p, op);
	if (suites[p->suite].ops & OPS_STRINGS)
		print_strings(p);
	print_variant_rows(p);
	for (op = FEAT_NONE + 1; op < FEAT_COUNT; op++)
		if (op == FEAT_APERFMPERF && ((p->forced >> op) & 1))
			out_line("note: force=aperfmperf: ring 0 reads APERF/MPERF although this CPU does not report them (pagebench-linux counts cycles with perf)");
		else if ((p->forced >> op) & 1)
			out_line("note: force=%s: running its variants although this CPU does not report it",
				 feat_name(op));
}
