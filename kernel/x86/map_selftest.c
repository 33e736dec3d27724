/* SPDX-License-Identifier: MIT */
/*
 * selftest=map: map_device() on the live page tables, where no QEMU can
 * put a framebuffer: beyond the first 512 GiB, so that it needs a page
 * directory pointer table of its own. tests/boot/test_screen.py plugs memory
 * in there (a pc-dimm at SELFTEST_MAP_ADDR), so a pattern must read back.
 */
#include "lib/out.h"
#include "lib/run.h"
#include "kernel/x86/paging.h"

#define SELFTEST_MAP_ADDR	(512ull << 30)
#define SELFTEST_MAP_LEN	(3 * PAGE_2M)
#define PATTERN			0x5a5a0000c3c3ffffull

void map_selftest(void)
{
	volatile uint64_t *p = (volatile uint64_t *)(uintptr_t)SELFTEST_MAP_ADDR;
	const unsigned int stride = PAGE_2M / sizeof(*p);
	enum map_result r;
	unsigned int i;

	run_step("selftest=map: identity-map 0x%llx", SELFTEST_MAP_ADDR);
	r = map_device(SELFTEST_MAP_ADDR, SELFTEST_MAP_LEN);
	if (r != MAP_OK) {
		out_line("selftest map: FAILED addr=0x%llx len=0x%llx (%s)",
			 SELFTEST_MAP_ADDR, SELFTEST_MAP_LEN, map_result_name(r));
		run_fail();
		return;
	}
	/* One word in each 2 MiB page, each its own value. */
	for (i = 0; i < SELFTEST_MAP_LEN / PAGE_2M; i++)
		p[i * stride] = PATTERN ^ i;
	for (i = 0; i < SELFTEST_MAP_LEN / PAGE_2M; i++) {
		if (p[i * stride] != (PATTERN ^ i)) {
			out_line("selftest map: FAILED addr=0x%llx len=0x%llx "
				 "(read 0x%llx at 0x%llx: no memory there?)",
				 SELFTEST_MAP_ADDR, SELFTEST_MAP_LEN,
				 (unsigned long long)p[i * stride],
				 SELFTEST_MAP_ADDR + i * PAGE_2M);
			run_fail();
			return;
		}
	}
	out_line("selftest map: ok addr=0x%llx len=0x%llx", SELFTEST_MAP_ADDR,
		 SELFTEST_MAP_LEN);
}
