/* SPDX-License-Identifier: MIT */
/*
 * The exit statuses of the user-space programs (pagebench-linux,
 * pagebench-cpuid), one scheme for both; docs/reading.md and each --help say
 * what they mean there. The kernel's own status is success or failure only.
 *
 * Output whose reader went away (a closed pipe, EPIPE: "| head -1") ends a
 * program quietly with STATUS_DONE, as perf and hyperfine stop: the reader
 * took what it wanted. Each program ignores SIGPIPE so that it sees EPIPE.
 * Any other write error (a full disk, ">/dev/full") is STATUS_CANNOT,
 * said on standard error. scripts/cmdline.py keeps the same rule.
 */
#ifndef PB_STATUS_H
#define PB_STATUS_H

enum status {
	STATUS_DONE = 0,	/* done, and nothing failed */
	STATUS_FAILURES = 1,	/* done, and the run found failures */
	STATUS_USAGE = 2,	/* a usage or option error: nothing was run */
	STATUS_CANNOT = 3,	/* this environment cannot do what was asked */
	/*
	 * Interrupted: 128 + the signal's number (130 SIGINT, 143 SIGTERM),
	 * as a shell reports a program that signal ended; the log ends with
	 * its done: line, which says so (pagebench-linux).
	 */
	STATUS_INTERRUPTED = 128,
};

#endif
