"""Tests of scripts/pagebench-report (docs/report.md).

Statistics are checked against values worked out by hand; the parser and
every subcommand run on every fixture in tests/fixtures/report/ (any *.log
added there later, such as real qemu-*.log captures, is picked up); a fuzz
test feeds random bytes, mutations and every truncation of a log; the HTML
report is loaded in headless Chromium when it is installed.
"""
import csv
import glob
import io
import json
import math
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile
import unittest
from array import array
from html.parser import HTMLParser

sys.dont_write_bytecode = True
HERE = os.path.dirname(os.path.abspath(__file__))
TESTS = os.path.dirname(HERE)
ROOT = os.path.dirname(TESTS)
FIX = os.path.join(TESTS, "fixtures", "report")
sys.path.insert(0, os.path.join(ROOT, "scripts"))
sys.path.insert(0, os.path.join(TESTS, "lib"))
from report_tool import run_tool  # noqa: E402

from pbreport import analysis, grammar, versus  # noqa: E402
from pbreport import parse as P  # noqa: E402
from pbreport import engine, export, htmlreport, textout  # noqa: E402
from pbreport import strings as S  # noqa: E402


def fx(name):
    return os.path.join(FIX, name)


def load(*names):
    ms, ds = P.load([fx(n) for n in names])
    return [m for m in ms if m.has_data], ds


def all_logs():
    return sorted(glob.glob(os.path.join(FIX, "*.log")))


# Expected exit status of the fixtures made by hand; any other *.log (real
# captures added later) must have data when named qemu-*, and otherwise just
# must not crash.
EXPECTED_EXIT = {
    "dirty-binary.log": 0, "dirty-noise.log": 0, "dirty-truncated.log": 0,
    "nodata-cpuid.log": 1, "nodata-empty.log": 1, "nodata-garbage.log": 1,
    "nodata-option-error.log": 1, "pb-failures.log": 0,
    "pb-skylake-all.log": 0, "pb-skylake-clear-a.log": 0,
    "pb-skylake-clear-b.log": 0, "pb-two-runs.log": 0, "pb-zen2-clear.log": 0,
    "pb-strings-epyc-linux.log": 0,
    "xen-aorus.log": 0, "xen-bootlog.log": 0, "xen-collection.log": 0,
}


def expected_exit(path):
    name = os.path.basename(path)
    if name in EXPECTED_EXIT:
        return EXPECTED_EXIT[name]
    if name.startswith(("qemu-", "pb-", "xen-")):
        return 0
    return None                 # 0 or 1, whichever: only no crash matters


def is_clean(path):
    """Logs that follow the format exactly: every value line is a sample."""
    return os.path.basename(path).startswith(("pb-", "xen-", "qemu-"))


# Independent of the parser: the value line, copy-hot/cold line and pass
# header as docs/log-format.md gives them (after a Xen console timestamp,
# if any).
def _doc_line(kind):
    return re.compile("^" + grammar.TAG + r"(?:\[[^\]]*\] )?" + grammar.regex(kind))


VALUE_RE, AGG_RE, HEADER_RE, SCRUB_RE = (_doc_line(k) for k in ("value", "agg", "pass", "scrub"))


def count_lines(path, rx):
    with open(path, "rb") as fh:
        text = fh.read().decode("utf-8", "replace")
    return [m for m in (rx.match(l.rstrip("\r")) for l in text.split("\n"))
            if m]


def value_suites(path):
    """The suite (clear or copy) of each value line, from the pass header
    before it."""
    with open(path, "rb") as fh:
        text = fh.read().decode("utf-8", "replace")
    suite, out = None, []
    for l in text.split("\n"):
        l = l.rstrip("\r")
        h = HEADER_RE.match(l)
        if h:
            suite = "copy" if h.group(1) else "clear"
        elif VALUE_RE.match(l):
            out.append(suite)
    return out


def report_name(path, suite, name):
    """A variant's name as the report gives it: a log without `variant`
    lines is old, its names read through docs/log-format.md's table."""
    with open(path, "rb") as fh:
        if b") variant name=" in fh.read():
            return name
    return grammar.OLD_NAMES.get(suite, {}).get(name, name)


GROUPS = ("fast", "report")


# ---------------------------------------------------------------------------
class OrderStatsTest(unittest.TestCase):
    """The order statistics a table shows (analysis.Cell.of); every
    comparison is the engine's (VersusTest)."""

    def cell(self, vs):
        return analysis.Cell.of(vs)

    def test_median(self):
        self.assertEqual(self.cell([3, 1, 2]).median, 2)
        self.assertEqual(self.cell([4, 1, 3, 2]).median, 2.5)
        self.assertEqual(self.cell([7]).median, 7)

    def test_quartiles_type7(self):
        # h = (n-1)q: [1,2,3,4] q1 at h=0.75 -> 1.75, q3 at 2.25 -> 3.25
        c = self.cell([4, 2, 1, 3])
        self.assertAlmostEqual(c.q1, 1.75)
        self.assertAlmostEqual(c.q3, 3.25)
        self.assertAlmostEqual(c.iqr, 1.5)
        # Jan's three samples: 6080 6088 6096 -> q1 6084, q3 6092
        c = self.cell([6088, 6096, 6080])
        self.assertEqual((c.n, c.min, c.q1, c.median, c.q3, c.max),
                         (3, 6080, 6084, 6088, 6092, 6096))
        self.assertEqual(c.iqr, 8)
        self.assertEqual(self.cell([5]).iqr, 0)
        # n=5: [1,2,3,4,100]: q1 at h=1 -> 2, q3 at h=3 -> 4
        self.assertEqual(self.cell([100, 1, 2, 3, 4]).iqr, 2)


# ---------------------------------------------------------------------------
class ParseTest(unittest.TestCase):
    GROUPS = ("fast", "report", "boot")

    def test_xen_log(self):
        (m,), _ = load("xen-aorus.log")
        self.assertEqual(m.format, "xen-2021")
        self.assertEqual(m.tag, "XEN")
        self.assertEqual(m.facts["xen"], {"erms": 1, "fsrm": 0, "fzrm": 0,
                                          "fsrs": 0, "fsrcs": 0, "l1d": 32,
                                          "l2": 256})
        self.assertIsNone(m.tsc_khz)
        self.assertEqual([p.label for p in m.ordered_passes()],
                         ["L1 w/o flush", "L1 w/ flush", "L2 w/o flush",
                          "L2 w/ flush", "MEM"])
        p = m.passes[("clear", "L1 w/o flush")]
        s = p.samples[0]        # " pre=5aa sse2=17c8 post=466"
        self.assertEqual((s.variant, s.iter, s.pre, s.ticks, s.post),
                         ("sse2", 1, 0x5aa, 0x17c8, 0x466))
        self.assertEqual((s.pre, s.ticks, s.post), (1450, 6088, 1126))
        self.assertEqual(p.variants, ["sse2", "stosb", "stosl", "stosq",
                                      "avx"])
        self.assertEqual([x.iter for x in p.samples if x.variant == "stosb"],
                         [1, 2, 3])
        self.assertEqual(len(p.samples), 15)
        self.assertEqual(P.pass_bytes(m, "clear", "L1 w/o flush"), 16384)
        self.assertEqual(P.pass_bytes(m, "clear", "L2 w/ flush"), 131072)
        self.assertIsNone(P.pass_bytes(m, "clear", "MEM"))      # no L3

    def test_cycles_and_retime_counts(self):
        """The cycles lines and the disturbance line's retime counts reach
        the model; a disturbance line of a log before them has None there."""
        text = ("(PB) cycles source=perf-cycles ref=tsc\n"
                "(PB) L1 w/o flush:\n(PB)  pre=1 stosb=2 post=3\n"
                "(PB) cycles suite=clear pass=l1 variant=stosb samples=1 "
                "ticks=2 ref=2 cycles=3 ratio=1.500 mhz=3450\n"
                "(PB) cycles suite=clear pass=l1 variant=avx samples=0 "
                "ticks=0 ref=0 cycles=0 ratio=? mhz=?\n"
                "(PB) disturbance suite=clear pass=l1 nivcsw=0 nvcsw=0 irqs=4 "
                "top=LOC:4 samples=1 retimed=2 kept=1 cpus=3:3\n"
                "(PB) disturbance suite=scrub pass=cpus2 nivcsw=0 nvcsw=0 "
                "irqs=unknown samples=5 retimed=1 kept=0 cpus=3:0,0:1,...\n"
                "(PB) disturbance suite=clear pass=l2 nivcsw=1 nvcsw=0 irqs=0\n")
        (m,), diags = P.read_bytes(text.encode(), "c.log")
        self.assertEqual([str(d) for d in diags], [])
        self.assertEqual(m.facts["cycles"], {"source": "perf-cycles", "ref": "tsc"})
        self.assertEqual([(c["pass"], c["variant"], c["ratio"], c["mhz"])
                          for c in m.cycles],
                         [("L1 w/o flush", "stosb", 1.5, 3450),
                          ("L1 w/o flush", "avx", None, None)])
        d = m.disturbances
        self.assertEqual([(x["samples"], x["retimed"], x["kept"], x["cpus"],
                           x["cpus_cut"]) for x in d],
                         [(1, 2, 1, [(3, 3)], False),
                          (5, 1, 0, [(3, 0), (0, 1)], True),
                          (None, None, None, [], False)])
        self.assertEqual(len(m.passes[("clear", "L1 w/o flush")].samples), 1)
        (n,), _ = P.read_bytes(b"(PB) cycles: none (cycles=off)\n", "n.log")
        self.assertEqual(n.facts["cycles"], {"none": "cycles=off"})

    def test_pass_bytes(self):
        (m,), _ = load("pb-skylake-all.log")     # l1d 32k l2 256k l3 8192k
        b = lambda s, n: P.pass_bytes(m, s, n)
        self.assertEqual(b("clear", "L1 w/o flush"), 16 * 1024)   # 8 pages/2
        self.assertEqual(b("copy", "L1 w/ flush"), 8 * 1024)      # 8 pages/4
        self.assertEqual(b("clear", "L2 w/o flush"), 128 * 1024)
        self.assertEqual(b("copy", "L2 w/o flush"), 64 * 1024)
        self.assertEqual(b("clear", "L3 w/ flush"), 4 << 20)
        self.assertEqual(b("clear", "MEM"), 8 << 20)              # buf = L3
        self.assertEqual(b("copy", "MEM"), 4 << 20)
        self.assertEqual(b("copy", "hot"), 4096)
        text = ("(PB) cache l1d=48k l2=1280k l3=0k line=64 source=leaf4\n"
                "(PB) MEM:\n(PB)  pre=1 stosb=2 post=3\n")
        (m,), _ = P.read_bytes(text.encode(), "x.log")
        self.assertEqual(P.pass_bytes(m, "clear", "MEM"), 1280 * 1024)
        self.assertEqual(P.pass_bytes(m, "clear", "L1 w/o flush"), 24 * 1024)
        self.assertEqual(P.pass_bytes(m, "copy", "L1 w/o flush"), 12 * 1024)
        self.assertIsNone(P.pass_bytes(m, "clear", "L3 w/o flush"))

    def test_pagebench_log(self):
        (m,), diags = load("pb-skylake-all.log")
        self.assertEqual(diags, [])
        self.assertEqual(m.format, "pagebench")
        self.assertEqual(m.tsc_khz, 4000000)
        self.assertEqual(m.facts["cpu"], {"vendor": "GenuineIntel",
                                          "family": 6, "model": 0x5e,
                                          "stepping": 3})
        self.assertEqual(m.facts["cache"]["l3"], 8192)
        self.assertEqual(m.facts["features"]["avx2"], 1)
        self.assertEqual(m.facts["features"]["avx512f"], 0)
        self.assertEqual(m.reps, 5)
        self.assertEqual((m.done, m.complete), (0, "halting"))
        self.assertEqual(len(m.ordered_passes()), 16)      # 7 + 7 + hot, cold
        self.assertEqual(m.skipped_variants[0],
                         ("avx512", "clear", "no avx512f"))
        # sse2 runs in both suites and must not mix
        c = m.passes[("clear", "L1 w/o flush")].samples_of("sse2")
        k = m.passes[("copy", "L1 w/o flush")].samples_of("sse2")
        self.assertEqual((len(c), len(k)), (5, 5))
        self.assertNotEqual([s.line for s in c], [s.line for s in k])
        # An old log: the copy table's sse2 was temporal, sse2_nt not.
        self.assertEqual(m.passes[("copy", "L1 w/o flush")].variants,
                         ["movsb", "movsq", "regs", "sse2_t", "sse2",
                          "avx_t", "avx"])
        hot = m.passes[("copy", "hot")]
        a = hot.aggregates["movsb"]
        self.assertEqual((a.n, a.median), (64, 292))
        self.assertEqual(hot.samples, [])

    def test_collection(self):
        ms, diags = load("xen-collection.log")
        self.assertEqual([m.name for m in ms],
                         ["Aorus (Skylake)", "Latitude E6410 (Sandybridge)",
                          "zen2-3700x.txt"])
        self.assertEqual([m.name_from for m in ms],
                         ["title", "title", "attachment"])
        (single,), _ = load("xen-aorus.log")
        key = ("clear", "L1 w/o flush")
        self.assertEqual([(s.variant, s.ticks) for s in ms[0].passes[key].samples],
                         [(s.variant, s.ticks) for s in single.passes[key].samples])
        self.assertEqual(ms[1].facts["xen"]["erms"], 0)
        self.assertIn("clzero", ms[2].passes[key].variants)
        # mail text is skipped, not taken as a machine
        self.assertTrue(any(d.first == 1 for d in diags))

    def test_dirty_noise(self):
        (m,), diags = load("dirty-noise.log")
        self.assertEqual(sum(len(p.samples) for p in m.passes.values()), 27)
        self.assertEqual(m.done, 0)
        self.assertEqual(m.facts["brand"],
                         "Intel(R) Core(TM) i7-6700K CPU @ 4.00GHz")  # no CR
        self.assertEqual(m.facts["version"], "v0.3-7-g1a2b3c4")      # noise
        text = [str(d) for d in diags]
        self.assertTrue(any(":3-6: skipped 4 lines" in t for t in text), text)
        self.assertTrue(any(":9: warning: ignored" in t for t in text), text)
        self.assertEqual(m.first_line, 8)

    def test_dirty_truncated(self):
        (m,), diags = load("dirty-truncated.log")
        self.assertIsNone(m.done)
        self.assertTrue(m.truncated)
        mem = m.passes[("clear", "MEM")]
        self.assertEqual(len(mem.samples_of("sse2")), 2)   # 3rd line is cut
        self.assertEqual(len(mem.samples_of("stosb")), 3)
        text = [str(d) for d in diags]
        self.assertTrue(any(":44: skipped: cut off" in t for t in text), text)
        self.assertTrue(any("no \"done:\" line" in t for t in text), text)

    def test_dirty_binary(self):
        ms, diags = load("dirty-binary.log")
        self.assertEqual([m.name for m in ms],
                         ["dirty-binary.log", "dirty-binary.log #2"])
        self.assertEqual(ms[1].done, 0)
        self.assertEqual(len(ms[1].passes[("clear", "L1 w/o flush")].samples), 6)
        text = [str(d) for d in diags]
        for line in (21, 25):
            self.assertIn("%s:%d: skipped: binary garbage in a tagged line"
                          % (fx("dirty-binary.log"), line), text)

    def test_two_runs(self):
        ms, _ = load("pb-two-runs.log")
        self.assertEqual([m.name for m in ms],
                         ["pb-two-runs.log", "pb-two-runs.log #2"])
        self.assertEqual([m.complete for m in ms], ["rebooting", "rebooting"])

    def test_xen_boot_log_with_timestamps(self):
        (m,), diags = load("xen-bootlog.log")
        self.assertEqual(sum(len(p.samples) for p in m.passes.values()), 90)
        self.assertEqual(m.facts["xen"]["l1d"], 48)
        self.assertEqual(str(diags[0]).split(": ", 1)[1],
                         "skipped 4 lines: tagged line of unknown form")

    def test_failures(self):
        (m,), _ = load("pb-failures.log")
        self.assertEqual(m.done, 2)
        self.assertEqual(len(m.failures), 2)
        self.assertIn(("clear", "L1 w/o flush", "stosq"), m.verify_failed)
        p = m.passes[("clear", "L1 w/o flush")]
        self.assertTrue(analysis.raw_cell(m, p, "stosq").failed)
        self.assertFalse(analysis.raw_cell(m, p, "stosb").failed)

    def test_no_usable_data(self):
        for name in ("nodata-cpuid.log", "nodata-option-error.log",
                     "nodata-garbage.log", "nodata-empty.log"):
            ms, _ = P.load([fx(name)])
            self.assertFalse(any(m.has_data for m in ms), name)

    def test_any_tag_cr_and_titles(self):
        text = (b"garbage line\r"
                b"Box one:\r\r"
                b"(My_Tag7) L1 w/o flush:\r"
                b"(My_Tag7)  pre=a stosb=b post=c\r"
                b"\r[-- Attachment #3: two.txt --]\r"
                b"(PB) L2 w/o flush:\r"
                b"(PB)  pre=1 stosq=2 post=3\r")
        ms, diags = P.read_bytes(text, "t.log")
        self.assertEqual([m.name for m in ms], ["Box one", "two.txt"])
        self.assertEqual(ms[0].tag, "My_Tag7")
        s = ms[0].passes[("clear", "L1 w/o flush")].samples[0]
        self.assertEqual((s.pre, s.ticks, s.post), (10, 11, 12))
        self.assertEqual(len(diags), 1)          # "garbage line"

    def test_value_outside_pass_and_unknown_tagged(self):
        text = (b"(PB)  pre=1 stosb=2 post=3\n(PB) something new\n"
                b"(PB) L1 w/o flush:\n(PB)  pre=1 stosb=2 post=3\n")
        (m,), diags = P.read_bytes(text, "t.log")
        self.assertEqual([d.reason for d in diags],
                         ["value line outside a pass",
                          "tagged line of unknown form"])
        self.assertEqual(len(m.passes[("clear", "L1 w/o flush")].samples), 1)

    def test_too_long_numbers_do_not_parse(self):
        text = b"(PB) L1 w/o flush:\n(PB)  pre=1 stosb=" + b"f" * 17 + \
            b" post=3\n(PB)  pre=1 stosq=2 post=3\n"
        (m,), diags = P.read_bytes(text, "t.log")
        self.assertEqual(m.passes[("clear", "L1 w/o flush")].variants,
                         ["stosq"])
        self.assertEqual(diags[0].first, 2)

    def test_same_file_name_in_two_directories(self):
        d1, d2 = tempfile.mkdtemp(), tempfile.mkdtemp()
        try:
            for d in (d1, d2):
                shutil.copy(fx("xen-aorus.log"), os.path.join(d, "run.log"))
            ms, _ = P.load([os.path.join(d1, "run.log"),
                            os.path.join(d2, "run.log")])
            self.assertEqual([m.name for m in ms],
                             [os.path.join(d1, "run.log"),
                              os.path.join(d2, "run.log")])
        finally:
            shutil.rmtree(d1)
            shutil.rmtree(d2)

    def test_unreadable_file(self):
        ms, diags = P.load([fx("does-not-exist.log")])
        self.assertEqual(ms, [])
        self.assertEqual(diags[0].kind, "error")


def winner_rows(*logs):
    """The rows winners prints for logs: one per machine, function, pass
    and verdict-screen column of the answers."""
    code, out, err = run_tool("winners", "-q", *logs)
    assert code == 0, err
    return sum(1 for l in out.splitlines()
               if re.match(r"(clear_pages?|copy_page|memset|memcpy|scrub) ", l))


# ---------------------------------------------------------------------------
class AnalysisTest(unittest.TestCase):
    def versus(self, base, other):
        """other over base (Cells), made by the engine alone."""
        batch = versus.Batch()
        v = batch.versus(base, [other])[0]
        batch.run()
        return v

    def first_two(self, m, name):
        """The two lowest medians of a pass, and the engine's ratio of the
        second over the first, as diff describes two cells."""
        r = analysis.ranking(m, m.passes[("clear", name)])
        return r, self.versus(r[0][2], r[1][2])

    def test_ratio_rep_by_rep(self):
        """A log without epochs: each rep is its epoch, and the ratio is
        taken rep by rep (the engine's median of the reps' ratios)."""
        (m,), _ = load("xen-aorus.log")
        r, v = self.first_two(m, "L1 w/o flush")
        # stosb 1744 1736 1760 against stosq 1800 1792 1808, rep by rep:
        # 1.032110, 1.032258, 1.027273. The reps' ratios barely move: stosq
        # is surely slower, though three reps never gave p < 0.05.
        self.assertEqual((r[0][1], r[1][1]), ("stosb", "stosq"))
        self.assertEqual(r[0][2].median, 1744)
        self.assertEqual((v.epochs, v.median), (3, 1.03211))
        self.assertLess(v.lo, v.median)
        self.assertAlmostEqual(v.hi - v.median, v.median - v.lo, places=5)
        self.assertEqual(v.faster, "base")
        self.assertAlmostEqual(v.delta, 0.03211)
        # L1 w/ flush: stosb 3650 3660 3640, stosq 3700 3640 3710: 1.013699,
        # 0.994536, 1.019231 (sorted, the figures would pair otherwise and
        # give 1.013661): within noise.
        _, v = self.first_two(m, "L1 w/ flush")
        self.assertEqual(v.median, 1.013699)
        self.assertIsNone(v.faster)
        self.assertTrue(v.lo < 1 < v.hi)
        self.assertEqual([x[1] for x in r],
                         ["stosb", "stosq", "stosl", "avx", "sse2"])

    def test_ranks_share_equal_medians(self):
        text = ("(PB) L1 w/o flush:\n" + "".join(
            "(PB)  pre=1 %s=%x post=1\n" % (v, t)
            for v, t in (("a", 5), ("b", 3), ("c", 5), ("d", 9))))
        (m,), _ = P.read_bytes(text.encode(), "t.log")
        r = analysis.ranking(m, m.passes[("clear", "L1 w/o flush")])
        self.assertEqual([(k, v) for k, v, _ in r],
                         [(1, "b"), (2, "a"), (2, "c"), (4, "d")])

    def test_units(self):
        (m,), _ = load("pb-skylake-all.log")     # 4000000 kHz: 4 ticks/ns
        p = m.passes[("clear", "L1 w/o flush")]
        t = analysis.cell(m, p, "stosb", "time", analysis.TICKS)
        n = analysis.cell(m, p, "stosb", "time", analysis.NS)
        self.assertAlmostEqual(n.median, t.median / 4)
        self.assertAlmostEqual(n.iqr, t.iqr / 4)
        best = analysis.ranking(m, p)[0][1]
        r = analysis.cell(m, p, best, "time", analysis.RATIO)
        self.assertAlmostEqual(r.median, 1.0)
        bpt, gbs = analysis.throughput(m, p, 6000)
        self.assertAlmostEqual(bpt, 16384 / 6000)
        self.assertAlmostEqual(gbs, 16384 / 1500)          # 6000 t = 1500 ns
        (x,), _ = load("xen-aorus.log")
        self.assertIsNone(analysis.cell(x, x.passes[("clear", "MEM")],
                                        "stosb", "time", analysis.NS))
        unit, warn = analysis.choose_unit([m, x])
        self.assertEqual(unit, analysis.TICKS)
        self.assertIn("xen-aorus.log", warn)
        self.assertEqual(analysis.choose_unit([m, m])[0], analysis.NS)
        self.assertEqual(analysis.choose_unit([m, x], relative=True),
                         (analysis.RATIO, None))

    def test_two_runs(self):
        """The same variant on two machines, ns against ns: b's stosb
        surely faster, stosq within noise."""
        a, b = load("pb-skylake-clear-a.log", "pb-skylake-clear-b.log")[0]
        key = ("clear", "L2 w/o flush")

        def cmp(v):
            return self.versus(
                analysis.cell(a, a.passes[key], v, "time", analysis.NS),
                analysis.cell(b, b.passes[key], v, "time", analysis.NS))
        self.assertEqual(cmp("stosb").faster, "other")    # 10% faster in b
        self.assertLess(cmp("stosb").delta, -0.05)
        self.assertEqual(cmp("stosb_all").faster, "other")
        self.assertIsNone(cmp("stosq").faster)             # noise
        self.assertEqual(cmp("stosq").epochs, 9)

    def test_units_scale_the_ratio(self):
        """A ratio in ns of two machines is the one in ticks times their
        ticks' ns; per 4 KiB page, times the pages' ratio too."""
        a, b = load("pb-skylake-clear-a.log", "pb-skylake-clear-b.log")[0]
        key = ("clear", "L2 w/o flush")
        ticks = self.versus(*(analysis.cell(m, m.passes[key], "stosb", "time",
                                            analysis.TICKS) for m in (a, b)))
        ns = self.versus(*(analysis.cell(m, m.passes[key], "stosb", "time", analysis.NS)
                           for m in (a, b)))
        f = analysis.ns_per_tick(b) / analysis.ns_per_tick(a)
        self.assertAlmostEqual(ns.median, ticks.median * f)
        self.assertAlmostEqual(ns.lo, ticks.lo * f)
        # Scaled cells keep their series: the ratio of a cell to itself is 1.
        c = analysis.cell(a, a.passes[key], "stosb", "time", analysis.NS)
        self.assertEqual(self.versus(c, c.scaled(4)).median, 4)

    def test_aggregates_have_no_ratio(self):
        (m,), _ = load("pb-skylake-all.log")
        p = m.passes[("copy", "hot")]
        c = analysis.raw_cell(m, p, "avx")
        self.assertTrue(c.aggregated)
        self.assertIsNone(c.iqr)
        self.assertIsNone(analysis.raw_cell(m, p, "avx", "pre"))
        v = self.versus(c, c.scaled(2))
        # The change of the two figures shown, but no interval and so no
        # winner: aggregated figures have no epochs to resample.
        self.assertEqual(v.median, 2)
        self.assertIsNone(v.lo)
        self.assertIsNone(v.faster)
        self.assertEqual(v.why, "aggregated figures, no epochs")

    def test_one_engine_run_a_batch(self):
        """A batch's comparisons are made by one run of pagebench-decide;
        where it cannot run, each comparison says why."""
        (m,), _ = load("xen-aorus.log")
        p = m.passes[("clear", "L1 w/o flush")]
        cells = [analysis.raw_cell(m, p, v) for v in p.variants]
        calls = []
        real = engine.run

        def counted(args, text):
            calls.append(args)
            return real(args, text)
        batch = versus.Batch()
        try:
            engine.run = counted
            got = batch.versus(cells[0], cells[1:]) + batch.versus(cells[1], cells[2:])
            batch.run()
        finally:
            engine.run = real
        self.assertEqual(calls, [["--compare"]])
        self.assertTrue(all(v.median is not None for v in got))
        batch = versus.Batch()
        v = batch.versus(cells[0], cells[1:2])[0]
        tool = engine.TOOL
        try:
            engine.TOOL = "/nonexistent/pagebench-decide"
            batch.run()
        finally:
            engine.TOOL = tool
        self.assertIsNone(v.median)
        self.assertIn("is not built", v.why)
        # A figure the engine refuses (beyond 2^53 hundredths) voids its own
        # comparison alone: the batch is made again in halves around it.
        huge = analysis.Cell.of([1], series=versus.Series([2 ** 60] * 3, 1))
        batch = versus.Batch()
        got = [batch.versus(c, [cells[0]])[0] for c in cells[1:3] + [huge] + cells[3:]]
        batch.run()
        self.assertIn("series: med= takes whole numbers of 0 to 2^53", got[2].why)
        self.assertEqual([v.median is not None for v in got], [True, True, False, True, True])


# ---------------------------------------------------------------------------
class CliTest(unittest.TestCase):
    GROUPS = ("report",)

    def test_help(self):
        for sub in ([], ["summary"], ["diff"], ["winners"], ["export"],
                    ["html"]):
            code, out, err = run_tool(*(sub + ["--help"]))
            self.assertEqual(code, 0, sub)
            self.assertIn("exit status", out)
            self.assertIn("no usable data", out)

    def test_usage_errors(self):
        self.assertEqual(run_tool()[0], 2)                   # no subcommand
        self.assertEqual(run_tool("export", fx("xen-aorus.log"))[0], 2)
        self.assertEqual(run_tool("summary", "--tie", "200",
                                  fx("xen-aorus.log"))[0], 2)
        # No significance level: every comparison is the engine's 95% interval.
        self.assertEqual(run_tool("diff", "--alpha", "0.05", fx("xen-aorus.log"),
                                  fx("xen-aorus.log"))[0], 2)
        self.assertEqual(run_tool("summary", "--machine", "(",
                                  fx("xen-aorus.log"))[0], 2)
        code, _, err = run_tool("diff", fx("xen-aorus.log"))
        self.assertEqual(code, 2)
        self.assertIn("at least two machines", err)
        # An output that cannot be opened is the environment's (3), not a
        # usage error; tests/report/test_report_status.py has the other cases.
        code, _, err = run_tool("export", "--format", "csv", "-o",
                                "/nonexistent/dir/x.csv", fx("xen-aorus.log"))
        self.assertEqual(code, 3)
        self.assertIn("output lost: opening /nonexistent/dir/x.csv", err)

    def test_summary_by_hand(self):
        code, out, err = run_tool("summary", fx("xen-aorus.log"))
        self.assertEqual(code, 0, err)
        self.assertIn("== xen-aorus.log", out)
        block = out.split("-- L1 w/o flush")[1].split("\n\n")[0]
        rows = [l.split() for l in block.splitlines()[2:7]]
        # rank variant n pre time post min-max IQR B/tick
        self.assertEqual(rows[0], ["1", "stosb", "3", "1442", "1744", "1012",
                                   "1736-1760", "12", "%.3f" % (16384 / 1744)])
        self.assertEqual(rows[4][:8], ["5", "sse2", "3", "1450", "6088",
                                       "1130", "6080-6096", "8"])
        # The winner is the answers' (pagebench-decide's), never decided
        # here: no "winner:" line of the summary's own.
        self.assertNotIn("winner:", block)
        self.assertRegex(block, r"\nanswer")
        self.assertIn("MEM  [bytes per call unknown", out)
        self.assertIn("tsc:", out)

    def test_summary_ns_and_failures(self):
        code, out, _ = run_tool("summary", "-q", fx("pb-failures.log"))
        self.assertEqual(code, 0)
        self.assertIn("time ns", out)
        self.assertIn("GB/s", out)
        self.assertIn("stosq!", out)
        self.assertIn("FAILURE  line 22: verify FAILED", out)
        self.assertIn("done: 2 failures", out)

    def test_diff_two_runs(self):
        code, out, err = run_tool("diff", "--metric", "time",
                                  fx("pb-skylake-clear-a.log"),
                                  fx("pb-skylake-clear-b.log"))
        self.assertEqual(code, 0, err)
        self.assertIn("variant time (ns)", out)
        self.assertNotIn("ticks", err)
        lines = [l for l in out.splitlines() if l.startswith("clear  L2")]
        by_v = {l.split()[4]: l for l in lines}
        self.assertNotIn("~", by_v["stosb"])
        self.assertRegex(by_v["stosb"], r"-\d+\.\d\d%   \[-\d+\.\d\d%, -\d+\.\d\d%\] "
                         r"\(epochs 9\)$")
        self.assertRegex(by_v["stosq"], r" ~ \[-\d+\.\d\d%, \+\d+\.\d\d%\] \(epochs 9\)$")
        self.assertNotIn("pre probe", out)

    def test_diff_collection_warns(self):
        code, out, err = run_tool("diff", fx("xen-collection.log"))
        self.assertEqual(code, 0)
        self.assertIn("comparing in TSC ticks", err)
        # The machines' L2 passes clear different bytes: per 4 KiB page.
        self.assertIn("variant time (ticks per 4 KiB page)", out)
        self.assertIn("pre probe (ticks per 4 KiB page)", out)
        # Three reps each, each rep its epoch: every ratio over 3 epochs
        # (a rep of one machine against the same rep of the other).
        vs = re.findall(r"%  ?[ ~] \[\S+, \S+\] \(epochs (\d+)\)", out)
        self.assertGreater(len(vs), 50)
        self.assertEqual(set(vs), {"3"})
        # clzero only on the third machine: "-" in the others
        cl = [l for l in out.splitlines() if " clzero " in l][0]
        self.assertEqual(cl.split()[5], "-")

    def test_diff_relative(self):
        code, out, err = run_tool("diff", "--relative", "--metric", "time",
                                  fx("xen-collection.log"))
        self.assertEqual(code, 0)
        self.assertNotIn("comparing in TSC ticks", err)
        self.assertIn("ratio to the best variant", out)
        row = [l for l in out.splitlines()
               if l.startswith("clear  L1 w/o flush  stosb ")][0]
        self.assertTrue(row.split()[5].startswith("1.000"), row)

    def test_diff_machine_selection(self):
        code, out, _ = run_tool("diff", "-q", "--machine", "aorus",
                                "--machine", "zen2", "--metric", "time",
                                fx("xen-collection.log"))
        self.assertEqual(code, 0)
        self.assertIn("zen2-3700x.txt", out)
        self.assertNotIn("Sandybridge", out)
        code, _, err = run_tool("summary", "--machine", "nothing-like-it",
                                fx("xen-collection.log"))
        self.assertEqual(code, 2)       # a usage error, not "no usable data"
        self.assertIn("matches no machine", err)

    def test_winners(self):
        code, out, err = run_tool("winners", "-q", fx("xen-aorus.log"),
                                  fx("pb-skylake-all.log"))
        self.assertEqual(code, 0)
        # One row per pass and verdict-screen column: the answers'
        # (pagebench-decide's: these logs have no answer lines).
        rows = [l.split() for l in out.splitlines() if "xen-aorus.log" in l]
        self.assertEqual(sorted({r[1] for r in rows}), ["l1", "l1f", "l2", "l2f"])
        self.assertEqual(out.splitlines()[0].split()[:4],
                         ["fn", "pass", "machine", "picks"])
        self.assertNotIn("significant", out)
        for r in (r for r in rows if r[-5] not in ("-",)):
            self.assertEqual(r[-1], "ns/page")
            self.assertAlmostEqual(float(r[-4]), 4096 / float(r[-5]), delta=0.01)

    def test_export_csv(self):
        code, out, _ = run_tool("export", "--format", "csv",
                                fx("xen-aorus.log"), fx("pb-skylake-all.log"))
        self.assertEqual(code, 0)
        rows = list(csv.DictReader(io.StringIO(out)))
        self.assertEqual(list(rows[0].keys()), export.CSV_COLUMNS)
        self.assertEqual(rows[0]["machine"], "xen-aorus.log")
        self.assertEqual((rows[0]["pre"], rows[0]["ticks"], rows[0]["post"],
                          rows[0]["variant"], rows[0]["iter"]),
                         ("1450", "6088", "1126", "sse2", "1"))
        self.assertEqual(rows[0]["bytes"], "16384")
        self.assertEqual(rows[0]["ns"], "")
        samples = [r for r in rows if r["kind"] == "sample"]
        aggs = [r for r in rows if r["kind"] == "aggregate"]
        self.assertEqual(len(samples), 75 + 595)
        self.assertEqual(len(aggs), 14)
        sky = [r for r in samples if r["machine"] == "pb-skylake-all.log"]
        self.assertEqual(float(sky[0]["ns"]), int(sky[0]["ticks"]) / 4)

    def test_export_json(self):
        code, out, _ = run_tool("export", "--format", "json",
                                fx("xen-collection.log"))
        doc = json.loads(out)
        self.assertEqual(doc["format"], "pagebench-report/1")
        self.assertEqual([m["name"] for m in doc["machines"]],
                         ["Aorus (Skylake)", "Latitude E6410 (Sandybridge)",
                          "zen2-3700x.txt"])
        self.assertEqual(len(doc["samples"]), 75 + 75 + 90)
        self.assertEqual(doc["machines"][0]["passes"][0]["bytes"], 16384)
        self.assertIsNone(doc["machines"][0]["passes"][-1]["bytes"])

    def test_export_benchfmt(self):
        code, out, _ = run_tool("export", "--format", "benchfmt",
                                fx("xen-aorus.log"), fx("pb-skylake-all.log"))
        self.assertEqual(code, 0)
        lines = out.splitlines()
        self.assertIn("machine: xen-aorus.log", lines)
        self.assertIn("machine: pb-skylake-all.log", lines)
        self.assertIn("tsc-khz: 4000000", lines)
        self.assertIn("BenchmarkClear/pass=L1-hot/variant=sse2 1 6088 ticks/op "
                      "1450 pre-ticks/op 1126 post-ticks/op", lines)
        key = re.compile(r"^[^\sA-Z:]+:( .*)?$")
        nres = 0
        for l in lines:
            if l.startswith("Benchmark"):
                f = l.split()
                self.assertEqual(len(f) % 2, 0, l)
                self.assertGreaterEqual(len(f), 4)
                int(f[1])
                for v in f[2::2]:
                    float(v)
                self.assertRegex(f[0], r"^Benchmark(Clear|Copy)/pass=[\w-]+"
                                 r"/variant=\w+$")
                nres += 1
            elif l:
                self.assertRegex(l, key)
        self.assertEqual(nres, 75 + 595 + 14)
        # the skylake results carry ns/op and B/s, the xen ones do not
        sky = [l for l in lines if "pass=L1-flush/variant=stosb_all" in l][0]
        self.assertRegex(sky, r" ns/op .* B/s ")
        self.assertIn("BenchmarkCopy/pass=page-hot/variant=movsb 64 292 "
                      "ticks/op", out)

    def test_benchfmt_clears_keys(self):
        code, out, _ = run_tool("export", "--format", "benchfmt",
                                fx("pb-skylake-all.log"), fx("xen-aorus.log"))
        second = out.split("machine: xen-aorus.log")[0].rsplit("\n\n", 1)[1]
        self.assertIn("tsc-khz:\n", second)
        self.assertIn("cpu:\n", second)

    def test_stdin(self):
        with open(fx("xen-aorus.log"), "rb") as fh:
            data = fh.read()
        code, out, _ = run_tool("summary", stdin=data)
        self.assertEqual(code, 0)
        self.assertIn("== stdin", out)
        code, out, _ = run_tool("export", "--format", "csv", "-", stdin=data)
        self.assertEqual(len(out.splitlines()), 76)

    def test_html_structure(self):
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "r.html")
            code, out, err = run_tool("html", "-o", path,
                                      fx("xen-collection.log"),
                                      fx("pb-skylake-all.log"))
            self.assertEqual(code, 0)
            self.assertEqual(out, "")
            with open(path, encoding="utf-8") as fh:
                page = fh.read()
        doc = Dom(page)
        self.assertEqual(doc.count("script"), 0)
        self.assertEqual(doc.external, [])
        self.assertEqual(len(doc.charts), 16)        # skylake's passes
        self.assertEqual(doc.winner_rows, winner_rows(
            fx("xen-collection.log"), fx("pb-skylake-all.log")))
        self.assertIn("Content-Security-Policy", page)

    def test_summary_ratio_column(self):
        """A log with ratio lines: each pass table has the reference's
        column, each variant's ratio line in it, 1 on the reference's own
        row; a log without ratio lines has no such column."""
        log = os.path.join(ROOT, "tests", "fixtures", "real", "emr-linux-cpu-ratios-2026-12-01.log")
        code, out, err = run_tool("summary", "-q", log)
        self.assertEqual(code, 0, err)
        table = out[out.index("-- L1 w/o flush"):].split("\n\n")[0]
        self.assertIn(" x stosb ", table.splitlines()[1])
        with open(log) as f:
            text = f.read()
        for v in ("stosq_all", "avx512_t", "sse2"):
            g = re.search(r"ratio suite=clear pass=l1 variant=%s ref=stosb "
                          r"epochs=\d+ median=(\S+) lo=(\S+) hi=(\S+)" % v, text)
            row = [l for l in table.splitlines() if l.split()[1:2] == [v]][0]
            self.assertIn("%s [%s, %s]" % g.groups(), row)
        row = [l for l in table.splitlines() if l.split()[1:2] == ["stosb"]][0]
        self.assertRegex(row, r"\]\s+1\s")
        self.assertIn(" x movsq ", out[out.index("-- copy-hot"):])
        code, out, err = run_tool("summary", "-q", fx("pb-skylake-all.log"))
        self.assertEqual(code, 0, err)
        self.assertNotIn(" x stosb", out)

    def test_html_whiskers_of_stat_lines(self):
        """A log in epochs: each bar's whisker is its stat line's 95%
        interval, not the single calls' min and max (a batched median may
        lie outside those), and it has no quartile box; a log before epochs
        keeps min to max and the box."""
        log = os.path.join(ROOT, "tests", "fixtures", "real", "emr-linux-cpu-ratios-2026-12-01.log")
        code, page, err = run_tool("html", "-q", log)
        self.assertEqual(code, 0, err)
        tips = re.findall(r'data-variant="stosb"><title>([^<]*)</title>', page)
        l1 = [t for t in tips if "over 51 epochs" in t]
        self.assertTrue(l1, tips[:3])
        with open(log) as f:
            stat = [float(x) for x in re.search(
                r"stat suite=clear pass=l1 variant=stosb reps=\d+ epochs=51 "
                r"batch=\d+ median=(\S+) lo=(\S+) hi=(\S+)", f.read()).groups()]
        # The chart is in ns: the same interval, scaled as its median.
        med, lo, hi = (float(x) for x in re.search(
            r"median (\S+) ns over 51 epochs, 95% interval (\S+)-(\S+)$",
            l1[0]).groups())
        self.assertAlmostEqual(lo / med, stat[1] / stat[0], places=3)
        self.assertAlmostEqual(hi / med, stat[2] / stat[0], places=3)
        bar = page[page.index(l1[0]):].split("</g>")[0]
        self.assertNotIn('fill="none"', bar)         # no quartile box
        code, page, err = run_tool("html", "-q", fx("pb-skylake-all.log"))
        self.assertEqual(code, 0, err)
        self.assertRegex(page, r"median [^<]*, n=\d+, min [^<]*, max ")
        self.assertIn('fill="none" stroke="#222"', page)


class Dom(HTMLParser):
    """What the tests look at in a report page."""

    def __init__(self, text):
        super().__init__()
        self.tags = {}
        self.charts = []
        self.svg_in_chart = 0
        self.bars = 0
        self.winner_rows = 0
        self.external = []
        self.tables = []
        self.scaling = []
        self.curves = []
        self.strings_charts = []
        self.series = self.polylines = self.zero_tables = 0
        self._chart = None
        self.feed(text)

    def count(self, tag):
        return self.tags.get(tag, 0)

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        self.tags[tag] = self.tags.get(tag, 0) + 1
        for k in ("src", "href", "xlink:href"):
            if k in a and re.match(r"^(https?:|//|ftp:)", a[k] or ""):
                self.external.append(a[k])
        cls = (a.get("class") or "").split()
        if tag == "figure" and "chart" in cls:
            self.charts.append((a.get("data-suite"), a.get("data-pass")))
            self._chart = True
        if tag == "svg" and self._chart:
            self.svg_in_chart += 1
            self._chart = False
        if tag == "g" and "bar" in cls:
            self.bars += 1
        if tag == "table":
            self.tables.append(a.get("id"))
        if tag == "tr" and "winner" in cls:
            self.winner_rows += 1
        if tag == "figure" and "scaling" in cls:
            self.scaling.append(a.get("data-machine"))
        if tag == "g" and "curve" in cls:
            self.curves.append(a.get("data-variant"))
        if tag == "figure" and "strings-chart" in cls:
            self.strings_charts.append((a.get("data-machine"), a.get("data-op"),
                                        a.get("data-block")))
        if tag == "g" and "series" in cls:
            self.series += 1
        if tag == "polyline":
            self.polylines += 1
        if tag == "table" and "strings-zero" in cls:
            self.zero_tables += 1


# ---------------------------------------------------------------------------
# suite=strings, on logs written here with figures chosen by hand.

def strings_log(vec_4096=(40.0, 40.5, 41.0, 41.5, 42.0), tag="PB",
                extra=""):
    """A strings run: memset over four sizes, variants rep and vec, and a
    zero block of rep and rep_br. At 0 rep is clearly faster; at 16 vec has
    the lower median but within noise; from 256 vec is clearly faster."""
    figs = {
        (0, "rep"): (1.0, 1.1, 1.2, 1.3, 1.4),
        (0, "vec"): (2.0, 2.1, 2.2, 2.3, 2.4),
        (16, "rep"): (3.0, 3.2, 3.4, 3.6, 3.8),
        (16, "vec"): (3.1, 3.1, 3.3, 3.5, 3.7),
        (256, "rep"): (20.0, 20.1, 20.2, 20.3, 20.4),
        (256, "vec"): (5.0, 5.1, 5.2, 5.3, 5.4),
        (4096, "rep"): (70.0, 70.5, 71.0, 71.5, 72.0),
        (4096, "vec"): vec_4096,
    }
    zero = {
        ("rep", "zero"): (1.0, 1.1, 1.2, 1.3, 1.4),
        ("rep", "alt"): (1.5, 1.6, 1.7, 1.8, 1.9),
        ("rep", "random"): (1.0, 1.1, 1.2, 1.3, 1.4),
        ("rep_br", "zero"): (0.5, 0.6, 0.7, 0.8, 0.9),
        ("rep_br", "alt"): (0.4, 0.5, 0.6, 0.7, 0.8),
        ("rep_br", "random"): (15.0, 15.1, 15.2, 15.3, 15.4),
    }

    def line(name, key, vs):
        return "(%s)  %s %s min=%.2f median=%.2f all=%s\n" % (
            tag, name, key, min(vs), sorted(vs)[2],
            ",".join("%.2f" % v for v in vs))

    out = ["(%s) pagebench version=test\n" % tag,
           "(%s) tsc khz=2000000 source=cpuid-0x15\n" % tag,
           "(%s) plan suite=strings reps=5 passes=none\n" % tag,
           "(%s) strings sizes=0,16,256,4096 calls=256 align=0,1,7 "
           "modes=tput,lat zero_calls=1024 zero_n=64\n" % tag,
           "(%s) variants memset: rep rep_br vec\n" % tag,
           "(%s) strings tsc step=26 region=26 reads=1000\n" % tag,
           "(%s) strings memset tput dst=0:\n" % tag,
           "(%s) strings overhead calls=256 min=900 median=910 n=20\n" % tag]
    for n in (0, 16, 256, 4096):
        for v in ("rep", "vec"):
            out.append(line(v, "n=%d" % n, figs[(n, v)]))
    out += ["(%s) strings zero memset calls=1024 n=64:\n" % tag,
            "(%s) strings overhead calls=1024 min=3600 median=3610 n=5\n" % tag,
            "(%s) strings overhead calls=512 min=1800 median=1805 n=5\n" % tag]
    for v in ("rep", "rep_br"):
        for p in ("zero", "alt", "random"):
            out.append(line(v, "pattern=%s" % p, zero[(v, p)]))
    out.append(extra)
    out.append("(%s) done: 0 failures\n" % tag)
    return "".join(out)


def strings_machine(*args, **kw):
    (m,), diags = P.read_bytes(strings_log(*args, **kw).encode(), "s.log")
    return m, diags


def epochs_log(figures, tag="PB", step=28, use=None, name_line=""):
    """A pass L1 w/o flush of pagebench in epochs: figures is {variant:
    (batch, median, lo, hi)} for its stat lines (lo None: no interval),
    three epochs of one value line each per variant, and use lines and a
    use stat line per variant in use ({variant: ticks})."""
    out = ["(%s) pagebench version=test\n" % tag,
           "(%s) tsc khz=2000000 source=cpuid-0x15\n" % tag,
           "(%s) plan suite=clear reps=auto passes=l1 precision=1%% "
           "budget=1000ms\n" % tag,
           "(%s) sizes pass=l1 fill=49152 clear=24576 copy=12288\n" % tag,
           "(%s) variants clear: %s\n" % (tag, " ".join(figures)),
           "(%s) flush: clflushopt\n" % tag,
           "(%s) tsc step=%d region=34 reads=1000\n" % (tag, step)]
    for e in range(3):
        out.append("(%s) L1 w/o flush:\n" % tag)
        out.append("(%s) epoch suite=clear pass=l1 n=%d fill=+%d work=+0\n" % (
            tag, e, 4096 * e))
        for v, (batch, med, lo, hi) in figures.items():
            out.append("(%s)  pre=500 %s=%x post=600\n" % (tag, v, int(med) + e))
        for v, ticks in (use or {}).items():
            out.append("(%s)  use %s=%x\n" % (tag, v, ticks + e))
    for v, (batch, med, lo, hi) in figures.items():
        fig = (lambda x: "?" if x is None else ("%.2f" % x if batch > 1 else "%d" % x))
        out.append("(%s) stat suite=clear pass=l1 variant=%s reps=3 epochs=3 "
                   "batch=%d median=%s lo=%s hi=%s unit=ticks stop=budget\n" % (
                       tag, v, batch, fig(med), fig(lo), fig(hi)))
        if use and v in use:
            out.append("(%s) stat suite=clear pass=l1 variant=%s metric=use "
                       "reps=3 epochs=3 batch=1 median=%d lo=%d hi=%d "
                       "unit=ticks stop=budget\n" % (
                           tag, v, use[v] + 1, use[v] - 50, use[v] + 50))
    out.append("(%s) done: 0 failures\n" % tag)
    return "".join(out)


def epochs_machine(*args, **kw):
    (m,), diags = P.read_bytes(epochs_log(*args, **kw).encode(), "e.log")
    return m, diags


class EpochStatsTest(unittest.TestCase):
    """Logs with epoch, use and stat lines (docs/log-format.md, "Epochs and
    stat lines"): what the parser keeps, and the engine's comparisons of
    their figures: by epochs, the timer's step in the ratio, diff."""

    def versus(self, m, a, b, metric="time"):
        p = m.passes[("clear", "L1 w/o flush")]
        batch = versus.Batch()
        v = batch.versus(analysis.raw_cell(m, p, a, metric),
                         [analysis.raw_cell(m, p, b, metric)])[0]
        batch.run()
        return v

    APART = {"stosb": (3, 1000.0, 980.0, 1020.0), "sse2": (1, 1500, 1470, 1530)}

    def test_parse(self):
        m, diags = epochs_machine(self.APART, use={"stosb": 0x300, "sse2": 0x1800})
        self.assertEqual([str(d) for d in diags], [])
        self.assertEqual(m.facts["plan"], {"suite": "clear", "reps": None,
                                           "passes": "l1", "precision": 1.0,
                                           "budget_ms": 1000, "time_ms": None})
        self.assertEqual(m.facts["tsc_step"], {"step": 28, "region": 34,
                                               "reads": 1000})
        p = m.passes[("clear", "L1 w/o flush")]
        self.assertEqual([s.epoch for s in p.samples if s.variant == "sse2"],
                         [0, 1, 2])
        st = p.stat("stosb")
        self.assertEqual((st.reps, st.epochs, st.batch, st.median, st.lo, st.hi,
                          st.stop), (3, 3, 3, 1000.0, 980.0, 1020.0, "budget"))
        self.assertEqual([(u.variant, u.epoch, u.ticks) for u in p.uses][:2],
                         [("stosb", 0, 0x300), ("sse2", 0, 0x1800)])
        self.assertEqual(p.stat("sse2", "use").median, 0x1801)
        c = analysis.raw_cell(m, p, "stosb")
        # The stat line's figure, the value lines' spread, a quantum of 28/3.
        self.assertEqual((c.median, c.lo, c.hi, c.min, c.max), (1000.0, 980.0,
                                                               1020.0, 1000, 1002))
        self.assertAlmostEqual(c.quantum, 28 / 3)
        u = analysis.raw_cell(m, p, "sse2", "use")
        self.assertEqual((u.median, u.values), (0x1801, [0x1800, 0x1801, 0x1802]))
        # What the engine compares: each epoch's median, in hundredths of a
        # tick, and the timer's step (value lines time single calls).
        s = analysis.series(m, p, "stosb")
        self.assertEqual((s.med, s.quantum), ([100000, 100100, 100200], 2800))
        self.assertEqual(analysis.series(m, p, "sse2", "use").med,
                         [0x1800 * 100, 0x1801 * 100, 0x1802 * 100])
        self.assertEqual(analysis.series(m, p, "stosb", "pre").med, [0x500 * 100] * 3)

    def test_ratio_apart(self):
        m, _ = epochs_machine(self.APART, use={"stosb": 0x300, "sse2": 0x1800})
        v = self.versus(m, "stosb", "sse2")
        # 1500/1000, 1501/1001, 1502/1002: the median 1.4995 (1501/1001).
        self.assertEqual((v.epochs, v.median, v.faster), (3, 1.499500, "base"))
        self.assertRegex(textout.sig_text(v), r"^ratio 1\.4995 \[1\.4\d+, 1\.5\d+\] "
                         r"over 3 epochs: above 1$")
        code, out, err = run_tool("summary", "-", stdin=epochs_log(
            self.APART, use={"stosb": 0x300, "sse2": 0x1800}).encode())
        self.assertEqual((code, err), (0, ""))
        head = [l for l in out.splitlines() if l.startswith("rank")][0].split()
        self.assertEqual(head[:13], ["rank", "variant", "n", "epochs", "batch",
                                     "pre", "time", "95%", "interval", "post",
                                     "use", "min-max", "IQR"])
        row = [l.split() for l in out.splitlines() if l.split()[1:2] == ["stosb"]][0]
        self.assertEqual(row[:11], ["1", "stosb", "3", "3", "3", "1280", "1000",
                                    "[980,", "1020]", "1536", "769"])

    def test_the_timers_step_widens_the_ratio(self):
        """movsq takes 4% longer than movsb in every epoch, 20 ticks of a
        500-tick call: with a 28-tick step that is within what the step
        moves the ratio (5.6% of each figure), with a 4-tick step apart."""
        figs = {"movsb": (1, 500, 495, 505), "movsq": (1, 520, 515, 525)}
        m, _ = epochs_machine(figs)
        v = self.versus(m, "movsb", "movsq")
        self.assertIsNone(v.faster)
        self.assertGreater(v.hi - v.lo, 2 * 0.1)
        m, _ = epochs_machine(figs, step=4)
        v = self.versus(m, "movsb", "movsq")
        self.assertEqual(v.faster, "base")
        self.assertTrue(1 < v.lo < v.median < v.hi < 1.06)

    def test_equal_medians_share_a_rank(self):
        figs = {"movsb": (1, 500, None, None), "movsq": (1, 500, None, None)}
        m, _ = epochs_machine(figs)
        r = analysis.ranking(m, m.passes[("clear", "L1 w/o flush")])
        self.assertEqual(r[0][0], r[1][0])          # one rank: a tie
        self.assertEqual(self.versus(m, "movsb", "movsq").median, 1)

    def test_diff_by_epochs(self):
        """Changed: 1000 -> 1100 (1001/1101 epoch by epoch: +9.99%), apart
        by more than the 28-tick step moves it; unchanged: 1500 -> 1520,
        within it. The cells keep the stat lines' figures."""
        a = epochs_log({"stosb": (3, 1000.0, 980.0, 1020.0), "sse2": (1, 1500, 1470, 1530)})
        b = epochs_log({"stosb": (3, 1100.0, 1070.0, 1130.0), "sse2": (1, 1520, 1490, 1550)})
        with tempfile.TemporaryDirectory() as d:
            paths = []
            for name, text in (("a.log", a), ("b.log", b)):
                paths.append(os.path.join(d, name))
                with open(paths[-1], "w") as f:
                    f.write(text)
            code, out, err = run_tool("diff", "-q", "--unit", "ticks",
                                      "--metric", "time", *paths)
        self.assertEqual(code, 0, err)
        rows = {l.split()[4]: l for l in out.splitlines()
                if l.startswith("clear ")}
        self.assertRegex(rows["stosb"], r"1000 ±2\.0%\s+1100 ±2\.7%\s+\+9\.99%   "
                         r"\[\+\d\.\d\d%, \+\d+\.\d\d%\] \(epochs 3\)$")
        self.assertRegex(rows["sse2"], r"\+1\.33% ~ \[-\d\.\d\d%, \+\d\.\d\d%\] \(epochs 3\)$")

    def test_strings_too_few_reps_name_no_leader(self):
        """Two reps a side: the engine leaves the first of an even count
        out, and one epoch has no interval: the strings summary names no
        leader."""
        text = strings_log().replace("all=", "all=").splitlines(True)
        out = []
        for line in text:
            m = re.match(r"^(\(PB\)  \w+ (?:n=\d+|pattern=\w+)) min=\S+ median=\S+ all=([-\d.,]+)$",
                         line.rstrip("\n"))
            if m:
                vs = [float(x) for x in m.group(2).split(",")][:2]
                line = "%s min=%.2f median=%.2f all=%s\n" % (
                    m.group(1), min(vs), sum(vs) / 2, ",".join("%.2f" % v for v in vs))
            out.append(line.replace("reps=5", "reps=2"))
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "s.log")
            with open(path, "w") as f:
                f.write("".join(out))
            code, out, err = run_tool("summary", "-q", path)
        self.assertEqual(code, 0, err)
        self.assertIn("leader: none (no interval: fewer epochs than one needs): "
                      "no variant leads at any size", out)
        self.assertNotIn("crossovers:", out)
        self.assertNotIn("is fastest from", out)


class StringsReportTest(unittest.TestCase):
    GROUPS = ("report", "boot")

    def test_parse(self):
        m, diags = strings_machine()
        self.assertEqual([str(d) for d in diags], [])
        self.assertTrue(m.has_data)
        self.assertEqual(m.strings.plan["sizes"], [0, 16, 256, 4096])
        self.assertEqual(m.strings.tsc, {"step": 26, "region": 26, "reads": 1000})
        b = m.strings.blocks[("memset", "tput", 0, None)]
        self.assertEqual(b.label, "tput dst=0")
        self.assertEqual(b.overhead[256], {"min": 900, "median": 910, "n": 20})
        self.assertEqual(b.variants, ["rep", "vec"])
        self.assertEqual(b.keys, [0, 16, 256, 4096])
        f = b.figures[("vec", 16)]
        self.assertEqual((f.min, f.median, list(f.values)),
                         (3.1, 3.3, [3.1, 3.1, 3.3, 3.5, 3.7]))
        z = m.strings.blocks[("memset", "zero", None, None)]
        self.assertTrue(z.zero)
        self.assertEqual((z.zero_calls, z.zero_n), (1024, 64))
        self.assertEqual(z.overhead[512]["min"], 1800)
        self.assertEqual(z.keys, ["zero", "alt", "random"])

    def test_parse_misplaced_lines(self):
        text = ("(PB) pagebench version=t\n"
                "(PB)  rep n=1 min=1.00 median=1.00 all=1.00\n"
                "(PB) strings memset lat dst=7:\n"
                "(PB)  rep pattern=zero min=1.00 median=1.00 all=1.00\n"
                "(PB)  rep n=1 min=-1.50 median=-1.50 all=-1.50\n"
                "(PB) plan suite=strings reps=2 passes=none\n"
                "(PB) done: 0 failures\n")
        (m,), diags = P.read_bytes(text.encode(), "x.log")
        got = [str(d) for d in diags]
        self.assertIn("x.log:2: skipped: strings line outside a block", got)
        self.assertIn("x.log:4: skipped: strings zero line in a size block", got)
        self.assertTrue(any("has 1 of 2 figures" in d for d in got), got)
        b = m.strings.blocks[("memset", "lat", 7, None)]
        self.assertEqual(list(b.figures[("rep", 1)].values), [-1.5])

    def test_winners_and_crossovers_by_hand(self):
        m, _ = strings_machine()
        b = m.strings.blocks[("memset", "tput", 0, None)]
        ws = S.winners(m, b)
        self.assertEqual([(w.n, w.variant) for w in ws],
                         [(0, "rep"), (16, "vec"), (256, "vec"), (4096, "vec")])
        # At 0, vec over rep rep by rep: 2.0/1.0 ... 2.4/1.4, median 2.2/1.2.
        self.assertEqual((ws[0].cmp.epochs, ws[0].cmp.median), (5, 1.833333))
        self.assertTrue(ws[0].apart)
        # At 16, rep over vec: 3.0/3.1, 3.2/3.1, 3.4/3.3, 3.6/3.5, 3.8/3.7,
        # median 3.6/3.5, its interval holding 1.
        self.assertEqual(ws[1].cmp.median, 1.028571)
        self.assertFalse(ws[1].apart)
        # rep keeps the lead at 16 (not surely slower) and loses it at 256,
        # where vec is surely faster: one crossover.
        self.assertEqual(S.segments(ws), [(0, 16, "rep"), (256, 4096, "vec")])
        self.assertEqual(S.crossovers(ws), [(256, "rep", "vec")])
        self.assertEqual(S.fastest_from(ws), ("vec", 256))
        # vec is within noise of the best from 16 up; rep nowhere at the top.
        self.assertEqual(S.tied_from(m, b, ws), {"vec": 16})
        # Without the tie only the interval against 1 counts: the same here,
        # since rep at 16 is not surely slower.
        ws0 = S.winners(m, b, tie=0)
        self.assertEqual(S.crossovers(ws0), [(256, "rep", "vec")])

    def test_tie_keeps_near_equal_leads(self):
        # At 4096 rep takes 2 % longer than vec at every rep, 20.42 against
        # 20.02: surely slower, within about 1 % (what the resolution of
        # 0.1 tick, 26 ticks over 256 calls, moves the ratio).
        m, _ = strings_machine(vec_4096=(20.00, 20.01, 20.02, 20.03, 20.04))
        b = m.strings.blocks[("memset", "tput", 0, None)]
        b.figures[("rep", 4096)].centi = array("i", [2040, 2041, 2042, 2043, 2044])
        ws = S.winners(m, b, tie=0.05)
        cmp = ws[-1].cmp
        self.assertTrue(1.005 < cmp.lo < 1.015 and cmp.median == 1.01998, cmp.lo)
        self.assertEqual(ws[-1].variant, "vec")
        self.assertTrue(ws[-1].tied("rep"))
        self.assertEqual(S.tied_from(m, b, ws), {"vec": 16, "rep": 4096})
        ws = S.winners(m, b, tie=0.015)
        self.assertTrue(ws[-1].tied("rep"))        # the interval reaches 1.015
        ws = S.winners(m, b, tie=0.005)
        self.assertFalse(ws[-1].tied("rep"))       # it lies above 1.005
        self.assertEqual(S.tied_from(m, b, ws), {"vec": 16})

    def test_zero_length_by_hand(self):
        m, _ = strings_machine()
        z = m.strings.blocks[("memset", "zero", None, None)]
        self.assertEqual(S.zero_pairs(z), [("rep", "rep_br")])
        d, cmp = S.zero_comparison(m, z, "rep", "rep_br", "zero")
        self.assertAlmostEqual(d, 1.2 - 0.7)
        # 1.0/0.5 ... 1.4/0.9, rep by rep: the median 1.2/0.7.
        self.assertEqual((cmp.median, cmp.faster), (1.714286, "base"))
        d, cmp = S.zero_comparison(m, z, "rep", "rep_br", "random")
        self.assertAlmostEqual(d, 1.2 - 15.2)
        self.assertEqual(cmp.faster, "other")

    def test_summary(self):
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "s.log")
            with open(path, "w") as f:
                f.write(strings_log())
            code, out, err = run_tool("summary", path)
        self.assertEqual(code, 0, err)
        self.assertIn("-- strings memset tput dst=0  [overhead 900 ticks per "
                      "batch (median 910, 20 batches)]", out)
        self.assertIn("leader: rep 0-16; vec 256-4096 bytes", out)
        self.assertIn("crossovers: rep -> vec at 256\n", out)
        self.assertIn("vec is fastest from 256 bytes\n", out)
        self.assertIn("a batch resolves a call to about 0.10 ticks", out)
        row16 = [l for l in out.splitlines() if l.split()[:1] == ["16"]][0]
        # The runner-up's margin: its time over the leader's rep by rep,
        # the median of 3.0/3.1, 3.2/3.1, 3.4/3.3, 3.6/3.5, 3.8/3.7 (3.6/3.5),
        # and the interval of it, holding 0: "~".
        vec, rep = [3.1, 3.1, 3.3, 3.5, 3.7], [3.0, 3.2, 3.4, 3.6, 3.8]
        margin = sorted(r / v for r, v in zip(rep, vec))[2] - 1
        got = re.match(r"^\s*16\s+3\.40\s+3\.30\s+vec~\s+(\S+)%\s+\[(\S+)%, (\S+)%\]$", row16)
        self.assertTrue(got, row16)
        self.assertEqual(got.group(1), "%+.2f" % (100 * margin))
        self.assertTrue(float(got.group(2)) < 0 < float(got.group(3)), row16)
        self.assertRegex(out, r"zero length, zero: rep \(REP, rcx=0\) costs more than "
                         r"rep_br \(branch\) by 0\.50 ticks per call; ratio 1\.7143 "
                         r"\[\S+, \S+\] over 5 epochs: above 1\n")
        self.assertRegex(out, r"zero length, random: rep \(REP, rcx=0\) costs less than "
                         r"rep_br \(branch\) by 14\.00 ticks per call; ratio 0\.0\d+ "
                         r"\[\S+, \S+\] over 5 epochs: below 1\n")

    def test_strings_variants_option(self):
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "s.log")
            with open(path, "w") as f:
                f.write(strings_log())
            code, out, err = run_tool("summary", "--strings-variants", "rep,rep_br",
                                      path)
        self.assertEqual(code, 0, err)
        head = [l for l in out.splitlines() if l.split()[:2] == ["n", "rep"]]
        self.assertEqual(head[0].split(), ["n", "rep", "leader", "margin", "95%", "interval"])
        self.assertIn("leader: rep 0-4096 bytes", out)
        self.assertIn("rep_br (branch)", out)

    def test_failed_variant_marked(self):
        m, _ = strings_machine(extra="(PB) verify FAILED: suite=memset "
                               "pass=strings tput dst=0 n=16 variant=vec "
                               "offset=0x3 wrong byte: 0x1, want 0xa0\n")
        b = m.strings.blocks[("memset", "tput", 0, None)]
        self.assertTrue(S.raw_cell(m, b, "vec", 256).failed)
        self.assertFalse(S.raw_cell(m, b, "rep", 256).failed)
        self.assertIn("5.20!", S.summary(m))

    def test_diff_winners_export(self):
        with tempfile.TemporaryDirectory() as d:
            a, b = os.path.join(d, "a.log"), os.path.join(d, "b.log")
            with open(a, "w") as f:
                f.write(strings_log())
            with open(b, "w") as f:      # vec twice as fast at 4096
                f.write(strings_log(vec_4096=(20.0, 20.5, 21.0, 21.5, 22.0)))
            code, out, err = run_tool("diff", a, b)
            self.assertEqual(code, 0, err)
            rows = [l for l in out.splitlines() if l.startswith("memset ")]
            # 4 sizes x 2 variants, and 2 x 3 zero-length figures
            self.assertEqual(len(rows), 8 + 6)
            vec = [l for l in rows if re.match(r"memset\s+tput dst=0\s+4096\s+vec ", l)]
            rep = [l for l in rows if re.match(r"memset\s+tput dst=0\s+4096\s+rep ", l)]
            # 41 -> 21 ns/2: b's vec at half a's time at every rep, the
            # median 21/41; rep as it was.
            self.assertRegex(vec[0], r"-48\.78%   \[-\S+%, -\S+%\] \(epochs 5\)$")
            self.assertRegex(rep[0], r"\+0\.00% ~ \[-\S+%, \+\S+%\] \(epochs 5\)$")
            self.assertEqual(len([l for l in rows if re.match(r"memset\s+zero\s", l)]), 6)
            self.assertIn("strings: per call (ns)", out)

            code, out, err = run_tool("winners", a)
            self.assertEqual(code, 0, err)
            # No memset answer lines yet: winners names none (the
            # summary's leaders by size are description).
            self.assertEqual([l for l in out.splitlines()
                              if l.startswith("memset")], [])
            self.assertIn("no answers:", out)

            code, out, err = run_tool("export", "--format", "csv", a)
            rows = [r for r in csv.DictReader(io.StringIO(out))
                    if r["kind"] == "strings"]
            self.assertEqual(len(rows), (8 + 6) * 5)
            r = [r for r in rows if r["variant"] == "vec" and r["bytes"] == "256"]
            self.assertEqual([x["ticks"] for x in r],
                             ["5.000", "5.100", "5.200", "5.300", "5.400"])
            self.assertEqual(r[0]["pass"], "strings tput dst=0")
            self.assertEqual(r[0]["ns"], "2.500")
            code, out, err = run_tool("export", "--format", "json", a)
            doc = json.loads(out)
            blocks = doc["machines"][0]["strings"]["blocks"]
            self.assertEqual([b["label"] for b in blocks], ["tput dst=0", "zero"])
            code, out, err = run_tool("export", "--format", "benchfmt", a)
            self.assertIn("BenchmarkMemset/mode=tput/dst=0/n=256/variant=vec "
                          "256 5.00 ticks/op 2.500 ns/op", out)
            self.assertIn("BenchmarkMemset/zero/pattern=random/variant=rep_br "
                          "1024 15.00 ticks/op", out)

    def test_diff_from_a_zero_median(self):
        """A call within the timer's step of its overhead has median 0:
        diff has no ratio to print, and says why."""
        with tempfile.TemporaryDirectory() as d:
            a, b = os.path.join(d, "a.log"), os.path.join(d, "b.log")
            with open(a, "w") as f:
                f.write(strings_log(vec_4096=(0.0, 0.0, 0.0, 0.5, 1.0)))
            with open(b, "w") as f:
                f.write(strings_log())
            code, out, err = run_tool("diff", a, b)
        self.assertEqual(code, 0, err)
        vec = [l for l in out.splitlines()
               if re.match(r"memset\s+tput dst=0\s+4096\s+vec ", l)]
        self.assertEqual(len(vec), 1, out)
        self.assertRegex(vec[0], r"\s0\.000\s.*\s- \? \(no ratio: a figure of 0 \(one "
                         r"below 0 counts as 0\), or no epoch in common\)$")

    def test_html(self):
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "s.log")
            with open(path, "w") as f:
                f.write(strings_log())
            code, page, err = run_tool("html", path)
        self.assertEqual(code, 0, err)
        dom = Dom(page)
        self.assertEqual(dom.strings_charts, [("s.log", "memset", "tput dst=0")])
        self.assertEqual((dom.series, dom.polylines, dom.zero_tables), (2, 2, 1))
        self.assertEqual(dom.count("script"), 0)
        self.assertIn("crossovers: rep to vec at 256 bytes", page)


# ---------------------------------------------------------------------------
class FixturesTest(unittest.TestCase):
    """Every subcommand on every *.log of tests/fixtures/report/."""
    GROUPS = ("report",)

    def check(self, path, args):
        code, out, err = run_tool(*args)
        self.assertNotIn("Traceback", err)
        want = expected_exit(path)
        if want is None:
            self.assertIn(code, (0, 1))
        else:
            self.assertEqual(code, want, "%s: %s" % (args, err))
        if code == 1:
            self.assertIn("no usable data", err)
        return code, out, err

    def test_every_fixture_every_subcommand(self):
        logs = all_logs()
        self.assertGreaterEqual(len(logs), 16)
        with tempfile.TemporaryDirectory() as d:
            for path in logs:
                with self.subTest(log=os.path.basename(path)):
                    code, out, _ = self.check(path, ["summary", path])
                    if code == 0 and re.search(r"(?m)^-- (L1|copy|MEM)", out):
                        self.assertRegex(out, r"(?m)^answer")
                        self.assertNotIn("\nwinner: ", out.split("-- strings")[0])
                    self.check(path, ["winners", path])
                    for f in ("csv", "json", "benchfmt"):
                        self.check(path, ["export", "--format", f, path])
                    h = os.path.join(d, "r.html")
                    code, _, _ = self.check(path, ["html", "-o", h, path])
                    if code == 0:
                        with open(h, encoding="utf-8") as fh:
                            dom = Dom(fh.read())
                        self.assertGreater(len(dom.charts) +
                                           len(dom.strings_charts), 0)
                    # diff against a known log: exit 0 when this has data
                    code, out, err = run_tool("diff", path, fx("xen-aorus.log"))
                    self.assertNotIn("Traceback", err)
                    # Without data in path diff has one machine: usage error.
                    want = expected_exit(path)
                    if want is None:
                        self.assertIn(code, (0, 2))
                    else:
                        self.assertEqual(code, 0 if want == 0 else 2)

    def test_clean_logs_lose_nothing(self):
        for path in all_logs():
            if not is_clean(path):
                continue
            with self.subTest(log=os.path.basename(path)):
                code, out, err = run_tool("export", "--format", "json", path)
                self.assertEqual(code, 0, err)
                doc = json.loads(out)
                kinds = [s["kind"] for s in doc["samples"]]
                values = count_lines(path, VALUE_RE)
                aggs = count_lines(path, AGG_RE)
                scrubs = count_lines(path, SCRUB_RE)
                self.assertEqual(kinds.count("sample"), len(values) + len(scrubs))
                self.assertEqual(kinds.count("aggregate"), len(aggs))
                got = sorted((s["variant"], s.get("pre", 0), s["ticks"], s.get("post", 0))
                             for s in doc["samples"] if s["kind"] == "sample")
                # A scrub step is a sample of its wall time, without probes.
                want = sorted([(report_name(path, suite, m.group(2)),
                                int(m.group(1), 16),
                                int(m.group(3), 16), int(m.group(4), 16))
                               for m, suite in zip(values, value_suites(path))] +
                              [(m.group(1), 0, int(m.group(6)), 0) for m in scrubs])
                self.assertEqual(got, want)
                headers = set(("copy" if m.group(1) else "clear", m.group(2))
                              for m in count_lines(path, HEADER_RE))
                headers |= set(("scrub", "cpus=%s" % m.group(2) +
                                (" remote" if m.group(3) == "remote" else ""))
                               for m in scrubs)
                passes = set((p["suite"], p["pass"]) for mm in doc["machines"]
                             for p in mm["passes"])
                self.assertEqual(headers, passes - {("copy", "hot"),
                                                    ("copy", "cold")})

    def test_real_pagebench_logs_are_complete(self):
        """Logs captured from QEMU (qemu-*.log) end with done: and have a
        TSC frequency and cache sizes."""
        real = [p for p in all_logs()
                if os.path.basename(p).startswith("qemu-")]
        if not real:
            self.skipTest("no real qemu-*.log fixtures yet")
        for path in real:
            with self.subTest(log=os.path.basename(path)):
                ms, diags = P.load([path])
                data = [m for m in ms if m.has_data]
                self.assertTrue(data)
                # A real capture has only documented lines: nothing skipped.
                self.assertEqual([str(d) for d in diags if d.kind == "skip"], [])
                for m in data:
                    self.assertIsNotNone(m.done)
                    self.assertIsNotNone(m.cache_k("l1d"))


# ---------------------------------------------------------------------------
class FuzzTest(unittest.TestCase):
    """No input makes the tool crash."""
    GROUPS = ("report",)

    def render_all(self, machines):
        ms = [m for m in machines if m.has_data]
        if not ms:
            return
        textout.summary(ms)
        textout.winners(ms)
        export.to_csv(ms)
        export.to_json(ms)
        export.to_benchfmt(ms)
        htmlreport.report(ms)
        if len(ms) > 1:
            unit, _ = analysis.choose_unit(ms)
            textout.diff(ms, analysis.METRICS, unit)

    def test_every_truncation(self):
        with open(fx("pb-failures.log"), "rb") as fh:
            data = fh.read()
        with open(fx("dirty-noise.log"), "rb") as fh:
            data += fh.read()[:600]
        full, _ = P.read_bytes(data, "f.log")
        nfull = sum(len(p.samples) for m in full for p in m.passes.values())
        for i in range(len(data) + 1):
            ms, diags = P.read_bytes(data[:i], "f.log")
            n = sum(len(p.samples) for m in ms for p in m.passes.values())
            self.assertLessEqual(n, nfull)
            self.render_all(ms)

    def test_random_bytes(self):
        rng = random.Random(42)
        alphabet = b"(PB) pre=post stosb L1 w/o flush:\n\r\x00\x1b[0m" \
            b"0123456789abcdef"
        for i in range(300):
            n = rng.randrange(0, 400)
            if i % 2:
                data = bytes(rng.randrange(256) for _ in range(n))
            else:
                data = bytes(rng.choice(alphabet) for _ in range(n))
            ms, diags = P.read_bytes(data, "r.log")
            self.render_all(ms)
            for d in diags:
                str(d)

    def test_mutations(self):
        rng = random.Random(7)
        with open(fx("xen-collection.log"), "rb") as fh:
            base = fh.read()
        with open(fx("pb-skylake-all.log"), "rb") as fh:
            base2 = fh.read()[:4000]
        for i in range(150):
            data = bytearray(base if i % 2 else base2)
            for _ in range(rng.randrange(1, 30)):
                op = rng.randrange(3)
                pos = rng.randrange(len(data))
                if op == 0:
                    data[pos] = rng.randrange(256)
                elif op == 1:
                    del data[pos:pos + rng.randrange(1, 40)]
                else:
                    data[pos:pos] = bytes(rng.randrange(256)
                                          for _ in range(rng.randrange(1, 9)))
            ms, _ = P.read_bytes(bytes(data), "m.log")
            self.render_all(ms)

    def test_strings_mutations(self):
        """Strings logs cut and mangled anywhere: skipped lines, no crash."""
        rng = random.Random(12)
        with open(fx("pb-strings-epyc-linux.log"), "rb") as fh:
            base = fh.read()
        for i in range(0, len(base), max(1, len(base) // 23)):
            self.render_all(P.read_bytes(base[:i], "t.log")[0])
        for i in range(20):
            data = bytearray(base)
            for _ in range(rng.randrange(1, 30)):
                pos = rng.randrange(len(data))
                if rng.randrange(2):
                    data[pos] = rng.choice(b"-.,0123456789 =\nabn")
                else:
                    del data[pos:pos + rng.randrange(1, 60)]
            self.render_all(P.read_bytes(bytes(data), "m.log")[0])

    def test_cli_on_garbage(self):
        rng = random.Random(9)
        data = bytes(rng.randrange(256) for _ in range(5000))
        for sub in (["summary"], ["diff", "-", "-"], ["winners"],
                    ["export", "--format", "json"], ["html"]):
            code, out, err = run_tool(*sub, stdin=data)
            self.assertNotIn("Traceback", err)
            self.assertEqual(code, 1, sub)
            self.assertIn("no usable data", err)

    def test_huge_numbers_and_sizes(self):
        text = ("(PB) cache l1d=9999999999999999999k l2=1k l3=0k line=64 "
                "source=none\n(PB) tsc khz=1 source=pit\n(PB) L1 w/o flush:\n"
                "(PB)  pre=ffffffffffffffff stosb=ffffffffffffffff "
                "post=0\n(PB)  pre=0 stosq=0 post=0\n(PB) MEM:\n"
                "(PB)  pre=0 stosq=1 post=0\n"
                "(PB) copy-hot variant=x n=0 min=0 median=0 max=0\n")
        ms, _ = P.read_bytes(text.encode(), "h.log")
        self.render_all(ms)
        self.render_all(ms + P.read_bytes(text.encode(), "h2.log")[0])


# ---------------------------------------------------------------------------
def chromium():
    for name in ("chromium", "chromium-browser", "google-chrome"):
        p = shutil.which(name)
        if p:
            return p
    return None


@unittest.skipIf(chromium() is None, "chromium is not installed")
class HtmlChromiumTest(unittest.TestCase):
    """The report, loaded by a real browser (headless, offline)."""
    GROUPS = ("report",)

    def browse(self, page, *what):
        with tempfile.TemporaryDirectory() as prof:
            r = subprocess.run(
                [chromium(), "--headless", "--no-sandbox", "--disable-gpu",
                 "--disable-quic", "--no-first-run",
                 "--disable-background-networking",
                 "--disable-component-update", "--disable-sync",
                 "--user-data-dir=" + prof] + list(what) +
                ["file://" + page],
                stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=180)
        return r

    def make(self, d, *logs):
        page = os.path.join(d, "report.html")
        code, _, err = run_tool("html", "-q", "-o", page, *logs)
        self.assertEqual(code, 0, err)
        return page

    def expected(self, *logs):
        ms = [m for m in P.load(list(logs))[0] if m.has_data]
        passes = analysis.pass_keys(ms)
        return passes, winner_rows(*logs)

    def test_dom(self):
        logs = [fx("xen-collection.log"), fx("pb-skylake-all.log"),
                fx("pb-zen2-clear.log")]
        with tempfile.TemporaryDirectory() as d:
            page = self.make(d, *logs)
            r = self.browse(page, "--dump-dom")
        self.assertEqual(r.returncode, 0, r.stderr[-2000:])
        dom = Dom(r.stdout.decode("utf-8"))
        passes, pairs = self.expected(*logs)
        # one chart per pass, each with its SVG
        self.assertEqual(dom.charts, [(s, n) for s, n in passes])
        self.assertEqual(dom.svg_in_chart, len(passes))
        self.assertEqual(dom.winner_rows, pairs)
        self.assertIn("winners", dom.tables)
        self.assertIn("facts", dom.tables)
        self.assertGreater(dom.bars, 100)
        self.assertEqual(dom.count("script"), 0)

    def test_scrub_scaling_curve(self):
        """suite=scrub: a scaling curve per machine, a line per variant,
        besides a chart per CPU count."""
        log = fx("pb-linux-scrub.log")
        with tempfile.TemporaryDirectory() as d:
            page = self.make(d, log)
            r = self.browse(page, "--dump-dom")
        self.assertEqual(r.returncode, 0, r.stderr[-2000:])
        dom = Dom(r.stdout.decode("utf-8"))
        (m,), _ = P.read_path(log)
        self.assertEqual(dom.scaling, [m.name])
        self.assertEqual(sorted(dom.curves), sorted({s["variant"] for s in m.scrub}))
        counts = sorted({s["cpus"] for s in m.scrub})
        self.assertEqual([c for c in dom.charts if c[0] == "scrub"],
                         [("scrub", "cpus=%d" % c) for c in counts])

    def test_screenshot(self):
        with tempfile.TemporaryDirectory() as d:
            page = self.make(d, fx("xen-aorus.log"))
            shot = os.path.join(d, "shot.png")
            r = self.browse(page, "--screenshot=" + shot,
                            "--window-size=1200,900")
            self.assertEqual(r.returncode, 0, r.stderr[-2000:])
            with open(shot, "rb") as fh:
                png = fh.read()
        self.assertEqual(png[:8], b"\x89PNG\r\n\x1a\n")
        self.assertGreater(len(png), 10000)

    def test_strings_charts(self):
        logs = [fx("pb-strings-epyc-linux.log"),
                fx("qemu-tcg-strings-epyc-2026-11-30.log")]
        with tempfile.TemporaryDirectory() as d:
            page = self.make(d, *logs)
            r = self.browse(page, "--dump-dom")
        self.assertEqual(r.returncode, 0, r.stderr[-2000:])
        dom = Dom(r.stdout.decode("utf-8"))
        ms = [m for m in P.load(logs)[0] if m.has_data]
        want = [(m.name, b.op, b.label) for m in ms
                for b in m.strings.ordered_blocks() if not b.zero]
        self.assertEqual(dom.strings_charts, want)
        series = sum(len(b.variants) for m in ms
                     for b in m.strings.ordered_blocks() if not b.zero)
        self.assertEqual((dom.series, dom.polylines), (series, series))
        self.assertEqual(dom.zero_tables, 4)

    def test_every_fixture_loads(self):
        logs = [p for p in all_logs() if expected_exit(p) != 1]
        with tempfile.TemporaryDirectory() as d:
            page = self.make(d, *logs)
            r = self.browse(page, "--dump-dom")
        self.assertEqual(r.returncode, 0)
        dom = Dom(r.stdout.decode("utf-8"))
        passes, pairs = self.expected(*logs)
        self.assertEqual(len(dom.charts), len(passes))
        self.assertEqual(dom.winner_rows, pairs)


if __name__ == "__main__":
    unittest.main()
