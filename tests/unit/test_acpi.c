// SPDX-License-Identifier: MIT
/*
 * Unit tests of kernel/acpi/tables.c on synthetic tables laid out as the ACPI 6.5
 * specification describes them: discovery of the RSDP and the root table
 * in a fake physical memory, and the FADT, HPET, MADT and SRAT parsers.
 * Bad tables are placed so that they end at an inaccessible page: a parser
 * that reads past a table's checked length crashes the test.
 * Prints "ok NAME" / "FAIL NAME: why" per check; exits 1 on a failure.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include "kernel/acpi/tables.h"
#include "tests/unit/check.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/* ---- fake physical memory: [0, PHYS_SIZE) ---- */

#define PHYS_SIZE	(2u << 20)
#define EBDA		0x9fc00u	/* where PC firmware commonly puts it */
#define TABLES		0x100000u	/* tables from here up */

static uint8_t *phys;

static const void *map(void *ctx, uint64_t addr, uint64_t len)
{
	(void)ctx;
	if (addr > PHYS_SIZE || len > PHYS_SIZE - addr)
		return NULL;
	return phys + addr;
}

static const struct acpi_mem mem = { map, NULL };

static void put16(uint8_t *p, uint16_t v)
{
	p[0] = (uint8_t)v;
	p[1] = (uint8_t)(v >> 8);
}

static void put32(uint8_t *p, uint32_t v)
{
	put16(p, (uint16_t)v);
	put16(p + 2, (uint16_t)(v >> 16));
}

static void put64(uint8_t *p, uint64_t v)
{
	put32(p, (uint32_t)v);
	put32(p + 4, (uint32_t)(v >> 32));
}

static uint8_t checksum(const uint8_t *p, size_t n)
{
	uint8_t s = 0;

	while (n--)
		s += *p++;
	return (uint8_t)-s;
}

/* A table header at p for len bytes in all; the checksum is set last. */
static void sdt(uint8_t *p, const char *sig, uint32_t len, uint8_t rev)
{
	memcpy(p, sig, 4);
	put32(p + 4, len);
	p[8] = rev;
	memcpy(p + 10, "PBTEST", 6);
	memcpy(p + 16, "SYNTHETC", 8);
}

static void seal(uint8_t *p)
{
	uint32_t len = p[4] | p[5] << 8 | p[6] << 16 | (uint32_t)p[7] << 24;

	p[9] = 0;
	p[9] = checksum(p, len);
}

static void rsdp(uint32_t at, uint8_t rev, uint32_t rsdt, uint64_t xsdt)
{
	uint8_t *p = phys + at;

	memset(p, 0, 36);
	memcpy(p, "RSD PTR ", 8);
	memcpy(p + 9, "PBTEST", 6);
	p[15] = rev;
	put32(p + 16, rsdt);
	if (rev >= 2) {
		put32(p + 20, 36);
		put64(p + 24, xsdt);
	}
	p[8] = checksum(p, 20);
	if (rev >= 2)
		p[32] = checksum(p, 36);
}

/* A root table at `at` listing n addresses. */
static void root(uint32_t at, bool xsdt, const uint64_t *addr, unsigned int n)
{
	unsigned int size = xsdt ? 8 : 4, i;
	uint8_t *p = phys + at;

	sdt(p, xsdt ? "XSDT" : "RSDT", 36 + n * size, 1);
	for (i = 0; i < n; i++) {
		if (xsdt)
			put64(p + 36 + i * size, addr[i]);
		else
			put32(p + 36 + i * size, (uint32_t)addr[i]);
	}
	seal(p);
}

static void reset_phys(void)
{
	memset(phys, 0, PHYS_SIZE);
}

/* ---- a copy that ends where the memory ends: overreads fault ---- */

static uint8_t *guard_base;
static size_t guard_len;

static const uint8_t *at_guard(const uint8_t *src, size_t n)
{
	long page = sysconf(_SC_PAGESIZE);
	size_t pages = (n + page - 1) / page;

	if (guard_base)
		munmap(guard_base, guard_len);
	guard_len = (pages + 1) * page;
	guard_base = mmap(NULL, guard_len, PROT_READ | PROT_WRITE,
			  MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (guard_base == MAP_FAILED) {
		perror("mmap");
		exit(2);
	}
	mprotect(guard_base + pages * page, page, PROT_NONE);
	memcpy(guard_base + pages * page - n, src, n);
	return guard_base + pages * page - n;
}

static void expect_ok(const char *name, const char *why)
{
	result(!why, name, "failed: %s", why);
}

static void expect_why(const char *name, const char *why, const char *words)
{
	result(why && strstr(why, words), name, "got %s, want a reason with \"%s\"",
	       why ? why : "success", words);
}

static void expect_u(const char *name, uint64_t got, uint64_t want)
{
	result(got == want, name, "got 0x%llx, want 0x%llx",
	       (unsigned long long)got, (unsigned long long)want);
}

/* ---- RSDP and root ---- */

static void test_rsdp(void)
{
	uint64_t found = 0, tables[1] = { TABLES + 0x1000 };
	struct acpi_root r;
	struct acpi_rsdp info;

	reset_phys();
	expect_why("rsdp.none", acpi_find_rsdp(&mem, 0, &found), "no RSDP");

	/* ACPI 1.0: in the BIOS area, 16-byte aligned, RSDT only. */
	rsdp(0xf5a80, 0, TABLES, 0);
	root(TABLES, false, tables, 1);
	expect_ok("rsdp.v1_found", acpi_find_rsdp(&mem, 0, &found));
	expect_u("rsdp.v1_address", found, 0xf5a80);
	expect_ok("rsdp.v1_root", acpi_root_init(&r, &mem, found));
	expect_u("rsdp.v1_is_rsdt", r.xsdt, 0);
	expect_u("rsdp.v1_entries", r.nentries, 1);
	expect_u("rsdp.v1_entry0", acpi_root_entry(&r, 0), tables[0]);
	expect_u("rsdp.v1_entry_past_end", acpi_root_entry(&r, 1), 0);

	/* A bad checksum is skipped; a later good one is found. */
	rsdp(0xe0010, 0, TABLES, 0);
	phys[0xe0010 + 8]++;
	expect_ok("rsdp.bad_then_good", acpi_find_rsdp(&mem, 0, &found));
	expect_u("rsdp.bad_then_good_address", found, 0xf5a80);
	memset(phys + 0xf5a80, 0, 36);
	expect_why("rsdp.only_bad", acpi_find_rsdp(&mem, 0, &found),
		   "checksum");
	/* Not on a 16-byte boundary: not an RSDP. */
	memset(phys + 0xe0010, 0, 36);
	rsdp(0xe0018, 0, TABLES, 0);
	expect_why("rsdp.unaligned", acpi_find_rsdp(&mem, 0, &found),
		   "no RSDP");

	/* The EBDA's first KiB is searched first. */
	rsdp(0xf5a80, 0, TABLES, 0);
	put16(phys + ACPI_EBDA_SEG_PTR, EBDA >> 4);
	rsdp(EBDA + 0x40, 0, TABLES, 0);
	expect_ok("rsdp.ebda", acpi_find_rsdp(&mem, 0, &found));
	expect_u("rsdp.ebda_address", found, EBDA + 0x40);

	/* A hint is taken as given, and only it. */
	rsdp(0x80000, 0, TABLES, 0);
	expect_ok("rsdp.hint", acpi_find_rsdp(&mem, 0x80000, &found));
	expect_u("rsdp.hint_address", found, 0x80000);
	expect_why("rsdp.hint_bad", acpi_find_rsdp(&mem, 0x80010, &found),
		   "signature");
	expect_why("rsdp.hint_unmapped",
		   acpi_find_rsdp(&mem, PHYS_SIZE - 8, &found), "cannot be read");

	/* Version 2: both checksums count. */
	rsdp(0x80000, 2, TABLES, TABLES + 0x100);
	expect_ok("rsdp.v2", acpi_rsdp_parse(phys + 0x80000, 36, &info));
	expect_u("rsdp.v2_xsdt", info.xsdt, TABLES + 0x100);
	phys[0x80000 + 33]++;
	expect_why("rsdp.v2_bad_extended",
		   acpi_rsdp_parse(phys + 0x80000, 36, &info), "extended");
	rsdp(0x80000, 2, TABLES, TABLES + 0x100);
	expect_why("rsdp.v2_cut_short",
		   acpi_rsdp_parse(at_guard(phys + 0x80000, 30), 30, &info),
		   "cut short");
}

static void test_root(void)
{
	uint64_t t[2] = { TABLES + 0x1000, TABLES + 0x2000 };
	struct acpi_root r;

	/* The XSDT wins over the RSDT. */
	reset_phys();
	rsdp(0xe0000, 2, TABLES, TABLES + 0x100);
	root(TABLES, false, t, 1);
	root(TABLES + 0x100, true, t, 2);
	expect_ok("root.xsdt", acpi_root_init(&r, &mem, 0xe0000));
	expect_u("root.xsdt_chosen", r.xsdt, 1);
	expect_u("root.xsdt_entries", r.nentries, 2);
	expect_u("root.xsdt_entry1", acpi_root_entry(&r, 1), t[1]);
	result(!r.xsdt_why, "root.xsdt_no_note", "note: %s", r.xsdt_why);

	/* A broken XSDT is passed over for the RSDT, and says why. */
	phys[TABLES + 0x100 + 40]++;
	expect_ok("root.bad_xsdt", acpi_root_init(&r, &mem, 0xe0000));
	expect_u("root.bad_xsdt_rsdt", r.xsdt, 0);
	expect_why("root.bad_xsdt_why", r.xsdt_why, "checksum");

	/* A root that is not whole entries is garbled. */
	root(TABLES + 0x100, true, t, 2);
	phys[TABLES + 0x100 + 4] = 36 + 12;
	seal(phys + TABLES + 0x100);
	phys[TABLES + 4] = 36 + 6;
	seal(phys + TABLES);
	expect_why("root.partial_entries", acpi_root_init(&r, &mem, 0xe0000),
		   "whole number");

	/* An XSDT named but no RSDT to fall back on. */
	rsdp(0xe0000, 2, 0, TABLES + 0x100);
	expect_why("root.no_rsdt", acpi_root_init(&r, &mem, 0xe0000),
		   "no RSDT");
}

static void test_find(void)
{
	uint64_t t[5] = { 0, TABLES + 0x1000, PHYS_SIZE + 0x1000,
			  TABLES + 0x2000, TABLES + 0x3000 };
	struct acpi_table tab;
	struct acpi_root r;

	reset_phys();
	rsdp(0xe0000, 2, 0, TABLES);
	root(TABLES, true, t, ARRAY_SIZE(t));
	/* Entry 0 is null and entry 2 outside memory: both are skipped. */
	sdt(phys + t[1], "HPET", 56, 1);		/* bad checksum */
	sdt(phys + t[3], "HPET", 56, 1);
	seal(phys + t[3]);
	sdt(phys + t[4], "APIC", 44, 5);
	seal(phys + t[4]);
	expect_ok("find.root", acpi_root_init(&r, &mem, 0xe0000));
	expect_ok("find.hpet_second", acpi_find_table(&r, &mem, "HPET", &tab));
	expect_u("find.hpet_address", tab.phys, t[3]);
	expect_u("find.hpet_len", tab.len, 56);
	expect_ok("find.apic", acpi_find_table(&r, &mem, "APIC", &tab));
	expect_why("find.srat_missing", acpi_find_table(&r, &mem, "SRAT", &tab),
		   "not found");
	/* With only the bad one left, its fault is the answer. */
	sdt(phys + t[3], "HPEU", 56, 1);
	seal(phys + t[3]);
	expect_why("find.only_bad", acpi_find_table(&r, &mem, "HPET", &tab),
		   "checksum");

	/* A table that claims to run past the end of memory. */
	sdt(phys + PHYS_SIZE - 64, "SRAT", 128, 3);
	expect_why("find.past_memory",
		   acpi_table_at(&mem, PHYS_SIZE - 64, "SRAT", &tab),
		   "runs past");
	sdt(phys + t[1], "SRAT", 20, 3);
	expect_why("find.length_below_header",
		   acpi_table_at(&mem, t[1], "SRAT", &tab), "shorter");
}

/* ---- FADT ---- */

#define FADT_V1_LEN	116
#define FADT_V6_LEN	276

static void fadt(uint8_t *p, uint32_t len, uint32_t pm_blk, uint8_t pm_len,
		 uint32_t flags)
{
	memset(p, 0, len);
	sdt(p, "FACP", len, len > FADT_V1_LEN ? 6 : 1);
	put32(p + 76, pm_blk);
	p[91] = pm_len;
	put32(p + 112, flags);
}

static void x_pm_tmr(uint8_t *p, uint8_t space, uint64_t addr)
{
	p[208] = space;
	p[209] = 32;
	p[211] = 3;		/* dword access */
	put64(p + 212, addr);
}

static void test_fadt(void)
{
	uint8_t t[FADT_V6_LEN];
	struct acpi_pm_timer pm;

	/* ACPI 1.0 FADT: the legacy block, 24 bits (as QEMU's pc machine). */
	fadt(t, FADT_V1_LEN, 0x608, 4, 0);
	seal(t);
	expect_ok("fadt.v1", acpi_fadt_pm_timer(t, sizeof(t), &pm));
	expect_u("fadt.v1_port", pm.reg.addr, 0x608);
	expect_u("fadt.v1_io", pm.reg.space, ACPI_SPACE_IO);
	expect_u("fadt.v1_bits", pm.bits, 24);
	expect_u("fadt.v1_legacy", pm.from_x, 0);

	/* TMR_VAL_EXT: 32 bits. */
	fadt(t, FADT_V1_LEN, 0x408, 4, 1u << 8);
	seal(t);
	expect_ok("fadt.ext", acpi_fadt_pm_timer(t, FADT_V1_LEN, &pm));
	expect_u("fadt.ext_bits", pm.bits, 32);

	/* X_PM_TMR_BLK wins when it is valid ... */
	fadt(t, FADT_V6_LEN, 0x608, 4, 1u << 8);
	x_pm_tmr(t, ACPI_SPACE_IO, 0x1808);
	seal(t);
	expect_ok("fadt.x", acpi_fadt_pm_timer(t, sizeof(t), &pm));
	expect_u("fadt.x_port", pm.reg.addr, 0x1808);
	expect_u("fadt.x_from_x", pm.from_x, 1);
	expect_u("fadt.x_bits", pm.bits, 32);
	/* ... in memory space too ... */
	x_pm_tmr(t, ACPI_SPACE_MEM, 0xfed80008);
	seal(t);
	expect_ok("fadt.x_mem", acpi_fadt_pm_timer(t, sizeof(t), &pm));
	expect_u("fadt.x_mem_space", pm.reg.space, ACPI_SPACE_MEM);
	expect_u("fadt.x_mem_addr", pm.reg.addr, 0xfed80008);
	/* ... but not at address 0, nor in PCI config space (2). */
	x_pm_tmr(t, ACPI_SPACE_IO, 0);
	seal(t);
	expect_ok("fadt.x_zero", acpi_fadt_pm_timer(t, sizeof(t), &pm));
	expect_u("fadt.x_zero_legacy", pm.reg.addr, 0x608);
	x_pm_tmr(t, 2, 0x1808);
	seal(t);
	expect_ok("fadt.x_pci", acpi_fadt_pm_timer(t, sizeof(t), &pm));
	expect_u("fadt.x_pci_legacy", pm.from_x, 0);
	x_pm_tmr(t, ACPI_SPACE_IO, 0x10008);
	seal(t);
	expect_ok("fadt.x_port_too_high", acpi_fadt_pm_timer(t, sizeof(t), &pm));
	expect_u("fadt.x_port_too_high_legacy", pm.reg.addr, 0x608);

	/* No timer at all, or not of the length the spec demands. */
	fadt(t, FADT_V6_LEN, 0, 0, 0);
	seal(t);
	expect_why("fadt.no_timer", acpi_fadt_pm_timer(t, sizeof(t), &pm),
		   "no PM timer");
	fadt(t, FADT_V1_LEN, 0x608, 3, 0);
	seal(t);
	expect_why("fadt.pm_len_3", acpi_fadt_pm_timer(t, sizeof(t), &pm),
		   "not 4");
	fadt(t, FADT_V6_LEN, 0x608, 4, 1u << 20);
	seal(t);
	expect_why("fadt.hw_reduced", acpi_fadt_pm_timer(t, sizeof(t), &pm),
		   "hardware-reduced");

	/* Garbage. */
	fadt(t, FADT_V1_LEN, 0x608, 4, 0);
	seal(t);
	t[50]++;
	expect_why("fadt.checksum", acpi_fadt_pm_timer(t, sizeof(t), &pm),
		   "checksum");
	fadt(t, 100, 0x608, 4, 0);
	seal(t);
	expect_why("fadt.short", acpi_fadt_pm_timer(at_guard(t, 100), 100, &pm),
		   "shorter");
	fadt(t, FADT_V1_LEN, 0x608, 4, 0);
	seal(t);
	expect_why("fadt.truncated",
		   acpi_fadt_pm_timer(at_guard(t, 80), 80, &pm), "runs past");
	memcpy(t, "FACS", 4);
	seal(t);
	expect_why("fadt.signature", acpi_fadt_pm_timer(t, sizeof(t), &pm),
		   "signature");
}

/* ---- HPET ---- */

static void hpet(uint8_t *p, uint8_t space, uint64_t base)
{
	memset(p, 0, 56);
	sdt(p, "HPET", 56, 1);
	put32(p + 36, 0x8086a201);
	p[40] = space;
	p[41] = 64;
	put64(p + 44, base);
	p[52] = 0;
	put16(p + 53, 0x80);
	seal(p);
}

static void test_hpet(void)
{
	struct acpi_hpet h;
	uint8_t t[56];

	hpet(t, ACPI_SPACE_MEM, 0xfed00000);
	expect_ok("hpet.good", acpi_hpet_parse(t, sizeof(t), &h));
	expect_u("hpet.base", h.base, 0xfed00000);
	expect_u("hpet.block_id", h.block_id, 0x8086a201);
	expect_u("hpet.min_tick", h.min_tick, 0x80);
	hpet(t, ACPI_SPACE_IO, 0xfed00000);
	expect_why("hpet.io_space", acpi_hpet_parse(t, sizeof(t), &h),
		   "memory space");
	hpet(t, ACPI_SPACE_MEM, 0);
	expect_why("hpet.base_0", acpi_hpet_parse(t, sizeof(t), &h), "is 0");
	hpet(t, ACPI_SPACE_MEM, 0xfed00000);
	put32(t + 4, 52);
	seal(t);
	expect_why("hpet.short", acpi_hpet_parse(at_guard(t, 52), 52, &h),
		   "too short");
}

/* ---- MADT ---- */

struct builder {
	uint8_t buf[512];
	uint32_t len;
};

static uint8_t *entry(struct builder *b, uint8_t type, uint8_t len)
{
	uint8_t *e = b->buf + b->len;

	memset(e, 0, len);
	e[0] = type;
	e[1] = len;
	b->len += len;
	return e;
}

static void lapic(struct builder *b, uint8_t uid, uint8_t id, uint32_t flags)
{
	uint8_t *e = entry(b, 0, 8);

	e[2] = uid;
	e[3] = id;
	put32(e + 4, flags);
}

static void x2apic(struct builder *b, uint32_t uid, uint32_t id,
		   uint32_t flags)
{
	uint8_t *e = entry(b, 9, 16);

	put32(e + 4, id);
	put32(e + 8, flags);
	put32(e + 12, uid);
}

static void madt_start(struct builder *b, uint8_t rev)
{
	memset(b, 0, sizeof(*b));
	sdt(b->buf, "APIC", 0, rev);
	put32(b->buf + 36, 0xfee00000);
	put32(b->buf + 40, 1);		/* PCAT_COMPAT */
	b->len = 44;
}

static void finish(struct builder *b)
{
	put32(b->buf + 4, b->len);
	seal(b->buf);
}

static void test_madt(void)
{
	struct acpi_cpu cpu[8];
	struct acpi_madt m;
	struct builder b;
	uint8_t *e;

	madt_start(&b, 5);
	lapic(&b, 0, 0, 1);			/* enabled */
	lapic(&b, 1, 2, 0);			/* disabled, not online capable */
	lapic(&b, 2, 4, 2);			/* online capable */
	e = entry(&b, 1, 12);			/* an I/O APIC: skipped */
	e[2] = 0;
	x2apic(&b, 300, 0x100, 1);
	e = entry(&b, 5, 12);			/* local APIC address override */
	put64(e + 4, 0x1fee00000ull);
	finish(&b);

	expect_ok("madt.good", acpi_madt_parse(b.buf, b.len, &m, cpu, 8));
	expect_u("madt.lapic_base", m.lapic_base, 0x1fee00000ull);
	expect_u("madt.override", m.lapic_override, 1);
	expect_u("madt.pcat", m.pcat_compat, 1);
	expect_u("madt.ncpus", m.ncpus, 4);
	expect_u("madt.cpu0_enabled", cpu[0].enabled, 1);
	expect_u("madt.cpu1_id", cpu[1].apic_id, 2);
	expect_u("madt.cpu1_enabled", cpu[1].enabled, 0);
	expect_u("madt.cpu1_online", cpu[1].online_capable, 0);
	expect_u("madt.cpu2_uid", cpu[2].uid, 2);
	expect_u("madt.cpu2_online", cpu[2].online_capable, 1);
	expect_u("madt.cpu3_x2apic", cpu[3].x2apic, 1);
	expect_u("madt.cpu3_id", cpu[3].apic_id, 0x100);
	expect_u("madt.cpu3_uid", cpu[3].uid, 300);

	/* More CPUs than room: all counted, the first max kept. */
	expect_ok("madt.small_array", acpi_madt_parse(b.buf, b.len, &m, cpu, 2));
	expect_u("madt.small_array_count", m.ncpus, 4);

	/* Before MADT revision 5 the online-capable bit was reserved. */
	b.buf[8] = 4;
	seal(b.buf);
	expect_ok("madt.rev4", acpi_madt_parse(b.buf, b.len, &m, cpu, 8));
	expect_u("madt.rev4_online", cpu[2].online_capable, 0);
	expect_u("madt.rev4_base", m.lapic_base, 0x1fee00000ull);

	/* Without the override the 32-bit field stands. */
	madt_start(&b, 5);
	lapic(&b, 0, 0, 1);
	finish(&b);
	expect_ok("madt.no_override", acpi_madt_parse(b.buf, b.len, &m, cpu, 8));
	expect_u("madt.no_override_base", m.lapic_base, 0xfee00000);

	/* Garbled entries: length 0 (would loop), past the end, too short. */
	madt_start(&b, 5);
	lapic(&b, 0, 0, 1);
	entry(&b, 0, 8)[1] = 0;
	finish(&b);
	expect_why("madt.len0", acpi_madt_parse(at_guard(b.buf, b.len), b.len,
						&m, cpu, 8), "shorter than its header");
	madt_start(&b, 5);
	lapic(&b, 0, 0, 1);
	x2apic(&b, 1, 1, 1);
	b.len -= 4;				/* the x2APIC entry is cut */
	finish(&b);
	expect_why("madt.past_end", acpi_madt_parse(at_guard(b.buf, b.len),
						   b.len, &m, cpu, 8), "past the end");
	madt_start(&b, 5);
	entry(&b, 0, 6);
	finish(&b);
	expect_why("madt.lapic_short", acpi_madt_parse(at_guard(b.buf, b.len),
						      b.len, &m, cpu, 8), "too short");
	madt_start(&b, 5);
	entry(&b, 9, 12);
	finish(&b);
	expect_why("madt.x2apic_short", acpi_madt_parse(at_guard(b.buf, b.len),
						       b.len, &m, cpu, 8), "too short");
	madt_start(&b, 5);
	entry(&b, 5, 8);
	finish(&b);
	expect_why("madt.override_short", acpi_madt_parse(at_guard(b.buf, b.len),
							 b.len, &m, cpu, 8), "too short");
	madt_start(&b, 5);
	lapic(&b, 0, 0, 1);
	b.buf[b.len++] = 0;			/* one byte: no room for a header */
	finish(&b);
	expect_why("madt.stray_byte", acpi_madt_parse(at_guard(b.buf, b.len),
						     b.len, &m, cpu, 8), "cut short");
	/* The table says it is longer than the buffer holds. */
	madt_start(&b, 5);
	lapic(&b, 0, 0, 1);
	finish(&b);
	expect_why("madt.truncated", acpi_madt_parse(at_guard(b.buf, b.len - 4),
						    b.len - 4, &m, cpu, 8), "runs past");
}

/* ---- SRAT ---- */

static void srat_start(struct builder *b, uint8_t rev)
{
	memset(b, 0, sizeof(*b));
	sdt(b->buf, "SRAT", 0, rev);
	put32(b->buf + 36, 1);
	b->len = 48;
}

static void srat_lapic(struct builder *b, uint8_t id, uint32_t domain,
		       uint32_t flags)
{
	uint8_t *e = entry(b, 0, 16);

	e[2] = (uint8_t)domain;
	e[3] = id;
	put32(e + 4, flags);
	e[9] = (uint8_t)(domain >> 8);
	e[10] = (uint8_t)(domain >> 16);
	e[11] = (uint8_t)(domain >> 24);
}

static void srat_mem(struct builder *b, uint64_t base, uint64_t len,
		     uint32_t domain, uint32_t flags)
{
	uint8_t *e = entry(b, 1, 40);

	put32(e + 2, domain);
	put64(e + 8, base);
	put64(e + 16, len);
	put32(e + 28, flags);
}

static void srat_x2apic(struct builder *b, uint32_t id, uint32_t domain,
			uint32_t flags)
{
	uint8_t *e = entry(b, 2, 24);

	put32(e + 4, domain);
	put32(e + 8, id);
	put32(e + 12, flags);
}

static void test_srat(void)
{
	struct acpi_srat_cpu cpu[4];
	struct acpi_srat_mem mem_[4];
	struct acpi_srat s;
	struct builder b;

	srat_start(&b, 3);
	srat_lapic(&b, 2, 0x10203, 1);
	srat_mem(&b, 0, 0xa0000, 0, 1);
	srat_mem(&b, 0x100000000ull, 0x200000000ull, 0x10203, 1 | 2 | 4);
	srat_x2apic(&b, 0x1000, 7, 0);
	entry(&b, 3, 18);			/* GICC: skipped */
	finish(&b);

	expect_ok("srat.good", acpi_srat_parse(b.buf, b.len, &s, cpu, 4, mem_, 4));
	expect_u("srat.ncpus", s.ncpus, 2);
	expect_u("srat.nmems", s.nmems, 2);
	expect_u("srat.cpu0_id", cpu[0].apic_id, 2);
	expect_u("srat.cpu0_domain", cpu[0].domain, 0x10203);
	expect_u("srat.cpu0_enabled", cpu[0].enabled, 1);
	expect_u("srat.cpu1_x2apic", cpu[1].x2apic, 1);
	expect_u("srat.cpu1_id", cpu[1].apic_id, 0x1000);
	expect_u("srat.cpu1_domain", cpu[1].domain, 7);
	expect_u("srat.cpu1_enabled", cpu[1].enabled, 0);
	expect_u("srat.mem1_base", mem_[1].base, 0x100000000ull);
	expect_u("srat.mem1_len", mem_[1].len, 0x200000000ull);
	expect_u("srat.mem1_domain", mem_[1].domain, 0x10203);
	expect_u("srat.mem1_hotplug", mem_[1].hot_pluggable, 1);
	expect_u("srat.mem1_nv", mem_[1].non_volatile, 1);
	expect_u("srat.mem0_hotplug", mem_[0].hot_pluggable, 0);

	/* Revision 1 had 8-bit domains: the rest was reserved. */
	b.buf[8] = 1;
	seal(b.buf);
	expect_ok("srat.rev1", acpi_srat_parse(b.buf, b.len, &s, cpu, 4, mem_, 4));
	expect_u("srat.rev1_cpu_domain", cpu[0].domain, 0x03);
	expect_u("srat.rev1_mem_domain", mem_[1].domain, 0x03);

	srat_start(&b, 3);
	entry(&b, 1, 32);
	finish(&b);
	expect_why("srat.mem_short", acpi_srat_parse(at_guard(b.buf, b.len), b.len,
						    &s, cpu, 4, mem_, 4), "too short");
	srat_start(&b, 3);
	srat_x2apic(&b, 1, 1, 1);
	b.len -= 8;
	finish(&b);
	expect_why("srat.past_end", acpi_srat_parse(at_guard(b.buf, b.len), b.len,
						   &s, cpu, 4, mem_, 4), "past the end");
	srat_start(&b, 3);
	finish(&b);
	b.buf[4] = 40;				/* header says shorter than 48 */
	seal(b.buf);
	expect_why("srat.header_short", acpi_srat_parse(at_guard(b.buf, 40), 40,
						       &s, cpu, 4, mem_, 4), "too short");
}

int main(void)
{
	phys = calloc(1, PHYS_SIZE);
	if (!phys) {
		perror("calloc");
		return 2;
	}
	test_rsdp();
	test_root();
	test_find();
	test_fadt();
	test_hpet();
	test_madt();
	test_srat();
	return check_exit();
}
