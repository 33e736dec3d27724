/* SPDX-License-Identifier: MIT */
/* The peers' hot buffer: one buffer called again and again, warm (hot_buffer.c). */
#ifndef PB_HOT_BUFFER_H
#define PB_HOT_BUFFER_H

#include "harness/measure/suites/pass.h"

pass_reps_fn hot_buffer_reps;

#endif
