/* SPDX-License-Identifier: MIT */
#include <stdarg.h>
#include <stdint.h>
#include "fmt.h"
#include "out.h"
#include "options.h"
#include "run.h"

static char step[160] = "boot";
static unsigned int failures;

void run_step(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	fmt_vsnprintf(step, sizeof(step), fmt, ap);
	va_end(ap);
}

const char *run_step_now(void)
{
	return step;
}

void run_fail(void)
{
	failures++;
}

unsigned int run_failures(void)
{
	return failures;
}

void run_print_runtime(uint64_t ticks, uint64_t tsc_khz)
{
	out_line("runtime ms=%lu ticks=0x%lx",
		 (unsigned long)(tsc_khz ? ticks / tsc_khz : 0),
		 (unsigned long)ticks);
}

void run_print_done(void)
{
	out_line("done: %u failure%s", failures, failures == 1 ? "" : "s");
}

void run_print_option_errors(const struct options *o)
{
	unsigned int i;

	for (i = 0; i < o->nerrors; i++) {
		if (i < OPT_MAX_ERRORS)
			out_line("option error: %s", o->errors[i]);
		run_fail();
	}
	if (o->nerrors > OPT_MAX_ERRORS)
		out_line("option error: %u more not shown", o->nerrors - OPT_MAX_ERRORS);
}
