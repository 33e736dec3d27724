/* SPDX-License-Identifier: MIT */
/*
 * The run, in the order the data flows: multiboot info, options, consoles,
 * CPU description, the plan, the suites, the summary and the exit.
 */
#include "boot_info.h"
#include "console.h"
#include "cpu_live.h"
#include "harness/describe.h"
#include "mem.h"
#include "paging.h"
#include "screen.h"
#include "harness/out.h"
#include "harness/plan.h"
#include "harness/run.h"
#include "harness/suite.h"
#include "trap.h"
#include "tsc.h"
#include "x86.h"

#define MSR_UCODE_REV	0x8b
#define GIB		(1ull << 30)

extern uint32_t boot_mapped_gib;
extern char kernel_end[];

void kmain(uint32_t info);

static bool under_qemu(const struct cpu_desc *d)
{
	static const char *const names[] = { "KVMKVMKVM", "TCGTCGTCGTCG" };
	unsigned int i, k;

	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		for (k = 0; names[i][k] && names[i][k] == d->hv_vendor[k]; k++)
			;
		if (!names[i][k] && !d->hv_vendor[k])
			return true;
	}
	return false;
}

static void live_facts(struct live_facts *live, const struct cpu_desc *d,
		       const struct boot_info *bi)
{
	bool intel = d->vendor[0] == 'G' && d->vendor[7] == 'I';	/* GenuineIntel */
	uint64_t ucode = 0;

	/*
	 * Intel wants 0 written and a CPUID before the read returns the
	 * revision, in the high half; AMD's patch level is the low half.
	 */
	if (intel) {
		wrmsr_safe(MSR_UCODE_REV, 0);
		cpuid_live.query(0, 1, 0, &(struct cpuid_regs){ 0 });
	}
	live->ucode_readable = rdmsr_safe(MSR_UCODE_REV, &ucode);
	live->ucode = intel ? ucode >> 32 : (uint32_t)ucode;
	live->tsc_khz = d->tsc_khz;
	live->tsc_src = d->tsc_src;
	if (!live->tsc_khz) {
		live->tsc_khz = tsc_calibrate_pit_khz();
		live->tsc_src = TSC_SRC_PIT;
	}
	live->mem_usable = bi->ram_total;
	live->cmdline = bi->cmdline;
}

static void run_suites(const struct plan *p, const struct cpu_desc *d,
		       struct mem *m)
{
	struct bench_env env;
	struct buffers b;
	unsigned int id;

	bench_env_init(&env, d);
	out_line("flush: %s", flush_method_name(env.flush));
	if (!p->passes)
		return;

	b.fill = mem_alloc(m, p->max_nr * 4096);
	b.work = mem_alloc(m, WORK_PAGES(p->max_nr) * 4096);
	b.cold = mem_alloc(m, 2 * COPY_COLD_BYTES);
	if (!b.fill || !b.work || !b.cold) {
		out_line("note: not enough memory for the buffers of this plan");
		run_fail();
		return;
	}

	for (id = PASS_L1; id <= PASS_MEM; id++)
		if ((p->passes & (1u << id)) && p->clear_mask)
			suite_clear_pass(&env, p, id, &b);
	for (id = PASS_L1; id <= PASS_MEM; id++)
		if ((p->passes & (1u << id)) && p->copy_mask)
			suite_copy_pass(&env, p, id, &b);
	for (id = PASS_HOT; id <= PASS_COLD; id++)
		if ((p->passes & (1u << id)) && p->copy_mask)
			suite_copy_hot_cold(p, id, &b);
}

void kmain(uint32_t info)
{
	static struct boot_info bi;
	static struct options o;
	static struct cpu_desc d;
	static struct live_facts live;
	static struct plan plan;
	static struct mem mem;
	uint64_t t_start = rdtsc_ordered(), ticks;
	unsigned int i;

	trap_init();	/* first: a fault anywhere after this is reported, not a triple fault */
	multiboot_read(&bi, info);
	options_parse(&o, bi.cmdline);
	console_init(&o, &bi);

	cpu_decode(&d, &cpuid_live,
		   (o.disable >> FEAT_XSAVE) & 1 ? 0 : xsave_enable());
	run_set_exit(o.exit, under_qemu(&d));
	live_facts(&live, &d, &bi);
	describe_cpu(&d, PB_VERSION, &live);
	screen_report();	/* after the description: the Xen header stays first */
	plan_disable_features(&d, &o);

	for (i = 0; i < o.nerrors; i++) {
		if (i < OPT_MAX_ERRORS)
			out_line("option error: %s", o.errors[i]);
		run_fail();
	}
	if (o.nerrors > OPT_MAX_ERRORS)
		out_line("option error: %u more not shown", o.nerrors - OPT_MAX_ERRORS);

	if (o.selftest == SELFTEST_UD) {
		run_step("selftest=ud: a deliberate invalid opcode");
		asm volatile("ud2");
	}

	if (o.selftest == SELFTEST_MAP)
		map_selftest();

	mem_init(&mem, &bi, (uint64_t)boot_mapped_gib * GIB,
		 (uintptr_t)kernel_end);
	plan_build(&plan, &o, &d, mem_largest(&mem));
	plan_print(&plan);
	plan_print_variants(&o, &d);
	run_suites(&plan, &d, &mem);

	ticks = rdtsc_ordered() - t_start;
	out_line("runtime ms=%lu ticks=0x%lx",
		 live.tsc_khz ? ticks / live.tsc_khz : 0, ticks);
	run_step("end of run");
	run_end();
}
