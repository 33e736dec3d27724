/* SPDX-License-Identifier: MIT */
/*
 * The questions time= races (harness/decide/race.h), from the kernel rules on
 * this CPU: for each function the answer decides, every variant some era
 * of Linux or Xen picks for it, for each value of an MSR bit the run
 * cannot read, so that the picks the answer judges are among them.
 */
#ifndef PB_QUESTIONS_H
#define PB_QUESTIONS_H

#include "cpu/cpu.h"
#include "harness/decide/race.h"

void race_questions_of(struct race_questions *q, const struct cpu_desc *d);

#endif
