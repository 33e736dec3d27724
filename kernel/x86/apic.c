/* SPDX-License-Identifier: MIT */
/*
 * Local APIC registers (Intel SDM vol. 3 chapter 11; AMD APM vol. 2
 * chapter 16). In xAPIC mode they are 32-bit words at base + offset; in
 * x2APIC mode MSR 0x800 + offset / 16, and the ICR is one 64-bit MSR.
 */
#include "kernel/x86/apic.h"
#include "kernel/x86/delay.h"
#include "kernel/x86/x86.h"

#define MSR_APIC_BASE		0x1b
#define APIC_BASE_EXTD		(1ull << 10)	/* x2APIC mode */
#define APIC_BASE_EN		(1ull << 11)	/* globally enabled */
#define APIC_BASE_ADDR		0x000ffffffffff000ull
#define X2APIC_MSR(reg)		(0x800 + ((reg) >> 4))

#define CPUID1_EDX_APIC		(1u << 9)
#define CPUID1_ECX_X2APIC	(1u << 21)

#define APIC_ID			0x020
#define APIC_EOI		0x0b0
#define APIC_SVR		0x0f0
#define APIC_ISR		0x100		/* 8 words of 32 vectors, 16 bytes apart */
#define ISR_VECTORS		32
#define ISR_STRIDE		0x10
#define APIC_ICR_LO		0x300
#define APIC_ICR_HI		0x310
#define APIC_LVT_TIMER		0x320
#define APIC_TIMER_INIT		0x380
#define APIC_TIMER_CUR		0x390
#define APIC_TIMER_DIV		0x3e0

#define XAPIC_ID_SHIFT		24		/* ID and ICR_HI: bits 31:24 */
#define SVR_ENABLE		(1u << 8)
#define SVR_VECTOR		0xff		/* spurious: the IDT's ignore stub */
#define ICR_BUSY		(1u << 12)	/* xAPIC: delivery pending */
#define LVT_MASKED		(1u << 16)
#define LVT_PERIODIC		(1u << 17)
#define TIMER_DIV_1		0xb
#define TIMER_MAX		0xffffffffu
#define CALIBRATE_MS		10
/* An xAPIC accepts an IPI within microseconds; this is generous. */
#define ICR_WAIT_US		10000

static enum apic_mode mode;
static volatile uint32_t *mmio;

void apic_facts(struct apic_facts *f)
{
	uint32_t r[4];
	uint64_t base;

	*f = (struct apic_facts){ 0 };
	cpuid_count(1, 0, r);
	if (!(r[3] & CPUID1_EDX_APIC))
		return;
	base = rdmsr(MSR_APIC_BASE);
	f->present = base & APIC_BASE_EN;
	f->x2apic = r[2] & CPUID1_ECX_X2APIC;
	f->x2apic_on = f->present && (base & APIC_BASE_EXTD);
	f->base = base & APIC_BASE_ADDR;
}

void apic_use(enum apic_mode m, uint64_t base)
{
	mode = m;
	mmio = (volatile uint32_t *)(uintptr_t)base;
}

enum apic_mode apic_mode(void)
{
	return mode;
}

const char *apic_mode_name(enum apic_mode m)
{
	return m == APIC_X2APIC ? "x2apic" : m == APIC_XAPIC ? "xapic" : "none";
}

static uint32_t rd(uint32_t reg)
{
	if (mode == APIC_X2APIC)
		return (uint32_t)rdmsr(X2APIC_MSR(reg));
	return mmio[reg / sizeof(*mmio)];
}

static void wr(uint32_t reg, uint32_t v)
{
	if (mode == APIC_X2APIC)
		wrmsr(X2APIC_MSR(reg), v);
	else
		mmio[reg / sizeof(*mmio)] = v;
}

void apic_enable_cpu(void)
{
	uint64_t base = rdmsr(MSR_APIC_BASE);

	/* xAPIC to x2APIC is a legal step; the way back is not taken. */
	if (mode == APIC_X2APIC && !(base & APIC_BASE_EXTD))
		wrmsr(MSR_APIC_BASE, base | APIC_BASE_EN | APIC_BASE_EXTD);
	wr(APIC_SVR, rd(APIC_SVR) | SVR_ENABLE | SVR_VECTOR);
}

uint32_t apic_id(void)
{
	if (mode == APIC_X2APIC)
		return rd(APIC_ID);
	return rd(APIC_ID) >> XAPIC_ID_SHIFT;
}

static bool xapic_idle(void)
{
	uint64_t end = rdtsc_ordered() + delay_ticks_us(ICR_WAIT_US);

	while (rd(APIC_ICR_LO) & ICR_BUSY)
		if (rdtsc_ordered() > end)
			return false;
	return true;
}

bool apic_send(uint32_t dest, uint32_t icr)
{
	if (mode == APIC_X2APIC) {
		/*
		 * WRMSR to the x2APIC is not serializing: the stores the
		 * target is to see must be globally visible first.
		 */
		asm volatile("mfence; lfence" : : : "memory");
		wrmsr(X2APIC_MSR(APIC_ICR_LO), (uint64_t)dest << 32 | icr);
		return true;
	}
	if (!xapic_idle())
		return false;
	wr(APIC_ICR_HI, dest << XAPIC_ID_SHIFT);
	wr(APIC_ICR_LO, icr);
	return xapic_idle();
}

void apic_eoi_if_in_service(uint8_t vector)
{
	uint32_t isr = rd(APIC_ISR + (vector / ISR_VECTORS) * ISR_STRIDE);

	if (isr & (1u << (vector % ISR_VECTORS)))
		wr(APIC_EOI, 0);
}

uint32_t apic_timer_per_ms(void)
{
	uint64_t end;
	uint32_t left;

	wr(APIC_LVT_TIMER, LVT_MASKED);		/* counts, interrupts nobody */
	wr(APIC_TIMER_DIV, TIMER_DIV_1);
	wr(APIC_TIMER_INIT, TIMER_MAX);
	end = rdtsc_ordered() + delay_ticks_ms(CALIBRATE_MS);
	while (rdtsc_ordered() < end)
		cpu_relax();
	left = rd(APIC_TIMER_CUR);
	wr(APIC_TIMER_INIT, 0);			/* stopped */
	return (TIMER_MAX - left) / CALIBRATE_MS;
}

void apic_timer_periodic(uint8_t vector, uint32_t count)
{
	wr(APIC_TIMER_DIV, TIMER_DIV_1);
	wr(APIC_LVT_TIMER, LVT_PERIODIC | vector);
	wr(APIC_TIMER_INIT, count);
}
