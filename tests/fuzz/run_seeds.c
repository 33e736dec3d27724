// SPDX-License-Identifier: MIT
/*
 * The fuzz targets without libFuzzer: each file named on the command line
 * through LLVMFuzzerTestOneInput() once, in a build with gcc's
 * AddressSanitizer and UndefinedBehaviorSanitizer (make sanitized), so
 * that make test catches a regression on the seeds and the inputs that
 * once failed without fuzzing (tests/fuzz/test_fuzz_seeds.py). A sanitizer's
 * report ends the program with its status; otherwise "ran N inputs".
 */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include "tests/fuzz/fuzz.h"

int main(int argc, char **argv)
{
	/* Our own lines go to fd 2 directly: the target may point stdio at /dev/null. */
	FILE *say = fdopen(dup(2), "w");
	int i;

	for (i = 1; i < argc; i++) {
		FILE *f = fopen(argv[i], "rb");
		uint8_t *buf;
		long n;

		if (!f || fseek(f, 0, SEEK_END) || (n = ftell(f)) < 0 || fseek(f, 0, SEEK_SET)) {
			fprintf(say ? say : stderr, "run_seeds: cannot read %s\n", argv[i]);
			return 2;
		}
		/* An exact copy: a read past the input's end is the sanitizer's to see. */
		buf = malloc(n ? (size_t)n : 1);
		if (!buf || fread(buf, 1, (size_t)n, f) != (size_t)n) {
			fprintf(say ? say : stderr, "run_seeds: cannot read %s\n", argv[i]);
			return 2;
		}
		fclose(f);
		LLVMFuzzerTestOneInput(buf, (size_t)n);
		free(buf);
	}
	fprintf(say ? say : stderr, "ran %d inputs\n", argc - 1);
	return 0;
}
