/* SPDX-License-Identifier: MIT */
/*
 * The firmware GRUB left running (multiboot2 with boot services, see
 * boot/entry_efi.asm). What the kernel does with it, in order:
 *
 *   start   watchdog off; the free RAM claimed as the kernel's (so the
 *           firmware never hands it out while the buffers are in it);
 *           the ACPI root; the TPL raised to TPL_HIGH_LEVEL; the kernel's
 *           own page tables loaded.
 *   run     no firmware call at all, interrupts off, the kernel's IDT.
 *   end     the firmware's page tables back, the TPL lowered again, the
 *           log written (kernel/efi/efi_log.c).
 */
#include "kernel/efi/efi.h"
#include "lib/fmt.h"
#include "lib/out.h"
#include "kernel/lib/string.h"
#include "kernel/x86/paging.h"
#include "kernel/x86/x86.h"

#define GIB			(1ull << 30)
#define MIB			(1ull << 20)
#define GIB_MIN			4	/* as boot/entry32.asm: the first 4 GiB at least, */
#define GIB_MAX			64	/* and at most 64 */
#define CR4_LA57		(1ull << 12)
/*
 * The firmware's share of its free RAM, for what it allocates while the
 * log is written (USB, partition and FAT drivers, their buffers). Taken
 * from the top of the largest free region; a region under CLAIM_MIN is not
 * worth a buffer and stays the firmware's too.
 */
#define FIRMWARE_LEFT		(32 * MIB)
#define CLAIM_MIN		(2 * MIB)
#define LOW_MEM_END		(1 * MIB)	/* a SIPI vector names a page below it */
#define MAP_BYTES		(64 * 1024)
#define NOTES_MAX		4
#define NOTE_LEN		128
#define VENDOR_LEN		40

const efi_guid EFI_LOADED_IMAGE_GUID = { 0x5b1b31a1, 0x9562, 0x11d2,
	{ 0x8e, 0x3f, 0x00, 0xa0, 0xc9, 0x69, 0x72, 0x3b } };
const efi_guid EFI_DEVICE_PATH_GUID = { 0x09576e91, 0x6d3f, 0x11d2,
	{ 0x8e, 0x39, 0x00, 0xa0, 0xc9, 0x69, 0x72, 0x3b } };
const efi_guid EFI_SIMPLE_FILE_SYSTEM_GUID = { 0x964e5b22, 0x6459, 0x11d2,
	{ 0x8e, 0x39, 0x00, 0xa0, 0xc9, 0x69, 0x72, 0x3b } };
const efi_guid EFI_FILE_SYSTEM_INFO_GUID = { 0x09576e93, 0x6d3f, 0x11d2,
	{ 0x8e, 0x39, 0x00, 0xa0, 0xc9, 0x69, 0x72, 0x3b } };
const efi_guid EFI_BLOCK_IO_GUID = { 0x964e5b21, 0x6459, 0x11d2,
	{ 0x8e, 0x39, 0x00, 0xa0, 0xc9, 0x69, 0x72, 0x3b } };
static const efi_guid ACPI_20_TABLE_GUID = { 0x8868e871, 0xe4f1, 0x11d3,
	{ 0xbc, 0x22, 0x00, 0x80, 0xc7, 0x3c, 0x88, 0x81 } };
static const efi_guid ACPI_10_TABLE_GUID = { 0xeb9d2d30, 0x2d88, 0x11d3,
	{ 0x9a, 0x16, 0x00, 0x90, 0x27, 0x3f, 0xc1, 0x4d } };

/* Saved by boot/entry_efi.asm as the firmware handed over. */
struct idtr {
	uint16_t limit;
	uint64_t base;
} __attribute__((packed));
/*
 * The firmware's state as boot/entry_efi.asm found it, stored there before
 * anything else runs: IF tells whether the firmware ran with interrupts
 * on; its IDT comes back for every call into it.
 */
struct idtr efi_fw_idtr;
uint64_t efi_fw_rflags;

#define RFLAGS_IF		(1ull << 9)

static struct efi_system_table *st;
static efi_handle image;
static struct idtr kernel_idtr;
static bool fw_irqs;		/* the firmware's TPL is below TPL_HIGH_LEVEL */
static efi_tpl start_tpl;
static bool tpl_raised;
static uint64_t claimed, left;
static uint64_t fw_cr3;		/* the firmware's page tables, while the kernel uses its own */
static char notes[NOTES_MAX][NOTE_LEN];
static unsigned int nnotes, notes_lost;

static const char *const status_names[] = {
	[1] = "LOAD_ERROR", [2] = "INVALID_PARAMETER", [3] = "UNSUPPORTED",
	[4] = "BAD_BUFFER_SIZE", [5] = "BUFFER_TOO_SMALL", [6] = "NOT_READY",
	[7] = "DEVICE_ERROR", [8] = "WRITE_PROTECTED", [9] = "OUT_OF_RESOURCES",
	[10] = "VOLUME_CORRUPTED", [11] = "VOLUME_FULL", [12] = "NO_MEDIA",
	[13] = "MEDIA_CHANGED", [14] = "NOT_FOUND", [15] = "ACCESS_DENIED",
	[16] = "NO_RESPONSE", [17] = "NO_MAPPING", [18] = "TIMEOUT",
	[19] = "NOT_STARTED", [20] = "ALREADY_STARTED", [21] = "ABORTED",
	[22] = "ICMP_ERROR", [23] = "TFTP_ERROR", [24] = "PROTOCOL_ERROR",
	[25] = "INCOMPATIBLE_VERSION", [26] = "SECURITY_VIOLATION",
	[27] = "CRC_ERROR", [28] = "END_OF_MEDIA", [31] = "END_OF_FILE",
	[32] = "INVALID_LANGUAGE", [33] = "COMPROMISED_DATA",
	[35] = "HTTP_ERROR",
};

const char *efi_status_name(efi_status s)
{
	static char other[24];
	uint64_t code = s & ~EFI_ERROR_BIT;

	if (s == EFI_SUCCESS)
		return "SUCCESS";
	if (EFI_IS_ERROR(s) && code < sizeof(status_names) / sizeof(status_names[0]) &&
	    status_names[code])
		return status_names[code];
	fmt_snprintf(other, sizeof(other), "0x%llx", (unsigned long long)s);
	return other;
}

void efi_enter(void)
{
	asm volatile("sidt %0" : "=m"(kernel_idtr) : : "memory");
	asm volatile("lidt %0" : : "m"(efi_fw_idtr) : "memory");
	if (fw_irqs)
		asm volatile("sti" : : : "memory");
}

void efi_leave(void)
{
	asm volatile("cli" : : : "memory");
	asm volatile("lidt %0" : : "m"(kernel_idtr) : "memory");
}

struct efi_system_table *efi_system_table(void)
{
	return st;
}

efi_handle efi_image_handle(void)
{
	return image;
}

static void note(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void note(const char *fmt, ...)
{
	va_list ap;

	if (nnotes == NOTES_MAX) {
		notes_lost++;
		return;
	}
	va_start(ap, fmt);
	fmt_vsnprintf(notes[nnotes++], NOTE_LEN, fmt, ap);
	va_end(ap);
}

static bool same_guid(const efi_guid *a, const efi_guid *b)
{
	const uint8_t *x = (const void *)a, *y = (const void *)b;
	unsigned int i;

	for (i = 0; i < sizeof(*a); i++)
		if (x[i] != y[i])
			return false;
	return true;
}

static void find_rsdp(struct efi_handover *h)
{
	uint64_t i, v1 = 0;

	for (i = 0; i < st->nr_tables; i++) {
		const struct efi_configuration_table *t = &st->tables[i];

		if (same_guid(&t->vendor_guid, &ACPI_20_TABLE_GUID)) {
			h->rsdp = (uintptr_t)t->vendor_table;
			return;
		}
		if (same_guid(&t->vendor_guid, &ACPI_10_TABLE_GUID))
			v1 = (uintptr_t)t->vendor_table;
	}
	if (v1)
		h->rsdp = v1;
}

/*
 * Every EfiConventionalMemory region of CLAIM_MIN or more becomes the
 * kernel's (EfiLoaderData, at its own address), less FIRMWARE_LEFT at the
 * top of the largest. Boot services code and data, and everything else
 * the firmware or GRUB holds, are never touched.
 */
static void claim_ram(struct efi_handover *h)
{
	static uint8_t map[MAP_BYTES] __attribute__((aligned(8)));
	const struct efi_memory_descriptor *d, *largest = NULL;
	uint64_t size = sizeof(map), key, dsize, top = 0, held, off;
	uint32_t dversion;
	efi_status s;

	s = EFI_CALL(st->boot_services->get_memory_map, &size, (void *)map, &key,
		     &dsize, &dversion);
	if (EFI_IS_ERROR(s) || dsize < sizeof(*d)) {
		note("uefi: GetMemoryMap: %s: no RAM claimed for the buffers",
		     EFI_IS_ERROR(s) ? efi_status_name(s) : "descriptors too small");
		return;
	}
	for (off = 0; off + dsize <= size; off += dsize) {
		d = (const void *)(map + off);
		if (d->phys_start + d->pages * EFI_PAGE_SIZE > top)
			top = d->phys_start + d->pages * EFI_PAGE_SIZE;
		if (d->type == EFI_CONVENTIONAL_MEMORY &&
		    (!largest || d->pages > largest->pages))
			largest = d;
	}
	/*
	 * What the kernel's own page tables will map (kernel_page_tables()),
	 * as boot/entry32.asm does on a BIOS: all the firmware describes.
	 */
	identity_mapped_gib = (top + GIB - 1) / GIB;
	if (identity_mapped_gib < GIB_MIN)
		identity_mapped_gib = GIB_MIN;
	if (identity_mapped_gib > GIB_MAX)
		identity_mapped_gib = GIB_MAX;
	if (!largest)
		return;
	held = FIRMWARE_LEFT / EFI_PAGE_SIZE;
	if (held > largest->pages / 2)
		held = largest->pages / 2;

	for (off = 0; off + dsize <= size; off += dsize) {
		uint64_t pages, addr;

		d = (const void *)(map + off);
		if (d->type != EFI_CONVENTIONAL_MEMORY)
			continue;
		pages = d->pages - (d == largest ? held : 0);
		if (pages * EFI_PAGE_SIZE < CLAIM_MIN) {
			left += d->pages * EFI_PAGE_SIZE;
			continue;
		}
		if (h->nram == EFI_RAM_MAX) {
			note("uefi: more than %u free regions: 0x%llx and above left to the firmware",
			     EFI_RAM_MAX, (unsigned long long)d->phys_start);
			break;
		}
		addr = d->phys_start;
		s = EFI_CALL(st->boot_services->allocate_pages, ALLOCATE_ADDRESS,
			     EFI_LOADER_DATA, pages, &addr);
		if (EFI_IS_ERROR(s)) {
			note("uefi: claiming 0x%llx pages at 0x%llx: %s",
			     (unsigned long long)pages,
			     (unsigned long long)d->phys_start, efi_status_name(s));
			left += d->pages * EFI_PAGE_SIZE;
			continue;
		}
		h->ram[h->nram++] = (struct efi_ram){ addr, pages * EFI_PAGE_SIZE };
		claimed += pages * EFI_PAGE_SIZE;
		left += (d->pages - pages) * EFI_PAGE_SIZE;
	}
}

/*
 * Another CPU starts in real mode at a page below 1 MiB (kernel/smp/smp.c
 * picks it from the RAM of boot_info): one such page is the kernel's too.
 */
static void claim_low_page(struct efi_handover *h)
{
	uint64_t addr = LOW_MEM_END - 1;
	efi_status s;

	s = EFI_CALL(st->boot_services->allocate_pages, ALLOCATE_MAX_ADDRESS,
		     EFI_LOADER_DATA, 1, &addr);
	if (EFI_IS_ERROR(s)) {
		note("uefi: no page below 1 MiB to start the other CPUs from (%s)",
		     efi_status_name(s));
		return;
	}
	if (h->nram < EFI_RAM_MAX)
		h->ram[h->nram++] = (struct efi_ram){ addr, EFI_PAGE_SIZE };
}

/*
 * The run uses page tables like boot/entry32.asm's: [0, identity_mapped_gib
 * GiB) identity-mapped with 2 MiB pages, write-back (the MTRRs make MMIO
 * uncached), so a buffer is mapped alike on UEFI and on a BIOS, whatever
 * page sizes the firmware chose. Its tables come back for the save at the
 * end (efi_lower_tpl()). The tables' pages come from the firmware.
 */
static void kernel_page_tables(void)
{
	bool la57 = read_cr4() & CR4_LA57;
	uint64_t pages = 1 + la57 + identity_mapped_gib + 1, addr, *top;
	struct pt_pool pool;
	efi_status s;
	enum map_result r;

	/* Below 4 GiB: a 32-bit trampoline (another CPU's start) can load it. */
	addr = (1ull << 32) - 1;
	s = EFI_CALL(st->boot_services->allocate_pages, ALLOCATE_MAX_ADDRESS,
		     EFI_LOADER_DATA, pages, &addr);
	if (EFI_IS_ERROR(s)) {
		note("uefi: no pages for the kernel's page tables (%s): the firmware's are used",
		     efi_status_name(s));
		return;
	}
	pool = (struct pt_pool){ (void *)(uintptr_t)addr, pages, 0 };
	top = pool.pages[pool.used++];
	memset(top, 0, EFI_PAGE_SIZE);
	if (la57) {
		/*
		 * 5-level paging cannot be left while paging is on: the one
		 * PML5 entry that identity addresses use points to the PML4.
		 */
		uint64_t *pml4 = pool.pages[pool.used++];

		memset(pml4, 0, EFI_PAGE_SIZE);
		top[0] = (uintptr_t)pml4 | PT_PRESENT | PT_WRITABLE;
		top = pml4;
	}
	r = pt_map_identity(top, &pool, 0, identity_mapped_gib * GIB, PT_WRITABLE);
	if (r != MAP_OK) {
		note("uefi: the kernel's page tables: %s: the firmware's are used",
		     map_result_name(r));
		return;
	}
	fw_cr3 = read_cr3();
	write_cr3((uintptr_t)pool.pages[0]);
}

void efi_start(uint64_t system_table, uint64_t image_handle, struct efi_handover *h)
{
	efi_status s;

	st = (struct efi_system_table *)(uintptr_t)system_table;
	image = (efi_handle)(uintptr_t)image_handle;
	fw_irqs = efi_fw_rflags & RFLAGS_IF;

	/* The firmware resets a machine whose watchdog runs out (UEFI 7.5). */
	s = EFI_CALL(st->boot_services->set_watchdog_timer, 0, 0, 0, NULL);
	if (EFI_IS_ERROR(s))
		note("uefi: SetWatchdogTimer(0): %s: the firmware may reset the machine",
		     efi_status_name(s));
	*h = (struct efi_handover){ 0 };
	claim_ram(h);
	claim_low_page(h);
	find_rsdp(h);

	/*
	 * From here to efi_lower_tpl() the firmware dispatches nothing: no
	 * timer, no event. The kernel makes no call in between.
	 */
	start_tpl = EFI_CALL(st->boot_services->raise_tpl, TPL_HIGH_LEVEL);
	fw_irqs = false;
	tpl_raised = true;
	kernel_page_tables();
}

void efi_lower_tpl(void)
{
	if (!st || !tpl_raised)
		return;
	if (fw_cr3)
		write_cr3(fw_cr3);
	fw_cr3 = 0;
	efi_enter();
	st->boot_services->restore_tpl(start_tpl);
	efi_leave();
	tpl_raised = false;
	fw_irqs = start_tpl < TPL_HIGH_LEVEL;
}

static void ascii(char *out, size_t size, const char16 *s)
{
	size_t n = 0;

	for (; s && *s && n + 1 < size; s++)
		out[n++] = *s >= ' ' && *s < 0x7f ? (char)*s : '?';
	out[n] = '\0';
}

void efi_describe(char *buf, size_t size)
{
	char vendor[VENDOR_LEN];

	if (!st) {
		buf[0] = '\0';
		return;
	}
	ascii(vendor, sizeof(vendor), st->firmware_vendor);
	fmt_snprintf(buf, size, " uefi=%u.%u claimed=%lluM left=%lluM firmware=%s rev=0x%x",
		     st->hdr.revision >> 16, st->hdr.revision & 0xffff,
		     (unsigned long long)(claimed / MIB),
		     (unsigned long long)(left / MIB), vendor[0] ? vendor : "?",
		     st->firmware_revision);
}

void efi_print_notes(void)
{
	unsigned int i;

	for (i = 0; i < nnotes; i++)
		out_line("note: %s", notes[i]);
	if (notes_lost)
		out_line("note: uefi: %u more problems not shown", notes_lost);
}
