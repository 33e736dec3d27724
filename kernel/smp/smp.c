/* SPDX-License-Identifier: MIT */
/*
 * Every CPU up: the MADT says which exist, smp_plan() which to start,
 * INIT-SIPI-SIPI through kernel/smp/trampoline.asm starts them, one at a time,
 * and each goes on to smp_idle() (kernel/smp/call.c). docs/method.md.
 */
#include "kernel/smp/smp.h"
#include "kernel/smp/cpu_slots.h"
#include "kernel/smp/call.h"
#include "kernel/acpi/acpi.h"
#include "kernel/x86/apic.h"
#include "kernel/x86/delay.h"
#include "lib/fmt.h"
#include "lib/out.h"
#include "lib/run.h"
#include "kernel/lib/string.h"
#include "kernel/x86/paging.h"
#include "kernel/smp/start_plan.h"
#include "kernel/x86/trap.h"
#include "kernel/smp/watchdog.h"
#include "kernel/x86/x86.h"

#define MSR_EFER	0xc0000080
#define EFER_LMA	(1ull << 10)	/* set by the CPU, not written */
#define MSR_PAT		0x277
#define CR4_OSXSAVE	(1ull << 18)
#define PAGE_SHIFT	12
#define APIC_MMIO_LEN	4096

#define AP_STACK_SIZE	(64 * 1024)	/* as the BSP's, boot/entry64.asm */
/* Intel SDM vol. 3 section 9.4.4.1: INIT, 10 ms, SIPI, 200 us, SIPI. */
#define INIT_WAIT_US	10000
#define SIPI_WAIT_US	200
/* Microseconds on hardware, a few ms under TCG: then it did not answer. */
#define ALIVE_WAIT_MS	1000
#define MADT_CPUS_MAX	1024
#define CPUID_POWER	6
#define CPUID6_EAX_ARAT	(1u << 2)

/* What the AP takes over from the BSP (kernel/smp/trampoline.asm TP_*). */
struct trampoline_params {
	uint64_t cr3, efer, entry, stack, cpu, main;
};

extern const char trampoline[], trampoline_end[], trampoline_params[];
void ap_entry(void);
static void ap_main(struct cpu *self);

static unsigned int node_of[HOST_CPUS_MAX], nodes = 1;
static uint32_t node_domain[HOST_NODES_MAX];	/* the SRAT's domain of each node */

/* The BSP's state that every AP copies before it runs anything else. */
static struct {
	uint64_t cr0, cr4, xcr0, pat;
	bool pat_ok;
} bsp;

/* ---- bring-up ---- */

static const char *read_madt(struct acpi_madt *madt, struct acpi_cpu *c)
{
	const struct acpi_root *root;
	struct acpi_table t;
	const char *why;

	root = acpi_live_root(&why);
	if (!root)
		return why;
	why = acpi_find_table(root, &acpi_live_mem, "APIC", &t);
	if (!why)
		why = acpi_madt_parse(t.p, t.len, madt, c, MADT_CPUS_MAX);
	return why;
}

/*
 * xAPIC while every CPU can be reached by it: it is the mode QEMU's TCG
 * offers too, so the mode tested is the mode used. x2APIC when the
 * firmware chose it (there is no way back short of disabling the APIC) or
 * when an enabled CPU has an id above XAPIC_ID_MAX.
 */
static enum apic_mode choose_mode(const struct apic_facts *af,
				  const struct acpi_cpu *c, unsigned int n)
{
	unsigned int i;

	if (af->x2apic_on)
		return APIC_X2APIC;
	if (af->x2apic)
		for (i = 0; i < n; i++)
			if (c[i].enabled && c[i].apic_id > XAPIC_ID_MAX)
				return APIC_X2APIC;
	return APIC_XAPIC;
}

static bool arat(void)
{
	uint32_t r[4];

	cpuid_count(0, 0, r);
	if (r[0] < CPUID_POWER)
		return false;
	cpuid_count(CPUID_POWER, 0, r);
	return r[0] & CPUID6_EAX_ARAT;
}

static void snapshot_bsp(void)
{
	bsp.cr0 = read_cr0();
	bsp.cr4 = read_cr4();
	bsp.xcr0 = bsp.cr4 & CR4_OSXSAVE ? xgetbv(0) : 0;
	bsp.pat_ok = rdmsr_safe(MSR_PAT, &bsp.pat);
}

static struct trampoline_params *install_trampoline(uint64_t page)
{
	struct trampoline_params *tp;

	memcpy((void *)(uintptr_t)page, trampoline,
	       (size_t)(trampoline_end - trampoline));
	tp = (void *)(uintptr_t)(page + (uint64_t)(trampoline_params - trampoline));
	tp->cr3 = read_cr3();
	tp->efer = rdmsr(MSR_EFER) & ~EFER_LMA;
	tp->entry = (uintptr_t)ap_entry;
	tp->main = (uintptr_t)ap_main;
	return tp;
}

/*
 * SIPI, 200 us, SIPI; true when c answered in time. INIT was sent before.
 * selftest=nosipi leaves the SIPIs out: a CPU that cannot answer.
 */
static bool start_ap(struct trampoline_params *tp, uint64_t page,
		     struct cpu *c, void *stack, bool sipi_too)
{
	uint32_t sipi = ICR_STARTUP | ICR_ASSERT | (uint32_t)(page >> PAGE_SHIFT);

	tp->stack = (uintptr_t)stack + AP_STACK_SIZE;
	tp->cpu = (uintptr_t)c;
	c->alive = 0;
	if (sipi_too) {
		apic_send(c->apic_id, sipi);
		delay_us(SIPI_WAIT_US);
		/* Ignored by a CPU the first one started. */
		apic_send(c->apic_id, sipi);
	}
	if (delay_wait_flag(&c->alive, ALIVE_WAIT_MS))
		return true;
	/*
	 * Late is as bad as never: INIT puts it back to waiting for a SIPI,
	 * so it cannot run the trampoline the next AP's values overwrite.
	 */
	apic_send(c->apic_id, ICR_INIT | ICR_ASSERT);
	delay_us(SIPI_WAIT_US);
	return false;
}

/* APIC ids left out for one reason, printed as one line. */
struct left_out {
	unsigned int n;
	uint32_t ids[HOST_CPUS_MAX];
};

enum { OUT_NO_ANSWER, OUT_NO_STACK, OUT_NO_PAGE, OUT_X2APIC, OUT_LIMIT,
       OUT_TOO_MANY, OUT_COUNT };

static void leave_out(struct left_out *out, uint32_t id)
{
	if (out->n < HOST_CPUS_MAX)
		out->ids[out->n++] = id;
}

static void bring_up(const struct acpi_cpu *c, const enum smp_fate *fate,
		     unsigned int n, const struct boot_info *bi,
		     struct mem *mem, struct left_out *out)
{
	struct trampoline_params *tp;
	uint64_t page = smp_trampoline_page(bi->ram, bi->nram), end;
	unsigned int i;

	if (!page || read_cr3() >> 32) {
		for (i = 0; i < n; i++)
			if (fate[i] == SMP_START || fate[i] == SMP_NOSIPI)
				leave_out(&out[OUT_NO_PAGE], c[i].apic_id);
		return;
	}
	apic_enable_cpu();
	/*
	 * INIT to all of them, then the 10 ms once. INIT first: until then an
	 * AP may still run a firmware loop, and nothing it could be running
	 * may be written over, the trampoline page included.
	 */
	for (i = 0; i < n; i++)
		if (fate[i] == SMP_START || fate[i] == SMP_NOSIPI)
			apic_send(c[i].apic_id, ICR_INIT | ICR_ASSERT);
	end = rdtsc_ordered() + delay_ticks_us(INIT_WAIT_US);
	snapshot_bsp();
	tp = install_trampoline(page);
	smp_watch_ticks = apic_timer_per_ms() * WATCH_PERIOD_MS;
	smp_timer_runs_in_halt = arat();
	while (rdtsc_ordered() < end)
		cpu_relax();

	for (i = 0; i < n; i++) {
		struct cpu *ap = &smp_cpu[smp_ncpus];
		void *stack;

		if (fate[i] != SMP_START && fate[i] != SMP_NOSIPI)
			continue;
		stack = mem_alloc(mem, AP_STACK_SIZE);
		if (!stack) {
			leave_out(&out[OUT_NO_STACK], c[i].apic_id);
			continue;
		}
		*ap = (struct cpu){ .index = smp_ncpus, .apic_id = c[i].apic_id };
		run_step("starting cpu %u (apic=%u)", smp_ncpus, c[i].apic_id);
		if (start_ap(tp, page, ap, stack, fate[i] == SMP_START))
			smp_ncpus++;
		else
			leave_out(&out[OUT_NO_ANSWER], c[i].apic_id);
	}
}

static void find_nodes(void)
{
	static struct acpi_srat_cpu srat_cpus[MADT_CPUS_MAX];
	const struct acpi_root *root;
	struct acpi_srat srat;
	struct acpi_table t;
	uint32_t ids[HOST_CPUS_MAX], dom[HOST_NODES_MAX];
	char list[OUT_LINE_MAX / 2];
	const char *why;
	unsigned int i, k, n;

	root = acpi_live_root(&why);
	if (!root || acpi_find_table(root, &acpi_live_mem, "SRAT", &t))
		return;		/* no SRAT: one node */
	why = acpi_srat_parse(t.p, t.len, &srat, srat_cpus, MADT_CPUS_MAX, 0, 0);
	if (why) {
		out_line("note: cpus: SRAT not used: %s", why);
		return;
	}
	for (i = 0; i < smp_ncpus; i++)
		ids[i] = smp_cpu[i].apic_id;
	nodes = smp_numa(ids, smp_ncpus, srat_cpus,
			 srat.ncpus < MADT_CPUS_MAX ? srat.ncpus : MADT_CPUS_MAX,
			 node_of, dom);
	if (!nodes) {
		out_line("note: cpus: the SRAT has more than %u NUMA nodes; all CPUs taken as node 0",
			 HOST_NODES_MAX);
		nodes = 1;
	}
	if (nodes < 2)
		return;
	for (k = 0; k < nodes; k++)
		node_domain[k] = dom[k];
	for (k = 0; k < nodes; k++) {
		for (i = n = 0; i < smp_ncpus; i++)
			if (node_of[i] == k)
				ids[n++] = smp_cpu[i].apic_id;
		smp_format_ids(list, sizeof(list), ids, n);
		out_line("numa node=%u domain=%u apic=%s", k, dom[k], list);
	}
}

static void report(unsigned int enabled, struct left_out *out,
		   const char *const *reasons)
{
	uint32_t ids[HOST_CPUS_MAX];
	char list[OUT_LINE_MAX / 2];
	unsigned int i;

	for (i = 0; i < smp_ncpus; i++)
		ids[i] = smp_cpu[i].apic_id;
	smp_format_ids(list, sizeof(list), ids, smp_ncpus);
	out_line("cpus online=%u of %u apic=%s mode=%s", smp_ncpus, enabled, list,
		 apic_mode_name(apic_mode()));
	for (i = 0; i < OUT_COUNT; i++) {
		if (!out[i].n)
			continue;
		smp_format_ids(list, sizeof(list), out[i].ids, out[i].n);
		out_line("cpus: apic=%s %s; left out", list, reasons[i]);
	}
}

static void start_watching(void)
{
	if (smp_ncpus < 2) {
		out_line("watchdog off (only one CPU is online)");
		return;
	}
	if (!smp_watch_ticks && smp_timer_runs_in_halt) {
		out_line("watchdog off (the local APIC timer does not count)");
		return;
	}
	out_line("watchdog on deadline_s=%u watcher_apic=%u",
		 watchdog_seconds(), smp_cpu[smp_ncpus - 1].apic_id);
	if (!smp_timer_runs_in_halt)
		out_line("note: watchdog: the APIC timer may stop in HLT (no ARAT); the watcher stays awake");
	__atomic_store_n(&smp_watcher, smp_ncpus - 1, __ATOMIC_RELEASE);
	apic_send(smp_cpu[smp_watcher].apic_id, ICR_FIXED | ICR_ASSERT | VEC_WAKE);
}

void smp_init(unsigned int cpus, unsigned int watchdog_s, bool nosipi,
	      const struct boot_info *bi, struct mem *mem, uint64_t tsc_khz)
{
	static struct acpi_cpu c[MADT_CPUS_MAX];
	static enum smp_fate fate[MADT_CPUS_MAX];
	static struct left_out out[OUT_COUNT];
	char cpus_why[48], many_why[48];
	const char *reasons[OUT_COUNT] = {
		[OUT_NO_ANSWER] = "did not answer",
		[OUT_NO_STACK] = "not started: no memory for its stack",
		[OUT_NO_PAGE] = "not started: no free page below 1 MiB for the trampoline",
		[OUT_X2APIC] = "not started: its id needs x2APIC, which this CPU lacks",
		[OUT_LIMIT] = cpus_why,
		[OUT_TOO_MANY] = many_why,
	};
	struct smp_plan_in in = { .cpus = c, .limit = cpus, .nosipi = nosipi };
	struct apic_facts af;
	struct acpi_madt madt;
	struct smp_plan plan;
	const char *why;
	unsigned int i;

	delay_init(tsc_khz);
	watchdog_init(watchdog_s);
	smp_cpu[0] = (struct cpu){ .index = 0, .alive = 1, .state = CPU_BUSY };
	smp_cpu_enter(&smp_cpu[0]);
	run_set_cpu_index(smp_cpu_index);
	fmt_snprintf(cpus_why, sizeof(cpus_why), "not started: cpus=%u", cpus);
	fmt_snprintf(many_why, sizeof(many_why), "not started: beyond the %u CPUs pagebench runs",
		     HOST_CPUS_MAX);

	apic_facts(&af);
	if (!af.present) {
		out_line("note: cpus: no local APIC (or the firmware disabled it); this CPU only");
		report(1, out, reasons);
		start_watching();
		return;
	}
	/* The BSP's id in the mode the firmware left; then the mode for all. */
	apic_use(af.x2apic_on ? APIC_X2APIC : APIC_XAPIC, af.base);
	if (!af.x2apic_on && map_device_uncached(af.base, APIC_MMIO_LEN) != MAP_OK) {
		out_line("note: cpus: the local APIC at 0x%llx cannot be mapped; this CPU only",
			 (unsigned long long)af.base);
		apic_use(APIC_NONE, 0);
		report(1, out, reasons);
		start_watching();
		return;
	}
	smp_cpu[0].apic_id = apic_id();
	why = read_madt(&madt, c);
	if (why) {
		out_line("note: cpus: no usable MADT (%s); this CPU only", why);
		report(1, out, reasons);
		start_watching();
		return;
	}
	if (madt.ncpus > MADT_CPUS_MAX)
		out_line("note: cpus: the MADT lists %u CPUs; the first %u are read",
			 madt.ncpus, MADT_CPUS_MAX);
	in.n = madt.ncpus < MADT_CPUS_MAX ? madt.ncpus : MADT_CPUS_MAX;
	in.bsp_id = smp_cpu[0].apic_id;
	apic_use(choose_mode(&af, c, in.n), af.base);
	in.x2apic = apic_mode() == APIC_X2APIC;
	smp_plan(&in, fate, &plan);
	if (!plan.bsp_listed)
		out_line("note: cpus: this CPU (apic=%u) is not in the MADT",
			 smp_cpu[0].apic_id);

	if (plan.start || in.nosipi)
		bring_up(c, fate, in.n, bi, mem, out);
	for (i = 0; i < in.n; i++) {
		if (fate[i] == SMP_NEEDS_X2APIC)
			leave_out(&out[OUT_X2APIC], c[i].apic_id);
		else if (fate[i] == SMP_LIMIT)
			leave_out(&out[OUT_LIMIT], c[i].apic_id);
		else if (fate[i] == SMP_TOO_MANY)
			leave_out(&out[OUT_TOO_MANY], c[i].apic_id);
	}
	run_step("boot");
	report(plan.enabled, out, reasons);
	find_nodes();
	start_watching();
}

/* Called by ap_entry (kernel/smp/trampoline.asm) on the AP's own stack. */
static void ap_main(struct cpu *self)
{
	/* First what reports a fault: the CPU's index, then the IDT. */
	smp_cpu_enter(self);
	trap_load();
	run_step("cpu %u (apic=%u): start-up", self->index, self->apic_id);
	/* The BSP's CR0 also turns the caches on (INIT left CD and NW set). */
	write_cr0(bsp.cr0);
	write_cr4(bsp.cr4);
	if (bsp.cr4 & CR4_OSXSAVE)
		xsetbv(0, bsp.xcr0);
	if (bsp.pat_ok)
		wrmsr(MSR_PAT, bsp.pat);
	apic_enable_cpu();
	self->apic_id = apic_id();	/* the MADT's, unless it lied */
	run_step("cpu %u (apic=%u): idle", self->index, self->apic_id);
	self->state = CPU_IDLE;
	__atomic_store_n(&self->alive, 1, __ATOMIC_RELEASE);
	smp_idle(self);
}

/* ---- the harness's interface ---- */

bool smp_node_domain(unsigned int node, uint32_t *domain)
{
	if (nodes < 2 || node >= nodes)
		return false;
	*domain = node_domain[node];
	return true;
}

void smp_cpus(struct host_cpus *hc)
{
	unsigned int i;

	hc->n = smp_ncpus;
	hc->nodes = nodes;
	for (i = 0; i < smp_ncpus; i++) {
		hc->id[i] = smp_cpu[i].apic_id;
		hc->node[i] = node_of[i];
	}
}
