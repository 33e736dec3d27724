/* SPDX-License-Identifier: MIT */
/*
 * The local APIC of the CPU that calls, in xAPIC (MMIO) or x2APIC (MSR)
 * mode: one mode for every CPU, chosen once on the BSP (kernel/smp/smp.c).
 */
#ifndef PB_APIC_H
#define PB_APIC_H

#include <stdbool.h>
#include <stdint.h>

enum apic_mode { APIC_NONE, APIC_XAPIC, APIC_X2APIC };

/* What this CPU offers, before anything is changed. */
struct apic_facts {
	bool present;		/* CPUID.1:EDX.APIC and IA32_APIC_BASE.EN */
	bool x2apic;		/* CPUID.1:ECX.x2APIC */
	bool x2apic_on;		/* the firmware left it in x2APIC mode */
	uint64_t base;		/* xAPIC MMIO address, from IA32_APIC_BASE */
};
void apic_facts(struct apic_facts *f);

/* Once, on the BSP: how every CPU reaches its APIC from now on. */
void apic_use(enum apic_mode mode, uint64_t base);
enum apic_mode apic_mode(void);
const char *apic_mode_name(enum apic_mode mode);

/* This CPU: into the chosen mode and software-enabled; its LVTs stay as they are. */
void apic_enable_cpu(void);
uint32_t apic_id(void);

/* Interrupt command: delivery modes (bits 8-10) and the rest of the low word. */
#define ICR_FIXED	(0u << 8)
#define ICR_NMI		(4u << 8)
#define ICR_INIT	(5u << 8)
#define ICR_STARTUP	(6u << 8)
#define ICR_ASSERT	(1u << 14)

/* Sends an IPI to the APIC id dest; false when xAPIC never accepted it. */
bool apic_send(uint32_t dest, uint32_t icr);

/* EOI for vector when it is in service here (a wake from HLT by it). */
void apic_eoi_if_in_service(uint8_t vector);

/* Timer ticks per millisecond (measured against the TSC), 0 if it does not count. */
uint32_t apic_timer_per_ms(void);
/* An interrupt at vector every count ticks, until the CPU is reset. */
void apic_timer_periodic(uint8_t vector, uint32_t count);

#endif
