/* SPDX-License-Identifier: MIT */
/*
 * UEFI device paths, as far as finding the boot stick's other partitions
 * goes. Pure: the host unit test runs it on paths of its own.
 */
#ifndef PB_EFI_PATH_H
#define PB_EFI_PATH_H

#include <stdbool.h>
#include "kernel/efi/efi.h"

/*
 * Whether c is on the disk the boot path is on: the same nodes up to the
 * boot path's first media node (a partition, or an El Torito image, which
 * may hold partitions of its own), then a media node. A boot path with no
 * media node (a whole disk) only matches itself.
 */
bool efi_path_same_disk(const struct efi_device_path *boot,
			const struct efi_device_path *c);

/* Whether p has an El Torito node: the firmware read the medium as a CD. */
bool efi_path_via_el_torito(const struct efi_device_path *p);

#endif
