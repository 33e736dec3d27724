/* SPDX-License-Identifier: MIT */
/*
 * Retiming disturbed samples and summing their cycles (harness/sample.h).
 * One pass at a time, on the CPU that runs the suite: suite=scrub's other
 * CPUs only fill their struct host_sample, which the first CPU counts
 * once the step is over.
 */
#include "harness/sample.h"
#include "lib/fmt.h"
#include "lib/out.h"

/* A pass's names: its variants, and suite=strings' empty routine. */
#define NAMES_MAX	(VARIANTS_MAX + 1)
#define MILLI		1000

static struct {
	bool cycles;		/* host_sample_end() gives cycles in this run */
	uint64_t tsc_khz;
} run;

static struct {
	struct sample_tally tally;
	unsigned int nnames;
	const char *name[NAMES_MAX];
	struct cycle_sums sums[NAMES_MAX];
} pass;

void sample_start(const struct plan *p, uint64_t tsc_khz)
{
	struct sample_plan sp = {
		.cycles = p->cycles, .aperfmperf = !p->no_aperfmperf,
		.no_aperfmperf = p->no_aperfmperf, .tsc_khz = tsc_khz,
	};
	char what[200];

	run.tsc_khz = tsc_khz;
	run.cycles = host_samples_start(&sp, what, sizeof(what));
	if (run.cycles)
		out_line("cycles %s", what);
	else
		out_line("cycles: none (%s)", what);
}

void sample_pass_begin(void)
{
	pass.tally = (struct sample_tally){ 0 };
	pass.nnames = 0;
	host_pass_begin();
}

bool sample_window(unsigned int cpu, const struct host_sample *h)
{
	if (cpu >= RUN_CPUS_MAX)
		cpu = 0;
	if (cpu >= pass.tally.cpus)
		pass.tally.cpus = cpu + 1;
	pass.tally.disturbed[cpu] += h->disturbed;
	return h->disturbed;
}

bool sample_retry(struct sample_tries *t, bool disturbed)
{
	if (disturbed && t->retimed < SAMPLE_RETIMES) {
		t->retimed++;
		pass.tally.retimed++;
		return true;
	}
	pass.tally.samples++;
	pass.tally.kept += disturbed;
	return false;
}

static bool same(const char *a, const char *b)
{
	while (*a && *a == *b)
		a++, b++;
	return *a == *b;
}

static struct cycle_sums *sums_of(const char *name)
{
	unsigned int i;

	for (i = 0; i < pass.nnames; i++)
		if (same(pass.name[i], name))
			return &pass.sums[i];
	if (pass.nnames == NAMES_MAX)
		return NULL;	/* more names than any table has: cannot happen */
	pass.name[pass.nnames] = name;
	pass.sums[pass.nnames] = (struct cycle_sums){ 0 };
	return &pass.sums[pass.nnames++];
}

bool sample_again(struct sample_tries *t, uint64_t ticks,
		  const struct host_sample *h, const char *name)
{
	struct cycle_sums *c;

	if (sample_retry(t, sample_window(0, h)))
		return true;
	if (!run.cycles || !(c = sums_of(name)) || !h->has_cycles)
		return false;
	c->n++;
	c->ticks += ticks;
	/* Without reference cycles the TSC is the reference. */
	c->ref += h->ref ? h->ref : ticks;
	c->cycles += h->cycles;
	return false;
}

void sample_pass_end(const char *suite, const char *pass_id)
{
	unsigned int i;
	char text[48];

	for (i = 0; i < pass.nnames; i++) {
		const struct cycle_sums *c = &pass.sums[i];

		sample_cycles_text(c, run.tsc_khz, text, sizeof(text));
		out_line("cycles suite=%s pass=%s variant=%s samples=%u ticks=%lu ref=%lu cycles=%lu %s",
			 suite, pass_id, pass.name[i], c->n, (unsigned long)c->ticks,
			 (unsigned long)c->ref, (unsigned long)c->cycles, text);
	}
	host_pass_end(suite, pass_id, &pass.tally);
}

uint64_t sample_muldiv(uint64_t a, uint64_t b, uint64_t c)
{
	uint64_t lo, hi, q, r, half = c / 2;

	if (!c)
		return UINT64_MAX;
	asm("mulq %[b]" : "=a"(lo), "=d"(hi) : "a"(a), [b] "rm"(b) : "cc");
	lo += half;
	hi += lo < half;
	/* DIV faults on a quotient wider than 64 bits: saturate instead. */
	if (hi >= c)
		return UINT64_MAX;
	asm("divq %[c]" : "=a"(q), "=d"(r) : "a"(lo), "d"(hi), [c] "rm"(c) : "cc");
	(void)r;
	return q;
}

uint64_t sample_ticks_ns(uint64_t ticks, uint64_t tsc_khz)
{
	return tsc_khz ? sample_muldiv(ticks, 1000000, tsc_khz) : 0;
}

bool sample_clock_behind(uint64_t ticks, uint64_t tsc_khz, uint64_t clock_ns)
{
	uint64_t ns = sample_ticks_ns(ticks, tsc_khz);

	return tsc_khz && ns > clock_ns + SAMPLE_SLACK_NS + ns / SAMPLE_SLACK_PER;
}

bool sample_ref_behind(uint64_t ticks, uint64_t ref)
{
	return ticks > ref + SAMPLE_SLACK_TICKS + ticks / SAMPLE_SLACK_PER;
}

void sample_cycles_text(const struct cycle_sums *c, uint64_t tsc_khz,
			char *buf, size_t len)
{
	uint64_t ratio, khz;

	if (!c->n || !c->ref) {
		fmt_snprintf(buf, len, "ratio=? mhz=?");
		return;
	}
	ratio = sample_muldiv(c->cycles, MILLI, c->ref);
	if (!tsc_khz) {
		fmt_snprintf(buf, len, "ratio=%lu.%03lu mhz=?",
			     (unsigned long)(ratio / MILLI),
			     (unsigned long)(ratio % MILLI));
		return;
	}
	khz = sample_muldiv(c->cycles, tsc_khz, c->ref);
	fmt_snprintf(buf, len, "ratio=%lu.%03lu mhz=%lu",
		     (unsigned long)(ratio / MILLI), (unsigned long)(ratio % MILLI),
		     (unsigned long)(khz / MILLI + (khz % MILLI >= MILLI / 2)));
}
