// SPDX-License-Identifier: MIT
/*
 * The module's run, in the order the data flows: options, CPU description,
 * the plan less what the module will not call, the buffers, the suites and
 * the end. The lines are the other hosts', plus "linux-module ..." lines
 * saying how this run differs (docs/log-format.md). This file includes the
 * harness's headers and none of the kernel's (module/kernel.h says why).
 */
#include "cpu/describe.h"
#include "cpu/hot_load.h"
#include "cpu/insn.h"
#include "cpu/live.h"
#include "harness/bench.h"
#include "harness/plan.h"
#include "harness/suites/suite.h"
#include "lib/fmt.h"
#include "lib/out.h"
#include "lib/run.h"
#include "module/kernel.h"
#include "module/run.h"

#ifndef PB_VERSION
#error "build with -DPB_VERSION=\"...\" (module/Kbuild passes git describe)"
#endif

#define US_PER_MS		1000

static struct options opts;
static const char *given_args;

/* The description lines, of the CPU this is called on. */
static void describe(struct cpu_desc *d)
{
	struct live_facts live = {
		.ucode_readable = true,
		.ucode = pbk_microcode(pbk_this_cpu()),
		.tsc_khz = pbk_tsc_khz(),
		.tsc_src = TSC_SRC_LINUX_KERNEL,
		.hot_load_ticks = hot_load_ticks(),
		.mem_usable = pbk_ram_bytes(),
		.cmdline = given_args ? given_args : "",
	};

	cpu_describe_live(d);
	describe_cpu(d, PB_VERSION, &live);
	out_line("linux-module release=%s cpu=%d online=%u", pbk_release(),
		 pbk_this_cpu(), pbk_online_cpus());
}

bool pb_prepare(const char *args, int *cpu)
{
	static struct cpu_desc d;
	int run_cpu;
	bool online;

	given_args = args;
	options_parse(&opts, PROGRAM_MODULE, args);
	out_set_tag(opts.tag);
	out_add_sink(pbk_log_sink);
	run_cpu = opts.cpu == CPU_DEFAULT ? pbk_last_online_cpu() : opts.cpu;
	online = pbk_cpu_online(run_cpu);
	if (!opts.nerrors && online) {
		*cpu = run_cpu;
		return true;
	}
	/* As pagebench-linux does: say what the machine is, what was wrong, and stop. */
	describe(&d);
	options_print_errors(&opts);
	if (!online) {
		out_line("option error: cpu=%d: no such CPU online (the last online CPU is %d)",
			 run_cpu, pbk_last_online_cpu());
		run_fail();
	}
	run_print_done();
	return false;
}

/* How the run differs from the other hosts'. */
static void print_module_lines(const struct cpu_desc *d)
{
	struct bench_env env;
	char flags[OUT_LINE_MAX];

	pbk_kernel_features(flags, sizeof(flags));
	out_line("linux-module kernel_features%s", flags);
	out_line("linux-module irqs=off-per-call preempt=off-per-pass resched=between-reps window_bytes=%u",
		 PBK_WINDOW_BYTES);
	bench_env_init(&env, d);
	out_line("linux-module flush=%s ibpb=%s", flush_method_name(&env),
		 env.ibpb ? "msr" : "none");
}

struct left_out {
	variant_set pages, strings;	/* refused: forced, and this CPU lacks the feature */
};

/*
 * What the plan would run that the module will not call: a kernel routine
 * the running kernel lacks (skipped, with its reason, as for a missing
 * feature), and a variant whose feature was forced although this CPU lacks
 * it: in ring 0 its fault would be an oops no one can catch (refused).
 */
static struct left_out leave_out(struct plan *p, const struct cpu_desc *d)
{
	struct left_out l = { 0, 0 };
	unsigned int i;

	for (i = 0; i < variant_count; i++) {
		const char *missing = pbk_routine_missing((const void *)variants[i].fn);

		if (!((p->runs >> i) & 1))
			continue;
		if (missing) {
			p->variant_skip[i] = missing;
			p->runs &= ~(1ull << i);
		} else if (!cpu_has(d, variants[i].need)) {
			l.pages |= 1ull << i;
			p->runs &= ~(1ull << i);
		}
	}
	for (i = 0; i < string_variant_count; i++) {
		if (((p->str_runs >> i) & 1) && !cpu_has(d, string_variants[i].need)) {
			l.strings |= 1ull << i;
			p->str_runs &= ~(1ull << i);
		}
	}
	p->forced = 0;	/* nothing runs on a forced feature: no "note: force=" */
	return l;
}

static void refused(const char *name, const char *table, enum feat f)
{
	out_line("linux-module refused: %s (%s): force=%s, but the features line says %s=0; in ring 0 its fault would be an oops the module cannot catch, so it is not called",
		 name, table, feat_name(f), feat_name(f));
	run_fail();
}

static void print_refused(const struct left_out *l)
{
	unsigned int i;

	for (i = 0; i < variant_count; i++)
		if ((l->pages >> i) & 1)
			refused(variants[i].name, op_name(variants[i].op),
				variants[i].need);
	for (i = 0; i < string_variant_count; i++)
		if ((l->strings >> i) & 1)
			refused(string_variants[i].name,
				string_op_name(string_variants[i].op),
				string_variants[i].need);
}

static bool take(uint8_t **p, const char *name, size_t bytes)
{
	char how[OUT_LINE_MAX / 2];

	if (!bytes)
		return true;
	*p = pbk_buffer_alloc(bytes, how, sizeof(how));
	if (*p)
		out_line("linux-module buffer=%s bytes=%zu from=%s", name, bytes, how);
	else
		out_line("linux-module buffer=%s bytes=%zu failed: %s", name, bytes, how);
	return *p != NULL;
}

static bool take_buffers(struct buffers *b, const struct buffer_sizes *s)
{
	return take(&b->fill, "fill", s->fill) && take(&b->work, "work", s->work) &&
	       take(&b->cold, "cold", s->cold) &&
	       take(&b->strings, "strings", s->strings);
}

static void free_buffers(const struct buffers *b, const struct buffer_sizes *s)
{
	pbk_buffer_free(b->fill, s->fill);
	pbk_buffer_free(b->work, s->work);
	pbk_buffer_free(b->cold, s->cold);
	pbk_buffer_free(b->strings, s->strings);
}

static void print_fpu(const struct pbk_fpu_cost *c)
{
	const unsigned int n = PBK_FPU_SAMPLES;
	char restore[64] = "";

	if (c->task)
		fmt_snprintf(restore, sizeof(restore), " restore_min=%lu restore_median=%lu",
			     (unsigned long)c->restore[0],
			     (unsigned long)c->restore[n / 2]);
	out_line("linux-module fpu context=%s cpu=%d n=%u empty_min=%lu begin_end_min=%lu begin_end_median=%lu%s",
		 c->task ? "task" : "kthread", c->cpu, n,
		 (unsigned long)c->empty_min, (unsigned long)c->begin_end[0],
		 (unsigned long)c->begin_end[n / 2], restore);
}

static void print_windows(uint64_t tsc_khz)
{
	struct pbk_windows w;
	char us[24] = "?", preempt_ms[24] = "?";

	pbk_windows(&w);
	if (tsc_khz) {
		fmt_snprintf(us, sizeof(us), "%lu",
			     (unsigned long)(w.longest * US_PER_MS / tsc_khz));
		fmt_snprintf(preempt_ms, sizeof(preempt_ms), "%lu",
			     (unsigned long)(w.preempt_longest / tsc_khz));
	}
	out_line("linux-module windows n=%lu longest_ticks=%lu longest_us=%s over_1ms=%lu preempt_off_longest_ms=%s",
		 (unsigned long)w.n, (unsigned long)w.longest, us,
		 (unsigned long)w.over_1ms, preempt_ms);
}

void pb_run(const struct pbk_fpu_cost *task)
{
	static struct cpu_desc d;
	static struct plan plan;
	static struct pbk_fpu_cost kthread;
	uint64_t t_start = rdtsc_ordered(), tsc_khz = pbk_tsc_khz();
	struct buffers bufs = { 0 };
	struct buffer_sizes sizes;
	struct left_out l;

	describe(&d);
	print_module_lines(&d);
	plan_build(&plan, &opts, &d, pbk_available_bytes() / 2);
	l = leave_out(&plan, &d);
	plan_print(&plan);
	print_refused(&l);
	plan_buffer_sizes(&plan, &sizes);
	if (take_buffers(&bufs, &sizes)) {
		pbk_fpu_cost(&kthread);
		print_fpu(task);
		print_fpu(&kthread);
		suite_run(&plan, &d, &bufs, tsc_khz, NULL);
		print_windows(tsc_khz);
	} else {
		run_fail();
	}
	free_buffers(&bufs, &sizes);

	if (pbk_log_lost()) {
		out_line("linux-module log: %lu lines lost (no free page for them)",
			 pbk_log_lost());
		run_fail();
	}
	run_print_runtime(rdtsc_ordered() - t_start, tsc_khz);
	run_print_done();
}
