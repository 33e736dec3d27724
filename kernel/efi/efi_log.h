/* SPDX-License-Identifier: MIT */
#ifndef PB_EFI_LOG_H
#define PB_EFI_LOG_H

/*
 * At the end of the run, after "done:": writes the kept log (kernel/
 * log_keep.c) to the boot stick's PBRESULTS volume on UEFI, and prints
 * "log saved: ..." or "log not saved: why" (also on a BIOS: why not).
 */
void log_save(void);

#endif
