/* SPDX-License-Identifier: MIT */
/*
 * suite=scrub (harness/measure/suites/scrub.h). A step: a clear variant, a count of CPUs
 * and where their memory is. Its CPUs split the region into equal shares
 * of whole pages, each share in the CPU's own NUMA node's copy of the
 * region (or, in the remote step, the next node's). The shares are filled
 * and flushed from the caches, every CPU waits for one TSC deadline and
 * clears its share; the step's time is from the deadline to the last CPU's
 * end. Every byte is checked afterwards.
 */
#include "harness/measure/bench.h"
#include "lib/fmt.h"
#include "cpu/insn.h"
#include "lib/out.h"
#include "harness/measure/progress.h"
#include "lib/run.h"
#include "harness/measure/sample.h"
#include "harness/measure/suites/scrub.h"
#include "harness/measure/timer.h"

#define PAGE PAGE_SIZE
/* All CPUs must be spinning before the deadline: kernel APs and Linux threads alike. */
#define LEAD_MS 20

enum where { LOCAL, REMOTE };

struct share {
	uint8_t *p;
	size_t bytes;
	uint64_t t0, t1;
	struct host_sample host;	/* whether this CPU's window was disturbed */
};

struct step {
	const struct variant *v;
	uint64_t start;
	struct share share[HOST_CPUS_MAX];
};

struct scrub {
	const struct plan *p;
	const struct buffers *b;
	struct bench_env env;
	struct host_cpus cpus;
	unsigned int n;			/* CPUs used: host_cpus(), at most cpus= */
	uint64_t tsc_khz;
	variant_set runs;		/* the plan's, less what faulted */
	variant_set failed;		/* a verify FAILED line: no answer's candidate */
	struct run_record *rec;		/* may be NULL */
	struct progress_clock clock;	/* in steps */
};

/* What one CPU does at the deadline. */
static void clear_share(void *ctx, unsigned int i)
{
	struct step *st = ctx;
	struct share *sh = &st->share[i];

	while (rdtsc_ordered() < st->start)
		;
	host_sample_begin(&sh->host);
	sh->t0 = rdtsc_ordered();
	variant_call_hosted(st->v, sh->p, NULL, sh->bytes);
	sh->t1 = rdtsc_ordered();
	host_sample_end(&sh->host, sh->t1 - sh->t0);
}

/* One CPU alone runs guarded: a variant that faults says so and drops out. */
struct alone {
	struct step *st;
	char why[128];
	bool ok;
};

static void run_alone(void *ctx)
{
	struct alone *a = ctx;

	a->ok = host_run_on_cpus(1, a->st->start, clear_share, a->st, a->why,
				 sizeof(a->why));
}

static unsigned int node_of(const struct scrub *s, unsigned int i, enum where w)
{
	unsigned int node = s->cpus.node[i];

	return w == REMOTE ? (node + 1) % s->cpus.nodes : node;
}

/* Shares of whole pages; the last CPU takes what is left over. */
static void split(struct scrub *s, struct step *st, unsigned int count,
		  enum where w)
{
	size_t pages = s->p->scrub_bytes / PAGE, each = pages / count;
	unsigned int i;

	for (i = 0; i < count; i++) {
		uint8_t *region = s->b->scrub[node_of(s, i, w)] + PAGE;

		st->share[i].p = region + i * each * PAGE;
		st->share[i].bytes = (i + 1 == count ? pages - i * each : each) * PAGE;
	}
}

static void prepare(struct scrub *s, struct step *st, unsigned int count,
		    unsigned int rep)
{
	unsigned int i;

	for (i = 0; i < count; i++) {
		fill_bytes(st->share[i].p, (uint8_t)(0x11 * (rep % 15 + 1)),
			   st->share[i].bytes);
		flush_range(&s->env, st->share[i].p, st->share[i].bytes);
	}
}

static void verify(struct scrub *s, const struct step *st,
		   unsigned int count)
{
	unsigned int i, node;

	for (i = 0; i < count; i++) {
		const uint8_t *p = st->share[i].p;
		size_t off = find_nonzero(p, st->share[i].bytes);

		if (off == NOT_FOUND)
			continue;
		out_line("verify FAILED: suite=scrub pass=cpus=%u variant=%s offset=0x%lx byte 0x%x is not zero (cpu %u's share)",
			 count, st->v->name, (unsigned long)off, p[off], i);
		run_fail();
		s->failed |= 1ull << (st->v - variants);
	}
	for (node = 0; node < s->cpus.nodes; node++)
		verify_guards("scrub", "scrub", st->v->name, s->b->scrub[node] + PAGE,
			      s->p->scrub_bytes);
}

static uint64_t ticks_per_ms(const struct scrub *s)
{
	return s->tsc_khz ? s->tsc_khz : TIMER_TICKS_PER_MS_UNKNOWN;
}

/* The step's line; returns its wall time in ticks, or 0 when it failed. */
static uint64_t step(struct scrub *s, unsigned int vi, unsigned int count,
		     enum where w, unsigned int rep)
{
	static struct step st;
	uint64_t wall = 0, slowest = 0, fastest = UINT64_MAX, gbs100 = 0, late = 0;
	struct alone a = { &st, "", false };
	struct sample_tries tries = { 0 };
	unsigned int i, spread;
	struct fault f;
	char why[128];
	char gbs[24] = "?";	/* GB/s; "?" where the TSC's rate is unknown */
	bool disturbed;

	st.v = &variants[vi];
	split(s, &st, count, w);
	/* A step any of whose CPUs was disturbed is a disturbed sample: all run again. */
	do {
		prepare(s, &st, count, rep);
		run_step("scrub cpus=%u %s rep %u variant %s", count,
			 w == LOCAL ? "local" : "remote", rep, st.v->name);
		st.start = rdtsc_ordered() + LEAD_MS * ticks_per_ms(s);
		if (count == 1) {
			if (!host_call_guarded(run_alone, &a, &f)) {
				out_line("fault: suite=scrub pass=cpus=1 variant=%s %s rip=0x%lx",
					 st.v->name, f.what, (unsigned long)f.rip);
				run_fail();
				s->runs &= ~(1ull << vi);
				return 0;
			}
			fmt_snprintf(why, sizeof(why), "%s", a.why);
		} else {
			a.ok = host_run_on_cpus(count, st.start, clear_share, &st, why,
						sizeof(why));
		}
		if (!a.ok) {
			out_line("note: scrub cpus=%u variant=%s did not finish: %s",
				 count, st.v->name, why);
			run_fail();
			return 0;
		}
		disturbed = false;
		for (i = 0; i < count; i++)
			disturbed |= sample_window(i, &st.share[i].host);
	} while (sample_retry(&tries, disturbed));
	for (i = 0; i < count; i++) {
		uint64_t took = st.share[i].t1 - st.share[i].t0;

		if (st.share[i].t1 - st.start > wall)
			wall = st.share[i].t1 - st.start;
		if (st.share[i].t0 - st.start > late)
			late = st.share[i].t0 - st.start;
		slowest = took > slowest ? took : slowest;
		fastest = took < fastest ? took : fastest;
	}
	if (!wall)
		wall = 1;
	/* bytes * kHz fits 64 bits up to 1 TiB at 8 GHz: scrub= is at most 1 TiB. */
	if (s->tsc_khz) {
		gbs100 = s->p->scrub_bytes * s->tsc_khz / wall / 10000;
		fmt_snprintf(gbs, sizeof(gbs), "%lu.%02lu", (unsigned long)(gbs100 / 100),
			     (unsigned long)(gbs100 % 100));
	}
	spread = (unsigned int)((slowest - fastest) * 1000 / (slowest ? slowest : 1));
	out_line("scrub variant=%s cpus=%u node=%s rep=%u bytes=%lu wall=%lu slowest=%lu fastest=%lu late=%lu gbs=%s spread=%u.%u%%",
		 st.v->name, count, w == LOCAL ? "local" : "remote", rep,
		 (unsigned long)s->p->scrub_bytes, (unsigned long)wall,
		 (unsigned long)slowest, (unsigned long)fastest,
		 (unsigned long)late, gbs, spread / 10, spread % 10);
	verify(s, &st, count);
	return wall;
}

/* 1, 2, 4, ... and all of them: counts[] in order; returns how many. */
static unsigned int counts(unsigned int n, unsigned int *c)
{
	unsigned int k = 0, x;

	for (x = 1; x < n; x *= 2)
		c[k++] = x;
	c[k++] = n;
	return k;
}

/*
 * What a step measured, into the record: each variant's reps, their wall
 * times in hundredths of a tick, as its epochs (quantum a tick; an
 * interval takes at most INTERVAL_EPOCHS_MAX of them, the first ones, in
 * an odd count), for the decision; their medians, for the summary.
 */
static void record_step(struct scrub *s, const char *id, const char *title,
			uint64_t walls[VARIANTS_MAX][REPS_MAX], const unsigned int *n)
{
	struct record_pass *rp = record_add_step(s->rec, id, title, s->p->scrub_bytes);
	unsigned int i, r, e;

	for (i = 0; i < variant_count; i++) {
		uint64_t med[INTERVAL_EPOCHS_MAX], sorted[INTERVAL_EPOCHS_MAX];
		const uint64_t *kept;

		e = n[i] < INTERVAL_EPOCHS_MAX ? n[i] : INTERVAL_EPOCHS_MAX;
		if (!e)
			continue;
		for (r = 0; r < e; r++)
			med[r] = walls[i][r] * CENTI;
		e = interval_odd_epochs(med, e);
		for (r = 0; r < e; r++)
			sorted[r] = med[r];
		kept = record_keep_series(s->rec, med, e);
		record_add_input(rp, &variants[i], (s->failed >> i) & 1,
				 kept ? (struct epoch_series){ kept, e, median_u64(sorted, e), CENTI } :
					(struct epoch_series){ 0 });
	}
	/* After the epochs were copied: the median sorts the walls. */
	for (i = 0; i < variant_count; i++)
		if (n[i])
			record_add_figure(rp, variants[i].name, median2_u64(walls[i], n[i]));
}

/* All steps of one count (and place), reps of every variant, grouped by rep. */
static void count_steps(struct scrub *s, unsigned int count, enum where w)
{
	static uint64_t walls[VARIANTS_MAX][REPS_MAX];
	unsigned int n[VARIANTS_MAX] = { 0 }, rep, i;
	char pass[32], id[32], title[48];

	fmt_snprintf(pass, sizeof(pass), "cpus=%u %s", count,
		     w == LOCAL ? "local" : "remote");
	fmt_snprintf(id, sizeof(id), "cpus%u%s", count, w == LOCAL ? "" : "_remote");
	sample_pass_begin();
	for (rep = 0; rep < s->p->reps; rep++) {
		for (i = 0; i < variant_count; i++) {
			uint64_t wall;

			if (!((s->runs >> i) & 1))
				continue;
			host_may_yield();
			progress_next(&s->clock, "scrub", pass, variants[i].name, rep,
				      s->p->reps, 1);
			wall = step(s, i, count, w, rep);
			if (wall)
				walls[i][n[i]++] = wall;
		}
	}
	sample_pass_end("scrub", id);
	if (!s->rec)
		return;
	fmt_snprintf(title, sizeof(title), "scrub, %u CPU%s%s", count,
		     count == 1 ? "" : "s", w == REMOTE ? ", remote node" : "");
	record_step(s, id, title, walls, n);
}

void scrub_run(const struct plan *p, const struct cpu_desc *d,
	       const struct buffers *b, uint64_t tsc_khz, struct run_record *rec)
{
	static struct scrub s;
	unsigned int c[32], nc, k, i, node, nvar = 0;
	char list[160];
	size_t len = 0;

	s = (struct scrub){ .p = p, .b = b, .tsc_khz = tsc_khz, .runs = p->runs,
			    .rec = rec };
	bench_env_init(&s.env, d);
	out_line("flush: %s", flush_method_name(&s.env));
	if (!p->scrub_bytes)
		return;
	host_cpus(&s.cpus);
	s.n = p->cpus && p->cpus < s.cpus.n ? p->cpus : s.cpus.n;
	if (p->cpus > s.cpus.n)
		out_line("note: cpus=%u, but only %u can run work: using %u",
			 p->cpus, s.cpus.n, s.cpus.n);
	nc = counts(s.n, c);
	list[0] = '\0';
	for (k = 0; k < nc; k++)
		len += fmt_snprintf(list + len, len < sizeof(list) ? sizeof(list) - len : 0,
				    "%s%u", k ? "," : "", c[k]);
	out_line("scrub counts=%s nodes=%u region=%lu", list, s.cpus.nodes,
		 (unsigned long)p->scrub_bytes);
	for (node = 0; node < s.cpus.nodes; node++)
		guards_set(b->scrub[node] + PAGE, p->scrub_bytes);

	for (i = 0; i < variant_count; i++)
		nvar += (s.runs >> i) & 1;
	progress_start(&s.clock, tsc_khz,
		       (uint64_t)nvar * p->reps * (nc + (s.cpus.nodes > 1)), 0);
	for (k = 0; k < nc; k++)
		count_steps(&s, c[k], LOCAL);
	/* With NUMA, one more step: every CPU clearing the next node's memory. */
	if (s.cpus.nodes > 1)
		count_steps(&s, s.n, REMOTE);
}
