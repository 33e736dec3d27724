/* SPDX-License-Identifier: MIT */
#include "kernel/efi/efi_path.h"

static size_t node_len(const struct efi_device_path *n)
{
	return n->length[0] | (size_t)n->length[1] << 8;
}

/* A node shorter than its own header ends the walk: the path is malformed. */
static bool is_end(const struct efi_device_path *n)
{
	return n->type == DEVICE_PATH_END || node_len(n) < sizeof(*n);
}

static const struct efi_device_path *next_node(const struct efi_device_path *n)
{
	return (const void *)((const uint8_t *)n + node_len(n));
}

/* The bytes of p before its first media node (all of p without one). */
static size_t disk_len(const struct efi_device_path *p, bool *has_media)
{
	const struct efi_device_path *n = p;

	*has_media = false;
	for (; !is_end(n); n = next_node(n)) {
		if (n->type == DEVICE_PATH_MEDIA) {
			*has_media = true;
			break;
		}
	}
	return (size_t)((const uint8_t *)n - (const uint8_t *)p);
}

static bool same_bytes(const void *a, const void *b, size_t n)
{
	const uint8_t *x = a, *y = b;

	while (n--)
		if (*x++ != *y++)
			return false;
	return true;
}

bool efi_path_same_disk(const struct efi_device_path *boot,
			const struct efi_device_path *c)
{
	bool media, cmedia;
	size_t len = disk_len(boot, &media);
	size_t clen = disk_len(c, &cmedia);

	return media == cmedia && clen == len && same_bytes(boot, c, len);
}

bool efi_path_via_el_torito(const struct efi_device_path *p)
{
	for (; !is_end(p); p = next_node(p))
		if (p->type == DEVICE_PATH_MEDIA && p->subtype == MEDIA_CDROM)
			return true;
	return false;
}
