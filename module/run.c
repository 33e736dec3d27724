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
#include "harness/answers.h"
#include "harness/bench.h"
#include "harness/plan.h"
#include "harness/progress.h"
#include "harness/suites/suite.h"
#include "harness/summary.h"
#include "lib/fmt.h"
#include "lib/out.h"
#include "lib/run.h"
#include "lib/str.h"
#include "module/kernel.h"
#include "module/run.h"

#ifndef PB_VERSION
#error "build with -DPB_VERSION=\"...\" (module/Kbuild passes git describe)"
#endif

#define US_PER_MS		1000

static struct options opts;
static const char *given_args;

/* The description lines, of the CPU this is called on, and its live facts. */
static void describe(struct cpu_desc *d, struct live_facts *live)
{
	cpu_describe_live(d);
	*live = (struct live_facts){
		.ucode_readable = true,
		.ucode = pbk_microcode(pbk_this_cpu()),
		/* Only Intel's kernels read it (the rules' fast_string), as Linux and Xen do. */
		.fast_string = str_eq(d->vendor, "GenuineIntel") ? pbk_fast_string() :
								  FAST_STRING_UNKNOWN,
		.tsc_khz = pbk_tsc_khz(),
		.tsc_src = TSC_SRC_LINUX_KERNEL,
		.hot_load_ticks = hot_load_ticks(),
		.mem_usable = pbk_ram_bytes(),
		.cmdline = given_args ? given_args : "",
	};
	describe_cpu(d, PB_VERSION, live);
	out_line("linux-module release=%s cpu=%d online=%u", pbk_release(),
		 pbk_this_cpu(), pbk_online_cpus());
}

/*
 * The running kernel's own view, for its answers: its release and, for
 * each flag the rules name for Linux, boot_cpu_has(); the "linux
 * kernel_flags" line says them, or why not.
 */
static bool running_kernel(struct rule_running *r)
{
	unsigned int i;

	if (!rule_running_linux(r, pbk_release(), "", true)) {
		out_line("linux kernel_flags unknown (release %s has no version)", pbk_release());
		return false;
	}
	for (i = 0; i < r->nflags; i++) {
		int on = pbk_kernel_flag(r->flag[i].flag);

		if (on < 0) {
			out_line("linux kernel_flags unknown (the module asks boot_cpu_has() for no %s)",
				 r->flag[i].flag);
			return false;
		}
		r->flag[i].value = on;
	}
	answer_print_kernel_flags("boot_cpu_has", r);
	return true;
}

bool pb_prepare(const char *args, int *cpu)
{
	static struct cpu_desc d;
	static struct live_facts live;
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
	describe(&d, &live);
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
	out_line("linux-module irqs=off-per-call preempt=off-per-pass resched=every-%ums window_bytes=%u stall_limit_ms=%u",
		 PBK_YIELD_MS, PBK_WINDOW_BYTES, opts.stall_limit_ms);
	bench_env_init(&env, d);
	out_line("linux-module flush=%s ibpb=%s", flush_method_name(&env),
		 env.ibpb ? "msr" : "none");
}

/*
 * What the plan would run that the module will not call: a kernel routine
 * the running kernel lacks (skipped, with its reason, as for a missing
 * feature). A variant of a forced feature runs, as in the other hosts: a
 * trap in it is a fault: line (module/host.c).
 */
static void leave_out(struct plan *p)
{
	unsigned int i;

	for (i = 0; i < variant_count; i++) {
		const char *missing = pbk_routine_missing((const void *)variants[i].fn);

		if (((p->runs >> i) & 1) && missing) {
			p->variant_skip[i] = missing;
			p->runs &= ~(1ull << i);
		}
	}
}

static bool take(uint8_t **p, const char *name, size_t bytes)
{
	char how[OUT_LINE_MAX / 2];

	if (!bytes)
		return true;
	pbk_may_sleep_begin();
	*p = pbk_buffer_alloc(bytes, how, sizeof(how));
	pbk_may_sleep_end();
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

/*
 * The vector price (harness/vector_price.h) as a kernel entry from a user
 * task pays it: the task line's begin + end, then the restore, medians in
 * whole ticks, its interval their order statistics' (the ranks n/2 -+
 * 0.98 sqrt(n), the median's 95% distribution-free interval), both
 * summed; less what the run's kthread holds inside every window of a VEC
 * routine's figure (harness/answer.h). Not measured where insmod's
 * context was no task, or the TSC rate is unknown.
 */
static void price_of(struct vector_price *p, const struct pbk_fpu_cost *task,
		     const struct pbk_fpu_cost *kthread, uint64_t tsc_khz)
{
	const unsigned int n = PBK_FPU_SAMPLES, mid = n / 2;
	const unsigned int reach = (unsigned int)((98 * isqrt_u64(n) + 50) / 100);

	*p = (struct vector_price){ .how = "kernel_fpu_begin/end+switch_fpu_return",
				    .where = "module" };
	if (!task->task || !tsc_khz) {
		p->why_not = !tsc_khz ? "the TSC rate is unknown" :
			     "insmod's context was no user task";
		return;
	}
	p->measured = true;
	p->ticks = task->begin_end[mid] + task->restore[mid];
	p->lo = task->begin_end[mid - reach] + task->restore[mid - reach];
	p->hi = task->begin_end[mid + reach] + task->restore[mid + reach];
	p->held_ticks = kthread->begin_end[mid];
	p->window_bytes = PBK_WINDOW_BYTES;
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

/*
 * The windows of interrupts off, and the longest stretch between two
 * reschedule points, held against stall_limit_ms=: one over it is a
 * failure, with the step it ended in.
 */
static void print_windows(uint64_t tsc_khz)
{
	static struct pbk_windows w;
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
	if (tsc_khz && w.preempt_longest > opts.stall_limit_ms * tsc_khz) {
		out_line("linux-module stall: %s ms without a reschedule point, over stall_limit_ms=%u, during: %s",
			 preempt_ms, opts.stall_limit_ms, w.longest_during);
		run_fail();
	}
}

/* What the run measures, in one call that an unload may end early. */
struct suites_call {
	const struct plan *plan;
	const struct cpu_desc *d;
	const struct buffers *bufs;
	uint64_t tsc_khz;
	struct summary *sum;		/* its answers (harness/answer.h) */
};

static void run_suites(void *ctx)
{
	const struct suites_call *c = ctx;

	suite_run(c->plan, c->d, c->bufs, c->tsc_khz, c->sum);
}

void pb_run(const struct pbk_fpu_cost *task)
{
	static struct cpu_desc d;
	static struct live_facts live;
	static struct plan plan;
	static struct pbk_fpu_cost kthread;
	static struct buffers bufs;
	static struct buffer_sizes sizes;
	static struct summary sum;
	static struct rule_facts facts;
	static struct rule_running running;
	uint64_t t_start = rdtsc_ordered(), tsc_khz = pbk_tsc_khz();
	struct suites_call call = { &plan, &d, &bufs, tsc_khz, &sum };
	struct answer_run answer_run;
	bool have_running;

	pbk_yield_start(tsc_khz);
	run_step("module: describe");
	describe(&d, &live);
	have_running = running_kernel(&running);
	print_module_lines(&d);
	host_may_yield();
	run_step("module: plan");
	answer_run = answer_run_live(&d, &live, &opts);
	plan_build(&plan, &opts, &d, pbk_available_bytes() / 2, answer_run.not_a_cpu);
	leave_out(&plan);
	plan_print(&plan);
	plan_buffer_sizes(&plan, &sizes);
	host_may_yield();
	run_step("module: buffers");
	if (take_buffers(&bufs, &sizes)) {
		host_may_yield();
		run_step("module: fpu cost");
		pbk_fpu_cost(&kthread);
		print_fpu(task);
		print_fpu(&kthread);
		rule_facts_init(&facts, &d, live.fast_string);
		price_of(&answer_run.price, task, &kthread, tsc_khz);
		vector_price_print(&answer_run.price, tsc_khz);
		answers_begin(&sum.answers, &facts, have_running ? &running : NULL,
			      &answer_run);
		if (!pbk_run_stoppable(run_suites, &call)) {
			out_line("stopped: the module is being unloaded, during: %s",
				 run_step_now());
			run_set_interrupted("rmmod", progress_percent());
			run_fail();
			sum.answers.on = false;	/* a run cut short answers nothing */
		}
		print_windows(tsc_khz);
		host_may_yield();
		run_step("module: answers");
		answers_print(&sum.answers);
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
