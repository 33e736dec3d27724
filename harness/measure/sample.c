/* SPDX-License-Identifier: MIT */
/*
 * Retiming disturbed samples and summing their cycles (harness/measure/sample.h).
 * One pass at a time, or passes taking turns each in a slot of its own,
 * on the CPU that runs the suite: suite=scrub's other
 * CPUs only fill their struct host_sample, which the first CPU counts
 * once the step is over.
 */
#include "harness/measure/sample.h"
#include "lib/fmt.h"
#include "lib/out.h"
#include "lib/str.h"

/* A pass's names: its variants, and suite=strings' empty routine. */
#define NAMES_MAX	(VARIANTS_MAX + 1)
#define MILLI		1000

static struct {
	bool cycles;		/* host_sample_end() gives cycles in this run */
	uint64_t tsc_khz;
} run;

/*
 * A pass's tally and sums. The page suites' passes take turns in epochs
 * (harness/measure/suites/suite.c), each with a slot of its own; the others use
 * slot 0, a pass at a time.
 */
static struct pass_samples {
	struct sample_tally tally;
	unsigned int nnames;
	const char *name[NAMES_MAX];
	struct cycle_sums sums[NAMES_MAX];
} slots[SAMPLE_PASSES_MAX];
static struct pass_samples *cur = &slots[0];
#define pass (*cur)

void sample_pass_select(unsigned int slot)
{
	cur = &slots[slot < SAMPLE_PASSES_MAX ? slot : 0];
}

void sample_pass_reset(void)
{
	pass.tally = (struct sample_tally){ 0 };
	pass.nnames = 0;
}

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
	sample_pass_reset();
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

static struct cycle_sums *sums_of(const char *name)
{
	unsigned int i;

	for (i = 0; i < pass.nnames; i++)
		if (str_eq(pass.name[i], name))
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

void sample_cycles_lines(const char *suite, const char *pass_id)
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
}

void sample_pass_end(const char *suite, const char *pass_id)
{
	sample_cycles_lines(suite, pass_id);
	host_pass_end(suite, pass_id, &pass.tally);
}

void sample_tally_add(struct sample_tally *sum)
{
	unsigned int i;

	sum->samples += pass.tally.samples;
	sum->retimed += pass.tally.retimed;
	sum->kept += pass.tally.kept;
	if (pass.tally.cpus > sum->cpus)
		sum->cpus = pass.tally.cpus;
	for (i = 0; i < pass.tally.cpus; i++)
		sum->disturbed[i] += pass.tally.disturbed[i];
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
