/* SPDX-License-Identifier: MIT */
/*
 * ACPI tables: finding them and reading the few facts pagebench needs.
 *
 * Everything here is pure: tables are byte buffers, physical memory is
 * reached only through a struct acpi_mem, and nothing keeps state. The
 * kernel maps identity-mapped memory (kernel/acpi/acpi.c); the host unit
 * test (tests/unit/test_acpi.c) maps synthetic tables. Every function that
 * can fail returns NULL on success or a reason fit for a log line; a
 * table is never read past the length it was checked for.
 */
#ifndef PB_ACPI_H
#define PB_ACPI_H

#include <stdbool.h>
#include <stdint.h>

/*
 * Physical memory for reading: map() returns a pointer to len bytes at
 * phys, or NULL when that range cannot be read (not mapped, too high).
 */
struct acpi_mem {
	const void *(*map)(void *ctx, uint64_t phys, uint64_t len);
	void *ctx;
};

/* Where the RSDP may be without a hint (ACPI 6.5 section 5.2.5.1). */
#define ACPI_EBDA_SEG_PTR	0x40e		/* BDA word: EBDA segment */
#define ACPI_EBDA_SEARCH_LEN	1024		/* first KiB of the EBDA */
#define ACPI_BIOS_AREA		0xe0000ull
#define ACPI_BIOS_AREA_END	0x100000ull
#define ACPI_RSDP_ALIGN		16

/* Generic Address Structure (ACPI 6.5 section 5.2.3.2). */
struct acpi_gas {
	uint8_t space;			/* ACPI_SPACE_* */
	uint8_t bit_width, bit_offset, access_size;
	uint64_t addr;
};
#define ACPI_SPACE_MEM	0
#define ACPI_SPACE_IO	1

#define ACPI_SDT_HEADER_LEN	36	/* every table starts so */
#define ACPI_SIG_LEN		4

/* A table whose length and checksum were checked. */
struct acpi_table {
	uint64_t phys;
	const uint8_t *p;
	uint32_t len;			/* from its header, <= what was mapped */
};

/* The root of the tables: the RSDP and the XSDT or RSDT it names. */
struct acpi_root {
	uint64_t rsdp;			/* physical address of the RSDP */
	uint8_t revision;		/* RSDP revision: 0 is ACPI 1.0, 2 is 2.0+ */
	bool xsdt;			/* root is the XSDT (else the RSDT) */
	const char *xsdt_why;		/* why an XSDT the RSDP names was not used */
	struct acpi_table table;
	unsigned int nentries;
};

/* What the RSDP says (checked: signature, checksums, length). */
struct acpi_rsdp {
	uint8_t revision;
	uint64_t rsdt;			/* 32-bit RSDT address, 0 if none */
	uint64_t xsdt;			/* 0 for revision 0 or no XSDT */
};

const char *acpi_rsdp_parse(const uint8_t *p, uint64_t avail,
			    struct acpi_rsdp *out);

/*
 * Checks a table's header in p[0..avail): the signature (when sig is not
 * NULL), a length within avail and at least a header, and the checksum.
 * *len gets the length from the header.
 */
const char *acpi_table_check(const uint8_t *p, uint64_t avail,
			     const char *sig, uint32_t *len);

/*
 * The RSDP: at hint when it is not 0 (multiboot2, EFI configuration
 * table), else in the first KiB of the EBDA, else in 0xE0000-0xFFFFF.
 */
const char *acpi_find_rsdp(const struct acpi_mem *m, uint64_t hint,
			   uint64_t *rsdp);

/* Reads the RSDP at rsdp and checks its root table (the XSDT if any). */
const char *acpi_root_init(struct acpi_root *r, const struct acpi_mem *m,
			   uint64_t rsdp);

/* The physical address in entry i of the root table. */
uint64_t acpi_root_entry(const struct acpi_root *r, unsigned int i);

/* Maps the table at phys and checks it (sig may be NULL). */
const char *acpi_table_at(const struct acpi_mem *m, uint64_t phys,
			  const char *sig, struct acpi_table *t);

/*
 * The first table with signature sig that passes its checks. When only
 * bad ones exist, the reason the last one failed.
 */
const char *acpi_find_table(const struct acpi_root *r,
			    const struct acpi_mem *m, const char *sig,
			    struct acpi_table *t);

/* ---- FADT ("FACP"): the ACPI PM timer ---- */

#define ACPI_PM_TIMER_HZ	3579545u

struct acpi_pm_timer {
	struct acpi_gas reg;		/* ACPI_SPACE_IO or ACPI_SPACE_MEM */
	unsigned int bits;		/* counter width: 24 or 32 */
	bool from_x;			/* X_PM_TMR_BLK (else PM_TMR_BLK) */
};

const char *acpi_fadt_pm_timer(const uint8_t *t, uint32_t len,
			       struct acpi_pm_timer *out);

/* ---- HPET description table ("HPET") ---- */

struct acpi_hpet {
	uint64_t base;			/* MMIO address of the register block */
	uint32_t block_id;		/* the capabilities register's low half */
	uint8_t number;			/* HPET sequence number */
	uint16_t min_tick;		/* main counter minimum clock tick */
};

const char *acpi_hpet_parse(const uint8_t *t, uint32_t len,
			    struct acpi_hpet *out);

/* ---- MADT ("APIC"): the local APICs ---- */

struct acpi_cpu {
	uint32_t apic_id;
	uint32_t uid;			/* ACPI processor UID */
	bool x2apic;			/* from a type 9 entry (else type 0) */
	bool enabled;			/* usable now */
	/*
	 * Disabled, but can be brought online. The bit means that only when
	 * Enabled is clear, and only from MADT revision 5 (ACPI 6.3) on; it
	 * was reserved before, and then reads false here.
	 */
	bool online_capable;
};

struct acpi_madt {
	uint64_t lapic_base;		/* after any type 5 override */
	bool lapic_override;
	bool pcat_compat;		/* dual 8259s present */
	unsigned int ncpus;		/* type 0 and 9 entries (may exceed max) */
};

/* The first max CPU entries go to cpus[], in table order. */
const char *acpi_madt_parse(const uint8_t *t, uint32_t len,
			    struct acpi_madt *out, struct acpi_cpu *cpus,
			    unsigned int max);

/* ---- SRAT: proximity domains of CPUs and memory ---- */

struct acpi_srat_cpu {
	uint32_t apic_id;
	uint32_t domain;
	bool x2apic;			/* from a type 2 entry (else type 0) */
	bool enabled;
};

struct acpi_srat_mem {
	uint64_t base, len;
	uint32_t domain;
	bool enabled, hot_pluggable, non_volatile;
};

struct acpi_srat {
	unsigned int ncpus, nmems;	/* entries seen (may exceed the max) */
};

const char *acpi_srat_parse(const uint8_t *t, uint32_t len,
			    struct acpi_srat *out,
			    struct acpi_srat_cpu *cpus, unsigned int max_cpus,
			    struct acpi_srat_mem *mems, unsigned int max_mems);

#endif
