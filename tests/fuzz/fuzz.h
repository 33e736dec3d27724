/* SPDX-License-Identifier: MIT */
/*
 * What the fuzz targets of tests/fuzz/ share: the one entry point each
 * defines, which libFuzzer calls (make fuzz) and so does
 * tests/fuzz/run_seeds.c's main() on every seed once (make test).
 */
#ifndef PB_FUZZ_H
#define PB_FUZZ_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/*
 * The target's own output (answer lines, refusals) to /dev/null: a
 * million inputs of it would cost more than the parsing. The sanitizers
 * write their reports to file descriptor 2, which stays.
 */
static inline void fuzz_quiet(void)
{
	FILE *null = fopen("/dev/null", "w");

	if (null)
		stdout = stderr = null;
}

#endif
