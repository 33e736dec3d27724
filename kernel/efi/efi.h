/* SPDX-License-Identifier: MIT */
/*
 * The few UEFI types and calls the kernel uses, written from the UEFI
 * specification (2.10): the tables by their field order, only as far as
 * the last member used. Firmware functions use the Microsoft x64 calling
 * convention (ms_abi). Every call goes through EFI_CALL(), which gives the
 * firmware back its IDT and interrupts for the call (kernel/efi/efi.c).
 */
#ifndef PB_EFI_H
#define PB_EFI_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define EFIAPI __attribute__((ms_abi))

typedef uint64_t efi_status;
typedef void *efi_handle;
typedef uint16_t char16;
typedef uint64_t efi_tpl;

#define EFI_ERROR_BIT		(1ull << 63)
#define EFI_ERR(n)		(EFI_ERROR_BIT | (n))
#define EFI_SUCCESS		0
#define EFI_BUFFER_TOO_SMALL	EFI_ERR(5)
#define EFI_NOT_FOUND		EFI_ERR(14)
#define EFI_IS_ERROR(s)		(((s) & EFI_ERROR_BIT) != 0)

/* The specification's name for s, e.g. "VOLUME_FULL"; "0x..." if unknown. */
const char *efi_status_name(efi_status s);

typedef struct {
	uint32_t d1;
	uint16_t d2, d3;
	uint8_t d4[8];
} efi_guid;

struct efi_table_header {
	uint64_t signature;
	uint32_t revision, header_size, crc32, reserved;
};

#define TPL_APPLICATION		4
#define TPL_HIGH_LEVEL		31

enum efi_allocate_type { ALLOCATE_ANY_PAGES, ALLOCATE_MAX_ADDRESS, ALLOCATE_ADDRESS };
enum efi_memory_type {
	EFI_RESERVED_MEMORY, EFI_LOADER_CODE, EFI_LOADER_DATA,
	EFI_BOOT_SERVICES_CODE, EFI_BOOT_SERVICES_DATA,
	EFI_RUNTIME_SERVICES_CODE, EFI_RUNTIME_SERVICES_DATA,
	EFI_CONVENTIONAL_MEMORY,
};
enum efi_locate_search { ALL_HANDLES, BY_REGISTER_NOTIFY, BY_PROTOCOL };

#define EFI_PAGE_SIZE		4096ull

struct efi_memory_descriptor {
	uint32_t type;
	uint64_t phys_start, virt_start, pages, attribute;
};

struct efi_boot_services {
	struct efi_table_header hdr;
	efi_tpl (EFIAPI *raise_tpl)(efi_tpl new_tpl);
	void (EFIAPI *restore_tpl)(efi_tpl old_tpl);
	efi_status (EFIAPI *allocate_pages)(enum efi_allocate_type type,
					    enum efi_memory_type mem, uint64_t pages,
					    uint64_t *addr);
	void *free_pages;
	efi_status (EFIAPI *get_memory_map)(uint64_t *size,
					    struct efi_memory_descriptor *map,
					    uint64_t *key, uint64_t *desc_size,
					    uint32_t *desc_version);
	void *allocate_pool;
	efi_status (EFIAPI *free_pool)(void *buf);
	void *create_event, *set_timer, *wait_for_event, *signal_event;
	void *close_event, *check_event;
	void *install_protocol_interface, *reinstall_protocol_interface;
	void *uninstall_protocol_interface;
	efi_status (EFIAPI *handle_protocol)(efi_handle h, const efi_guid *proto,
					     void **iface);
	void *reserved, *register_protocol_notify, *locate_handle;
	void *locate_device_path, *install_configuration_table;
	void *load_image, *start_image, *exit, *unload_image;
	void *exit_boot_services, *get_next_monotonic_count, *stall;
	efi_status (EFIAPI *set_watchdog_timer)(uint64_t timeout, uint64_t code,
						uint64_t data_size, char16 *data);
	efi_status (EFIAPI *connect_controller)(efi_handle controller,
						efi_handle *driver, void *remaining_path,
						bool recursive);
	void *disconnect_controller, *open_protocol, *close_protocol;
	void *open_protocol_information, *protocols_per_handle;
	efi_status (EFIAPI *locate_handle_buffer)(enum efi_locate_search type,
						  const efi_guid *proto, void *key,
						  uint64_t *count, efi_handle **handles);
};

struct efi_time {
	uint16_t year;
	uint8_t month, day, hour, minute, second, pad1;
	uint32_t nanosecond;
	int16_t time_zone;
	uint8_t daylight, pad2;
};

struct efi_runtime_services {
	struct efi_table_header hdr;
	efi_status (EFIAPI *get_time)(struct efi_time *t, void *capabilities);
};

struct efi_configuration_table {
	efi_guid vendor_guid;
	void *vendor_table;
};

struct efi_system_table {
	struct efi_table_header hdr;
	char16 *firmware_vendor;
	uint32_t firmware_revision;
	efi_handle console_in_handle;
	void *con_in;
	efi_handle console_out_handle;
	void *con_out;
	efi_handle standard_error_handle;
	void *std_err;
	struct efi_runtime_services *runtime_services;
	struct efi_boot_services *boot_services;
	uint64_t nr_tables;
	struct efi_configuration_table *tables;
};

struct efi_loaded_image {
	uint32_t revision;
	efi_handle parent_handle;
	struct efi_system_table *system_table;
	efi_handle device_handle;
};

/* A device path is a list of nodes, each with its length, to an end node. */
struct efi_device_path {
	uint8_t type, subtype;
	uint8_t length[2];
};
#define DEVICE_PATH_MEDIA	4
#define MEDIA_CDROM		2	/* an El Torito boot image */
#define DEVICE_PATH_END		0x7f

struct efi_file;
struct efi_file {
	uint64_t revision;
	efi_status (EFIAPI *open)(struct efi_file *self, struct efi_file **out,
				  const char16 *name, uint64_t mode, uint64_t attributes);
	efi_status (EFIAPI *close)(struct efi_file *self);
	void *delete;
	void *read;
	efi_status (EFIAPI *write)(struct efi_file *self, uint64_t *size,
				   const void *buf);
	void *get_position, *set_position;
	efi_status (EFIAPI *get_info)(struct efi_file *self, const efi_guid *type,
				      uint64_t *size, void *buf);
	void *set_info;
	efi_status (EFIAPI *flush)(struct efi_file *self);
};
#define EFI_FILE_MODE_READ	(1ull << 0)
#define EFI_FILE_MODE_WRITE	(1ull << 1)
#define EFI_FILE_MODE_CREATE	(1ull << 63)
#define EFI_FILE_DIRECTORY	0x10ull

struct efi_simple_file_system {
	uint64_t revision;
	efi_status (EFIAPI *open_volume)(struct efi_simple_file_system *self,
					 struct efi_file **root);
};

struct efi_file_system_info {
	uint64_t size;
	bool read_only;
	uint64_t volume_size, free_space;
	uint32_t block_size;
	char16 volume_label[];
};

/* Where the specification puts what this file uses (x64, UEFI 2.10). */
_Static_assert(offsetof(struct efi_system_table, runtime_services) == 88, "ST");
_Static_assert(offsetof(struct efi_system_table, tables) == 112, "ST");
_Static_assert(offsetof(struct efi_boot_services, get_memory_map) == 56, "BS");
_Static_assert(offsetof(struct efi_boot_services, handle_protocol) == 152, "BS");
_Static_assert(offsetof(struct efi_boot_services, set_watchdog_timer) == 256, "BS");
_Static_assert(offsetof(struct efi_boot_services, connect_controller) == 264, "BS");
_Static_assert(offsetof(struct efi_boot_services, locate_handle_buffer) == 312, "BS");
_Static_assert(offsetof(struct efi_loaded_image, device_handle) == 24, "LI");
_Static_assert(offsetof(struct efi_file, write) == 40, "FILE");
_Static_assert(offsetof(struct efi_file, flush) == 80, "FILE");
_Static_assert(offsetof(struct efi_file_system_info, volume_label) == 36, "FSI");
_Static_assert(sizeof(struct efi_time) == 16, "TIME");
_Static_assert(offsetof(struct efi_memory_descriptor, pages) == 24, "MD");

extern const efi_guid EFI_LOADED_IMAGE_GUID, EFI_DEVICE_PATH_GUID;
extern const efi_guid EFI_SIMPLE_FILE_SYSTEM_GUID, EFI_FILE_SYSTEM_INFO_GUID;
extern const efi_guid EFI_BLOCK_IO_GUID;

/*
 * Around every firmware call: the firmware's IDT, and its interrupts when
 * its TPL allows them; after it, interrupts off and the kernel's IDT.
 */
void efi_enter(void);
void efi_leave(void);
#define EFI_CALL(fn, ...) ({				\
	efi_enter();					\
	__auto_type efi_ret_ = (fn)(__VA_ARGS__);	\
	efi_leave();					\
	efi_ret_;					\
})

/* Boot services kept by the loader and not left since: NULL otherwise. */
struct efi_system_table *efi_system_table(void);
efi_handle efi_image_handle(void);

/* What efi_start() hands back to the multiboot2 reader. */
#define EFI_RAM_MAX	64
struct efi_ram {
	uint64_t base, len;
};
struct efi_handover {
	unsigned int nram;
	struct efi_ram ram[EFI_RAM_MAX];	/* claimed for the kernel */
	uint64_t rsdp;				/* the ACPI root; 0: none found */
};

/*
 * From the multiboot2 tags: take over the firmware the loader left (its
 * system table and GRUB's image handle). Turns the watchdog off, claims
 * the firmware's free RAM, finds the ACPI root, then raises the TPL to
 * TPL_HIGH_LEVEL for the run. Prints nothing: the console is not up yet
 * (efi_print_notes() says what failed). Calls nothing outside kernel/efi/
 * but the page tables (as Xen's efi/ is called into one way only).
 */
void efi_start(uint64_t system_table, uint64_t image_handle, struct efi_handover *h);

/*
 * The "boot:" line's UEFI words (" uefi=2.70 claimed=... firmware=...";
 * "" without boot services), and a note for each thing efi_start() could
 * not do, printed once the console is up.
 */
void efi_describe(char *buf, size_t size);
void efi_print_notes(void);

/* Back to the TPL of the start (TPL_APPLICATION), for the file I/O. */
void efi_lower_tpl(void);

#endif
