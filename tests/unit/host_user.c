// SPDX-License-Identifier: MIT
/*
 * What a unit test that runs a suite gives the harness of ring 0's means
 * (harness/host.h): none, as pagebench-linux (linux/host.c) gives none.
 * The rest of the host interface each such test fakes its own way.
 */
#include <stdlib.h>
#include "harness/host.h"

void host_caps(struct host_caps *c)
{
	c->wbinvd = c->ibpb = false;
}

/* host_caps() says neither exists, so the harness never calls them. */
void host_wbinvd(void)
{
	abort();
}

bool host_ibpb(void)
{
	return false;
}

/* A process's vector registers are its own. */
void host_vector_begin(void)
{
}

void host_vector_end(void)
{
}
