/* SPDX-License-Identifier: MIT */
/*
 * Ma Ling's 2011 copy-hot and copy-cold: his copies first, with his
 * decimal lines, then epochs of batched copies sized from them.
 */
#include "cpu/insn.h"
#include "lib/out.h"
#include "lib/run.h"
#include "harness/measure/sample.h"
#include "harness/measure/suites/timed_call.h"
#include "harness/measure/suites/copy_hot_cold.h"
#include "harness/measure/suites/verify.h"

/*
 * What comes before each timed copy: copy-cold's other data (ma_ling()
 * says why), then a fence, so that the stores that prepared the copy are
 * done before its clock starts.
 */
static void before_copy(const struct page_run *s, bool cold)
{
	if (cold)
		__builtin_memcpy(s->b->cold + COPY_COLD_BYTES, s->b->cold,
				 COPY_COLD_BYTES);
	mfence();
}

/*
 * A batched sample of copy-hot (the same page copied calls times, as
 * Ma Ling's copies each follow the one before) or copy-cold (calls pages,
 * all pushed out by the other data first, each copied once).
 */
void hot_cold_reps(struct page_run *s, struct pass_state *ps,
		   unsigned int reps)
{
	bool cold = passes[ps->id].kind == KIND_COLD;
	unsigned int calls = ps->batch;
	/* The slots a batch writes: copy-hot's calls all write slot 0. */
	unsigned int used = cold ? calls : 1;
	unsigned int i, j;

	for (i = 0; i < variant_count; i++) {
		const struct variant *v = &variants[i];
		struct call c = { v, &ps->l, calls, !cold };
		struct sample_tries tries = { 0 };
		struct host_sample h;
		uint64_t ticks;
		struct fault f;
		bool ok;

		if (!variant_measured(s, ps, i))
			continue;
		run_step("%s variant %s batch rep %u", ps->header, v->name, ps->rep);
		progress_next(&s->clock, op_name(ps->op), ps->header, v->name,
			      ps->rep, reps, iteration_pages(s->p, ps->id));
		do {
			host_may_yield();
			for (j = 0; j < used; j++) {
				struct layout one = layout_slot(&ps->l, j);

				prepare_slot(&one, ps->rep, i);
			}
			before_copy(s, cold);
			ok = time_guarded(call_batch, &c, &ticks, &h, &f);
		} while (ok && sample_again(&tries, ticks, &h, v->name));
		if (!ok) {
			variant_fault(ps->op, ps->header, i, &f, &s->runs, &ps->failed);
			continue;
		}
		verify_slots(ps->header, i, &ps->l, used, &ps->failed);
		figures_add(&ps->figs, i, ticks);
	}
}

/*
 * copy-hot: the same page copied COPY_HOT_N times, each timed alone.
 * copy-cold: before each timed copy, COPY_COLD_BYTES of other data are
 * copied, pushing src and dst out of L1 and (on his Sandy Bridge) L2.
 * Both print decimal ticks per 4 KiB copy, as Ma Ling's tables did; the
 * epochs of batched copies that follow are sized from those.
 */
void ma_ling(struct page_run *s, struct pass_state *ps)
{
	enum op op = ps->op;
	const char *pass = ps->header;
	bool cold = passes[ps->id].kind == KIND_COLD;
	unsigned int n = cold ? COPY_COLD_N : COPY_HOT_N;
	uint64_t t[COPY_HOT_N > COPY_COLD_N ? COPY_HOT_N : COPY_COLD_N];
	uint64_t shortest = UINT64_MAX;
	struct layout l;
	unsigned int i, k;

	/* Ma Ling's copies where the work area starts; the epochs move on. */
	l = layout_of(s->p, s->b->work, op, pass_bytes(s->p, ps->id, op));
	guards_set(l.dst, l.bytes);
	for (i = 0; i < variant_count; i++) {
		const struct variant *v = &variants[i];
		struct call c = { v, &l, 1, false };
		uint64_t median;
		struct fault f;

		if (!variant_runs(s, i, op))
			continue;
		host_may_yield();
		run_step("%s variant %s", pass, v->name);
		prepare_slot(&l, 0, i);
		if (!host_call_guarded(call_whole, &c, &f)) {	/* warm: both pages in cache */
			variant_fault(ps->op, ps->header, i, &f, &s->runs, &ps->failed);
			continue;
		}
		for (k = 0; k < n; k++) {
			struct sample_tries tries = { 0 };
			struct host_sample h;
			bool ok;

			progress_next(&s->clock, op_name(op), pass, v->name, k, n,
				      iteration_pages(s->p, ps->id));
			do {
				host_may_yield();
				prepare_slot(&l, k, i);
				before_copy(s, cold);
				ok = time_windows(&s->env, call_variant, &c, l.bytes, &t[k],
						  &h, &f);
			} while (ok && sample_again(&tries, t[k], &h, v->name));
			if (!ok)
				break;
			verify_slots(ps->header, i, &l, 1, &ps->failed);
		}
		if (k < n) {
			variant_fault(ps->op, ps->header, i, &f, &s->runs, &ps->failed);
			continue;
		}
		median = median2_u64(t, n) / 2;
		out_line("%s variant=%s n=%u min=%lu median=%lu max=%lu", pass,
			 v->name, n, (unsigned long)t[0], (unsigned long)median,
			 (unsigned long)t[n - 1]);
		if (median < shortest)
			shortest = median;
	}
	ps->aggregate_n = n;
	/* copy-hot copies one page again and again: no slot limits its batch. */
	ps->batch = pass_batch(shortest * CENTI, s->timer.step, cold ? l.slots : BATCH_MAX);
	for (i = 0; i < variant_count; i++)
		figures_set_batch(&ps->figs, i, ps->batch);
}
