/* SPDX-License-Identifier: MIT */
/*
 * ACPI table discovery and the parsers of kernel/acpi/tables.h. Offsets and bits
 * are named after the ACPI 6.5 specification's field names; a parser reads
 * a field only after checking that the table's checked length holds it.
 */
#include <stddef.h>
#include "kernel/acpi/tables.h"

#define BIT(n)		(1u << (n))

/* RSDP (ACPI 6.5 section 5.2.5.3) */
#define RSDP_SIGNATURE		0	/* "RSD PTR " */
#define RSDP_REVISION		15
#define RSDP_RSDT		16	/* 4 bytes */
#define RSDP_V1_LEN		20	/* the ACPI 1.0 checksum covers these */
#define RSDP_LENGTH		20	/* 4 bytes, revision 2+ */
#define RSDP_XSDT		24	/* 8 bytes */
#define RSDP_V2_LEN		36	/* the extended checksum covers Length */
#define RSDP_MAX_LEN		4096	/* anything longer is garbage */
#define RSDP_REV_XSDT		2	/* revisions from here on have the XSDT */

/* System description table header (section 5.2.6) */
#define SDT_SIGNATURE		0
#define SDT_LENGTH		4
#define SDT_REVISION		8
#define SDT_MAX_LEN		(1u << 20)	/* no table we read is near this */
#define RSDT_ENTRY		4
#define XSDT_ENTRY		8

/* Generic Address Structure (section 5.2.3.2) */
#define GAS_SPACE		0
#define GAS_BIT_WIDTH		1
#define GAS_BIT_OFFSET		2
#define GAS_ACCESS_SIZE		3
#define GAS_ADDRESS		4
#define GAS_LEN			12

/* FADT (section 5.2.9) */
#define FADT_PM_TMR_BLK		76	/* 4 bytes, I/O port */
#define FADT_PM_TMR_LEN		91	/* 1 byte: 4 when there is a timer */
#define FADT_FLAGS		112
#define FADT_V1_LEN		116	/* ACPI 1.0 ends after the flags */
#define FADT_X_PM_TMR_BLK	208	/* GAS, ACPI 2.0+ */
#define FADT_TMR_VAL_EXT	BIT(8)	/* the counter is 32 bits, else 24 */
#define FADT_HW_REDUCED_ACPI	BIT(20)	/* no fixed hardware: no PM timer */
#define PM_TMR_LEN_PRESENT	4
#define PM_TMR_BITS_EXT		32
#define PM_TMR_BITS		24
#define IO_PORT_MAX		0xffffu

/* HPET description table (IA-PC HPET specification 1.0a, table 3) */
#define HPET_BLOCK_ID		36	/* 4 bytes */
#define HPET_BASE		40	/* GAS */
#define HPET_NUMBER		52
#define HPET_MIN_TICK		53	/* 2 bytes */
#define HPET_TABLE_LEN		56

/* MADT (section 5.2.12) */
#define MADT_LAPIC_ADDR		36	/* 4 bytes */
#define MADT_FLAGS		40
#define MADT_ENTRIES		44
#define MADT_PCAT_COMPAT	BIT(0)
#define MADT_REV_ONLINE_CAPABLE	5	/* ACPI 6.3: bit 1 of the flags defined */
#define ENTRY_TYPE		0
#define ENTRY_LEN		1
#define ENTRY_HEADER_LEN	2

#define MADT_LAPIC		0	/* Processor Local APIC */
#define LAPIC_UID		2
#define LAPIC_ID		3
#define LAPIC_FLAGS		4
#define LAPIC_LEN		8
#define MADT_LAPIC_OVERRIDE	5	/* Local APIC Address Override */
#define LAPIC_OVR_ADDR		4	/* 8 bytes */
#define LAPIC_OVR_LEN		12
#define MADT_X2APIC		9	/* Processor Local x2APIC */
#define X2APIC_ID		4
#define X2APIC_FLAGS		8
#define X2APIC_UID		12
#define X2APIC_LEN		16
#define LAPIC_ENABLED		BIT(0)
#define LAPIC_ONLINE_CAPABLE	BIT(1)

/* SRAT (section 5.2.16) */
#define SRAT_ENTRIES		48	/* after a 4-byte 1 and 8 reserved bytes */
#define SRAT_REV_WIDE_DOMAIN	2	/* revision 1 had 8-bit domains */
#define SRAT_LAPIC		0	/* Processor Local APIC/SAPIC Affinity */
#define SLAPIC_DOMAIN_LO	2	/* bits 7:0 */
#define SLAPIC_APIC_ID		3
#define SLAPIC_FLAGS		4
#define SLAPIC_DOMAIN_HI	9	/* bits 31:8, 3 bytes */
#define SLAPIC_LEN		16
#define SRAT_MEM		1	/* Memory Affinity */
#define SMEM_DOMAIN		2	/* 4 bytes */
#define SMEM_BASE		8	/* low then high half: one LE 64-bit value */
#define SMEM_LENGTH		16
#define SMEM_FLAGS		28
#define SMEM_LEN		40
#define SMEM_ENABLED		BIT(0)
#define SMEM_HOT_PLUGGABLE	BIT(1)
#define SMEM_NON_VOLATILE	BIT(2)
#define SRAT_X2APIC		2	/* Processor Local x2APIC Affinity */
#define SX2APIC_DOMAIN		4
#define SX2APIC_ID		8
#define SX2APIC_FLAGS		12
#define SX2APIC_LEN		24
#define SRAT_CPU_ENABLED	BIT(0)
#define DOMAIN_LO_MASK		0xffu

/* The BIOS data area ends here; an EBDA segment below it is garbage. */
#define BDA_END			0x500

static const char no_rsdp[] = "no RSDP";

static uint8_t rd8(const uint8_t *p, uint32_t off)
{
	return p[off];
}

static uint16_t rd16(const uint8_t *p, uint32_t off)
{
	return (uint16_t)(p[off] | p[off + 1] << 8);
}

static uint32_t rd32(const uint8_t *p, uint32_t off)
{
	return (uint32_t)rd16(p, off) | (uint32_t)rd16(p, off + 2) << 16;
}

static uint32_t rd24(const uint8_t *p, uint32_t off)
{
	return (uint32_t)rd16(p, off) | (uint32_t)p[off + 2] << 16;
}

static uint64_t rd64(const uint8_t *p, uint32_t off)
{
	return (uint64_t)rd32(p, off) | (uint64_t)rd32(p, off + 4) << 32;
}

static bool same(const uint8_t *p, const char *s, unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		if (p[i] != (uint8_t)s[i])
			return false;
	return true;
}

static uint8_t sum(const uint8_t *p, uint64_t n)
{
	uint8_t s = 0;

	while (n--)
		s += *p++;
	return s;
}

static void read_gas(const uint8_t *p, uint32_t off, struct acpi_gas *g)
{
	g->space = rd8(p, off + GAS_SPACE);
	g->bit_width = rd8(p, off + GAS_BIT_WIDTH);
	g->bit_offset = rd8(p, off + GAS_BIT_OFFSET);
	g->access_size = rd8(p, off + GAS_ACCESS_SIZE);
	g->addr = rd64(p, off + GAS_ADDRESS);
}

const char *acpi_rsdp_parse(const uint8_t *p, uint64_t avail,
			    struct acpi_rsdp *out)
{
	uint32_t len;

	if (avail < RSDP_V1_LEN)
		return "RSDP cut short";
	if (!same(p + RSDP_SIGNATURE, "RSD PTR ", 8))
		return "no RSDP signature";
	if (sum(p, RSDP_V1_LEN))
		return "RSDP checksum is wrong";
	*out = (struct acpi_rsdp){
		.revision = rd8(p, RSDP_REVISION),
		.rsdt = rd32(p, RSDP_RSDT),
	};
	if (out->revision < RSDP_REV_XSDT)
		return NULL;

	if (avail < RSDP_V2_LEN)
		return "RSDP cut short";
	len = rd32(p, RSDP_LENGTH);
	if (len < RSDP_V2_LEN || len > RSDP_MAX_LEN)
		return "RSDP length is garbled";
	if (len > avail)
		return "RSDP runs past the memory that could be read";
	if (sum(p, len))
		return "RSDP extended checksum is wrong";
	out->xsdt = rd64(p, RSDP_XSDT);
	return NULL;
}

const char *acpi_table_check(const uint8_t *p, uint64_t avail,
			     const char *sig, uint32_t *len)
{
	uint32_t n;

	if (avail < ACPI_SDT_HEADER_LEN)
		return "table cut short of its header";
	if (sig && !same(p + SDT_SIGNATURE, sig, ACPI_SIG_LEN))
		return "table has another signature";
	n = rd32(p, SDT_LENGTH);
	if (n < ACPI_SDT_HEADER_LEN)
		return "table length is shorter than its header";
	if (n > avail)
		return "table runs past the memory that could be read";
	if (sum(p, n))
		return "table checksum is wrong";
	*len = n;
	return NULL;
}

static const char *rsdp_at(const struct acpi_mem *m, uint64_t phys,
			   struct acpi_rsdp *r)
{
	const uint8_t *p = m->map(m->ctx, phys, RSDP_V1_LEN);
	uint32_t len = RSDP_V1_LEN;

	if (p && !same(p + RSDP_SIGNATURE, "RSD PTR ", 8))
		return "no RSDP signature";
	if (p && rd8(p, RSDP_REVISION) >= RSDP_REV_XSDT) {
		p = m->map(m->ctx, phys, RSDP_V2_LEN);
		len = p ? rd32(p, RSDP_LENGTH) : 0;
		if (p && (len < RSDP_V2_LEN || len > RSDP_MAX_LEN))
			return "RSDP length is garbled";
		p = p ? m->map(m->ctx, phys, len) : NULL;
	}
	if (!p)
		return "RSDP address cannot be read";
	return acpi_rsdp_parse(p, len, r);
}

/* The first good RSDP on a 16-byte boundary in [start, end). */
static const char *scan(const struct acpi_mem *m, uint64_t start,
			uint64_t end, uint64_t *rsdp)
{
	const uint8_t *p = m->map(m->ctx, start, end - start);
	const char *why = NULL;
	struct acpi_rsdp r;
	uint64_t off;

	if (!p)
		return "BIOS area cannot be read";
	for (off = 0; off + RSDP_V1_LEN <= end - start; off += ACPI_RSDP_ALIGN) {
		if (!same(p + off, "RSD PTR ", 8))
			continue;
		why = acpi_rsdp_parse(p + off, end - start - off, &r);
		if (!why) {
			*rsdp = start + off;
			return NULL;
		}
	}
	return why ? why : no_rsdp;
}

const char *acpi_find_rsdp(const struct acpi_mem *m, uint64_t hint,
			   uint64_t *rsdp)
{
	const uint8_t *bda;
	const char *why;
	struct acpi_rsdp r;
	uint64_t ebda;

	if (hint) {
		why = rsdp_at(m, hint, &r);
		if (!why)
			*rsdp = hint;
		return why;
	}

	bda = m->map(m->ctx, ACPI_EBDA_SEG_PTR, 2);
	ebda = bda ? (uint64_t)rd16(bda, 0) << 4 : 0;
	if (ebda >= BDA_END && ebda < ACPI_BIOS_AREA &&
	    !scan(m, ebda, ebda + ACPI_EBDA_SEARCH_LEN, rsdp))
		return NULL;
	why = scan(m, ACPI_BIOS_AREA, ACPI_BIOS_AREA_END, rsdp);
	if (why == no_rsdp)
		return "no RSDP in the EBDA or 0xE0000-0xFFFFF";
	return why;
}

const char *acpi_table_at(const struct acpi_mem *m, uint64_t phys,
			  const char *sig, struct acpi_table *t)
{
	const uint8_t *p = m->map(m->ctx, phys, ACPI_SDT_HEADER_LEN);
	uint32_t len;

	if (!p)
		return "table address cannot be read";
	len = rd32(p, SDT_LENGTH);
	if (len < ACPI_SDT_HEADER_LEN)
		return "table length is shorter than its header";
	if (len > SDT_MAX_LEN)
		return "table length is implausibly large";
	p = m->map(m->ctx, phys, len);
	if (!p)
		return "table runs past the memory that could be read";
	t->phys = phys;
	t->p = p;
	return acpi_table_check(p, len, sig, &t->len);
}

static const char *root_table(struct acpi_root *r, const struct acpi_mem *m,
			      uint64_t phys, bool xsdt)
{
	unsigned int entry = xsdt ? XSDT_ENTRY : RSDT_ENTRY;
	const char *why;

	why = acpi_table_at(m, phys, xsdt ? "XSDT" : "RSDT", &r->table);
	if (why)
		return why;
	if ((r->table.len - ACPI_SDT_HEADER_LEN) % entry)
		return "root table length is not a whole number of entries";
	r->xsdt = xsdt;
	r->nentries = (r->table.len - ACPI_SDT_HEADER_LEN) / entry;
	return NULL;
}

const char *acpi_root_init(struct acpi_root *r, const struct acpi_mem *m,
			   uint64_t rsdp)
{
	struct acpi_rsdp info;
	const char *why;

	*r = (struct acpi_root){ .rsdp = rsdp };
	why = rsdp_at(m, rsdp, &info);
	if (why)
		return why;
	r->revision = info.revision;
	/* The XSDT supersedes the RSDT; a broken one is passed over. */
	if (info.xsdt) {
		r->xsdt_why = root_table(r, m, info.xsdt, true);
		if (!r->xsdt_why)
			return NULL;
	}
	if (!info.rsdt)
		return info.xsdt ? "XSDT is bad and there is no RSDT" :
				   "RSDP names no root table";
	return root_table(r, m, info.rsdt, false);
}

uint64_t acpi_root_entry(const struct acpi_root *r, unsigned int i)
{
	uint32_t off;

	if (i >= r->nentries)
		return 0;
	off = ACPI_SDT_HEADER_LEN + i * (r->xsdt ? XSDT_ENTRY : RSDT_ENTRY);
	return r->xsdt ? rd64(r->table.p, off) : rd32(r->table.p, off);
}

const char *acpi_find_table(const struct acpi_root *r,
			    const struct acpi_mem *m, const char *sig,
			    struct acpi_table *t)
{
	const char *why = NULL;
	unsigned int i;

	for (i = 0; i < r->nentries; i++) {
		uint64_t phys = acpi_root_entry(r, i);
		const uint8_t *h;

		if (!phys)
			continue;
		h = m->map(m->ctx, phys, ACPI_SDT_HEADER_LEN);
		if (!h || !same(h + SDT_SIGNATURE, sig, ACPI_SIG_LEN))
			continue;
		why = acpi_table_at(m, phys, sig, t);
		if (!why)
			return NULL;
	}
	return why ? why : "not found";
}

const char *acpi_fadt_pm_timer(const uint8_t *t, uint32_t len,
			       struct acpi_pm_timer *out)
{
	const char *why = acpi_table_check(t, len, "FACP", &len);
	uint32_t flags;

	if (why)
		return why;
	if (len < FADT_V1_LEN)
		return "FADT is shorter than ACPI 1.0's";
	flags = rd32(t, FADT_FLAGS);
	if (flags & FADT_HW_REDUCED_ACPI)
		return "hardware-reduced ACPI has no PM timer";

	*out = (struct acpi_pm_timer){
		.bits = flags & FADT_TMR_VAL_EXT ? PM_TMR_BITS_EXT : PM_TMR_BITS,
	};
	if (len >= FADT_X_PM_TMR_BLK + GAS_LEN) {
		read_gas(t, FADT_X_PM_TMR_BLK, &out->reg);
		out->from_x = out->reg.addr &&
			      (out->reg.space == ACPI_SPACE_MEM ||
			       (out->reg.space == ACPI_SPACE_IO &&
				out->reg.addr <= IO_PORT_MAX));
		if (out->from_x)
			return NULL;
	}

	out->reg = (struct acpi_gas){
		.space = ACPI_SPACE_IO,
		.addr = rd32(t, FADT_PM_TMR_BLK),
	};
	if (!out->reg.addr)
		return "FADT has no PM timer block";
	if (out->reg.addr > IO_PORT_MAX)
		return "FADT PM timer block is not an I/O port";
	if (rd8(t, FADT_PM_TMR_LEN) != PM_TMR_LEN_PRESENT)
		return "FADT PM timer block length is not 4";
	return NULL;
}

const char *acpi_hpet_parse(const uint8_t *t, uint32_t len,
			    struct acpi_hpet *out)
{
	const char *why = acpi_table_check(t, len, "HPET", &len);
	struct acpi_gas base;

	if (why)
		return why;
	if (len < HPET_TABLE_LEN)
		return "HPET table is too short";
	read_gas(t, HPET_BASE, &base);
	if (base.space != ACPI_SPACE_MEM)
		return "HPET base is not in memory space";
	if (!base.addr)
		return "HPET base address is 0";
	*out = (struct acpi_hpet){
		.base = base.addr,
		.block_id = rd32(t, HPET_BLOCK_ID),
		.number = rd8(t, HPET_NUMBER),
		.min_tick = rd16(t, HPET_MIN_TICK),
	};
	return NULL;
}

/*
 * Walks the entries of an MADT or SRAT: each has a type and a length, and
 * together they must exactly fill the table. Returns the entry at *off and
 * advances *off, NULL at the end; *why is set when the walk hits garbage.
 */
static const uint8_t *next_entry(const uint8_t *t, uint32_t len,
				 uint32_t *off, const char **why)
{
	const uint8_t *e = t + *off;
	uint8_t elen;

	if (*off == len)
		return NULL;
	if (len - *off < ENTRY_HEADER_LEN) {
		*why = "entry cut short by the end of the table";
		return NULL;
	}
	elen = rd8(e, ENTRY_LEN);
	if (elen < ENTRY_HEADER_LEN) {
		*why = "entry length is shorter than its header";
		return NULL;
	}
	if (elen > len - *off) {
		*why = "entry runs past the end of the table";
		return NULL;
	}
	*off += elen;
	return e;
}

const char *acpi_madt_parse(const uint8_t *t, uint32_t len,
			    struct acpi_madt *out, struct acpi_cpu *cpus,
			    unsigned int max)
{
	const char *why = acpi_table_check(t, len, "APIC", &len);
	uint32_t off = MADT_ENTRIES;
	bool online_defined;
	const uint8_t *e;

	if (why)
		return why;
	if (len < MADT_ENTRIES)
		return "MADT is too short";
	*out = (struct acpi_madt){
		.lapic_base = rd32(t, MADT_LAPIC_ADDR),
		.pcat_compat = rd32(t, MADT_FLAGS) & MADT_PCAT_COMPAT,
	};
	/* Before ACPI 6.3 the online-capable bit was reserved. */
	online_defined = rd8(t, SDT_REVISION) >= MADT_REV_ONLINE_CAPABLE;

	while ((e = next_entry(t, len, &off, &why))) {
		uint8_t type = rd8(e, ENTRY_TYPE), elen = rd8(e, ENTRY_LEN);
		struct acpi_cpu c = { 0 };
		uint32_t flags;

		if (type == MADT_LAPIC_OVERRIDE) {
			if (elen < LAPIC_OVR_LEN)
				return "MADT local APIC override entry is too short";
			out->lapic_base = rd64(e, LAPIC_OVR_ADDR);
			out->lapic_override = true;
			continue;
		}
		if (type == MADT_LAPIC) {
			if (elen < LAPIC_LEN)
				return "MADT local APIC entry is too short";
			c.apic_id = rd8(e, LAPIC_ID);
			c.uid = rd8(e, LAPIC_UID);
			flags = rd32(e, LAPIC_FLAGS);
		} else if (type == MADT_X2APIC) {
			if (elen < X2APIC_LEN)
				return "MADT x2APIC entry is too short";
			c.apic_id = rd32(e, X2APIC_ID);
			c.uid = rd32(e, X2APIC_UID);
			c.x2apic = true;
			flags = rd32(e, X2APIC_FLAGS);
		} else {
			continue;
		}
		c.enabled = flags & LAPIC_ENABLED;
		c.online_capable = online_defined && !c.enabled &&
				   (flags & LAPIC_ONLINE_CAPABLE);
		if (out->ncpus < max)
			cpus[out->ncpus] = c;
		out->ncpus++;
	}
	return why;
}

const char *acpi_srat_parse(const uint8_t *t, uint32_t len,
			    struct acpi_srat *out,
			    struct acpi_srat_cpu *cpus, unsigned int max_cpus,
			    struct acpi_srat_mem *mems, unsigned int max_mems)
{
	const char *why = acpi_table_check(t, len, "SRAT", &len);
	uint32_t off = SRAT_ENTRIES;
	bool wide;
	const uint8_t *e;

	if (why)
		return why;
	if (len < SRAT_ENTRIES)
		return "SRAT is too short";
	*out = (struct acpi_srat){ 0 };
	/* Revision 1 defined 8-bit domains; the other bits were reserved. */
	wide = rd8(t, SDT_REVISION) >= SRAT_REV_WIDE_DOMAIN;

	while ((e = next_entry(t, len, &off, &why))) {
		uint8_t type = rd8(e, ENTRY_TYPE), elen = rd8(e, ENTRY_LEN);
		struct acpi_srat_cpu c = { 0 };

		if (type == SRAT_MEM) {
			struct acpi_srat_mem mem;
			uint32_t flags;

			if (elen < SMEM_LEN)
				return "SRAT memory affinity entry is too short";
			flags = rd32(e, SMEM_FLAGS);
			mem = (struct acpi_srat_mem){
				.base = rd64(e, SMEM_BASE),
				.len = rd64(e, SMEM_LENGTH),
				.domain = rd32(e, SMEM_DOMAIN),
				.enabled = flags & SMEM_ENABLED,
				.hot_pluggable = flags & SMEM_HOT_PLUGGABLE,
				.non_volatile = flags & SMEM_NON_VOLATILE,
			};
			if (!wide)
				mem.domain &= DOMAIN_LO_MASK;
			if (out->nmems < max_mems)
				mems[out->nmems] = mem;
			out->nmems++;
			continue;
		}
		if (type == SRAT_LAPIC) {
			if (elen < SLAPIC_LEN)
				return "SRAT local APIC affinity entry is too short";
			c.apic_id = rd8(e, SLAPIC_APIC_ID);
			c.domain = rd8(e, SLAPIC_DOMAIN_LO);
			if (wide)
				c.domain |= rd24(e, SLAPIC_DOMAIN_HI) << 8;
			c.enabled = rd32(e, SLAPIC_FLAGS) & SRAT_CPU_ENABLED;
		} else if (type == SRAT_X2APIC) {
			if (elen < SX2APIC_LEN)
				return "SRAT x2APIC affinity entry is too short";
			c.apic_id = rd32(e, SX2APIC_ID);
			c.domain = rd32(e, SX2APIC_DOMAIN);
			c.x2apic = true;
			c.enabled = rd32(e, SX2APIC_FLAGS) & SRAT_CPU_ENABLED;
		} else {
			continue;
		}
		if (out->ncpus < max_cpus)
			cpus[out->ncpus] = c;
		out->ncpus++;
	}
	return why;
}
