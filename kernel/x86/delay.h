/* SPDX-License-Identifier: MIT */
/*
 * Waits the hardware prescribes (INIT, then 10 ms, then a SIPI) and the
 * bounds on waits for another CPU, in TSC ticks at the calibrated rate.
 */
#ifndef PB_DELAY_H
#define PB_DELAY_H

#include <stdbool.h>
#include <stdint.h>

/*
 * The TSC rate in kHz (kernel/time/tsc.h). 0 when no source gave one: every
 * wait then assumes a TSC as fast as any there is, so it lasts at least
 * as long as asked, however slow the TSC really is.
 */
void delay_init(uint64_t tsc_khz);

uint64_t delay_ticks_us(uint64_t us);
uint64_t delay_ticks_ms(uint64_t ms);
/* Ticks as milliseconds, for a log line (at the assumed rate when unknown). */
uint64_t delay_ms_of(uint64_t ticks);

void delay_us(uint64_t us);
/* Waits up to ms for another CPU to set *flag; false when it did not. */
bool delay_wait_flag(volatile uint32_t *flag, uint64_t ms);

#endif
