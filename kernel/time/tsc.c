/* SPDX-License-Identifier: MIT */
/*
 * Where the TSC rate comes from. Each source either gives a rate or says
 * why it is absent; the chosen one goes on the tsc line, and the others
 * are printed beside it so that a wrong source shows (docs/method.md).
 */
#include "kernel/acpi/acpi.h"
#include "kernel/time/amd_pstate.h"
#include "cpu/live.h"
#include "lib/out.h"
#include "kernel/time/refclock.h"
#include "kernel/time/tsc.h"
#include "kernel/x86/x86.h"

#define KHZ		1000u
#define PPM		1000000ll
#define HPET_MMIO_LEN	1024		/* the register block */

struct outcome {
	enum tsc_source src;		/* TSC_SRC_NONE: absent */
	uint64_t hz;
	const char *what, *why;		/* absent: where and why it failed */
};

static struct outcome outcome[TSC_PICK_COUNT];
static enum tsc_pick forced, chosen;

static bool vendor_is(const struct cpu_desc *d, const char *v)
{
	unsigned int i;

	for (i = 0; i < sizeof(d->vendor) - 1; i++)
		if (d->vendor[i] != v[i])
			return false;
	return true;
}

static void from_cpuid(struct outcome *o, const struct cpu_desc *d)
{
	o->what = "CPUID";
	if (d->tsc_src == TSC_SRC_NONE) {
		o->why = "no rate in leaf 0x40000010 (hypervisors) or 0x15/0x16 (Intel)";
		return;
	}
	o->src = d->tsc_src;
	o->hz = d->tsc_khz * KHZ;
}

static void from_amd(struct outcome *o, const struct cpu_desc *d)
{
	struct cpuid_regs r = { 0 };
	uint64_t hwcr, p0, khz;
	bool cpb;

	o->what = "AMD P0";
	if (!vendor_is(d, "AuthenticAMD")) {
		o->why = "not an AMD CPU";
		return;
	}
	if (d->max_ext >= CPUID_AMD_APM)
		cpuid_live.query(0, CPUID_AMD_APM, 0, &r);
	cpb = r.edx & CPUID_APM_EDX_CPB;
	o->why = amd_p0_family_why(d->family, cpb);
	if (o->why)
		return;
	/* Hypervisors commonly fault on these: that is "absent". */
	if (!rdmsr_safe(MSR_AMD_HWCR, &hwcr)) {
		o->why = "MSR HWCR (0xc0010015) is not readable";
		return;
	}
	if (!rdmsr_safe(MSR_AMD_PSTATE_DEF0, &p0)) {
		o->why = "MSR P-state 0 (0xc0010064) is not readable";
		return;
	}
	o->why = amd_p0_tsc_khz(d->family, cpb, hwcr, p0, &khz);
	if (!o->why) {
		o->src = TSC_SRC_AMD_P0;
		o->hz = khz * KHZ;
	}
}

/* Measures against rc, started by whatever said why (NULL: it started). */
static void measure(struct outcome *o, const char *what, const char *why,
		    struct refclock *rc, enum tsc_source src)
{
	o->what = what;
	o->why = why ? why : refclock_measure(rc, &o->hz);
	if (!o->why)
		o->src = src;
}

static const struct acpi_root *tables(struct outcome *o)
{
	const struct acpi_root *r = acpi_live_root(&o->why);

	if (!r)
		o->what = "no ACPI tables";
	return r;
}

static void from_hpet(struct outcome *o)
{
	const struct acpi_root *r = tables(o);
	struct acpi_table t;
	struct acpi_hpet h;
	struct refclock rc;
	const char *why;

	if (!r)
		return;
	o->what = "ACPI HPET";
	o->why = acpi_find_table(r, &acpi_live_mem, "HPET", &t);
	if (!o->why)
		o->why = acpi_hpet_parse(t.p, t.len, &h);
	if (o->why)
		return;
	if (!acpi_live_mem.map(0, h.base, HPET_MMIO_LEN))
		why = "its registers lie outside the mapped memory";
	else
		why = hpet_start(&rc, &h);
	measure(o, "HPET", why, &rc, TSC_SRC_HPET);
}

static void from_pmtimer(struct outcome *o)
{
	const struct acpi_root *r = tables(o);
	struct acpi_pm_timer pm;
	struct acpi_table t;
	struct refclock rc;
	const char *why;

	if (!r)
		return;
	o->what = "ACPI FACP";
	o->why = acpi_find_table(r, &acpi_live_mem, "FACP", &t);
	if (!o->why)
		o->why = acpi_fadt_pm_timer(t.p, t.len, &pm);
	if (o->why)
		return;
	if (pm.reg.space == ACPI_SPACE_MEM &&
	    !acpi_live_mem.map(0, pm.reg.addr, sizeof(uint32_t)))
		why = "its register lies outside the mapped memory";
	else
		why = pmtimer_start(&rc, &pm);
	measure(o, "PM timer", why, &rc, TSC_SRC_PMTIMER);
}

static void from_pit(struct outcome *o)
{
	struct refclock rc;

	measure(o, "PIT", pit_start(&rc), &rc, TSC_SRC_PIT);
}

uint64_t tsc_select(const struct cpu_desc *d, enum tsc_pick pick,
		    enum tsc_source *src)
{
	enum tsc_pick p;

	from_cpuid(&outcome[TSC_PICK_CPUID], d);
	from_amd(&outcome[TSC_PICK_AMD], d);
	from_hpet(&outcome[TSC_PICK_HPET]);
	from_pmtimer(&outcome[TSC_PICK_PMTIMER]);
	from_pit(&outcome[TSC_PICK_PIT]);

	forced = pick;
	chosen = TSC_PICK_AUTO;
	if (pick != TSC_PICK_AUTO && outcome[pick].src != TSC_SRC_NONE)
		chosen = pick;
	for (p = TSC_PICK_AUTO + 1; p < TSC_PICK_COUNT && chosen == TSC_PICK_AUTO; p++)
		if (outcome[p].src != TSC_SRC_NONE)
			chosen = p;

	*src = outcome[chosen].src;
	return (outcome[chosen].hz + KHZ / 2) / KHZ;
}

/* (hz - ref) in parts per million of ref, rounded to the nearest. */
static long long ppm(uint64_t hz, uint64_t ref)
{
	long long d = ((long long)hz - (long long)ref) * PPM;
	long long half = (long long)(ref / 2);

	return (d + (d < 0 ? -half : half)) / (long long)ref;
}

void tsc_print_report(void)
{
	const struct outcome *c = &outcome[chosen];
	enum tsc_pick p;

	if (forced != TSC_PICK_AUTO && forced != chosen)
		out_line("note: tsc=%s: absent (%s: %s); falling back to auto",
			 tsc_pick_name(forced), outcome[forced].what,
			 outcome[forced].why);
	for (p = TSC_PICK_AUTO + 1; p < TSC_PICK_COUNT; p++) {
		const struct outcome *o = &outcome[p];

		if (p == chosen || (p == forced && forced != chosen))
			continue;
		if (o->src == TSC_SRC_NONE)
			out_line("tsc absent %s: %s: %s", tsc_pick_name(p),
				 o->what, o->why);
		else if (c->src != TSC_SRC_NONE)
			out_line("tsc check source=%s khz=%llu diff_ppm=%lld",
				 tsc_source_name(o->src),
				 (unsigned long long)((o->hz + KHZ / 2) / KHZ),
				 ppm(o->hz, c->hz));
	}
}
