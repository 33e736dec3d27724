/* SPDX-License-Identifier: MIT */
/*
 * One pass of a page suite. With the plan's stats (every page suite but
 * suite=xen) a pass runs in epochs (harness/measure/epochs.h): each moves the
 * buffers, flushes them and pauses; a call shorter than BATCH_TIMER_STEPS
 * timer steps is also timed in batches of calls on buffers of their own;
 * each epoch ends with a use probe per variant; the pass ends with its
 * stat lines (harness/measure/suites/figures.h).
 */
#include "cpu/insn.h"
#include "lib/out.h"
#include "lib/run.h"
#include "harness/measure/sample.h"
#include "harness/measure/suites/timed_call.h"
#include "harness/measure/suites/pass.h"
#include "harness/measure/suites/verify.h"

/* Each variant's median of its samples, for the summary (suite=xen), sorting them. */
static void record_samples(struct record_pass *p, enum op op, uint64_t (*t)[REPS_MAX],
			   const unsigned int *n)
{
	unsigned int i;

	for (i = 0; i < variant_count; i++)
		if (variants[i].op == op && n[i])
			record_add_figure(p, variants[i].name, median2_u64(t[i], n[i]));
}

/*
 * The start of epoch e: fill and the work area at this epoch's offsets,
 * both flushed as at a pass's start, the guard pages set, and a pause.
 * Without stats there is one epoch, where the buffers start.
 */
static void place(struct page_run *s, struct pass_state *ps, unsigned int e)
{
	struct layout at0 = pass_layout(s->p, s->b->work, ps->op, ps->id);
	size_t fill_pages = 0, work_pages = 0, fill_room = 0, work_room = 0;
	unsigned int j;

	/* Pages to spare beyond this pass's, anywhere in the buffers. */
	if (passes[ps->id].kind == KIND_TIMED && s->sizes.fill / PAGE > ps->nr)
		fill_room = s->sizes.fill / PAGE - ps->nr;
	if (s->sizes.work > layout_span(&at0, s->b->work))
		work_room = (s->sizes.work - layout_span(&at0, s->b->work)) / PAGE;
	if (s->p->stats)
		epoch_place((uint64_t)ps->op << 8 | ps->id, e, fill_room, work_room,
			    &fill_pages, &work_pages);
	ps->fill = s->b->fill + fill_pages * PAGE;
	ps->base = s->b->work + work_pages * PAGE;
	ps->l = pass_layout(s->p, ps->base, ps->op, ps->id);
	if (s->p->stats)
		out_line("epoch suite=%s pass=%s n=%u fill=+%lu work=+%lu",
			 op_name(ps->op), passes[ps->id].id, e,
			 (unsigned long)(fill_pages * PAGE),
			 (unsigned long)(work_pages * PAGE));
	/*
	 * With placements, a call's placement is sent to memory before its
	 * pattern, and fill written before it is probed: flushing the whole
	 * region and fill here as well would cost more than the epoch's calls.
	 */
	if (passes[ps->id].kind == KIND_TIMED && ps->place.n == 1) {
		run_step("%s %s epoch %u: first flush", op_name(ps->op), ps->header, e);
		flush_range(&s->env, ps->fill, ps->nr * PAGE);
		host_may_yield();
	}
	if (ps->place.n == 1) {
		flush_range(&s->env, ps->base, layout_span(&ps->l, ps->base));
		host_may_yield();
	}
	for (j = 0; j < ps->l.slots; j++)
		guards_set(ps->l.dst + j * ps->l.stride, ps->l.bytes);
	if (s->p->stats && e)
		host_pause(rdtsc_ordered() + EPOCH_PAUSE_US * s->ticks_per_ms / 1000);
}

/*
 * The state before a timed call, for the first calls slots of the layout.
 * A "w/o flush" pass of the page suites first sends the slot's lines to
 * memory, so that no call starts from what the variant before it left: a
 * non-temporal store leaves the lines in memory, a temporal one in the
 * caches, and the caches insert the pattern's lines by that history (on
 * Emerald Rapids, an L2 pass's call after a non-temporal variant took 2.3
 * times as long; docs/method.md, "Every call from memory"). suite=xen is
 * the 2021 iteration exactly; a "w/ flush" pass ends their history anyway.
 */
static void prepare_one(struct page_run *s, const struct pass_state *ps,
			const struct layout *one, unsigned int rep, unsigned int i)
{
	if (s->p->stats && !passes[ps->id].flush) {
		if (one->src)
			flush_lines(&s->env, one->src, one->bytes);
		flush_lines(&s->env, one->dst, one->bytes);
	}
	prepare_slot(one, rep, i);
	if (one->src)
		evict_or_fence(&s->env, passes[ps->id].flush, one->src, one->bytes);
	evict_or_fence(&s->env, passes[ps->id].flush, one->dst, one->bytes);
}

static void prepare_slots(struct page_run *s, const struct pass_state *ps,
			  unsigned int calls, unsigned int rep, unsigned int i)
{
	unsigned int j;

	for (j = 0; j < calls; j++) {
		struct layout one = layout_slot(&ps->l, j);

		if (j)
			host_may_yield();
		prepare_one(s, ps, &one, rep, i);
	}
}

/*
 * The order of a rep's calls: the variants still measured in table
 * order, and with stats every other rep (rep odd) the reverse, so that
 * over two reps every variant, the pick and its candidates alike, sits
 * on average at the same time, and a drift of the machine over a rep
 * moves their ratio by none of it (docs/method.md, "One time budget",
 * "Order"). suite=xen keeps the 2021 table order. n is returned.
 */
static unsigned int rep_order(const struct page_run *s, const struct pass_state *ps,
			      unsigned int *order)
{
	unsigned int i, n = 0, t;

	for (i = 0; i < variant_count; i++)
		if (variant_measured(s, ps, i))
			order[n++] = i;
	if (s->p->stats && (ps->rep & 1))
		for (i = 0; i < n / 2; i++) {
			t = order[i];
			order[i] = order[n - 1 - i];
			order[n - 1 - i] = t;
		}
	return n;
}

/* No placement primed for a variant in this rep. */
#define UNPRIMED	(~0ul)

/*
 * Call number k's slot and its share of fill (nr pages): with
 * placements, placement k % placements of the layout and a share of
 * fill twice what a call clears, as in 2021, the shares taken in turn
 * and wrapping round fill where they do not all fit (a huge page's is 4
 * MiB: eight of them in a 32 MiB L3); else slot 0 and the whole of fill.
 */
static struct layout call_slot(const struct pass_state *ps, unsigned long k,
			       uint8_t **fill, size_t *nr)
{
	unsigned int at = ps->place.n > 1 ? (unsigned int)(k % ps->place.n) : 0;
	size_t shares;

	*nr = ps->place.n > 1 ? 2 * ps->l.stride / PAGE : ps->nr;
	if (*nr > ps->nr)
		*nr = ps->nr;
	shares = *nr ? ps->nr / *nr : 1;
	*fill = ps->fill + (size_t)(at % (shares ? shares : 1)) * *nr * PAGE;
	return layout_slot(&ps->l, at);
}

/*
 * A "w/o flush" pass with placements, at the start of each rep: the
 * placements of the rep's calls, one per variant still measured in the
 * order they run, each sent to memory and written with its pattern, then
 * the whole of fill written after them, as a 2021 iteration writes it
 * after its buf: each destination was last written before a cache's
 * worth of other data, and so was displaced, as in 2021, at the cost of
 * one fill a rep rather than one a call. at[i]: variant i's call number.
 */
static void prime(struct page_run *s, struct pass_state *ps,
		  const unsigned int *order, unsigned int n, unsigned long *at)
{
	unsigned int i, k, j = 0;

	ps->place.primed = ps->place.next;
	for (k = 0; k < n && j < ps->place.n; k++) {
		i = order[k];
		at[i] = ps->place.next + j;
		if (j++)
			host_may_yield();
		{
			struct layout one = layout_slot(&ps->l, (unsigned int)(at[i] % ps->place.n));

			prepare_one(s, ps, &one, ps->rep, i);
		}
	}
	ps->place.nprimed = j;
	ps->place.next += j;
	host_may_yield();
	fill_bytes(ps->fill, (uint8_t)(0xe1 - ps->rep), ps->nr * PAGE);
	mfence();
}

/*
 * A batched sample of a timed pass: calls slots prepared as for one call,
 * fill written and probed, the batch timed; no post probe, which would be
 * the damage of the whole batch.
 */
static bool batch_sample(struct page_run *s, struct pass_state *ps,
			 unsigned int i, unsigned int calls, unsigned int rep,
			 uint64_t *ticks)
{
	struct call c = { &variants[i], &ps->l, calls, false };
	struct sample_tries tries = { 0 };
	struct host_sample h;
	struct fault f;
	bool ok;

	do {
		host_may_yield();
		prepare_slots(s, ps, calls, rep, i);
		ok = time_after_probe(&s->env, ps->fill, ps->nr, rep, call_batch, &c,
				      ticks, &h, &f);
	} while (ok && sample_again(&tries, *ticks, &h, variants[i].name));
	if (!ok) {
		variant_fault(ps->op, ps->header, i, &f, &s->runs, &ps->failed);
		return false;
	}
	verify_slots(ps->header, i, &ps->l, calls, &ps->failed);
	return true;
}

/* Rep rep of variant i: the 2021 iteration, its value line and its check. */
static bool timed_rep(struct page_run *s, struct pass_state *ps,
		      unsigned int i, unsigned int reps, uint64_t (*legacy)[REPS_MAX],
		      unsigned int *nlegacy, unsigned long at, uint64_t *ticks)
{
	const struct variant *v = &variants[i];
	struct layout one;
	struct call c = { v, &one, 1, false };
	struct sample_tries tries = { 0 };
	struct timing t;
	struct fault f;
	uint8_t *fill;
	size_t nr;
	bool ok, again;

	run_step("%s %s rep %u variant %s", op_name(ps->op), ps->header,
		 ps->rep, v->name);
	progress_next(&s->clock, op_name(ps->op), ps->header, v->name, ps->rep,
		      reps, ps->nr);
	/* A call done again takes a placement of its own, prepared then. */
	do {
		host_may_yield();
		one = call_slot(ps, at == UNPRIMED ? ps->place.next++ : at, &fill, &nr);
		if (at == UNPRIMED)
			prepare_one(s, ps, &one, ps->rep, i);
		ok = time_between_probes(&s->env, fill, nr, ps->rep,
					 call_variant, &c, one.bytes, &t, &f);
		again = ok && sample_again(&tries, t.ticks, &t.host, v->name);
		at = UNPRIMED;
	} while (again);
	if (!ok) {
		variant_fault(ps->op, ps->header, i, &f, &s->runs, &ps->failed);
		return false;
	}
	out_line(" pre=%lx %s=%lx post=%lx", (unsigned long)t.pre, v->name,
		 (unsigned long)t.ticks, (unsigned long)t.post);
	if (!s->p->stats)
		legacy[i][nlegacy[i]++] = t.ticks;
	host_may_yield();
	verify_slots(ps->header, i, &one, 1, &ps->failed);
	*ticks = t.ticks;
	return true;
}

/* The use probe of variant i, once an epoch: a line, and a figure. */
static void use_rep(struct page_run *s, struct pass_state *ps, unsigned int i)
{
	const struct variant *v = &variants[i];
	struct layout one = layout_slot(&ps->l, 0);
	struct call c = { v, &one, 1, false };
	struct sample_tries tries = { 0 };
	struct host_sample h;
	uint64_t ticks, use;
	struct fault f;
	bool ok;

	run_step("%s %s use variant %s", op_name(ps->op), ps->header, v->name);
	/* A call the host saw disturbed is done again, its use probe with it. */
	do {
		host_may_yield();
		prepare_slots(s, ps, 1, ps->rep, i);
		ok = time_then_use(&s->env, ps->fill, ps->nr, ps->rep, call_variant,
				   &c, one.bytes, one.dst, one.bytes / PAGE, &ticks,
				   &use, &h, &f);
	} while (ok && sample_again(&tries, ticks, &h, v->name));
	if (!ok) {
		variant_fault(ps->op, ps->header, i, &f, &s->runs, &ps->failed);
		return;
	}
	out_line(" use %s=%lx", v->name, (unsigned long)use);
	figures_add_use(&ps->figs, i, use);
	verify_slots(ps->header, i, &one, 1, &ps->failed);
}

/* The reps progress shows as the pass's: so far, at least what an interval needs. */
static unsigned int shown_reps(const struct plan *p, unsigned int e,
			       unsigned int per_epoch)
{
	unsigned int epochs = e + 1 < INTERVAL_EPOCHS_MIN ? INTERVAL_EPOCHS_MIN : e + 1;

	return p->reps ? p->reps : epochs * (per_epoch ? per_epoch : 1);
}

/*
 * The next epoch of a pass: its header (timed passes), its place, its
 * reps (the first rep's time sets how many when the plan fixes none),
 * its use probes; then whether the pass stops, and if so its stat lines.
 * Without stats the one epoch is all its reps.
 */
enum epoch_stop pass_epoch(struct page_run *s, struct pass_state *ps)
{
	uint64_t t0 = rdtsc_ordered();
	enum epoch_stop stop;
	unsigned int e = ps->epoch, r, i;
	bool precise;

	host_may_yield();
	/* The copy table's headers say "copy ", so one log has both tables. */
	if (passes[ps->id].kind == KIND_TIMED)
		out_line("%s%s:", pass_prefix(ps->op, ps->id), ps->header);
	place(s, ps, e);
	if (!e && window_count(&s->env, ps->l.bytes) > 1)
		out_line("note: %s %s: each call's %zu bytes run in %u windows of at most %zu bytes, interrupts on between them (one call per window for a whole-region variant); its figure is their sum",
			 op_name(ps->op), ps->header, ps->l.bytes,
			 window_count(&s->env, ps->l.bytes), s->env.window_bytes);
	if (s->p->reps)
		ps->reps = s->p->stats ? epoch_reps_fixed(s->p->reps, e) : s->p->reps;
	for (r = 0; r < (ps->reps ? ps->reps : 1); r++, ps->rep++) {
		uint64_t r0 = rdtsc_ordered();

		ps->rep_fn(s, ps, shown_reps(s->p, e, ps->reps));
		if (!ps->reps)
			ps->reps = epoch_reps_for(s->rule.budget_ticks,
						  s->p->time_ms ? pass_floor(ps->id) :
						  INTERVAL_EPOCHS_MIN,
						  rdtsc_ordered() - r0);
	}
	ps->epoch++;
	if (!s->p->stats)
		return EPOCH_STOP_REPS;
	for (i = 0; ps->use && i < variant_count; i++)
		if (variant_measured(s, ps, i))
			use_rep(s, ps, i);
	precise = figures_end_epoch(&ps->figs, op_runs(s, ps->op) & ps->race.active,
				    s->rule.precision_bp);
	ps->last = rdtsc_ordered() - t0;
	ps->own += ps->last;
	if (s->p->time_ms) {
		pass_race(&ps->race, s->q, s->p->worth_bp, ps->id,
			  op_runs(s, ps->op) & ~ps->failed, ps->epoch, &ps->figs);
		return EPOCH_GO_ON;
	}
	/* A pass whose variants all faulted has nothing left to measure. */
	stop = op_runs(s, ps->op) ? epoch_next(&s->rule, ps->epoch, precise,
					       ps->own, ps->last) : EPOCH_STOP_REPS;
	if (stop != EPOCH_GO_ON)
		pass_stop(s, ps, stop);
	return stop;
}

void pass_stop(struct page_run *s, struct pass_state *ps, enum epoch_stop stop)
{
	if (ps->ended)
		return;
	ps->ended = true;
	ps->printed = op_runs(s, ps->op);
	figures_print(&ps->figs, ps->printed, stop);
}

static void timed_reps(struct page_run *s, struct pass_state *ps,
		       unsigned int reps)
{
	/* suite=xen's samples for the record, too large for a stack. */
	static uint64_t legacy[VARIANTS_MAX][REPS_MAX];
	static unsigned int nlegacy[VARIANTS_MAX];
	uint64_t ticks[VARIANTS_MAX], shortest = UINT64_MAX;
	unsigned long at[VARIANTS_MAX];
	unsigned int order[VARIANTS_MAX], n, k, i;
	variant_set timed = 0;

	if (!ps->rep)
		for (i = 0; i < VARIANTS_MAX; i++)
			nlegacy[i] = 0;
	for (i = 0; i < VARIANTS_MAX; i++)
		at[i] = UNPRIMED;
	n = rep_order(s, ps, order);
	if (ps->place.n > 1 && !passes[ps->id].flush)
		prime(s, ps, order, n, at);
	for (k = 0; k < n; k++) {
		i = order[k];
		if (variant_measured(s, ps, i) &&
		    timed_rep(s, ps, i, reps, legacy, nlegacy, at[i], &ticks[i])) {
			timed |= 1ull << i;
			if (ticks[i] < shortest)
				shortest = ticks[i];
		}
	}
	if (!s->p->stats) {
		if (ps->rep + 1 == s->p->reps)
			record_samples(ps->rec, ps->op, legacy, nlegacy);
		return;
	}
	/* The first rep's calls say whether the pass batches, rep 0 included. */
	if (!ps->rep && shortest != UINT64_MAX) {
		/* A placement is a call's own: no room for a batch beside it. */
		ps->batch = pass_batch(shortest * CENTI, s->timer.step,
				       ps->place.n > 1 ? 1 : ps->l.slots);
		for (i = 0; i < variant_count; i++)
			figures_set_batch(&ps->figs, i, ps->batch);
	}
	for (i = 0; i < variant_count; i++) {
		if (!((timed >> i) & 1) || !variant_measured(s, ps, i))
			continue;
		if (ps->batch == 1)
			figures_add(&ps->figs, i, ticks[i]);
		else if (batch_sample(s, ps, i, ps->batch, ps->rep, &ticks[i]))
			figures_add(&ps->figs, i, ticks[i]);
	}
}

void pass_begin(struct page_run *s, struct pass_state *ps, enum op op,
		enum pass_id id, unsigned int slot)
{
	*ps = (struct pass_state){ .op = op, .id = id, .header = passes[id].header,
				   .nr = s->p->nr[id], .batch = 1, .slot = slot,
				   .use = passes[id].use, .rep_fn = timed_reps,
				   .place.n = s->p->placements[id] ? s->p->placements[id] : 1,
				   .race = { .active = op_runs(s, op), .open = true } };
	figures_begin(&ps->figs, slot, op, passes[id].id, s->timer.step,
		      passes[id].use);
}
