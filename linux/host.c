// SPDX-License-Identifier: MIT
/*
 * The harness's host interface in Linux user space: what ring 0 would
 * give is in linux/host_ring0.c (none of it), faults become signals, and what disturbed a pass is
 * counted from getrusage() and /proc/interrupts, beside the samples the
 * harness timed again (the counters of each sample: linux/counters.c).
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <setjmp.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <ucontext.h>
#include <unistd.h>
#include "cpu/insn.h"
#include "harness/measure/host.h"
#include "lib/out.h"
#include "lib/run.h"
#include "linux/linux.h"

/* --- faults --- */

static sigjmp_buf guard_jmp;
static volatile sig_atomic_t guard_armed;
static volatile int fault_sig;
static volatile uint64_t fault_rip, fault_addr;

static const char *signal_what(int sig)
{
	switch (sig) {
	case SIGILL:
		return "SIGILL (illegal instruction)";
	case SIGSEGV:
		return "SIGSEGV (segmentation fault)";
	case SIGBUS:
		return "SIGBUS (bus error)";
	case SIGFPE:
		return "SIGFPE (arithmetic exception)";
	}
	return "SIG? (unexpected signal)";
}

/*
 * A synchronous fault: inside a guarded call it returns there; anywhere
 * else it is a bug of ours, reported like the kernel's exception line
 * before the run ends.
 */
static void on_fault(int sig, siginfo_t *si, void *ucv)
{
	ucontext_t *uc = ucv;

	fault_sig = sig;
	fault_rip = (uint64_t)uc->uc_mcontext.gregs[REG_RIP];
	fault_addr = (uint64_t)(uintptr_t)si->si_addr;
	if (guard_armed) {
		guard_armed = 0;
		siglongjmp(guard_jmp, 1);
	}
	out_line("exception: %s rip=0x%lx addr=0x%lx during: %s",
		 signal_what(sig), (unsigned long)fault_rip,
		 (unsigned long)fault_addr, run_step_now());
	run_fail();
	run_print_done();
	fflush(stdout);
	_exit(STATUS_FAILURES);
}

void linux_catch_faults(void)
{
	static const int sigs[] = { SIGILL, SIGSEGV, SIGBUS, SIGFPE };
	struct sigaction sa;
	unsigned int i;

	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = on_fault;
	sa.sa_flags = SA_SIGINFO;
	sigemptyset(&sa.sa_mask);
	for (i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++)
		sigaction(sigs[i], &sa, NULL);
}

bool host_call_guarded(void (*fn)(void *ctx), void *ctx, struct fault *f)
{
	/* savemask: the signal stays blocked after a jump out of its handler otherwise. */
	if (sigsetjmp(guard_jmp, 1)) {
		snprintf(f->what, sizeof(f->what), "%s", signal_what(fault_sig));
		f->rip = fault_rip;
		return false;
	}
	guard_armed = 1;
	fn(ctx);
	guard_armed = 0;
	return true;
}

/*
 * --- a run interrupted (SIGINT, SIGTERM): stopped at the next yield
 * point, as the module stops on rmmod ---
 */

static volatile sig_atomic_t stop_signal;
static sigjmp_buf stop_jmp;
static bool stoppable;		/* linux_run_stoppable() is under way */
static pthread_t stop_thread;	/* the one that may jump back: suite=scrub has others */

/* The first asks the run to stop; the second ends the program at once. */
static void on_stop(int sig)
{
	if (stop_signal) {
		signal(sig, SIG_DFL);
		raise(sig);	/* blocked in here: delivered on return, and fatal */
		return;
	}
	stop_signal = sig;
}

void linux_catch_stops(void)
{
	static const int sigs[] = { SIGINT, SIGTERM };
	struct sigaction sa, old;
	unsigned int i;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_stop;
	sa.sa_flags = SA_RESTART;
	sigemptyset(&sa.sa_mask);
	for (i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++) {
		/* Ignored by whoever started us (nohup, a shell's & ): left ignored. */
		if (sigaction(sigs[i], NULL, &old) || old.sa_handler == SIG_IGN)
			continue;
		sigaction(sigs[i], &sa, NULL);
	}
}

int linux_stop_signal(void)
{
	return stop_signal;
}

bool linux_run_stoppable(void (*fn)(void *ctx), void *ctx)
{
	/* savemask: the signals stay as they were after the jump. */
	if (sigsetjmp(stop_jmp, 1)) {
		stoppable = false;
		return false;
	}
	stop_thread = pthread_self();
	stoppable = true;
	fn(ctx);
	stoppable = false;
	return true;
}

/*
 * The kernel preempts the thread wherever it likes; here a run asked to
 * stop does, on the thread that runs the suites: nothing is held at a
 * yield point (harness/measure/host.h), and the buffers are main()'s.
 */
void host_may_yield(void)
{
	if (stop_signal && stoppable && pthread_equal(pthread_self(), stop_thread))
		siglongjmp(stop_jmp, 1);
}

#define PAUSE_SLICE_NS	100000ll

void host_pause(uint64_t until_tsc)
{
	const struct timespec slice = { 0, PAUSE_SLICE_NS };

	/* In slices: the TSC, not a clock's rate, says when it is over. */
	while ((int64_t)(rdtsc_ordered() - until_tsc) < 0)
		nanosleep(&slice, NULL);
}

/* --- what disturbed a pass --- */

static struct {
	long nivcsw, nvcsw;
	struct irq_counts irqs;
} pass_start;

void host_pass_begin(void)
{
	struct rusage ru;

	getrusage(RUSAGE_THREAD, &ru);
	pass_start.nivcsw = ru.ru_nivcsw;
	pass_start.nvcsw = ru.ru_nvcsw;
	irq_counts_read(&pass_start.irqs, linux_cpu());
}

/*
 * "1:0,0:2": per CPU that ran windows (the CPU's number), how many were
 * disturbed; ",..." where the line has no room for more.
 */
static void cpus_text(const struct sample_tally *t, char *buf, size_t len)
{
	static struct host_cpus c;
	unsigned int i, n = t->cpus ? t->cpus : 1;
	size_t used = 0;

	if (n > 1)
		host_cpus(&c);
	for (i = 0; i < n; i++) {
		char one[32];
		int cpu = n > 1 && i < c.n ? (int)c.id[i] : linux_cpu();
		size_t k = (size_t)snprintf(one, sizeof(one), "%s%d:%u", i ? "," : "",
					    cpu, t->disturbed[i]);

		if (used + k + sizeof(",...") > len) {
			snprintf(buf + used, len - used, ",...");
			return;
		}
		memcpy(buf + used, one, k + 1);
		used += k;
	}
}

void host_pass_end(const char *suite, const char *pass,
		   const struct sample_tally *t)
{
	struct irq_counts now;
	struct rusage ru;
	char top[128], irqs[32], cpus[160];

	getrusage(RUSAGE_THREAD, &ru);
	if (irq_counts_read(&now, linux_cpu())) {
		irq_counts_top(&now, &pass_start.irqs, top, sizeof(top));
		snprintf(irqs, sizeof(irqs), "%llu",
			 (unsigned long long)(now.total - pass_start.irqs.total));
	} else {
		top[0] = '\0';
		snprintf(irqs, sizeof(irqs), "unknown");
	}
	cpus_text(t, cpus, sizeof(cpus));
	out_line("disturbance suite=%s pass=%s nivcsw=%ld nvcsw=%ld irqs=%s%s%s samples=%u retimed=%u kept=%u cpus=%s",
		 suite, pass, ru.ru_nivcsw - pass_start.nivcsw,
		 ru.ru_nvcsw - pass_start.nvcsw, irqs, top[0] ? " top=" : "", top,
		 t->samples, t->retimed, t->kept, cpus);
}

/*
 * --- progress, on stderr: on a terminal one line redrawn, else (a pipe,
 * a file) one line as each pass first runs, so that a log of stderr
 * stays short ---
 */

#define PROGRESS_EVERY_NS 200000000ll
#define PROGRESS_PASSES_MAX 64
/* Longer than any suite's or pass's name (a strings block's is under 40). */
#define PROGRESS_NAME_MAX 64

static bool progress_shown;

static long long now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000ll + ts.tv_nsec;
}

/*
 * Whether suite/pass is new to this run. The names are kept as copies:
 * a suite may build them in a buffer of its own that is gone, or says
 * the next pass, by the next call (suite=strings' block names,
 * suite=scrub's CPU counts).
 */
static bool first_of_pass(const struct progress *p)
{
	static char seen[PROGRESS_PASSES_MAX + 1][2][PROGRESS_NAME_MAX];
	static unsigned int n;
	unsigned int i;

	for (i = 0; i < n; i++)
		if (!strcmp(seen[i][0], p->suite) && !strcmp(seen[i][1], p->pass))
			return false;
	/* Past the table, its last row is the pass shown last: a line when it changes. */
	if (n > PROGRESS_PASSES_MAX)
		n = PROGRESS_PASSES_MAX;
	snprintf(seen[n][0], sizeof(seen[n][0]), "%s", p->suite);
	snprintf(seen[n][1], sizeof(seen[n][1]), "%s", p->pass);
	n++;
	return true;
}

void host_progress(const struct progress *p)
{
	static long long last;
	long long t = now_ns();
	bool tty = isatty(STDERR_FILENO);
	char left[32] = "";

	if (tty ? t - last < PROGRESS_EVERY_NS : !first_of_pass(p))
		return;
	last = t;
	if (p->left_ms != PROGRESS_UNKNOWN)
		snprintf(left, sizeof(left), ", ~%llus left",
			 (unsigned long long)(p->left_ms + 999) / 1000);
	if (!tty) {
		fprintf(stderr, "[%3u%%] %s %s  %llus%s\n", p->percent, p->suite,
			p->pass, (unsigned long long)p->elapsed_ms / 1000, left);
		return;
	}
	fprintf(stderr, "\r\033[K[%3u%%] %s %s rep %u/%u %s  %llus%s", p->percent,
		p->suite, p->pass, p->rep + 1, p->reps, p->variant,
		(unsigned long long)p->elapsed_ms / 1000, left);
	progress_shown = true;
}

void linux_progress_end(void)
{
	if (progress_shown)
		fputs("\r\033[K", stderr);
	progress_shown = false;
}
