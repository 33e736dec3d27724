// SPDX-License-Identifier: MIT
/*
 * Fuzz target: pagebench-decide's input (tools/pagebench-decide.c), the
 * figures pagebench-report hands over for a log without answer lines, so
 * the engine of harness/decide/answer.c behind it too. The program is included
 * whole, its main() renamed, so that an input goes through the same
 * decide_stream() as standard input does and the target can ask for the
 * matrix (--matrix) as well: an input of odd length gets it, in 1 to 64
 * rows. Seeds: tests/fuzz/seeds decide.
 */
#define main pagebench_decide_main
#include "tools/pagebench-decide.c"
#undef main
#include "tests/fuzz/fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static bool ready;
	FILE *in;

	if (!ready) {
		fuzz_quiet();
		out_add_sink(answer_sink);
		ready = true;
	}
	if (!size)
		return 0;
	in = fmemopen((void *)data, size, "r");
	if (!in)
		return 0;
	matrix_rows = size % 2 ? 1 + (unsigned int)(size / 2 % 64) : 0;
	decide_stream(in);
	fclose(in);
	return 0;
}
