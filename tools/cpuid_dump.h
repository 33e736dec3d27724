/* SPDX-License-Identifier: MIT */
/*
 * A recorded CPUID dump as a struct cpuid_source, so that cpu/cpu.c
 * decodes it exactly as it decodes the live CPU. Reads InstLatx64/AIDA64
 * dumps ("CPUID 00000007: EAX-EBX-ECX-EDX [SL 00]") and the output of
 * "cpuid -r -1" ("0x00000007 0x00: eax=0x... ebx=0x... ecx=0x... edx=0x...").
 * Only the first logical CPU of a file is used.
 */
#ifndef PB_CPUID_DUMP_H
#define PB_CPUID_DUMP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include "cpu/cpu.h"

struct cpuid_dump_entry {
	uint32_t leaf, subleaf;
	struct cpuid_regs regs;
};

#define CPUID_DUMP_MISSING_MAX 32

struct cpuid_dump {
	struct cpuid_dump_entry *entries;
	size_t count, cap;
	unsigned int rejected;	/* register lines that were malformed */
	/*
	 * Leaves the source was asked for that the dump's own leaf 0 or
	 * 0x80000000 says the CPU has (0x80000000 itself included), and that
	 * no line of the dump gives: a cut or partial dump. In query order.
	 */
	uint32_t missing[CPUID_DUMP_MISSING_MAX];
	unsigned int nmissing;
};

/*
 * Parses len bytes of buf (any bytes, NULs included). Each malformed
 * register line is reported on err as "NAME:LINE: ..." and skipped.
 * Returns 0, or -1 (reported on err) when no usable leaf 0 was found.
 */
int cpuid_dump_parse(struct cpuid_dump *dump, const char *buf, size_t len,
		     const char *name, FILE *err);

/* Reads and parses a file; path "-" is standard input. */
int cpuid_dump_load(struct cpuid_dump *dump, const char *path, FILE *err);

void cpuid_dump_free(struct cpuid_dump *dump);

/* The recorded registers, as they are in the file. */
bool cpuid_dump_get(const struct cpuid_dump *dump, uint32_t leaf,
		    uint32_t subleaf, struct cpuid_regs *out);

/*
 * A source that answers like the recorded CPU after pagebench's boot:
 * absent leaves and leaves above their range's max read as zero, and
 * leaf 1 reports OSXSAVE exactly when it reports XSAVE. An absent leaf
 * within its range is noted in dump->missing.
 */
void cpuid_dump_source(struct cpuid_source *src, struct cpuid_dump *dump);

#endif
