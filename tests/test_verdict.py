"""verdict, the selection rules, fleets and the per-byte diff of
scripts/pagebench-report (docs/report.md, "verdict", "Selection rules",
"Fleets", "diff").

The rules are checked against the recorded CPUID dumps in ../shared/cpuid
(pagebench-cpuid turns each into a log's cpu and features lines): what
each kernel picks on each CPU, worked out by hand from the sources cited in
rules/. The verdict runs on the logs of tests/fixtures/verdict/ (written by
gen-fixtures.py there), built to hold, to refute and to stay undecided.
"""
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import unittest
from html.parser import HTMLParser

sys.dont_write_bytecode = True
HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
FIX = os.path.join(HERE, "fixtures", "verdict")
REPO = os.path.dirname(HERE)
# shared/ lies beside the checkout; SHARED_DIR points elsewhere (a
# worktree deeper down).
DUMPS = os.path.join(os.environ.get("SHARED_DIR") or
                     os.path.join(ROOT, "..", "shared"), "cpuid")
CPUID_TOOLS = [os.path.join(ROOT, "build", d, "pagebench-cpuid")
               for d in ("bin", "host")]
sys.path.insert(0, os.path.join(ROOT, "scripts"))
sys.path.insert(0, HERE)
from report_tool import run_tool  # noqa: E402

from pbreport import decide as D  # noqa: E402
from pbreport import fleet as F  # noqa: E402
from pbreport import parse as P  # noqa: E402
from pbreport import rules as R  # noqa: E402
from pbreport import stats  # noqa: E402
from pbreport import verdict as V  # noqa: E402


def fx(name):
    return os.path.join(FIX, name)


def verdict_json(*paths, extra=()):
    rc, out, err = run_tool("verdict", "--json", "-q", *extra, *paths)
    if rc != 0:
        raise AssertionError("verdict failed (%d): %s" % (rc, err))
    return json.loads(out)


def decision(v, function, pass_):
    for d in v["decisions"]:
        if d["function"] == function and d["pass"] == pass_:
            return d
    raise KeyError((function, pass_))


def pick(d, kernel, entry, version=None):
    got = [p for p in d["picks"] if p["kernel"] == kernel and
           p["entry"] == entry and (version is None or p["version"] == version)]
    if len(got) != 1:
        raise AssertionError("%d picks of %s %s %s: %s" % (
            len(got), kernel, entry, version, d["picks"]))
    return got[0]


def def_variants():
    names = set()
    for f in ("clear.def", "copy.def", "strings.def"):
        with open(os.path.join(ROOT, "variants", f)) as fh:
            for line in fh:
                m = re.match(r"^\s*(?:CLEAR|COPY)\((\w+),", line) or \
                    re.match(r"^\s*STRING_VARIANT\(\w+,\s*(\w+),", line)
                if m:
                    names.add(m.group(1))
    return names


class RulesTableTest(unittest.TestCase):
    def test_every_row_names_a_variant_pagebench_runs(self):
        t = R.tables()
        have = def_variants()
        self.assertGreater(len(have), 20)
        for p in t.picks:
            with self.subTest(row="%s:%d" % (p.source, p.line)):
                if p.needs_variant:
                    self.assertNotIn(p.needs_variant, have,
                                     "the variant exists: name it")
                else:
                    self.assertIn(p.variant, have)
                self.assertTrue(p.file and p.cite)
                self.assertRegex(p.cite, r"(torvalds/linux|xen-project/xen)")

    def test_a_bad_row_is_refused_with_its_line(self):
        import tempfile
        with tempfile.TemporaryDirectory() as d:
            bad = os.path.join(d, "selection.rules")
            with open(bad, "w") as fh:
                fh.write("linux | >=6.1 | memset | memset | NOPE | x | stosb"
                         " | f | c\n")
            with self.assertRaisesRegex(R.RulesError, r"selection.rules:1: "
                                        "NOPE has no row"):
                R.Tables(selection=bad)
            with open(bad, "w") as fh:
                fh.write("linux | banana | memset | memset | * | x | stosb"
                         " | f | c\n")
            with self.assertRaisesRegex(R.RulesError, r":1: not a version"):
                R.Tables(selection=bad)

    def test_versions(self):
        r = R.Range("4.15-4.20")
        self.assertTrue(r.contains((4, 20, 3)))
        self.assertFalse(r.contains((4, 21)))
        self.assertTrue(R.Range(">=4.21.1").contains((4, 22)))
        self.assertFalse(R.Range(">=4.21.1").contains((4, 21)))
        self.assertTrue(R.Range(">=6.1 <7.0").contains((6, 19)))
        self.assertFalse(R.Range(">=6.1 <7.0").contains((7, 0)))
        with self.assertRaises(R.UnknownVersion):
            R.check_version(R.tables(), "linux", "2.4")
        with self.assertRaises(R.UnknownVersion):
            R.check_version(R.tables(), "xen", "four")

    def test_cpuid1_eax_of_k8_steppings(self):
        # K8 (family 0xf, model 0x27, stepping 2) is 0x00020f72: above
        # 0x0f58, so REP_GOOD; model 0x4, stepping 8 is 0x0f48, the first
        # of the C steppings.
        self.assertEqual(R.cpuid1_eax(0xf, 0x27, 2), 0x00020f72)
        self.assertEqual(R.cpuid1_eax(0xf, 0x4, 8), 0x0f48)
        self.assertEqual(R.cpuid1_eax(0x19, 0x11, 1), 0x00a10f11)
        self.assertEqual(R.cpuid1_eax(6, 0x3c, 3), 0x000306c3)


class K8Test(unittest.TestCase):
    def test_rep_good_from_stepping_c(self):
        """Linux's K8 test reads CPUID.1 EAX: [0x0f48, 0x0f50) or from
        0x0f58 on; no dump of a K8 is recorded, so the facts are made."""
        t = R.tables()
        for model, step, want in ((0x4, 8, "stosq"), (0x4, 7, "orig"),
                                  (0x5, 0, "orig"), (0x5, 8, "stosq"),
                                  (0x27, 2, "stosq")):
            f = {"vendor": "AuthenticAMD", "family": 0xf, "model": model,
                 "stepping": step, "erms": 0,
                 "cpuid1_eax": R.cpuid1_eax(0xf, model, step)}
            with self.subTest(model=model, stepping=step):
                p = R.picks(t, "linux", "clear_page", f, (6, 6))[0]
                self.assertEqual(p.variant, want)


# What each kernel era picks on each recorded CPU, from the cited sources:
# (kernel, version, entry) -> variant, or ("unknown", {assumption: variant}).
FS = "fast_string"
EXPECT = {
    "AuthenticAMD0100F42_K10_Shanghai.txt": {
        ("linux", "6.6", "clear_page"): "stosq",      # REP_GOOD, no ERMS
        ("linux", "7.0", "clear_pages"): "stosq_all",
        ("linux", "6.6", "copy_page"): "movsq",
        ("linux", "6.6", "memset"): "orig",           # no FSRS, no FSRM
        ("linux", "6.3", "memset"): "stosq",          # REP_GOOD before 6.4
        ("linux", "5.4", "clear_page"): "stosq",
        ("linux", "5.10", "copy_page"): "movsq",
        ("linux", "5.15", "memset"): "stosq",
        ("linux", "5.4", "memcpy"): "movsq",
        ("xen", "4.21.1", "clear_page_cold"): "sse2",  # no CLZERO
        ("xen", "4.21.1", "memcpy"): "movsq_br",
    },
    "AuthenticAMD0830F10_K17_Rome.txt": {
        ("linux", "6.6", "clear_page"): "stosq",
        ("linux", "6.6", "memcpy"): "orig",
        ("xen", "4.21.1", "clear_page_hot"): "stosq",
        ("xen", "4.21.1", "clear_page_cold"): "clzero_sf",
        ("xen", "4.21.1", "scrub_page_cold"): "clzero_sf",
        ("xen", "4.21.1", "memset"): "stosq_br",
        ("xen", "4.20", "clear_page"): "sse2",
    },
    "AuthenticAMD0A10F11_K19_Genoa_01.txt": {
        ("linux", "6.6", "clear_page"): "stosb",
        ("linux", "7.0", "clear_pages"): "stosb_all",
        ("linux", "6.6", "memset"): "stosb",          # AMD: FSRM implies FSRS
        ("linux", "6.6", "memcpy"): "movsb",
        ("linux", "5.4", "clear_page"): "stosb",      # ERMS: the _erms routines
        ("linux", "5.10", "memset"): "stosb",
        ("linux", "5.15", "memcpy"): "movsb",
        ("linux", "5.15", "copy_page"): "movsq",
        ("xen", "4.21.0", "memcpy"): "movsb",         # ERMS
        ("xen", "4.21.1", "memcpy"): "movsq_br",      # family 0x19 left out
        ("xen", "4.22", "memcpy"): "movsq_br",
        ("xen", "4.21.1", "copy_page_hot"): "movsb",
        ("xen", "4.21.1", "clear_page_cold"): "clzero_sf",
    },
    "GenuineIntel0000F68_P4_Tulsa.txt": {
        # Before 6.15 REP_GOOD was family 6 only: orig whatever the MSR.
        ("linux", "6.6", "clear_page"): "orig",
        ("linux", "6.6", "copy_page"): "regs",
        ("linux", "6.15", "clear_page"): ("unknown", {FS + "=1": "stosq",
                                                      FS + "=0": "orig"}),
        ("linux", "6.15", "memset"): "orig",
        ("linux", "5.4", "clear_page"): "orig",
        ("linux", "5.10", "memcpy"): "orig",
        ("xen", "4.21.1", "clear_page_hot"): "stosq",
        ("xen", "4.21.1", "memcpy"): "movsq_br",
    },
    "GenuineIntel00306C3_Haswell.txt": {
        # Fast strings off clear REP_GOOD too, before 6.15 as after.
        ("linux", "6.6", "clear_page"): ("unknown", {FS + "=1": "stosb",
                                                     FS + "=0": "orig"}),
        ("linux", "6.6", "copy_page"): ("unknown", {FS + "=1": "movsq",
                                                    FS + "=0": "regs"}),
        ("linux", "6.15", "copy_page"): ("unknown", {FS + "=1": "movsq",
                                                     FS + "=0": "regs"}),
        ("linux", "6.6", "memcpy"): "orig",           # no FSRM
        ("linux", "5.4", "clear_page"): ("unknown", {FS + "=1": "stosb",
                                                     FS + "=0": "orig"}),
        ("linux", "5.10", "copy_page"): ("unknown", {FS + "=1": "movsq",
                                                     FS + "=0": "regs"}),
        ("linux", "5.15", "memset"): ("unknown", {FS + "=1": "stosb",
                                                  FS + "=0": "orig"}),
        ("xen", "4.20", "memset"): "stosb",
        ("xen", "4.21.1", "memcpy"): ("unknown", {FS + "=1": "movsb",
                                                  FS + "=0": "movsq_br"}),
    },
    "GenuineIntel00806F8_SapphireRapids_05.txt": {
        ("linux", "6.6", "memset"): "stosb",          # FSRS
        ("linux", "6.6", "memcpy"): "movsb",          # FSRM
        # Before 6.4 memcpy reads ERMS, which fast strings off clear.
        ("linux", "5.15", "memcpy"): ("unknown", {FS + "=1": "movsb",
                                                  FS + "=0": "orig"}),
        ("xen", "4.21.1", "clear_page_cold"): "sse2",
        ("xen", "4.15", "copy_page"): "xen_cold",
    },
}


class RulesOnDumpsTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tool = next((t for t in CPUID_TOOLS if os.access(t, os.X_OK)),
                        None)

    def facts_of(self, dump):
        if not os.path.isdir(DUMPS):
            self.skipTest("no dumps at %s (shared/ beside the repo)" % DUMPS)
        if self.tool is None:
            self.fail("pagebench-cpuid is not built (make)")
        r = subprocess.run([self.tool, os.path.join(DUMPS, dump)],
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        self.assertEqual(r.returncode, 0, r.stderr)
        reader = P.Reader(dump, dump)
        reader.feed(r.stdout)
        self.assertEqual(len(reader.machines), 1)
        facts, src = R.machine_facts(reader.machines[0])
        self.assertEqual(src["erms"], "features line")
        return facts

    def test_picks(self):
        t = R.tables()
        for dump, want in EXPECT.items():
            facts = self.facts_of(dump)
            for (kernel, version, entry), expect in want.items():
                with self.subTest(cpu=dump, kernel=kernel, version=version,
                                  entry=entry):
                    ps = R.picks(t, kernel, entry, facts,
                                 R.parse_version(version))
                    self.assertEqual(len(ps), 1)
                    p = ps[0]
                    if isinstance(expect, tuple):
                        self.assertIsNone(p.rule)
                        self.assertEqual(p.unknown.needs, [FS])
                        self.assertEqual({a: r.variant for a, r in
                                          p.alternatives}, expect[1])
                    else:
                        self.assertIsNotNone(p.rule, p.unknown)
                        self.assertEqual(p.variant, expect)

    def test_every_dump_gets_a_pick_or_names_what_it_needs(self):
        if not os.path.isdir(DUMPS):
            self.skipTest("no dumps at %s" % DUMPS)
        t = R.tables()
        for dump in sorted(os.listdir(DUMPS)):
            if not dump.endswith(".txt") or dump == "README.md":
                continue
            facts = self.facts_of(dump)
            for k in R.KERNELS:
                for e in t.entries(k):
                    for p in R.picks(t, k, e, facts):
                        with self.subTest(cpu=dump, kernel=k, entry=e,
                                          version=p.version):
                            if p.rule is None:
                                # Only the MSR the dumps cannot hold.
                                self.assertEqual(p.unknown.needs, [FS])


class DecideTest(unittest.TestCase):
    def cell(self, values):
        sp = stats.Spread(values)
        from pbreport.analysis import Cell
        return Cell(sp.n, sp.min, sp.q1, sp.median, sp.q3, sp.max, values)

    def test_reps_needed_matches_the_exact_test(self):
        # Complete separation: 3+3 cannot reach 0.05 (p=0.1), 4+4 can.
        self.assertEqual(D.reps_needed(1.0, 0.05), 4)
        self.assertEqual(D.min_reps_to_reach(0.05), 4)
        self.assertEqual(stats.min_p(4, 4), 2 / 70)
        self.assertIsNone(D.reps_needed(0.5, 0.05))
        # Less separation needs more reps, and the projection is monotone.
        self.assertGreater(D.reps_needed(0.8, 0.05), 4)
        self.assertGreater(D.reps_needed(0.6, 0.05),
                           D.reps_needed(0.8, 0.05))

    def test_relations(self):
        w = self.cell([100, 101, 102, 103])
        tie = self.cell([101.5, 102.5, 103.5, 104.5])
        slow = self.cell([200, 201, 202, 203])
        few = self.cell([200, 201, 202])
        self.assertEqual(D.relate(w, tie, 0.05, 0.0).state, "tie")
        r = D.relate(w, slow, 0.05, 0.0)
        self.assertEqual(r.state, "slower")
        self.assertAlmostEqual(r.p, 2 / 70)
        r = D.relate(self.cell([100, 101, 102]), few, 0.05, 0.0)
        self.assertEqual(r.state, "undecided")
        self.assertEqual(r.reps_needed, 4)
        self.assertIn("smallest possible p is 0.1", r.reason)
        d = D.Decision({"a": w, "b": tie, "c": slow}, 0.05, 0.0)
        self.assertEqual(d.winner, "a")
        self.assertEqual(d.best, ["a", "b"])
        self.assertTrue(d.decidable)


class VerdictTest(unittest.TestCase):
    def test_hold_log(self):
        v = verdict_json(fx("hold.log"))["machines"][0]
        self.assertEqual(v["features"]["vendor"], "AuthenticAMD")
        d = decision(v, "clear_page", "L1 w/ flush")
        self.assertEqual(d["winner"], "clzero")
        self.assertEqual(d["best"], ["clzero"])
        self.assertTrue(d["decidable"])
        # Linux picks REP STOSB (ERMS) and it costs 1400/300 - 1.
        p = pick(d, "linux", "clear_page", ">=5.4 <7.0")
        self.assertEqual(p["variant"], "stosb")
        self.assertTrue(p["significant"])
        m = P.load([fx("hold.log")])[0][0]
        l1f = m.passes[("clear", "L1 w/ flush")]
        from pbreport.analysis import raw_cell
        want = 100 * (raw_cell(m, l1f, "stosb").median /
                      raw_cell(m, l1f, "clzero").median - 1)
        self.assertGreater(want, 300)
        self.assertAlmostEqual(p["cost_pct"], want, places=1)
        self.assertTrue(p["recommendation"].startswith("switch to clzero"))
        # Xen's cold page clearing uses CLZERO with SFENCE.
        p = pick(d, "xen", "clear_page_cold", ">=4.21")
        self.assertEqual(p["variant"], "clzero_sf")
        # In the hot L1 pass REP STOSQ is within noise of REP STOSB.
        d = decision(v, "clear_page", "L1 w/o flush")
        self.assertEqual(d["winner"], "stosb")
        self.assertIn("stosq", d["best"])
        self.assertEqual(d["relations"]["stosq"]["state"], "tie")
        self.assertEqual(pick(d, "linux", "clear_page",
                              ">=5.4 <7.0")["recommendation"], "keep")
        # clear_pages: the range variants compete; clear_page: they do not.
        self.assertEqual(decision(v, "clear_pages", "L1 w/o flush")["winner"],
                         "stosb_all")
        self.assertNotIn("stosb_all", d["relations"])
        # No Linux 7.0 range rule without REP_GOOD is measurable.
        self.assertIn("copy_page", [x["function"] for x in v["decisions"]])

    def test_old_copy_names_read_under_the_new_ones(self):
        v = verdict_json(fx("hold.log"))["machines"][0]
        d = decision(v, "copy_page", "copy L1 w/o flush")
        names = set(d["relations"]) | {d["winner"]}
        self.assertIn("sse2_t", names)       # the log's temporal "sse2"
        self.assertIn("sse2", names)         # the log's "sse2_nt"
        self.assertEqual(d["log_names"], {"sse2_t": "sse2", "sse2": "sse2_nt"})
        # sse2_nt figured 1500, sse2 650 in the log.
        self.assertGreater(d["relations"]["sse2"]["delta_pct"],
                           d["relations"]["sse2_t"]["delta_pct"])

    def test_undecided_at_three_reps(self):
        v = verdict_json(fx("undecided.log"))["machines"][0]
        for d in v["decisions"]:
            with self.subTest(function=d["function"], pass_=d["pass"]):
                self.assertFalse(d["decidable"])
                self.assertEqual(d["reps_needed"], 4)
                self.assertIn("smallest possible p is 0.1", d["why"])
                for p in d["picks"]:
                    if p.get("variant") and p["variant"] != d["winner"] and \
                            p["status"] == "measured":
                        self.assertEqual(p["recommendation"],
                                         "undecided: run with reps>=4")
                        self.assertFalse(p["significant"])

    def test_text_says_what_it_decided(self):
        rc, out, err = run_tool("verdict", "-q", "--explain", fx("hold.log"))
        self.assertEqual(rc, 0, err)
        self.assertIn("L1 w/ flush: winner clzero", out)
        self.assertIn("linux >=5.4 <7.0 clear_page: clear_page_erms = stosb: "
                      "cost +367.1% p=0.00016", out)
        self.assertIn("switch to clzero (saves 78", out)

    def test_kernel_view_eras(self):
        """Eras whose flags agree are one, named by their joined bounds:
        FSRM's one-release row at 5.4 must not turn 5.4-6.3 into "<6.4"."""
        d = verdict_json(fx("hold.log"))["machines"][0]["kernel_view"]["linux"]
        self.assertEqual([e["version"] for e in d], [">=5.4 <6.4", ">=6.4"])
        self.assertEqual(d[0]["flags"], {"ERMS": 1, "REP_GOOD": 1})

    def test_one_version(self):
        v = verdict_json(fx("hold.log"), extra=("--linux", "7.0",
                                                "--xen", "4.21.1"))
        d = decision(v["machines"][0], "clear_pages", "MEM")
        p = pick(d, "linux", "clear_pages")
        self.assertEqual((p["version"], p["variant"]), ("7.0", "stosb_all"))
        self.assertEqual({p["kernel"] for p in d["picks"]}, {"linux"})

    def test_2021_logs_name_the_missing_facts(self):
        path = os.path.join(ROOT, "results", "xen-2021-clear-page.txt")
        v = verdict_json(path)
        self.assertEqual(len(v["machines"]), 8)
        rome = next(m for m in v["machines"] if m["machine"] == "Rome")
        self.assertEqual(rome["features"]["clzero"], 1)
        self.assertEqual(rome["fact_sources"]["clzero"], "a clzero variant ran")
        d = decision(rome, "clear_page", "L2 w/ flush")
        self.assertFalse(d["decidable"])
        p = pick(d, "linux", "clear_page")
        self.assertEqual(p["status"], "unknown")
        self.assertEqual(p["needs"], ["family", "vendor"])
        # Xen 4.15-4.20 needs nothing: clear_page_sse2.
        self.assertEqual(pick(d, "xen", "clear_page")["variant"], "sse2")
        self.assertEqual(len(v["fleet"]) > 0, True)


def use_log(figures, step=28):
    """An Intel (Emerald Rapids, fast_string=1) log of one pass L1 w/o flush
    in three epochs: figures is {variant: (call, use)}, each (median, lo,
    hi) of its stat line, use None for none (no use lines either)."""
    out = ["(PB) pagebench version=test",
           "(PB) cpu vendor=GenuineIntel family=0x6 model=0xcf stepping=2",
           "(PB) features sse2=1 xsave=1 avx=1 avx2=1 avx512f=1 avx512bw=1 "
           "erms=1 fsrm=1 fzrm=1 fsrs=1 fsrcs=1 clflush=1 clflushopt=1 "
           "clwb=1 movdir64b=1 clzero=0 invtsc=1 aperfmperf=0 ibpb=0 "
           "hypervisor=1 fast_string=1",
           "(PB) tsc khz=2000000 source=cpuid-0x15",
           "(PB) plan suite=clear reps=auto passes=l1 precision=1% budget=1000ms",
           "(PB) sizes pass=l1 fill=49152 clear=24576 copy=12288",
           "(PB) variants clear: " + " ".join(figures),
           "(PB) flush: clflushopt",
           "(PB) tsc step=%d region=34 reads=1000" % step]
    for e in range(3):
        out += ["(PB) L1 w/o flush:",
                "(PB) epoch suite=clear pass=l1 n=%d fill=+%d work=+0" % (
                    e, 4096 * e)]
        out += ["(PB)  pre=500 %s=%x post=600" % (v, call[0] + e)
                for v, (call, use) in figures.items()]
        out += ["(PB)  use %s=%x" % (v, use[0] + e)
                for v, (call, use) in figures.items() if use]
    for v, (call, use) in figures.items():
        for metric, fig, reps in (("", call, 3), (" metric=use", use, 3)):
            if fig:
                out.append("(PB) stat suite=clear pass=l1 variant=%s%s "
                           "reps=%d epochs=3 batch=1 median=%d lo=%d hi=%d "
                           "unit=ticks stop=budget" % ((v, metric, reps) + fig))
    out.append("(PB) done: 0 failures")
    return "\n".join(out) + "\n"


def l1_verdict(test, log, text=False):
    """verdict of a log's text: its clear_page L1 w/o flush decision from
    --json, or (text) what the text output prints."""
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "l1.log")
        with open(path, "w") as f:
            f.write(log)
        if text:
            rc, out, err = run_tool("verdict", "--explain", "-q", path)
            test.assertEqual(rc, 0, err)
            return out
        return decision(verdict_json(path)["machines"][0], "clear_page",
                        "L1 w/o flush")


class NextUserTest(unittest.TestCase):
    """with_use: the decision again with each candidate's call and use
    probe summed (docs/report.md, "verdict", "Counting the next user's
    read")."""

    def verdict(self, figures, text=False, step=28):
        return l1_verdict(self, use_log(figures, step), text)

    # sse2 (MOVNTI) wins the call by intervals apart, but its page is in
    # memory: the read back costs it 3000 ticks against stosb's 800.
    NT_LOSES = {"sse2": ((1000, 980, 1020), (3000, 2950, 3050)),
                "stosb": ((1200, 1180, 1220), (800, 770, 830)),
                "avx512_t": ((1400, 1380, 1420), (800, 770, 830))}

    def test_non_temporal_wins_the_call_and_loses_with_use(self):
        d = self.verdict(self.NT_LOSES)
        self.assertEqual((d["winner"], d["decidable"]), ("sse2", True))
        u = d["with_use"]
        self.assertEqual((u["winner"], u["best"], u["decidable"]),
                         ("stosb", ["stosb"], True))
        self.assertEqual((u["call_winner"], u["winner_changes"]),
                         ("sse2", True))
        f = u["figures"]["sse2"]
        self.assertEqual((f["call"], f["use"], f["sum"]), (1000, 3000, 4000))
        self.assertAlmostEqual(f["half"], (20 ** 2 + 50 ** 2) ** 0.5, places=2)
        self.assertEqual(u["relations"]["sse2"]["state"], "slower")
        self.assertEqual(u["relations"]["avx512_t"]["state"], "slower")
        self.assertEqual(u["without_use"], [])
        self.assertEqual(u["why"], "every other candidate significantly "
                         "slower (95% intervals apart)")
        self.assertTrue(u["change"].startswith(
            "the winner changes: sse2 wins the call alone but loses"))
        # Xen 4.15-4.20 clears with MOVNTI: the call's winner, keep; with
        # the next read counted it costs 4000/2000 - 1.
        call = pick(d, "xen", "clear_page", "4.15-4.20")
        self.assertEqual((call["variant"], call["recommendation"]),
                         ("sse2", "keep"))
        xen = [p for p in u["picks"] if p["kernel"] == "xen" and
               p["entry"] == "clear_page"]
        self.assertEqual(len(xen), 1)
        self.assertEqual((xen[0]["variant"], xen[0]["cost_pct"]),
                         ("sse2", 100.0))
        self.assertTrue(xen[0]["recommendation"].startswith("switch to stosb"))
        # Linux's REP STOSB (ERMS) costs 20% in the call, nothing with use.
        self.assertEqual(pick(d, "linux", "clear_page", ">=5.4 <7.0")[
            "cost_pct"], 20.0)
        lin = [p for p in u["picks"] if p["kernel"] == "linux" and
               p["version"] == ">=5.4 <7.0"]
        self.assertEqual([(p["variant"], p["cost_pct"], p["recommendation"])
                          for p in lin], [("stosb", None, "keep")])

    def test_text_says_the_winner_changes(self):
        out = self.verdict(self.NT_LOSES, text=True)
        block = out[out.index("counting the next user's read"):]
        self.assertIn("winner stosb (1200 + 800 = 2000 ticks ±36.06)", block)
        self.assertIn("the winner changes: sse2 wins the call alone but loses "
                      "once the next user's read is counted, +100.0% against "
                      "stosb (95% intervals apart (3+3 epochs))", block)
        self.assertIn("xen 4.15-4.20 clear_page: sse2: cost +100.0% -> "
                      "switch to stosb (saves 50.0%)", block)

    def test_overlapping_sums_cannot_decide(self):
        """sse2 2400 +-141 and stosb 2350 +-71 overlap: stosb has the lower
        sum but is not separated from the call's winner; movsq has no use
        probe and is left out, and said to be. A timer step of 4 ticks
        puts the 50 ticks between them above its resolution (with 28, the
        sums' 3 quanta of 28 + 28 would already leave them unseparated)."""
        figures = {"sse2": ((1000, 900, 1100), (1400, 1300, 1500)),
                   "stosb": ((1200, 1150, 1250), (1150, 1100, 1200)),
                   "stosq": ((1300, 1250, 1350), None)}
        d = self.verdict(figures, step=4)
        self.assertEqual((d["winner"], d["decidable"]), ("sse2", True))
        u = d["with_use"]
        self.assertEqual((u["winner"], u["best"], u["decidable"]),
                         ("stosb", ["stosb", "sse2"], False))
        self.assertTrue(u["winner_changes"])
        self.assertEqual(u["relations"]["sse2"]["state"], "undecided")
        self.assertIn("95% intervals overlap", u["why"])
        self.assertTrue(u["change"].startswith(
            "lowest sum stosb, not the call's winner sse2, but the two are "
            "not separated"))
        self.assertEqual(u["without_use"], ["stosq"])
        self.assertNotIn("stosq", u["figures"])
        xen = [p for p in u["picks"] if p["kernel"] == "xen" and
               p["entry"] == "clear_page"][0]
        self.assertEqual((xen["variant"], xen["significant"],
                          xen["among_best"]), ("sse2", False, True))
        self.assertTrue(xen["recommendation"].startswith("undecided:"))
        u = self.verdict(figures)["with_use"]
        self.assertEqual((u["best"], u["decidable"]),
                         (["stosb", "sse2"], False))
        self.assertIn("below the timer's resolution", u["why"])

    def test_logs_without_use_have_none(self):
        # Before epochs (fixtures of 3 reps), and with stat lines but no
        # use probe (an L3 or MEM pass): null, no block, no error.
        for d in verdict_json(fx("hold.log"))["machines"][0]["decisions"]:
            self.assertIsNone(d["with_use"], (d["function"], d["pass"]))
        d = self.verdict({"sse2": ((1000, 980, 1020), None),
                          "stosb": ((1200, 1180, 1220), None)})
        self.assertIsNone(d["with_use"])
        rc, out, err = run_tool("verdict", "--explain", "-q", fx("hold.log"))
        self.assertEqual((rc, err), (0, ""))
        self.assertNotIn("next user", out)


def paired_log(figures, ratios):
    """use_log() with ratio lines over stosb: {variant: (median, lo, hi)},
    the figures as text ("0.9500", or "?")."""
    out = use_log(figures).replace("(PB) done: 0 failures\n", "")
    for v, (med, lo, hi) in ratios.items():
        out += ("(PB) ratio suite=clear pass=l1 variant=%s ref=stosb epochs=3 "
                "median=%s lo=%s hi=%s\n" % (v, med, lo, hi))
    return out + "(PB) done: 0 failures\n"


class PairedTest(unittest.TestCase):
    """paired: the decision again on the ratio lines, each variant over the
    reference epoch by epoch (docs/report.md, "verdict", "Paired against
    the reference")."""

    # The times overlap: avx512_t's lead over stosb is within their
    # intervals, which carry what moved the whole machine.
    TIMES = {"avx512_t": ((1000, 900, 1100), None),
             "stosb": ((1050, 950, 1150), None),
             "sse2": ((5000, 4800, 5200), None)}

    def verdict(self, ratios, text=False):
        return l1_verdict(self, paired_log(self.TIMES, ratios), text)

    APART = {"avx512_t": ("0.9500", "0.9300", "0.9700"),
             "sse2": ("4.7600", "4.6000", "4.9000")}

    def test_ratio_decides_where_the_times_cannot(self):
        d = self.verdict(self.APART)
        self.assertEqual((d["winner"], d["decidable"]), ("avx512_t", False))
        self.assertEqual(d["relations"]["stosb"]["state"], "undecided")
        u = d["paired"]
        self.assertEqual((u["reference"], u["winner"], u["best"], u["decidable"]),
                         ("stosb", "avx512_t", ["avx512_t"], True))
        self.assertEqual(u["figures"]["stosb"], {"ratio": 1.0, "lo": 1.0, "hi": 1.0})
        self.assertEqual(u["figures"]["avx512_t"],
                         {"ratio": 0.95, "lo": 0.93, "hi": 0.97})
        self.assertEqual(u["relations"]["stosb"]["state"], "slower")
        self.assertEqual(u["relations"]["sse2"]["state"], "slower")
        self.assertFalse(u["winner_changes"])
        self.assertEqual(u["without_ratio"], [])
        # Linux's REP STOSB: undecided on the times, 1/0.95 - 1 paired.
        self.assertTrue(pick(d, "linux", "clear_page", ">=5.4 <7.0")[
            "recommendation"].startswith("undecided"))
        lin = [p for p in u["picks"] if p["kernel"] == "linux" and
               p["version"] == ">=5.4 <7.0"]
        self.assertEqual([(p["variant"], p["significant"]) for p in lin],
                         [("stosb", True)])
        self.assertAlmostEqual(lin[0]["cost_pct"], 100 * (1 / 0.95 - 1), places=1)
        self.assertEqual(lin[0]["recommendation"],
                         "switch to avx512_t (saves 5.0%)")

    def test_an_interval_over_one_stays_undecided(self):
        d = self.verdict({"avx512_t": ("0.9800", "0.9500", "1.0100"),
                          "sse2": ("4.7600", "4.6000", "4.9000")})
        u = d["paired"]
        self.assertEqual((u["winner"], u["best"], u["decidable"]),
                         ("avx512_t", ["avx512_t", "stosb"], False))
        self.assertIn("95% intervals overlap", u["why"])
        lin = [p for p in u["picks"] if p["kernel"] == "linux" and
               p["version"] == ">=5.4 <7.0"][0]
        self.assertEqual((lin["significant"], lin["among_best"]), (False, True))

    def test_text_and_a_ratio_without_interval(self):
        out = self.verdict({"avx512_t": ("0.9500", "0.9300", "0.9700"),
                            "sse2": ("4.7600", "?", "?")}, text=True)
        block = out[out.index("paired against stosb"):]
        self.assertIn("winner avx512_t (0.9500 of stosb, 95% 0.9300-0.9700)", block)
        self.assertIn("decided: every other candidate significantly slower", block)
        self.assertIn("no ratio interval: sse2", block)
        self.assertIn("linux >=5.4 <7.0 clear_page: stosb: cost +5.3% -> "
                      "switch to avx512_t (saves 5.0%)", block)

    def test_logs_without_ratios_have_none(self):
        for d in verdict_json(fx("hold.log"))["machines"][0]["decisions"]:
            self.assertIsNone(d["paired"], (d["function"], d["pass"]))
        d = self.verdict({})
        self.assertIsNone(d["paired"])
        rc, out, err = run_tool("verdict", "--explain", "-q", fx("hold.log"))
        self.assertEqual((rc, err), (0, ""))
        self.assertNotIn("paired against", out)


class ModuleLogTest(unittest.TestCase):
    """A log of pagebench.ko names the Linux it ran in and that kernel's own
    view of the CPU (linux-module lines): the verdict asks about that
    version, takes its flags over the synthetic rules', and sets the
    kernel's own routine (kernel_clear_page) beside the rules' pick."""

    LOG = os.path.join(ROOT, "results",
                       "xeon-qemu-tcg-translator-module-clear-2026-12-01.log")

    def with_features(self, flags):
        """The log with another linux-module kernel_features line."""
        tmp = tempfile.mkdtemp()
        self.addCleanup(shutil.rmtree, tmp)
        path = os.path.join(tmp, "module.log")
        with open(self.LOG) as f:
            text = re.sub(r"linux-module kernel_features .*",
                          "linux-module kernel_features " + flags, f.read())
        with open(path, "w") as f:
            f.write(text)
        return path

    def test_the_running_kernel_and_its_own_routine(self):
        m = verdict_json(self.LOG)["machines"][0]
        self.assertEqual(m["running_kernel"], {
            "release": "6.1.0-57-amd64", "version": "6.1.0", "flags_used": True,
            "flags": {"REP_GOOD": 1, "ERMS": 1, "FSRM": 0}})
        self.assertEqual(m["kernel_view"]["linux"], [{"version": "6.1.0",
                                                      "flags": {"ERMS": 1, "REP_GOOD": 1}}])
        d = decision(m, "clear_page", "L1 w/o flush")
        p = pick(d, "linux", "clear_page")
        self.assertEqual((p["routine"], p["variant"]), ("clear_page_erms", "stosb"))
        self.assertEqual(p["own"]["variant"], "kernel_clear_page")
        self.assertEqual(p["own"]["status"], "measured")
        self.assertNotIn("own", pick(d, "xen", "clear_page"))

    def test_its_own_flags_win_over_cpuid(self):
        """CPUID says erms=1; a kernel that masked it (MISC_ENABLE, a
        hypervisor) picks clear_page_rep, and the verdict follows it."""
        log = self.with_features("rep_good=1 erms=0 fsrm=0 fzrm=unknown fsrs=unknown")
        m = verdict_json(log)["machines"][0]
        self.assertEqual(m["features"]["erms"], 1)
        p = pick(decision(m, "clear_page", "L1 w/o flush"), "linux", "clear_page")
        self.assertEqual((p["routine"], p["variant"]), ("clear_page_rep", "stosq"))

    def test_another_version_asked_for(self):
        m = verdict_json(self.LOG, extra=("--linux", "6.12"))["machines"][0]
        self.assertFalse(m["running_kernel"]["flags_used"])
        p = pick(decision(m, "clear_page", "L1 w/o flush"), "linux", "clear_page")
        self.assertEqual(p["version"], "6.12")

    def test_an_lts_version_asked_for(self):
        for version in ("5.4", "5.10.200", "5.15"):
            with self.subTest(version=version):
                m = verdict_json(self.LOG, extra=("--linux", version))["machines"][0]
                p = pick(decision(m, "clear_page", "L1 w/o flush"), "linux",
                         "clear_page")
                self.assertEqual(p["version"], version)
                self.assertEqual((p["routine"], p["variant"]),
                                 ("clear_page_erms", "stosb"))

    def test_kernel_clear_pages_is_a_range(self):
        self.assertEqual(V.shapes("clear")["kernel_clear_pages"], "RANGE")
        self.assertEqual(V.shapes("clear")["kernel_clear_page"], "PAGE")


class BadInputTest(unittest.TestCase):
    def test_no_features_line(self):
        rc, out, err = run_tool("verdict", "--explain", fx("nofeatures.log"))
        self.assertEqual(rc, 0, err)
        self.assertNotIn("Traceback", err)
        self.assertIn("the log has no features line", out)
        # CLZERO for Xen needs CLFLUSH, which only the features line says.
        self.assertIn("xen >=4.21 clear_page_cold: unknown, needs clflush",
                      out)

    def test_truncated_log(self):
        rc, out, err = run_tool("verdict", "--explain", fx("truncated.log"))
        self.assertEqual(rc, 0, err)
        self.assertNotIn("Traceback", err)
        self.assertIn("the log ends early", err)
        self.assertIn("L3 w/o flush: winner", out)

    def test_unknown_kernel_versions(self):
        for args, msg in ((("--linux", "2.4"), "no linux rule covers version "
                           "2.4"),
                          # Below the oldest Linux row (5.4): nothing was read.
                          (("--linux", "4.19"), "no linux rule covers version "
                           "4.19 (the table has >=5.4"),
                          (("--linux", "5.3.18"), "no linux rule covers "
                           "version 5.3.18"),
                          (("--xen", "banana"), "not a version number"),
                          (("--linux", "6.x"), "not a version number")):
            rc, out, err = run_tool("verdict", "--explain", *args, fx("hold.log"))
            self.assertEqual(rc, 2)
            self.assertIn(msg, err)
            self.assertNotIn("Traceback", err)
            self.assertEqual(out, "")

    def test_no_data(self):
        rc, out, err = run_tool("verdict", "--explain", stdin=b"garbage\n")
        self.assertEqual(rc, 1)
        self.assertIn("no usable data", err)


class FleetTest(unittest.TestCase):
    def test_pdsh_stream_is_read_host_by_host(self):
        with open(fx("pdsh.log"), "rb") as fh:
            data = fh.read()
        hosts, left = F.split_prefixed(data)
        self.assertEqual([h for h, _ in hosts], ["nodea", "nodeb"])
        self.assertEqual(len(left), 1)          # pdsh's own ssh message
        with open(fx("hold.log"), "rb") as fh:
            self.assertEqual(hosts[0][1], fh.read())
        ms, ds = F.load([fx("pdsh.log")])
        self.assertEqual([m.name for m in ms], ["nodea", "nodeb"])
        self.assertTrue(any("not a host's pagebench line" in str(d)
                            for d in ds))
        # A plain log is not taken for a stream.
        with open(fx("hold.log"), "rb") as fh:
            self.assertIsNone(F.split_prefixed(fh.read()))

    def test_clush_prefix_as_clush_prints_it(self):
        # clush -w a,b CMD (no -b) prints "a: LINE" just as pdsh does.
        data = b"".join(b"%s: %s\n" % (h, ln) for ln in
                        open(fx("hold.log"), "rb").read().splitlines()
                        for h in (b"a.example", b"b-2"))
        hosts, left = F.split_prefixed(data)
        self.assertEqual([h for h, _ in hosts], ["a.example", "b-2"])
        self.assertEqual(left, [])

    def test_fleet_rows(self):
        v = verdict_json(fx("pdsh.log"))
        rows = v["fleet"]
        self.assertEqual(len({tuple(sorted(r["group"].items()))
                              for r in rows}), 1)
        r = next(r for r in rows if r["function"] == "clear_page" and
                 r["pass"] == "L1 w/o flush")
        # nodea: stosb (stosq in noise); nodeb: avx512_t wins alone.
        self.assertEqual(r["best_everywhere"], [])
        self.assertIsNotNone(r["choice"])
        self.assertGreater(r["worst_loss_pct"], 0)
        self.assertTrue(r["loses_on"])
        r = next(r for r in rows if r["function"] == "clear_page" and
                 r["pass"] == "MEM")
        self.assertEqual(r["choice"], "clzero")
        self.assertEqual(r["loses_on"], [])


class EmulatedRunTest(unittest.TestCase):
    """What ran a log (its hot load line, cpu/hot_load.h) gives the
    verdict a caveat and the fleet a group of its own."""

    HOT = {"cpu": "hot load loads=1000 ticks=4083 ns=1.70 runs_on=cpu",
           "emulator": "hot load loads=1000 ticks=2220648 ns=925.27 "
                       "runs_on=emulator"}

    def logs(self, d, **kinds):
        """hold.log once per name, with the hot load line (or the
        hypervisor line) kinds gives it."""
        with open(fx("hold.log")) as f:
            text = f.read()
        paths = []
        for name, kind in kinds.items():
            t = text
            if kind == "tcg":
                t = t.replace("(PB) hypervisor: none",
                              "(PB) hypervisor: TCGTCGTCGTCG")
            elif kind:
                t = t.replace("(PB) memory usable",
                              "(PB) %s\n(PB) memory usable" % self.HOT[kind])
            self.assertNotEqual(t, text)
            paths.append(os.path.join(d, name + ".log"))
            with open(paths[-1], "w") as f:
                f.write(t)
        return paths

    def test_caveat_and_runs_on(self):
        with tempfile.TemporaryDirectory() as d:
            v = verdict_json(*self.logs(d, a="cpu", b="emulator", c="tcg"))
            plain = verdict_json(fx("hold.log"))["machines"][0]
        got = {m["machine"][:-len(".log")]: (m["runs_on"], m["caveat"])
               for m in v["machines"]}
        self.assertEqual(got["a"], ("cpu", None))
        self.assertEqual(got["b"][0], "emulator")
        self.assertIn("hot load 925.27 ns", got["b"][1])
        self.assertIn("instruction emulator, not a CPU", got["b"][1])
        self.assertEqual(got["c"][0], "tcg")
        self.assertIn("TCG translator", got["c"][1])
        self.assertEqual((plain["runs_on"], plain["caveat"]), (None, None))

    def test_fleet_groups_the_emulator_apart(self):
        with tempfile.TemporaryDirectory() as d:
            v = verdict_json(*self.logs(d, a="cpu", b="emulator",
                                        c="cpu", e="emulator"))
        groups = {}
        for r in v["fleet"]:
            groups.setdefault(tuple(sorted(r["group"].items())),
                              set()).update(r["group_machines"])
        self.assertEqual(sorted(map(sorted, groups.values())),
                         [["a.log", "c.log"], ["b.log", "e.log"]])
        emu = next(g for g, ms in groups.items() if "b.log" in ms)
        self.assertIn(("runs_on", "emulator"), emu)
        cpu = next(g for g, ms in groups.items() if "a.log" in ms)
        self.assertNotIn("runs_on", dict(cpu))

    def test_a_real_emulator_log(self):
        """The kernel under this project's PVM KVM."""
        v = verdict_json(os.path.join(REPO, "results",
                                      "emr-kvm-emulator-hot-load-2026-12-01.log"))
        m = v["machines"][0]
        self.assertEqual(m["runs_on"], "emulator")
        self.assertIn("instruction emulator", m["caveat"])


class PerByteDiffTest(unittest.TestCase):
    def test_sizes_differ(self):
        rc, out, err = run_tool("diff", "-q", "--metric", "time",
                                fx("sizes-a.log"), fx("sizes-b.log"))
        self.assertEqual(rc, 0, err)
        self.assertTrue(out.startswith("per 4 KiB page: the machines' sizes "
                                       "differ"), out)
        self.assertIn("L1 w/o flush: sizes-a.log 24576 B, sizes-b.log "
                      "16384 B", out)
        self.assertIn("variant time (ns per 4 KiB page)", out)
        row = next(ln for ln in out.splitlines()
                   if re.search(r"L1 w/o flush\s+stosb", ln))
        # 600 ticks for 6 pages against 500 ticks for 4: +25 % per page.
        self.assertRegex(row, r"\+24\.\d\d%|\+25\.\d\d%")
        rc, out, err = run_tool("diff", "-q", "--per-call", "--metric",
                                "time", fx("sizes-a.log"), fx("sizes-b.log"))
        self.assertEqual(rc, 0, err)
        self.assertIn("per pass on request (--per-call)", out)
        row = next(ln for ln in out.splitlines()
                   if re.search(r"L1 w/o flush\s+stosb", ln))
        self.assertRegex(row, r"-16\.\d\d%|-17\.\d\d%")

    def test_same_sizes_stay_per_call(self):
        rc, out, err = run_tool("diff", "-q", "--metric", "time",
                                fx("hold.log"), fx("refute.log"))
        self.assertEqual(rc, 0, err)
        self.assertTrue(out.startswith("variant time (ns)"), out[:80])


class HtmlVerdictTest(unittest.TestCase):
    """html opens with the verdict and the claims, and says what the
    verdict and claims subcommands say."""

    class Page(HTMLParser):
        def __init__(self, text):
            super().__init__()
            self.sections, self.winners, self.claims = [], {}, {}
            self.paired = {}
            self._row = self._cell = self._claim = None
            self._machine = None
            self.feed(text)

        def handle_starttag(self, tag, attrs):
            a = dict(attrs)
            if tag == "section" and "id" in a:
                self.sections.append(a["id"])
            if tag == "section" and a.get("class") == "verdict-machine":
                self._machine = a["data-machine"]
            if tag == "tr" and a.get("class") == "decision":
                self._row = (self._machine, a["data-function"],
                             a["data-pass"])
            if tag == "tr" and a.get("class") == "claim":
                self._claim = a["data-id"]
            if tag == "td" and a.get("class") == "winner" and self._row:
                self._cell = ("winner", self._row)
            if tag == "tr" and a.get("class") == "paired":
                self._row = (self._machine, a["data-function"],
                             a["data-pass"])
            if tag == "td" and a.get("class") == "paired-winner" and self._row:
                self._cell = ("paired", self._row)
            if tag == "summary" and self._claim and self._machine_td:
                self._cell = ("claim", (self._claim, self._machine_td))
            if tag == "td":
                self._machine_td = a.get("data-machine")

        _machine_td = None

        def handle_endtag(self, tag):
            if tag in ("td", "summary"):
                self._cell = None

        def handle_data(self, data):
            if self._cell:
                kind, key = self._cell
                {"winner": self.winners, "claim": self.claims,
                 "paired": self.paired}[kind][key] = data.strip()

    def test_opens_with_verdict_and_claims(self):
        logs = [fx("hold.log"), fx("refute.log"), fx("undecided.log")]
        rc, page, err = run_tool("html", "-q", *logs)
        self.assertEqual(rc, 0, err)
        got = self.Page(page)
        # The answer's matrix first (tests/test_answer.py), then the detail.
        self.assertEqual(got.sections[:3], ["answer", "verdict", "claims"])
        self.assertLess(got.sections.index("claims"),
                        got.sections.index("machines"))
        v = verdict_json(*logs)
        want = {(m["machine"], d["function"], d["pass"]): d["winner"]
                for m in v["machines"] for d in m["decisions"]}
        self.assertTrue(want)
        self.assertEqual(got.winners, want)
        self.assertIn('id="fleet"', page)
        rc, out, err = run_tool("claims", "--json", "-q", *logs)
        self.assertEqual(rc, 0, err)
        want = {(c["id"], r["machine"]): r["verdict"]
                for c in json.loads(out)["claims"] for r in c["results"]}
        self.assertEqual(got.claims, want)
        # The three logs were built to hold, to refute and to stay
        # undecided: the page shows each of those answers.
        self.assertTrue({"holds", "refuted", "undecided"} <=
                        set(want.values()))
        self.assertEqual(got.paired, {})

    def test_paired_view_of_a_log_with_ratios(self):
        """A real log with ratio lines: every page pass's paired winner on
        the page is the one verdict --json names."""
        log = os.path.join(ROOT, "results", "emr-linux-cpu-ratios-2026-12-01.log")
        rc, page, err = run_tool("html", "-q", log)
        self.assertEqual(rc, 0, err)
        got = self.Page(page)
        v = verdict_json(log)
        want = {(m["machine"], d["function"], d["pass"]): d["paired"]["winner"]
                for m in v["machines"] for d in m["decisions"] if d["paired"]}
        self.assertTrue(len(want) >= 20, len(want))
        self.assertEqual(got.paired, want)
        self.assertIn(" of stosb, 95% ", page)


if __name__ == "__main__":
    unittest.main()
