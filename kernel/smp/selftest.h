/* SPDX-License-Identifier: MIT */
/*
 * The SMP self-tests (kernel/smp/selftest.c).
 */
#ifndef PB_SMP_SELFTEST_H
#define PB_SMP_SELFTEST_H

#include "harness/options/options.h"

/* selftest=smp, nosipi, hang, hang-ap (kernel/smp/selftest.c). */
void smp_selftest(enum selftest t);

#endif
