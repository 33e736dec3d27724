// SPDX-License-Identifier: MIT
/*
 * Unit tests of what the saved log is made of (kernel/efi/log_keep.c) and of
 * how the boot stick's partitions are told apart from other disks
 * (kernel/efi/efi_path.c), on buffers and device paths made here. Expectations
 * come from the headers' contracts and the UEFI device path layout.
 */
#include <stdio.h>
#include <string.h>
#include "lib/out.h"
#include "kernel/efi/efi_path.h"
#include "kernel/efi/log_keep.h"
#include "tests/unit/check.h"

/* ---- log_keep ---- */

static void keep_lines(struct log_keep *k, unsigned int n)
{
	char line[64];
	unsigned int i;

	for (i = 0; i < n; i++) {
		int len = snprintf(line, sizeof(line), "(XEN) line %u\n", i);

		log_keep_add(k, line, (size_t)len);
	}
}

static void test_keep_crlf(void)
{
	static char buf[4096];
	struct log_keep k;
	const char *text;
	size_t n;

	log_keep_init(&k, buf, sizeof(buf));
	log_keep_add(&k, "(PB) a\n", 7);
	log_keep_add(&k, "(PB) done: 0 failures\n", 22);
	n = log_keep_text(&k, &text);
	result(n == 31 && !memcmp(text, "(PB) a\r\n(PB) done: 0 failures\r\n", 31),
	       "keep_lines_as_serial_sends_them", "got %zu bytes: '%.*s'", n, (int)n, text);
	result(k.lost == 0, "keep_nothing_lost", "lost %lu", k.lost);
}

static void test_keep_full(void)
{
	/* Room for the note (one whole line) and a few short lines. */
	static char buf[OUT_LINE_MAX + 1 + 100];
	struct log_keep k;
	const char *text, *note;
	char want[128];
	size_t n, kept;
	unsigned int lines;

	log_keep_init(&k, buf, sizeof(buf));
	keep_lines(&k, 20);
	kept = k.used;
	/* "(XEN) line N\r\n": 14 bytes for N < 10, 15 from 10. */
	lines = 0;
	for (n = 0; lines < 20; lines++) {
		size_t len = lines < 10 ? 14 : 15;

		if (n + len > 100)
			break;
		n += len;
	}
	result(kept == n && k.lost == 20 - lines, "keep_full_stops_at_limit",
	       "kept %zu bytes, %lu lost; want %zu bytes, %u lost", kept, k.lost, n, 20 - lines);

	/* A short line after the limit is lost too: the file has no holes. */
	log_keep_add(&k, "(XEN) x\n", 8);
	result(k.used == kept && k.lost == 21 - lines, "keep_full_no_holes",
	       "used %zu lost %lu", k.used, k.lost);

	n = log_keep_text(&k, &text);
	note = text + kept;
	snprintf(want, sizeof(want),
		 "(XEN) note: the saved log stops at its limit of %zu bytes: %lu more lines are on serial only\r\n",
		 sizeof(buf), k.lost);
	result(n == kept + strlen(want) && !memcmp(note, want, strlen(want)) && n <= sizeof(buf),
	       "keep_full_ends_with_note", "got '%.*s'", (int)(n - kept), note);
	result(log_keep_text(&k, &text) == n, "keep_text_twice_same", "length changed");
}

static void test_keep_tiny(void)
{
	static char buf[16];
	struct log_keep k;
	const char *text;

	/* Smaller than one note: nothing is kept, nothing is written past it. */
	log_keep_init(&k, buf, sizeof(buf));
	keep_lines(&k, 3);
	result(log_keep_text(&k, &text) == 0 && k.lost == 3, "keep_tiny_buffer",
	       "used %zu lost %lu", k.used, k.lost);
}

/* ---- device paths ---- */

/* Nodes as the UEFI specification lays them out: type, subtype, length. */
#define NODE(t, s, len)	(t), (s), (len) & 0xff, (len) >> 8
#define PCI		NODE(1, 1, 6), 0x00, 0x14
#define PCI_OTHER	NODE(1, 1, 6), 0x00, 0x1f
#define ROOT		NODE(2, 1, 12), 0xd0, 0x41, 0x03, 0x0a, 0, 0, 0, 0
#define USB(port)	NODE(3, 5, 6), (port), 0
#define ZEROS8		0, 0, 0, 0, 0, 0, 0, 0
/* Short partition nodes: the walk only reads a node's type and length. */
#define PART(n)		NODE(4, 1, 8), (n), 0, 0, 0
/* El Torito: boot entry, then start and size (64 bits each). */
#define CDROM(entry)	NODE(4, 2, 24), (entry), 0, 0, 0, ZEROS8, ZEROS8
#define ATAPI		NODE(3, 1, 8), 0, 0, 0, 0
#define END		NODE(0x7f, 0xff, 4)

static const uint8_t boot_esp[] = { ROOT, PCI, USB(1), PART(2), END };
static const uint8_t results[] = { ROOT, PCI, USB(1), PART(4), END };
static const uint8_t other_stick[] = { ROOT, PCI, USB(2), PART(4), END };
static const uint8_t other_ctrl[] = { ROOT, PCI_OTHER, USB(1), PART(4), END };
static const uint8_t stick_disk[] = { ROOT, PCI, USB(1), END };
/* OVMF's CD boot: an El Torito image, and a partition the firmware found in it. */
static const uint8_t cd_boot[] = { ROOT, PCI, ATAPI, CDROM(1), PART(1), END };
static const uint8_t cd_torito[] = { ROOT, PCI, ATAPI, CDROM(1), END };
static const uint8_t malformed[] = { ROOT, NODE(1, 1, 2), END };

#define PATH(a)	((const struct efi_device_path *)(a))

static void test_paths(void)
{
	result(efi_path_same_disk(PATH(boot_esp), PATH(results)), "path_sibling_partition",
	       "the results partition of the boot stick not matched");
	result(efi_path_same_disk(PATH(boot_esp), PATH(boot_esp)), "path_itself",
	       "the boot partition not matched");
	result(!efi_path_same_disk(PATH(boot_esp), PATH(other_stick)), "path_other_port",
	       "a stick on another port matched");
	result(!efi_path_same_disk(PATH(boot_esp), PATH(other_ctrl)), "path_other_controller",
	       "a stick on another controller matched");
	result(!efi_path_same_disk(PATH(boot_esp), PATH(stick_disk)), "path_whole_disk",
	       "the raw disk (no file system) matched");
	result(efi_path_same_disk(PATH(stick_disk), PATH(stick_disk)) &&
	       !efi_path_same_disk(PATH(stick_disk), PATH(boot_esp)), "path_boot_whole_disk",
	       "a whole-disk boot device must match itself only");
	result(efi_path_same_disk(PATH(cd_boot), PATH(cd_torito)), "path_cd_nested",
	       "the El Torito image of the boot CD not matched");
	result(efi_path_via_el_torito(PATH(cd_boot)) && !efi_path_via_el_torito(PATH(boot_esp)),
	       "path_el_torito", "El Torito node not told");
	result(!efi_path_via_el_torito(PATH(malformed)) &&
	       !efi_path_same_disk(PATH(boot_esp), PATH(malformed)), "path_malformed",
	       "a node shorter than its header must end the walk");
}

int main(void)
{
	test_keep_crlf();
	test_keep_full();
	test_keep_tiny();
	test_paths();
	return check_exit();
}
