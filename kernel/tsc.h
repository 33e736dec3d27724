/* SPDX-License-Identifier: MIT */
#ifndef PB_TSC_H
#define PB_TSC_H

#include <stdint.h>

/* The TSC rate measured against PIT channel 2 over CALIBRATE_MS. */
#define CALIBRATE_MS 50
uint64_t tsc_calibrate_pit_khz(void);

#endif
