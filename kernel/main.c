/* SPDX-License-Identifier: MIT */
/*
 * The kernel's run: multiboot info, options and consoles, then the run
 * (harness/sequence.h) with the kernel's means, then the screen's summary
 * and the exit.
 */
#include "kernel/smp/smp.h"
#include "kernel/smp/stop.h"
#include "kernel/smp/selftest.h"
#include "kernel/acpi/acpi.h"
#include "kernel/boot/boot_info.h"
#include "kernel/screen/console.h"
#include "cpu/live.h"
#include "kernel/x86/xsave.h"
#include "kernel/exit.h"
#include "kernel/host_fault.h"
#include "cpu/describe.h"
#include "cpu/hot_load.h"
#include "lib/out.h"
#include "lib/run.h"
#include "harness/sequence.h"
#include "harness/render/summary.h"
#include "harness/measure/vector_price.h"
#include "kernel/boot/mem.h"
#include "kernel/numa.h"
#include "kernel/x86/paging.h"
#include "kernel/screen/screen.h"
#include "kernel/screen/run_view.h"
#include "kernel/x86/trap.h"
#include "kernel/time/tsc.h"
#include "kernel/x86/x86.h"
#include "lib/str.h"

#define MSR_UCODE_REV	0x8b
#define GIB		(1ull << 30)

extern char kernel_end[];

void kmain(uint32_t magic, uint32_t info);

static bool under_qemu(const struct cpu_desc *d)
{
	return cpu_hv_is(d, HV_VENDOR_KVM) || cpu_hv_is(d, HV_VENDOR_TCG);
}

static void live_facts(struct live_facts *live, const struct cpu_desc *d,
		       const struct boot_info *bi, enum tsc_pick tsc)
{
	bool intel = str_eq(d->vendor, "GenuineIntel");
	uint64_t ucode = 0, misc;

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
	/* Only Intel's kernels read it (the rules' fast_string), as Linux and Xen do. */
	live->fast_string = FAST_STRING_UNKNOWN;
	if (intel && rdmsr_safe(MSR_MISC_ENABLE, &misc))
		live->fast_string = (misc & MISC_ENABLE_FAST_STRING) != 0;
	acpi_live_init(bi->rsdp);	/* multiboot2/UEFI give it; v1 does not */
	live->tsc_khz = tsc_select(d, tsc, &live->tsc_src);
	live->hot_load_ticks = hot_load_ticks();
	live->mem_usable = bi->ram_total;
	live->cmdline = bi->cmdline;
}

static bool alloc_buffers(struct buffers *b, const struct plan *p,
			  struct mem *m)
{
	struct buffer_sizes s;

	*b = (struct buffers){ 0 };
	plan_buffer_sizes(p, &s);
	/* What a plan does not need stays NULL; what it needs must be had. */
	if (s.fill && !(b->fill = mem_alloc(m, s.fill)))
		return false;
	if (s.work && !(b->work = mem_alloc(m, s.work)))
		return false;
	if (s.cold && !(b->cold = mem_alloc(m, s.cold)))
		return false;
	if (s.strings && !(b->strings = mem_alloc(m, s.strings)))
		return false;
	if (s.scrub) {
		struct host_cpus c;
		const char *why;
		unsigned int node;

		host_cpus(&c);
		for (node = 0; node < c.nodes; node++) {
			b->scrub[node] = numa_alloc(m, s.scrub, node, &why);
			if (!b->scrub[node]) {
				out_line("note: scrub region of node %u: %s", node,
					 why ? why : "not enough memory");
				return false;
			}
		}
	}
	return true;
}

/* The kernel's part of the run (harness/sequence.h). */
struct kernel_run {
	const struct boot_info *bi;
	struct options *o;
	struct mem mem;
};

static void kernel_live_facts(void *ctx, struct run_state *r)
{
	struct kernel_run *k = ctx;

	cpu_decode(&r->d, &cpuid_live,
		   (k->o->disable >> FEAT_XSAVE) & 1 ? 0 : xsave_enable());
	exit_set_mode(k->o->exit, under_qemu(&r->d));
	live_facts(&r->live, &r->d, k->bi, k->o->tsc);
}

/* What the firmware and the CPUs say, the CPUs brought up, the self-tests. */
static bool kernel_described(void *ctx, struct run_state *r)
{
	struct kernel_run *k = ctx;

	if (r->live.fast_string == FAST_STRING_UNKNOWN && str_eq(r->d.vendor, "GenuineIntel"))
		out_line("note: fast_string unknown: rdmsr 0x%x (IA32_MISC_ENABLE) faulted",
			 MSR_MISC_ENABLE);
	acpi_live_print();
	boot_report(k->bi);
	tsc_print_report();
	screen_report();	/* after the description: the Xen header stays first */
	options_print_errors(k->o);
	/* Before the CPUs come up: their stacks come from it. */
	mem_init(&k->mem, k->bi, (uint64_t)identity_mapped_gib * GIB,
		 (uintptr_t)kernel_end);
	smp_init(k->o->cpus, k->o->watchdog_s, k->o->selftest == SELFTEST_NOSIPI, k->bi,
		 &k->mem, r->live.tsc_khz);

	if (k->o->selftest == SELFTEST_UD) {
		run_step("selftest=ud: a deliberate invalid opcode");
		asm volatile("ud2");
	}

	if (k->o->selftest == SELFTEST_MAP)
		map_selftest();
	smp_selftest(k->o->selftest);
	r->mem_bytes = mem_largest(&k->mem);
	return true;
}

static bool kernel_buffers(void *ctx, struct run_state *r)
{
	struct kernel_run *k = ctx;

	if (alloc_buffers(&r->bufs, &r->plan, &k->mem))
		return true;
	out_line("note: not enough memory for the buffers of this plan");
	run_fail();
	return false;
}

static void kernel_price(void *ctx, struct run_state *r, struct vector_price *p)
{
	(void)ctx;
	vector_price_measure(p, &r->d, true);
}

static const struct run_host kernel_host = {
	.live_facts = kernel_live_facts,
	.described = kernel_described,
	.buffers = kernel_buffers,
	.price = kernel_price,
};

/*
 * The run, from boot/entry64.asm or boot/entry_efi.asm: magic and info
 * are what the loader passed in EAX and EBX.
 */
void kmain(uint32_t magic, uint32_t info)
{
	static const struct trap_hooks hooks = {
		.nmi = smp_nmi,			/* the watchdog's, or the end's */
		.guarded = host_fault_escape,	/* a variant that faults */
	};
	static struct boot_info bi;
	static struct options o;
	static struct kernel_run k = { .bi = &bi, .o = &o };
	static struct run_state r = { .o = &o };
	static struct summary sum;
	uint64_t t_start = rdtsc_ordered();

	exit_init();
	trap_init(&hooks);	/* first: a fault anywhere after this is reported, not a triple fault */
	boot_read(&bi, magic, info);
	options_parse(&o, PROGRAM_KERNEL, bi.cmdline);
	out_set_tag(o.tag);
	console_init(o.console_port, o.baud, &bi);

	run_sequence(&kernel_host, &k, &r);

	run_print_runtime(rdtsc_ordered() - t_start, r.live.tsc_khz);
	summary_of_record(&sum, &r.record);
	screen_run_summary(&sum, &r.answers, r.live.tsc_khz);
	run_step("end of run");
	run_end();
}
