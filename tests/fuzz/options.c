// SPDX-License-Identifier: MIT
/*
 * Fuzz target: the option parser (harness/options/) as pagebench-linux
 * runs it, one argument vector word at a time, and as the kernel reads
 * its command line. The input is the words, each ended by a NUL byte (so
 * that a word may hold any other byte, a blank too); each word is a
 * malloc'd copy of its own size, so that reading past it is seen. The
 * same bytes, NULs as blanks, are then the kernel's command line. Seeds:
 * tests/fuzz/seeds options.
 */
#include <stdlib.h>
#include <string.h>
#include "harness/options/options.h"
#include "tests/fuzz/fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct options o;
	static bool ready;
	size_t at = 0, i;
	char *line;

	if (!ready) {
		fuzz_quiet();
		ready = true;
	}
	options_init(&o, PROGRAM_LINUX);
	while (at < size) {
		const uint8_t *end = memchr(data + at, '\0', size - at);
		size_t n = end ? (size_t)(end - (data + at)) : size - at;
		char *word = malloc(n + 1);

		if (!word)
			return 0;
		memcpy(word, data + at, n);
		word[n] = '\0';
		options_word(&o, word);
		free(word);
		at += n + 1;
	}
	options_finish(&o);
	options_print_errors(&o);

	line = malloc(size + 1);
	if (!line)
		return 0;
	for (i = 0; i < size; i++)
		line[i] = data[i] ? (char)data[i] : ' ';
	line[size] = '\0';
	options_parse(&o, PROGRAM_KERNEL, line);
	options_print_errors(&o);
	free(line);
	return 0;
}
