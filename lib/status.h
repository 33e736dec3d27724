/* SPDX-License-Identifier: MIT */
/*
 * The exit statuses of the user-space programs (pagebench-linux,
 * pagebench-cpuid), one scheme for both; README.md and each --help say
 * what they mean there. The kernel's own status is success or failure only.
 */
#ifndef PB_STATUS_H
#define PB_STATUS_H

enum status {
	STATUS_DONE = 0,	/* done, and nothing failed */
	STATUS_FAILURES = 1,	/* done, and the run found failures */
	STATUS_USAGE = 2,	/* a usage or option error: nothing was run */
	STATUS_CANNOT = 3,	/* this environment cannot do what was asked */
};

#endif
