/* SPDX-License-Identifier: MIT */
/*
 * suite=strings: the bytes each batch works on, set up before it and
 * checked after it, every one of them and the guards around them, so that
 * no figure comes from a routine that wrote the wrong bytes, too many or
 * too few; and the lines that say when one did, or faulted.
 */
#include "harness/measure/bench.h"
#include "lib/out.h"
#include "lib/run.h"
#include "harness/measure/suites/strings_block.h"

#define GUARD		64	/* bytes checked on each side of a range */
#define SRC_GUARD_BYTE	0x3c	/* around src, unlike dst's: an over-long copy shows */
#define FILL_BASE	0xa0	/* memset fills with FILL_BASE + rep % FILL_KINDS */
#define FILL_KINDS	16

static uint8_t fill_byte(unsigned int rep)
{
	return (uint8_t)(FILL_BASE + rep % FILL_KINDS);
}

/* The calls' second argument: memcpy's src, or the fill byte want_byte() expects. */
uintptr_t strings_arg2(const struct block *k, unsigned int rep)
{
	return k->src ? (uintptr_t)k->src : fill_byte(rep);
}

/* What dst[i] must hold once a call of more than i bytes has run. */
static uint8_t want_byte(const struct block *k, size_t i, unsigned int rep)
{
	return k->src ? k->src[i] : fill_byte(rep);
}

/* src: a pattern of this rep, other guard bytes than dst's around it. */
void strings_prepare_src(const struct block *k, size_t n, unsigned int rep)
{
	size_t i;

	if (!k->src)
		return;
	for (i = 0; i < GUARD; i++) {
		k->src[-1 - (ptrdiff_t)i] = SRC_GUARD_BYTE;
		k->src[n + i] = SRC_GUARD_BYTE;
	}
	for (i = 0; i < n; i++)
		k->src[i] = (uint8_t)(i * 13 + rep * 7 + 0x21);
}

/*
 * dst: guard bytes around [dst, dst + n), and in it the complement of the
 * result, so a routine that did nothing fails. This also brings every line
 * the batch touches into the cache: the suite measures warm buffers.
 */
void strings_prepare_dst(const struct block *k, size_t n, unsigned int rep)
{
	size_t i;

	for (i = 0; i < GUARD; i++) {
		k->dst[-1 - (ptrdiff_t)i] = GUARD_BYTE;
		k->dst[n + i] = GUARD_BYTE;
	}
	for (i = 0; i < n; i++)
		k->dst[i] = (uint8_t)~want_byte(k, i, rep);
}

/*
 * After a batch whose calls wrote [dst, dst + written), inside a prepared
 * range of n bytes: the result there, the rest of the range untouched, the
 * guards intact. A failure prints one line and counts.
 */
void strings_verify(struct strings_state *s, const struct block *k, unsigned int slot,
		    size_t written, size_t n, unsigned int rep, const char *batch)
{
	const char *what = NULL;
	ptrdiff_t off = 0;
	uint8_t got = 0, want = 0;
	size_t i;

	for (i = 0; i < GUARD && !what; i++) {
		got = k->dst[-1 - (ptrdiff_t)i];
		want = GUARD_BYTE;
		if (got != want) {
			off = -1 - (ptrdiff_t)i;
			what = "guard byte before dst written (offset counts back)";
		}
	}
	for (i = 0; i < n + GUARD && !what; i++) {
		got = k->dst[i];
		want = i >= n ? GUARD_BYTE : i < written ? want_byte(k, i, rep) :
		       (uint8_t)~want_byte(k, i, rep);
		if (got != want) {
			off = (ptrdiff_t)i;
			what = i >= n ? "guard byte after dst written" :
			       i < written ? "wrong byte" : "byte past the calls' sizes written";
		}
	}
	if (!what)
		return;
	out_line("verify FAILED: suite=%s pass=strings %s %s variant=%s offset=0x%lx %s: 0x%x, want 0x%x",
		 string_op_name(k->op), k->name, batch, slot_name(k, slot),
		 (unsigned long)(off < 0 ? -off : off), what, got, want);
	run_fail();
	if (k->variant[slot] >= 0 && s->figs)
		strings_figures_failed(s->figs, (unsigned int)k->variant[slot]);
}

/* A variant that faulted is left out of the rest of the run. */
void strings_fault(struct strings_state *s, const struct block *k,
		   unsigned int slot, const char *batch, const struct fault *f)
{
	out_line("fault: suite=%s pass=strings %s %s variant=%s %s rip=0x%lx",
		 string_op_name(k->op), k->name, batch, slot_name(k, slot),
		 f->what, (unsigned long)f->rip);
	run_fail();
	if (k->variant[slot] >= 0) {
		s->runs &= ~(1ull << k->variant[slot]);
		if (s->figs)
			strings_figures_failed(s->figs, (unsigned int)k->variant[slot]);
	}
}
