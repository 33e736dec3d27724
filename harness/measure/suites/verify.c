/* SPDX-License-Identifier: MIT */
/*
 * Every call's result is checked, and what it ran on is set first, so that
 * a routine that did nothing cannot pass; a failure or a fault prints a
 * line and counts (docs/log-format.md), and a variant that faulted is left
 * out of the rest of the run.
 */
#include "lib/out.h"
#include "lib/run.h"
#include "harness/measure/bench.h"
#include "harness/measure/suites/verify.h"

/* A fault also counts as a failure of the pass, for its summary. */
void variant_fault(enum op op, const char *header, unsigned int i, const struct fault *f,
		   variant_set *runs, variant_set *failed)
{
	out_line("fault: suite=%s pass=%s variant=%s %s rip=0x%lx",
		 op_name(op), header, variants[i].name, f->what, (unsigned long)f->rip);
	run_fail();
	*runs &= ~(1ull << i);
	*failed |= 1ull << i;
}

static void verify(const char *pass, const struct variant *v,
		   const struct layout *l)
{
	size_t off = l->src ? find_mismatch(l->dst, l->src, l->bytes) :
			      find_nonzero(l->dst, l->bytes);

	if (off != NOT_FOUND && l->src) {
		out_line("verify FAILED: suite=copy pass=%s variant=%s offset=0x%lx dst 0x%x != src 0x%x",
			 pass, v->name, (unsigned long)off, l->dst[off], l->src[off]);
		run_fail();
	} else if (off != NOT_FOUND) {
		out_line("verify FAILED: suite=clear pass=%s variant=%s offset=0x%lx byte 0x%x is not zero",
			 pass, v->name, (unsigned long)off, l->dst[off]);
		run_fail();
	}
	verify_guards(op_name(v->op), pass, v->name, l->dst, l->bytes);
}

/* verify() counts a failure for every line it prints. */
static bool verified(const char *pass, const struct variant *v,
		     const struct layout *l)
{
	unsigned int before = run_failures();

	verify(pass, v, l);
	return run_failures() == before;
}

/* Slots 0 .. n - 1 of l after variant i; a failure marks i failed in ps. */
void verify_slots(const char *header, unsigned int i, const struct layout *l,
		  unsigned int n, variant_set *failed)
{
	unsigned int j;

	for (j = 0; j < n; j++) {
		struct layout one = layout_slot(l, j);

		if (!verified(header, &variants[i], &one))
			*failed |= 1ull << i;
	}
}

/*
 * What dst (and src) hold before a call: a dst that already held the
 * result would hide a routine that did nothing.
 */
void prepare_slot(const struct layout *l, unsigned int rep, unsigned int i)
{
	if (l->src)
		fill_words(l->src, l->bytes, rep * 64 + i);
	fill_bytes(l->dst, (uint8_t)(0x11 * (rep % 15 + 1)), l->bytes);
}
