// SPDX-License-Identifier: MIT
/*
 * pagebench.ko: the harness in ring 0 of a running Linux kernel, for
 * machines that cannot be rebooted into the benchmark kernel. Loading it
 * parses args= and starts the run in a kthread bound to one CPU; the log
 * grows at /proc/pagebench and is complete at its "done:" line. An option
 * error fails the load with -EINVAL, its lines in the kernel's log.
 * Unloading ends a run still going at its next yield point (a few ms
 * away), with a "stopped:" line, and copies its log to the kernel's log,
 * since /proc/pagebench goes with the module; then removes everything.
 */
#include <linux/completion.h>
#include <linux/err.h>
#include <linux/kthread.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <asm/cpufeature.h>
#include "module/kernel.h"
#include "module/run_host.h"

static char *args;
module_param(args, charp, 0444);
MODULE_PARM_DESC(args, "pagebench options, as for the kernel: args='\"suite=xen reps=3\"' (the double quotes keep the kernel from splitting them at the spaces)");

static DECLARE_COMPLETION(run_done);
static bool running;
/* kernel_fpu_begin/end's cost in a task, taken in insmod's, before the run's kthread. */
static struct pbk_fpu_cost task_fpu;

static int run(void *unused)
{
	pb_run(&task_fpu);
	pr_info("pagebench: run ended; /proc/pagebench holds its log\n");
	kthread_complete_and_exit(&run_done, 0);
}

/*
 * With IBT enforced, every indirect call must land on ENDBR64; the
 * variants are nasm routines without it, and the harness calls them
 * through pointers.
 */
static bool ibt_enforced(void)
{
#ifdef CONFIG_X86_KERNEL_IBT
	return cpu_feature_enabled(X86_FEATURE_IBT);
#else
	return false;
#endif
}

static int __init pagebench_init(void)
{
	struct task_struct *t;
	int cpu, err;

	if (ibt_enforced()) {
		pr_err("pagebench: this kernel enforces IBT and the variants have no ENDBR64; boot it with ibt=off to load pagebench\n");
		return -EOPNOTSUPP;
	}
	err = pbk_log_init();
	if (err) {
		pr_err("pagebench: no memory for the log\n");
		return err;
	}
	if (!pb_prepare(args, &cpu)) {
		pbk_log_to_printk();
		pbk_log_free();
		return -EINVAL;
	}
	pbk_fpu_cost(&task_fpu);
	err = pbk_guard_init();
	if (err) {
		pr_err("pagebench: cannot register its die notifier (%d)\n", err);
		goto fail;
	}
	err = pbk_log_publish();
	if (err) {
		pr_err("pagebench: cannot create /proc/pagebench\n");
		goto fail_guard;
	}
	t = kthread_create(run, NULL, "pagebench");
	if (IS_ERR(t)) {
		err = PTR_ERR(t);
		pr_err("pagebench: cannot start the run's kthread (%d)\n", err);
		goto fail_guard;
	}
	kthread_bind(t, cpu);
	running = true;
	wake_up_process(t);
	pr_info("pagebench: running on CPU %d; /proc/pagebench is complete at its done: line\n",
		cpu);
	return 0;
fail_guard:
	pbk_guard_exit();
fail:
	pbk_log_free();
	return err;
}

static void __exit pagebench_exit(void)
{
	if (running && !completion_done(&run_done)) {
		pbk_stop();
		wait_for_completion(&run_done);
		pbk_log_to_printk();
	}
	pbk_guard_exit();
	pbk_log_free();
}

module_init(pagebench_init);
module_exit(pagebench_exit);

/* The GPL-only exports it calls (kernel_fpu_begin_mask, clear_page_erms, ...) need the GPL. */
MODULE_LICENSE("Dual MIT/GPL");
MODULE_DESCRIPTION("pagebench: clear_page/copy_page/memset/memcpy variants and the running kernel's own, timed in ring 0");
MODULE_AUTHOR("pagebench");
