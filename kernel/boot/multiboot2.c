/* SPDX-License-Identifier: MIT */
/*
 * Multiboot2, as GRUB on UEFI hands over (boot/entry_efi.asm): a list of
 * tags. With boot services kept (tag 18), the firmware's RAM is claimed
 * through it (kernel/efi/efi.c): GRUB's memory map (tag 6) then counts boot
 * services memory as free, which it is only after ExitBootServices().
 */
#include "kernel/efi/efi.h"
#include "kernel/boot/multiboot.h"
#include "kernel/x86/paging.h"

#define MB2_TAG_ALIGN		8
#define MB2_TAG_END		0
#define MB2_TAG_CMDLINE		1
#define MB2_TAG_LOADER		2
#define MB2_TAG_MMAP		6
#define MB2_TAG_FRAMEBUFFER	8
#define MB2_TAG_EFI64		12
#define MB2_TAG_ACPI_OLD	14
#define MB2_TAG_ACPI_NEW	15
#define MB2_TAG_EFI_BS		18
#define MB2_TAG_EFI64_IH	20
#define GIB			(1ull << 30)
#define GIB_MIN			4


struct mb2_info {
	uint32_t total_size, reserved;
};

struct mb2_tag {
	uint32_t type, size;
};

struct mb2_tag_u64 {		/* EFI64, EFI64_IH: one pointer */
	struct mb2_tag tag;
	uint64_t value;
} __attribute__((packed));

struct mb2_tag_mmap {
	struct mb2_tag tag;
	uint32_t entry_size, entry_version;
};

struct mb2_mmap_entry {
	uint64_t base, len;
	uint32_t type, reserved;
};

/*
 * Without boot services the firmware's RAM is free for the taking, and
 * its page tables map all of it (UEFI 2.3.4), as identity_mapped_gib says.
 */
static void read_mmap(struct boot_info *bi, const struct mb2_tag_mmap *t)
{
	uintptr_t p = (uintptr_t)(t + 1);
	uintptr_t end = (uintptr_t)t + t->tag.size;
	uint64_t top = GIB_MIN * GIB;

	if (t->entry_size < sizeof(struct mb2_mmap_entry))
		return;
	for (; p + sizeof(struct mb2_mmap_entry) <= end; p += t->entry_size) {
		const struct mb2_mmap_entry *e = (const void *)p;

		if (e->type != MB_RAM)
			continue;
		boot_info_add_ram(bi, e->base, e->len);
		if (e->base + e->len > top)
			top = e->base + e->len;
	}
	identity_mapped_gib = (top + GIB - 1) / GIB;
}

/* The firmware's free RAM and ACPI root, as efi_start() found them. */
static void from_efi(struct boot_info *bi, uint64_t system_table,
		     uint64_t image_handle)
{
	static struct efi_handover h;
	unsigned int i;

	efi_start(system_table, image_handle, &h);
	for (i = 0; i < h.nram; i++)
		boot_info_add_ram(bi, h.ram[i].base, h.ram[i].len);
	if (h.rsdp)
		bi->rsdp = h.rsdp;
}

_Static_assert(EFI_RAM_MAX <= RAM_MAX_REGIONS, "boot_info holds what efi claims");

void multiboot2_read(struct boot_info *bi, uint32_t info_addr)
{
	const struct mb2_info *mbi = (const void *)(uintptr_t)info_addr;
	uintptr_t p = info_addr + sizeof(*mbi);
	uintptr_t end = info_addr + mbi->total_size;
	const struct mb2_tag_mmap *mmap = 0;
	uint64_t system_table = 0, image_handle = 0;
	bool boot_services = false;

	while (p + sizeof(struct mb2_tag) <= end) {
		const struct mb2_tag *t = (const void *)p;
		const void *body = t + 1;

		if (t->type == MB2_TAG_END || t->size < sizeof(*t) || p + t->size > end)
			break;
		switch (t->type) {
		case MB2_TAG_CMDLINE:
			multiboot_copy_str(bi->cmdline, sizeof(bi->cmdline), body);
			break;
		case MB2_TAG_LOADER:
			multiboot_copy_str(bi->loader, sizeof(bi->loader), body);
			break;
		case MB2_TAG_MMAP:
			mmap = (const void *)t;
			break;
		case MB2_TAG_FRAMEBUFFER:
			multiboot_read_fb(&bi->fb, body);
			break;
		case MB2_TAG_EFI64:
			system_table = ((const struct mb2_tag_u64 *)t)->value;
			break;
		case MB2_TAG_EFI64_IH:
			image_handle = ((const struct mb2_tag_u64 *)t)->value;
			break;
		case MB2_TAG_EFI_BS:
			boot_services = true;
			break;
		case MB2_TAG_ACPI_OLD:
		case MB2_TAG_ACPI_NEW:
			/* A copy of the RSDP; the newer one wins. */
			if (!bi->rsdp || t->type == MB2_TAG_ACPI_NEW)
				bi->rsdp = (uintptr_t)body;
			break;
		}
		p += (t->size + MB2_TAG_ALIGN - 1) & ~(uintptr_t)(MB2_TAG_ALIGN - 1);
	}

	identity_mapped_gib = GIB_MIN;
	if (boot_services && system_table && image_handle)
		from_efi(bi, system_table, image_handle);
	else if (mmap)
		read_mmap(bi, mmap);
}
