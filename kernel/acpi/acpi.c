/* SPDX-License-Identifier: MIT */
#include "kernel/acpi/acpi.h"
#include "kernel/x86/paging.h"
#include "lib/out.h"

#define GIB		(1ull << 30)
#define TABLES_MAX	64	/* listed on the acpi line */


static struct acpi_root root;
static const char *root_why = "ACPI not searched";

/* Identity-mapped below identity_mapped_gib GiB; nothing above. */
static const void *map(void *ctx, uint64_t phys, uint64_t len)
{
	uint64_t limit = (uint64_t)identity_mapped_gib * GIB;

	(void)ctx;
	if (phys > limit || len > limit - phys)
		return NULL;
	return (const void *)(uintptr_t)phys;
}

const struct acpi_mem acpi_live_mem = { map, 0 };

void acpi_live_init(uint64_t rsdp_hint)
{
	uint64_t rsdp;

	root_why = acpi_find_rsdp(&acpi_live_mem, rsdp_hint, &rsdp);
	if (!root_why)
		root_why = acpi_root_init(&root, &acpi_live_mem, rsdp);
}

const struct acpi_root *acpi_live_root(const char **why)
{
	*why = root_why;
	return root_why ? 0 : &root;
}

/* A signature as printable text: firmware may put anything there. */
static void sig_text(char *out, const uint8_t *sig)
{
	unsigned int i;

	for (i = 0; i < ACPI_SIG_LEN; i++) {
		char c = (char)sig[i];

		out[i] = (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') ||
			 (c >= '0' && c <= '9') || c == '_' ? c : '?';
	}
	out[ACPI_SIG_LEN] = '\0';
}

void acpi_live_print(void)
{
	char list[TABLES_MAX * (ACPI_SIG_LEN + 1) + 1];
	unsigned int i, n = 0, len = 0;

	if (root_why) {
		out_line("acpi: none (%s)", root_why);
		return;
	}
	if (root.xsdt_why)
		out_line("note: acpi: XSDT rejected, using the RSDT: %s",
			 root.xsdt_why);
	list[0] = '\0';
	for (i = 0; i < root.nentries; i++) {
		uint64_t phys = acpi_root_entry(&root, i);
		const uint8_t *h = map(0, phys, ACPI_SDT_HEADER_LEN);
		struct acpi_table t;
		const char *why;
		char sig[ACPI_SIG_LEN + 1];

		if (!phys)		/* a null entry, as ACPICA skips them */
			continue;
		if (!h) {
			out_line("note: acpi: root entry %u (0x%llx) cannot be read",
				 i, (unsigned long long)phys);
			continue;
		}
		sig_text(sig, h);
		why = acpi_table_at(&acpi_live_mem, phys, 0, &t);
		if (why) {
			out_line("note: acpi: table %s at 0x%llx rejected: %s",
				 sig, (unsigned long long)phys, why);
			continue;
		}
		if (n++ < TABLES_MAX) {
			unsigned int k;

			if (len)
				list[len++] = ',';
			for (k = 0; k < ACPI_SIG_LEN; k++)
				list[len++] = sig[k];
			list[len] = '\0';
		}
	}
	out_line("acpi rsdp=0x%llx rev=%u root=%s tables=%s",
		 (unsigned long long)root.rsdp, root.revision,
		 root.xsdt ? "xsdt" : "rsdt", list);
}
