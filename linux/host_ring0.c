// SPDX-License-Identifier: MIT
/*
 * What user space has of ring 0's means (harness/measure/host.h): no WBINVD, no
 * IBPB, and vector registers that are the process's own. Apart from
 * linux/host.c so that the unit tests that run a suite link this one
 * file rather than a copy of it.
 */
#include <stdlib.h>
#include "harness/measure/host.h"

void host_caps(struct host_caps *c)
{
	c->wbinvd = false;
	c->ibpb = false;
}

/* host_caps() says neither exists here, so the harness never calls them. */
void host_wbinvd(void)
{
	abort();
}

bool host_ibpb(void)
{
	return false;
}

/* A process's vector registers are its own: the kernel saves them on a switch. */
void host_vector_begin(void)
{
}

void host_vector_end(void)
{
}
