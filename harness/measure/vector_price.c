/* SPDX-License-Identifier: MIT */
/* The vector price (harness/measure/vector_price.h), timed the same in ring 0 and user space. */
#include "cpu/insn.h"
#include "harness/measure/vector_price.h"
#include "lib/fmt.h"
#include "lib/out.h"

#define CPUID_XSTATE		0xd
/* Leaf 0xD subleaf 1 EAX: the optimised saves. */
#define XSTATE1_XSAVEOPT	(1u << 0)
#define XSTATE1_XSAVEC		(1u << 1)
#define XSTATE1_XSAVES		(1u << 3)
/* Leaf 1 EDX: FXSAVE and FXRSTOR, on every x86-64 CPU. */
#define CPUID1_EDX_FXSR		(1u << 24)
#define FXSAVE_BYTES		512u
#define NS10_PER_MS		10000000u	/* tenths of a ns in a ms */

enum save_insn { SAVE_FXSAVE, SAVE_XSAVE, SAVE_XSAVEOPT, SAVE_XSAVEC, SAVE_XSAVES };

static const char *const how_of[] = {
	[SAVE_FXSAVE] = "fxsave+fxrstor", [SAVE_XSAVE] = "xsave+xrstor",
	[SAVE_XSAVEOPT] = "xsaveopt+xrstor", [SAVE_XSAVEC] = "xsavec+xrstor",
	[SAVE_XSAVES] = "xsaves+xrstors",
};

void vector_make_live(uint64_t mask);
void vector_leave(uint64_t mask);

/* The save area, 64-byte aligned as XSAVE wants; one measurement at a time. */
static uint8_t area[PRICE_AREA_BYTES] __attribute__((aligned(64)));

/* One save and restore of mask, in ticks between two ordered TSC reads. */
static uint64_t time_pair(enum save_insn insn, uint64_t mask)
{
	uint32_t lo = (uint32_t)mask, hi = (uint32_t)(mask >> 32);
	uint64_t t0, t1;

	t0 = rdtsc_ordered();
	switch (insn) {
	case SAVE_FXSAVE:
		asm volatile("fxsave64 %0\n\tfxrstor64 %0" : "+m"(area) : : "memory");
		break;
	case SAVE_XSAVE:
		asm volatile("xsave64 %0\n\txrstor64 %0" : "+m"(area) : "a"(lo), "d"(hi) : "memory");
		break;
	case SAVE_XSAVEOPT:
		asm volatile("xsaveopt64 %0\n\txrstor64 %0" : "+m"(area) : "a"(lo), "d"(hi) : "memory");
		break;
	case SAVE_XSAVEC:
		asm volatile("xsavec64 %0\n\txrstor64 %0" : "+m"(area) : "a"(lo), "d"(hi) : "memory");
		break;
	case SAVE_XSAVES:
		asm volatile("xsaves64 %0\n\txrstors64 %0" : "+m"(area) : "a"(lo), "d"(hi) : "memory");
		break;
	}
	t1 = rdtsc_ordered();
	return t1 - t0;
}

/* What two ordered TSC reads cost with nothing between them: the least of many. */
static uint64_t empty_ticks(void)
{
	uint64_t least = UINT64_MAX, t0, t1;
	unsigned int i;

	for (i = 0; i < PRICE_SAMPLES * 4; i++) {
		t0 = rdtsc_ordered();
		t1 = rdtsc_ordered();
		if (t1 - t0 < least)
			least = t1 - t0;
	}
	return least;
}

/* The save the kernel would take here (ring0), or the nearest user space may run. */
static enum save_insn save_of(const struct cpu_desc *d, bool ring0, const char **why)
{
	uint32_t r[4];

	*why = NULL;
	if (!d->xcr0) {
		cpuid_count(1, 0, r);
		if (!(r[3] & CPUID1_EDX_FXSR))
			*why = "no FXSAVE, no XSAVE";
		return SAVE_FXSAVE;
	}
	cpuid_count(CPUID_XSTATE, 1, r);
	if (ring0 && (r[0] & XSTATE1_XSAVES))
		return SAVE_XSAVES;
	if (r[0] & XSTATE1_XSAVEC)
		return SAVE_XSAVEC;
	if (r[0] & XSTATE1_XSAVEOPT)
		return SAVE_XSAVEOPT;
	return SAVE_XSAVE;
}

void vector_price_measure(struct vector_price *p, const struct cpu_desc *d, bool ring0)
{
	uint64_t med[PRICE_EPOCHS], t[PRICE_SAMPLES], empty;
	enum save_insn insn = save_of(d, ring0, &p->why_not);
	struct interval iv;
	unsigned int e, i;
	uint32_t r[4];

	*p = (struct vector_price){ .where = ring0 ? "ring0" : "user", .how = how_of[insn],
				    .xcr0 = d->xcr0, .why_not = p->why_not };
	p->mask = d->xcr0 & ~XSTATE_AMX_TILEDATA;
	p->bytes = FXSAVE_BYTES;
	if (d->xcr0) {
		/* EBX: the standard form's size for XCR0, an upper bound of the compacted one. */
		cpuid_count(CPUID_XSTATE, 0, r);
		p->bytes = r[1];
	}
	if (!p->why_not && p->bytes > PRICE_AREA_BYTES)
		p->why_not = "the save area is larger than PRICE_AREA_BYTES";
	if (p->why_not)
		return;
	/* A fresh header: XRSTOR of a compacted area reads XCOMP_BV, which the saves write. */
	for (i = 0; i < p->bytes; i++)
		area[i] = 0;
	empty = empty_ticks();
	for (e = 0; e < PRICE_EPOCHS; e++) {
		for (i = 0; i < PRICE_SAMPLES; i++) {
			uint64_t ticks;

			vector_make_live(p->mask);
			ticks = time_pair(insn, p->mask);
			t[i] = ticks > empty ? ticks - empty : 0;
		}
		med[e] = median_u64(t, PRICE_SAMPLES);
	}
	vector_leave(p->mask);
	interval_of_epochs(med, PRICE_EPOCHS, 1, &iv);
	p->measured = true;
	p->epochs = PRICE_EPOCHS;
	p->ticks = iv.median;
	p->lo = iv.lo;
	p->hi = iv.hi;
}

/* ticks in ns, one decimal, into buf. */
static void ns_text(char *buf, size_t len, uint64_t ticks, uint64_t tsc_khz)
{
	uint64_t ns10 = ticks > UINT64_MAX / NS10_PER_MS ? UINT64_MAX :
			(ticks * NS10_PER_MS + tsc_khz / 2) / tsc_khz;

	fmt_snprintf(buf, len, "%lu.%lu", (unsigned long)(ns10 / 10), (unsigned long)(ns10 % 10));
}

void vector_price_print(const struct vector_price *p, uint64_t tsc_khz)
{
	char ns[96] = "", lo[24], hi[24], held[48] = "";

	if (!p->measured) {
		out_line("vector_price how=%s where=%s measured=no why=\"%s\"", p->how ? p->how : "-",
			 p->where ? p->where : "-", p->why_not ? p->why_not : "not measured");
		return;
	}
	if (tsc_khz) {
		char m[24];

		ns_text(m, sizeof(m), p->ticks, tsc_khz);
		ns_text(lo, sizeof(lo), p->lo, tsc_khz);
		ns_text(hi, sizeof(hi), p->hi, tsc_khz);
		fmt_snprintf(ns, sizeof(ns), " ns=%s lo_ns=%s hi_ns=%s", m, lo, hi);
	}
	if (p->window_bytes)
		fmt_snprintf(held, sizeof(held), " held=%lu window=%zu",
			     (unsigned long)p->held_ticks, p->window_bytes);
	out_line("vector_price how=%s where=%s xcr0=0x%lx mask=0x%lx bytes=%u epochs=%u ticks=%lu lo=%lu hi=%lu%s%s",
		 p->how, p->where, (unsigned long)p->xcr0, (unsigned long)p->mask, p->bytes,
		 p->epochs, (unsigned long)p->ticks, (unsigned long)p->lo,
		 (unsigned long)p->hi, held, ns);
}
