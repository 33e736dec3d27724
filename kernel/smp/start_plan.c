/* SPDX-License-Identifier: MIT */
#include "harness/measure/host.h"
#include "kernel/smp/start_plan.h"

#define PAGE		4096ull
#define LOW_MEM_END	0x100000ull	/* a SIPI vector names a page below 1 MiB */
/*
 * Vectors 0xa0-0xbf are reserved (Intel SDM vol. 3 section 9.4.4.1); that
 * is the VGA hole, never usable RAM, but say so rather than rely on it.
 */
#define SIPI_RESERVED_LO 0xa0000ull
#define SIPI_RESERVED_HI 0xc0000ull

static bool listed_before(const struct acpi_cpu *cpus, unsigned int i)
{
	unsigned int j;

	for (j = 0; j < i; j++)
		if (cpus[j].enabled && cpus[j].apic_id == cpus[i].apic_id)
			return true;
	return false;
}

void smp_plan(const struct smp_plan_in *in, enum smp_fate *fate,
	      struct smp_plan *out)
{
	unsigned int i, used = 1, last = in->n;	/* the BSP is used */

	*out = (struct smp_plan){ 0 };
	for (i = 0; i < in->n; i++) {
		const struct acpi_cpu *c = &in->cpus[i];

		if (!c->enabled) {
			fate[i] = SMP_DISABLED;
			continue;
		}
		if (listed_before(in->cpus, i)) {
			fate[i] = SMP_DUPLICATE;
			continue;
		}
		out->enabled++;
		if (c->apic_id == in->bsp_id) {
			fate[i] = SMP_BSP;
			out->bsp_listed = true;
		} else if (c->apic_id > XAPIC_ID_MAX && !in->x2apic) {
			fate[i] = SMP_NEEDS_X2APIC;
		} else if (in->limit && used >= in->limit) {
			fate[i] = SMP_LIMIT;
		} else if (used >= HOST_CPUS_MAX) {
			fate[i] = SMP_TOO_MANY;
		} else {
			fate[i] = SMP_START;
			out->start++;
			used++;
			last = i;
		}
	}
	if (!out->bsp_listed)
		out->enabled++;		/* it runs this, listed or not */
	if (in->nosipi && last < in->n) {
		fate[last] = SMP_NOSIPI;
		out->start--;
	}
}

uint64_t smp_trampoline_page(const struct ram_region *ram, unsigned int n)
{
	uint64_t best = 0;
	unsigned int i;

	/*
	 * The lowest such page: page 0 holds the real-mode IVT and the BIOS
	 * data area (the EBDA pointer the RSDP search reads), so start above.
	 */
	for (i = 0; i < n; i++) {
		uint64_t page = (ram[i].base + PAGE - 1) & ~(PAGE - 1);
		uint64_t end = ram[i].base + ram[i].len;

		if (page < PAGE)
			page = PAGE;
		if (page >= SIPI_RESERVED_LO && page < SIPI_RESERVED_HI)
			page = SIPI_RESERVED_HI;
		if (end < ram[i].base || page + PAGE > end ||
		    page + PAGE > LOW_MEM_END)
			continue;
		if (!best || page < best)
			best = page;
	}
	return best;
}

static bool domain_of(uint32_t id, const struct acpi_srat_cpu *srat,
		      unsigned int nsrat, uint32_t *domain)
{
	unsigned int i;

	for (i = 0; i < nsrat; i++) {
		if (srat[i].enabled && srat[i].apic_id == id) {
			*domain = srat[i].domain;
			return true;
		}
	}
	return false;
}

/* Inserts d into the ascending set dom[0..*n); false when max are there. */
static bool add_domain(uint32_t *dom, unsigned int *n, unsigned int max,
		       uint32_t d)
{
	unsigned int i, j;

	for (i = 0; i < *n && dom[i] < d; i++)
		;
	if (i < *n && dom[i] == d)
		return true;
	if (*n == max)
		return false;
	for (j = *n; j > i; j--)
		dom[j] = dom[j - 1];
	dom[i] = d;
	(*n)++;
	return true;
}

unsigned int smp_numa(const uint32_t *ids, unsigned int n,
		      const struct acpi_srat_cpu *srat, unsigned int nsrat,
		      unsigned int *node, uint32_t *dom)
{
	uint32_t d;
	unsigned int i, k, ndom = 0;
	bool fits = true;

	for (i = 0; i < n; i++)
		if (domain_of(ids[i], srat, nsrat, &d))
			fits = fits && add_domain(dom, &ndom, HOST_NODES_MAX, d);
	for (i = 0; i < n; i++) {
		node[i] = 0;
		if (!fits || !domain_of(ids[i], srat, nsrat, &d))
			continue;
		for (k = 0; dom[k] != d; k++)
			;
		node[i] = k;
	}
	if (!fits)
		return 0;
	return ndom ? ndom : 1;
}

/* Appends text to buf at *len; false (nothing appended) when it does not fit. */
static bool append(char *buf, size_t size, size_t *len, const char *text)
{
	size_t n = 0;

	while (text[n])
		n++;
	if (*len + n + 1 > size)
		return false;
	while (*text)
		buf[(*len)++] = *text++;
	buf[*len] = '\0';
	return true;
}

/* Decimal v at p; returns the end. */
static char *put_uint(char *p, uint32_t v)
{
	char digits[10];
	unsigned int n = 0;

	do {
		digits[n++] = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	while (n)
		*p++ = digits[--n];
	return p;
}

/* The ids as far as they fit in room characters; false when cut short. */
static bool format_ids(char *buf, size_t room, size_t *len,
		       const uint32_t *ids, unsigned int n)
{
	unsigned int i = 0, j;
	char item[32], *p;

	*len = 0;
	buf[0] = '\0';
	while (i < n) {
		for (j = i; j + 1 < n && ids[j + 1] == ids[j] + 1; j++)
			;
		if (j < i + 2)
			j = i;		/* two in a row are no range */
		p = item;
		if (i)
			*p++ = ',';
		p = put_uint(p, ids[i]);
		if (j > i) {
			*p++ = '-';
			p = put_uint(p, ids[j]);
		}
		*p = '\0';
		if (!append(buf, room, len, item))
			return false;
		i = j + 1;
	}
	return true;
}

void smp_format_ids(char *buf, size_t size, const uint32_t *ids, unsigned int n)
{
	static const char more[] = ",...";
	size_t len;

	if (format_ids(buf, size, &len, ids, n))
		return;
	/* Cut: leave room for the marker. */
	format_ids(buf, size - (sizeof(more) - 1), &len, ids, n);
	append(buf, size, &len, more);
}
