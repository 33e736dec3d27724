// SPDX-License-Identifier: MIT
/*
 * The description lines of docs/log-format.md. The Xen header comes first
 * because readers of the 2021 logs key on it; the rest are one fact a line
 * so that a regular expression per line type can read them.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "cpu/cpu.h"
#include "cpu/describe.h"
#include "cpu/hot_load.h"
#include "lib/fmt.h"
#include "lib/out.h"

static void xen_header(const struct cpu_desc *d)
{
	out_line("erms=%d fsrm=%d fzrm=%d fsrs=%d fsrcs=%d l1d=%uk l2=%uk",
		 cpu_has(d, FEAT_ERMS), cpu_has(d, FEAT_FSRM),
		 cpu_has(d, FEAT_FZRM), cpu_has(d, FEAT_FSRS),
		 cpu_has(d, FEAT_FSRCS), d->l1d.size_kib, d->l2.size_kib);
}

/*
 * The cpu line's vendor is one \S+ token, but Zhaoxin's is "  Shanghai  "
 * and a dump may hold any bytes.
 */
static void vendor_token(char *out, const char *v)
{
	size_t j = 0;

	for (size_t i = 0; i < 12 && v[i] != '\0'; i++) {
		if (v[i] == ' ')
			continue;
		out[j++] = (v[i] > 0x20 && v[i] < 0x7f) ? v[i] : '?';
	}
	if (j == 0)
		for (const char *s = "unknown"; *s; s++)
			out[j++] = *s;
	out[j] = '\0';
}

static void cpu_line(const struct cpu_desc *d)
{
	char vendor[13];

	vendor_token(vendor, d->vendor);
	out_line("cpu vendor=%s family=0x%x model=0x%x stepping=%u", vendor,
		 d->family, d->model, d->stepping);
}

/* CPUID's features, then the MSR bit where a live run could read it. */
static void features_line(const struct cpu_desc *d, const struct live_facts *live)
{
	char buf[OUT_LINE_MAX];
	size_t len;

	len = fmt_snprintf(buf, sizeof(buf), "features");
	for (int f = FEAT_NONE + 1; f < FEAT_COUNT; f++) {
		if (len >= sizeof(buf))
			break;
		len += fmt_snprintf(buf + len, sizeof(buf) - len, " %s=%d",
				    feat_name(f), cpu_has(d, f));
	}
	if (live && live->fast_string != FAST_STRING_UNKNOWN && len < sizeof(buf))
		fmt_snprintf(buf + len, sizeof(buf) - len, " fast_string=%d",
			     live->fast_string);
	out_line("%s", buf);
}

static void hypervisor_line(const struct cpu_desc *d)
{
	if (!cpu_has(d, FEAT_HYPERVISOR))
		out_line("hypervisor: none");
	else if (d->hv_vendor[0] == '\0')
		out_line("hypervisor: (unnamed)");
	else
		out_line("hypervisor: %s", d->hv_vendor);
}

static void tsc_line(const struct cpu_desc *d, const struct live_facts *live)
{
	uint64_t khz = live ? live->tsc_khz : d->tsc_khz;
	enum tsc_source src = live ? live->tsc_src : d->tsc_src;

	if (!live && src == TSC_SRC_NONE)
		out_line("tsc: not in dump");
	else
		out_line("tsc khz=%llu source=%s", (unsigned long long)khz,
			 tsc_source_name(src));
}

enum hot_load_runner live_runs_on(const struct cpu_desc *d,
				  const struct live_facts *live)
{
	return hot_load_runner(live->hot_load_ticks, live->tsc_khz,
			       cpu_hv_is(d, HV_VENDOR_TCG));
}

static void hot_load_line(const struct cpu_desc *d, const struct live_facts *live)
{
	static const char *const runner[] = {
		[HOT_LOAD_CPU] = "cpu",
		[HOT_LOAD_EMULATOR] = "emulator",
		[HOT_LOAD_TCG] = "tcg",
		[HOT_LOAD_UNKNOWN] = "?",
	};
	enum hot_load_runner r;
	uint64_t cns;
	char ns[24];

	if (!live) {
		out_line("hot load: not in dump");
		return;
	}
	r = live_runs_on(d, live);
	cns = hot_load_cns(live->hot_load_ticks, live->tsc_khz);
	if (live->tsc_khz)
		fmt_snprintf(ns, sizeof(ns), "%llu.%02llu", (unsigned long long)(cns / 100),
			     (unsigned long long)(cns % 100));
	else
		fmt_snprintf(ns, sizeof(ns), "?");
	out_line("hot load loads=%u ticks=%llu ns=%s runs_on=%s", HOT_LOADS,
		 (unsigned long long)live->hot_load_ticks, ns, runner[r]);
	if (r == HOT_LOAD_EMULATOR)
		out_line("note: hot load: %s ns, where a CPU takes under %u: an "
			 "instruction emulator runs this program, and every figure "
			 "measures it, not the CPU", ns, HOT_LOAD_CPU_MAX_CNS / 100);
}

void describe_cpu(const struct cpu_desc *d, const char *version,
		  const struct live_facts *live)
{
	xen_header(d);
	out_line("pagebench version=%s", version);
	cpu_line(d);
	out_line("brand: %s", d->brand[0] ? d->brand : "(none)");

	if (!live)
		out_line("ucode: not in dump");
	else if (live->ucode_readable)
		out_line("ucode=0x%llx", (unsigned long long)live->ucode);
	else
		out_line("ucode: not readable");

	out_line("cache l1d=%uk l2=%uk l3=%uk line=%u source=%s",
		 d->l1d.size_kib, d->l2.size_kib, d->l3.size_kib, d->line_size,
		 cache_source_name(d->cache_src));
	features_line(d, live);
	hypervisor_line(d);
	tsc_line(d, live);
	hot_load_line(d, live);

	if (live)
		out_line("memory usable=%lluM",
			 (unsigned long long)(live->mem_usable >> 20));
	else
		out_line("memory: not in dump");

	if (live)
		out_line("cmdline: %s", live->cmdline ? live->cmdline : "");
	else
		out_line("cmdline: not in dump");
}
