/* SPDX-License-Identifier: MIT */
/*
 * The log, saved at the end of a UEFI run to the stick the machine booted
 * from: its FAT volume labelled PBRESULTS (scripts/mkiso makes it a
 * partition of its own, beside the EFI system partition GRUB came from),
 * as \pagebench\YYYYMMDD-HHMMSS.log from the firmware's clock. The path
 * to it: GRUB's image handle, its loaded image, the device it was loaded
 * from, that device's disk, the disk's partitions, their file systems.
 * Every step that fails says which and the firmware's status.
 */
#include "kernel/efi/efi.h"
#include "kernel/efi/efi_log.h"
#include "kernel/efi/efi_path.h"
#include "lib/fmt.h"
#include "lib/out.h"
#include "kernel/efi/log_keep.h"

#define RESULTS_LABEL	"PBRESULTS"
#define LOG_DIR		"pagebench"
#define NAME_LEN	32	/* "20261130-183012-99.log" and its NUL */
#define NAME_TRIES	99	/* -2 .. -99 after a name already taken */
#define WHY_LEN		160
#define INFO_BYTES	512	/* EFI_FILE_SYSTEM_INFO and an 11-letter label */

static struct efi_boot_services *bs;

static struct efi_device_path *device_path(efi_handle h)
{
	void *p = NULL;

	if (EFI_IS_ERROR(EFI_CALL(bs->handle_protocol, h, &EFI_DEVICE_PATH_GUID, &p)))
		return NULL;
	return p;
}

/*
 * A firmware that boots fast may have started a file system driver on the
 * boot partition only: connect every partition of the disk.
 */
static void connect_partitions(const struct efi_device_path *boot)
{
	efi_handle *h = NULL;
	uint64_t i, n = 0;

	if (EFI_IS_ERROR(EFI_CALL(bs->locate_handle_buffer, BY_PROTOCOL,
				  &EFI_BLOCK_IO_GUID, NULL, &n, &h)))
		return;
	for (i = 0; i < n; i++) {
		const struct efi_device_path *p = device_path(h[i]);

		if (p && efi_path_same_disk(boot, p))
			EFI_CALL(bs->connect_controller, h[i], NULL, NULL, true);
	}
	EFI_CALL(bs->free_pool, h);
}

/* The label, blanks at its end ignored, is RESULTS_LABEL in any case. */
static bool is_results_label(const char16 *label)
{
	const char *want = RESULTS_LABEL;
	size_t i;

	for (i = 0; want[i]; i++) {
		char16 c = label[i];

		if (c >= 'a' && c <= 'z')
			c -= 'a' - 'A';
		if (c != (char16)want[i])
			return false;
	}
	for (; label[i]; i++)
		if (label[i] != ' ')
			return false;
	return true;
}

struct volume {
	struct efi_file *root;
	bool read_only;
	uint64_t free_space;
};

/* The root of the boot disk's PBRESULTS volume, or false. */
static bool find_results(const struct efi_device_path *boot, struct volume *v)
{
	static uint64_t info[INFO_BYTES / sizeof(uint64_t)];
	struct efi_file_system_info *fsi = (void *)info;
	efi_handle *h = NULL;
	uint64_t i, n = 0;
	bool found = false;

	if (EFI_IS_ERROR(EFI_CALL(bs->locate_handle_buffer, BY_PROTOCOL,
				  &EFI_SIMPLE_FILE_SYSTEM_GUID, NULL, &n, &h)))
		return false;
	for (i = 0; i < n && !found; i++) {
		const struct efi_device_path *p = device_path(h[i]);
		struct efi_simple_file_system *fs = NULL;
		struct efi_file *root = NULL;
		uint64_t size = sizeof(info);

		if (!p || !efi_path_same_disk(boot, p))
			continue;
		if (EFI_IS_ERROR(EFI_CALL(bs->handle_protocol, h[i],
					  &EFI_SIMPLE_FILE_SYSTEM_GUID, (void **)&fs)) ||
		    EFI_IS_ERROR(EFI_CALL(fs->open_volume, fs, &root)))
			continue;
		info[INFO_BYTES / sizeof(uint64_t) - 1] = 0;	/* a label ends */
		if (!EFI_IS_ERROR(EFI_CALL(root->get_info, root, &EFI_FILE_SYSTEM_INFO_GUID,
					   &size, info)) &&
		    is_results_label(fsi->volume_label)) {
			v->root = root;
			v->read_only = fsi->read_only;
			v->free_space = fsi->free_space;
			found = true;
		} else {
			EFI_CALL(root->close, root);
		}
	}
	EFI_CALL(bs->free_pool, h);
	return found;
}

static void to_char16(char16 *out, size_t size, const char *s)
{
	size_t n = 0;

	while (*s && n + 1 < size)
		out[n++] = (uint8_t)*s++;
	out[n] = 0;
}

/* "YYYYMMDD-HHMMSS" from the firmware's clock; zeros when it has none. */
static void time_name(char *out, size_t size)
{
	struct efi_time t = { 0 };

	if (EFI_IS_ERROR(EFI_CALL(efi_system_table()->runtime_services->get_time, &t, NULL)))
		t = (struct efi_time){ 0 };
	fmt_snprintf(out, size, "%04u%02u%02u-%02u%02u%02u", t.year, t.month, t.day,
		     t.hour, t.minute, t.second);
}

/*
 * Opens a new file in dir: base.log, else base-2.log ... base-99.log (a
 * clock that is not set gives every run the same time). name gets it.
 * Every name taken: success, and *file NULL.
 */
static efi_status create_new(struct efi_file *dir, const char *base, char *name,
			     struct efi_file **file)
{
	char16 name16[NAME_LEN];
	efi_status s;
	unsigned int i;

	*file = NULL;
	for (i = 1; i <= NAME_TRIES; i++) {
		if (i == 1)
			fmt_snprintf(name, NAME_LEN, "%s.log", base);
		else
			fmt_snprintf(name, NAME_LEN, "%s-%u.log", base, i);
		to_char16(name16, NAME_LEN, name);
		s = EFI_CALL(dir->open, dir, file, name16, EFI_FILE_MODE_READ, 0);
		if (!EFI_IS_ERROR(s)) {
			EFI_CALL((*file)->close, *file);
			*file = NULL;
			continue;
		}
		if (s != EFI_NOT_FOUND)
			return s;
		return EFI_CALL(dir->open, dir, file, name16,
				EFI_FILE_MODE_READ | EFI_FILE_MODE_WRITE |
				EFI_FILE_MODE_CREATE, 0);
	}
	return EFI_SUCCESS;
}

/* Writes text to \pagebench\<time>.log on v; false with why on a failure. */
static bool write_log(struct volume *v, const char *text, uint64_t len,
		      char *path, char *why)
{
	struct efi_file *dir = NULL, *file = NULL;
	char16 dir16[sizeof(LOG_DIR)];
	char base[NAME_LEN], name[NAME_LEN];
	uint64_t done = len;
	efi_status s;

	to_char16(dir16, sizeof(LOG_DIR), LOG_DIR);
	s = EFI_CALL(v->root->open, v->root, &dir, dir16,
		     EFI_FILE_MODE_READ | EFI_FILE_MODE_WRITE | EFI_FILE_MODE_CREATE,
		     EFI_FILE_DIRECTORY);
	if (EFI_IS_ERROR(s)) {
		fmt_snprintf(why, WHY_LEN, "creating \\%s on %s: %s", LOG_DIR,
			     RESULTS_LABEL, efi_status_name(s));
		return false;
	}
	time_name(base, sizeof(base));
	s = create_new(dir, base, name, &file);
	fmt_snprintf(path, NAME_LEN + sizeof(LOG_DIR) + 2, "\\%s\\%s", LOG_DIR, name);
	if (EFI_IS_ERROR(s))
		fmt_snprintf(why, WHY_LEN, "creating %s on %s: %s", path, RESULTS_LABEL,
			     efi_status_name(s));
	else if (!file)
		fmt_snprintf(why, WHY_LEN, "\\%s\\%s.log and -2 to -%u are all taken on %s",
			     LOG_DIR, base, NAME_TRIES, RESULTS_LABEL);
	if (!file) {
		EFI_CALL(dir->close, dir);
		return false;
	}
	s = EFI_CALL(file->write, file, &done, text);
	if (!EFI_IS_ERROR(s))
		s = EFI_CALL(file->flush, file);
	if (EFI_IS_ERROR(s))
		fmt_snprintf(why, WHY_LEN, "writing %s on %s: %s after %llu of %llu bytes",
			     path, RESULTS_LABEL, efi_status_name(s),
			     (unsigned long long)done, (unsigned long long)len);
	EFI_CALL(file->close, file);
	EFI_CALL(dir->close, dir);
	return !EFI_IS_ERROR(s);
}

/* Saves the log; false with why when it could not. */
static bool save(char *path, char *why)
{
	struct efi_loaded_image *li = NULL;
	const struct efi_device_path *boot;
	struct volume v;
	const char *text;
	uint64_t len;
	efi_status s;
	bool ok;

	bs = efi_system_table()->boot_services;
	s = EFI_CALL(bs->handle_protocol, efi_image_handle(), &EFI_LOADED_IMAGE_GUID,
		     (void **)&li);
	if (EFI_IS_ERROR(s)) {
		fmt_snprintf(why, WHY_LEN, "the loader's image: %s", efi_status_name(s));
		return false;
	}
	boot = device_path(li->device_handle);
	if (!boot) {
		fmt_snprintf(why, WHY_LEN, "the boot device has no device path");
		return false;
	}
	connect_partitions(boot);
	if (!find_results(boot, &v)) {
		if (efi_path_via_el_torito(boot))
			fmt_snprintf(why, WHY_LEN, "booted from a CD (El Torito), no %s volume there",
				     RESULTS_LABEL);
		else
			fmt_snprintf(why, WHY_LEN, "no volume labelled %s on the boot disk",
				     RESULTS_LABEL);
		return false;
	}
	len = log_keep_text(log_kept(), &text);
	if (v.read_only)
		fmt_snprintf(why, WHY_LEN, "volume %s is read-only", RESULTS_LABEL);
	else if (v.free_space < len)
		fmt_snprintf(why, WHY_LEN, "volume %s is full: %llu bytes free, the log has %llu",
			     RESULTS_LABEL, (unsigned long long)v.free_space,
			     (unsigned long long)len);
	ok = !v.read_only && v.free_space >= len && write_log(&v, text, len, path, why);
	EFI_CALL(v.root->close, v.root);
	return ok;
}

void log_save(void)
{
	static bool started;
	char path[NAME_LEN + sizeof(LOG_DIR) + 2] = "", why[WHY_LEN];
	const struct log_keep *k = log_kept();
	const char *text;
	size_t len;

	if (started) {
		out_line("log not saved: a CPU exception while saving it");
		return;
	}
	started = true;
	if (!efi_system_table()) {
		out_line("log not saved: no UEFI boot services (BIOS, QEMU -kernel or multiboot v1)");
		return;
	}
	efi_lower_tpl();
	len = log_keep_text(log_kept(), &text);
	if (!save(path, why)) {
		out_line("log not saved: %s", why);
		return;
	}
	if (k->lost)
		out_line("log saved: %s bytes=%zu volume=%s cut: %lu later lines on serial only",
			 path, len, RESULTS_LABEL, k->lost);
	else
		out_line("log saved: %s bytes=%zu volume=%s", path, len, RESULTS_LABEL);
}
