// SPDX-License-Identifier: MIT
/*
 * The module's run: the options, then the run (harness/sequence.h) with
 * what the module does its own way (the plan less what it will not call,
 * buffers from the page allocator, kernel_fpu_begin/end's price, an
 * unload that stops the suites), then the end. The lines are the other
 * hosts', plus "linux-module ..." lines saying how this run differs
 * (docs/log-format.md). This file includes the harness's headers and
 * none of the kernel's (module/kernel.h says why).
 */
#include "cpu/describe.h"
#include "cpu/hot_load.h"
#include "cpu/insn.h"
#include "cpu/live.h"
#include "harness/decide/answers.h"
#include "harness/measure/bench.h"
#include "harness/measure/progress.h"
#include "harness/sequence.h"
#include "lib/fmt.h"
#include "lib/out.h"
#include "lib/run.h"
#include "lib/str.h"
#include "module/kernel.h"
#include "module/run_host.h"

#define US_PER_MS		1000

static struct options opts;
static const char *given_args;

/* The CPU this is called on, and its live facts. */
static void module_live_facts(void *ctx, struct run_state *r)
{
	(void)ctx;
	cpu_describe_live(&r->d);
	r->live = (struct live_facts){
		.ucode_readable = true,
		.ucode = pbk_microcode(pbk_this_cpu()),
		/* Only Intel's kernels read it (the rules' fast_string), as Linux and Xen do. */
		.fast_string = str_eq(r->d.vendor, "GenuineIntel") ? pbk_fast_string() :
								    FAST_STRING_UNKNOWN,
		.tsc_khz = pbk_tsc_khz(),
		.tsc_src = TSC_SRC_LINUX_KERNEL,
		.hot_load_ticks = hot_load_ticks(),
		.mem_usable = pbk_ram_bytes(),
		.cmdline = given_args ? given_args : "",
	};
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

/*
 * The module's part of the run (harness/sequence.h). prepare_error: the
 * run stops after the description with the option errors (pb_prepare()).
 */
struct module_run {
	const struct pbk_fpu_cost *task;
	struct buffer_sizes sizes;
	bool prepare_error;
	int run_cpu;
};

static struct module_run mod;
static struct run_state state = { .o = &opts };

static void print_module_lines(const struct cpu_desc *d);

static bool module_described(void *ctx, struct run_state *r)
{
	struct module_run *m = ctx;

	out_line("linux-module release=%s cpu=%d online=%u", pbk_release(),
		 pbk_this_cpu(), pbk_online_cpus());
	/* As pagebench-linux does: say what the machine is, what was wrong, and stop. */
	if (m->prepare_error) {
		options_print_errors(&opts);
		if (!pbk_cpu_online(m->run_cpu)) {
			out_line("option error: cpu=%d: no such CPU online (the last online CPU is %d)",
				 m->run_cpu, pbk_last_online_cpu());
			run_fail();
		}
		return false;
	}
	r->has_running = running_kernel(&r->running);
	print_module_lines(&r->d);
	r->mem_bytes = pbk_available_bytes() / 2;
	return true;
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
static void leave_out(void *ctx, struct plan *p)
{
	unsigned int i;

	(void)ctx;
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

static bool take_buffers(void *ctx, struct run_state *r)
{
	struct module_run *m = ctx;
	struct buffers *b = &r->bufs;
	const struct buffer_sizes *s = &m->sizes;

	plan_buffer_sizes(&r->plan, &m->sizes);
	if (take(&b->fill, "fill", s->fill) && take(&b->work, "work", s->work) &&
	    take(&b->cold, "cold", s->cold) && take(&b->strings, "strings", s->strings))
		return true;
	run_fail();
	return false;
}

static void free_buffers(const struct buffers *b, const struct buffer_sizes *s)
{
	pbk_buffer_free(b->fill, s->fill);
	pbk_buffer_free(b->work, s->work);
	pbk_buffer_free(b->cold, s->cold);
	pbk_buffer_free(b->strings, s->strings);
}

/*
 * The vector price (harness/measure/vector_price.h) as a kernel entry from a user
 * task pays it: the task line's begin + end, then the restore, medians in
 * whole ticks, its interval their order statistics' (the ranks n/2 -+
 * 0.98 sqrt(n), the median's 95% distribution-free interval), both
 * summed; less what the run's kthread holds inside every window of a VEC
 * routine's figure (harness/decide/answer.h). Not measured where insmod's
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

/* kernel_fpu_begin/end in the run's kthread, then the price of both contexts. */
static void module_price(void *ctx, struct run_state *r, struct vector_price *p)
{
	static struct pbk_fpu_cost kthread;
	struct module_run *m = ctx;

	pbk_fpu_cost(&kthread);
	print_fpu(m->task);
	print_fpu(&kthread);
	price_of(p, m->task, &kthread, r->live.tsc_khz);
}

/* The suites, which an unload stops at the next yield point. */
static bool module_stoppable(void *ctx, void (*suites)(void *arg), void *arg)
{
	(void)ctx;
	if (pbk_run_stoppable(suites, arg))
		return true;
	out_line("stopped: the module is being unloaded, during: %s", run_step_now());
	run_set_interrupted("rmmod", progress_percent());
	run_fail();
	return false;
}

static void module_after_suites(void *ctx, struct run_state *r)
{
	(void)ctx;
	print_windows(r->live.tsc_khz);
}

static const struct run_host module_host = {
	.live_facts = module_live_facts,
	.described = module_described,
	.trim_plan = leave_out,
	.buffers = take_buffers,
	.price = module_price,
	.stoppable = module_stoppable,
	.after_suites = module_after_suites,
};

bool pb_prepare(const char *args, int *cpu)
{
	given_args = args;
	options_parse(&opts, PROGRAM_MODULE, args);
	out_set_tag(opts.tag);
	out_add_sink(pbk_log_sink);
	mod.run_cpu = opts.cpu == CPU_DEFAULT ? pbk_last_online_cpu() : opts.cpu;
	if (!opts.nerrors && pbk_cpu_online(mod.run_cpu)) {
		*cpu = mod.run_cpu;
		return true;
	}
	mod.prepare_error = true;
	run_describe(&module_host, &mod, &state);
	run_print_done();
	return false;
}

void pb_run(const struct pbk_fpu_cost *task)
{
	uint64_t t_start = rdtsc_ordered(), tsc_khz = pbk_tsc_khz();

	pbk_yield_start(tsc_khz);
	mod.task = task;
	run_sequence(&module_host, &mod, &state);
	free_buffers(&state.bufs, &mod.sizes);

	if (pbk_log_lost()) {
		out_line("linux-module log: %lu lines lost (no free page for them)",
			 pbk_log_lost());
		run_fail();
	}
	run_print_runtime(rdtsc_ordered() - t_start, tsc_khz);
	run_print_done();
}
