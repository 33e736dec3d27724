"""The answer lines, as scripts/pagebench-report renders them: read into
the typed model, the one screen of `verdict`, `--json`'s answers[],
`--format commit` for one machine and a group, the HTML matrix; and no
recommendation anywhere from a run that is no CPU's. The fixtures are
tests/fixtures/answer/*.log (gen-fixtures.py says how they are made);
every expected figure here is read off their lines with the documented
expression, not computed by the code under test."""
import glob
import json
import os
import re
import sys
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "scripts"))
from report_tool import run_tool  # noqa: E402
from pbreport import commit, decided, explain, grammar, matrix, parse  # noqa: E402
from pbreport.answer import Answer, Interval  # noqa: E402

FIX = os.path.join(HERE, "fixtures", "answer")
A, B, TCG = (os.path.join(FIX, n) for n in ("emr-a.log", "emr-b.log", "tcg.log"))
# Real runs' logs (tests/fixtures/real/README.md) and the 2021 file.
REAL = os.path.join(HERE, "fixtures", "real")
XEN_2021 = os.path.join(REAL, "xen-2021-clear-page.txt")
LINE = re.compile("^" + grammar.TAG + grammar.regex("answer"))
FIELDS = ("fn", "pass", "sizes_lo", "sizes_hi", "kernel", "versions", "entry",
          "pick", "assuming", "action", "routine", "ratio", "lo", "hi", "epochs",
          "pick_ns", "routine_ns", "fpu", "worth", "need", "why")


def lines_of(path):
    """The answer lines of a log, as {field: text}, read with the
    documented expression alone."""
    out = []
    with open(path, encoding="utf-8") as fh:
        for l in fh:
            m = LINE.match(l.rstrip("\n"))
            if m:
                out.append(dict(zip(FIELDS, m.groups())))
    return out


def machine(path):
    ms, _ = parse.load([path])
    return ms[0]


def walk(x):
    """Every value of a JSON document, as jq's `..` gives them."""
    yield x
    if isinstance(x, dict):
        for v in x.values():
            yield from walk(v)
    elif isinstance(x, list):
        for v in x:
            yield from walk(v)


def fits(test, text, height=matrix.HEIGHT, width=matrix.WIDTH):
    lines = text.rstrip("\n").split("\n")
    test.assertLessEqual(len(lines), height, text)
    test.assertLessEqual(max(len(l) for l in lines), width,
                         max(lines, key=len))


GROUPS = ("fast", "report")


class Model(unittest.TestCase):
    def test_every_line_is_read(self):
        for path in (A, B, TCG):
            got = machine(path).answers
            want = lines_of(path)
            self.assertGreater(len(want), 0)
            self.assertEqual(len(got), len(want))
            for a, w in zip(got, want):
                self.assertEqual((a.fn, a.pass_id, a.kernel, a.versions,
                                  a.entry, a.pick or "-", a.action,
                                  a.routine or "-"),
                                 tuple(w[k] for k in ("fn", "pass", "kernel",
                                                      "versions", "entry", "pick")) +
                                 (w["action"], w["routine"]))
                self.assertEqual(a.sizes, None if w["sizes_lo"] is None else
                                 (int(w["sizes_lo"]), int(w["sizes_hi"])))
                self.assertEqual(a.assuming, w["assuming"])
                self.assertEqual(a.why, w["why"])
                if w["ratio"] is not None:
                    self.assertEqual(a.ratio, Interval(
                        float(w["ratio"]), float(w["lo"]), float(w["hi"])))

    def test_the_fixture_covers_every_action(self):
        acts = {l["action"] for l in lines_of(A)}
        self.assertEqual(acts, {"keep", "switch", "undecided", "none"})
        self.assertEqual({l["why"] for l in lines_of(TCG)}, {"not-a-cpu"})

    def test_saving_and_gbps_are_the_lines_arithmetic(self):
        g = LINE.match('(PB) answer fn=clear_page pass=l1f kernel=linux '
                       'versions=">=5.4" entry=clear_page pick=stosb '
                       'action=switch routine=avx512 ratio=0.5000 lo=0.4000 '
                       'hi=0.6000 epochs=9 pick_ns=512.0 routine_ns=256.0 '
                       'worth=3.0%').groups()
        a = Answer.from_groups(g)
        self.assertEqual(a.saving_pct, Interval(50.0, 40.0, 60.0))
        self.assertEqual((a.pick_gbps, a.routine_gbps), (8.0, 16.0))
        self.assertIsNone(a.need_epochs)
        self.assertEqual((a.fpu_ns, a.fpu_unmeasured), (None, False))

    def test_fpu_field(self):
        """fpu= after the ns, before worth= (docs/log-format.md, "The
        answer"): measured, in ns per page, or ? where not; the fields
        after it keep their values."""
        base = ('(PB) answer fn=clear_page pass=l1 kernel=linux versions="running 6.1.0" '
                'entry=clear_page pick=stosb action=undecided routine=avx_t ratio=0.9600 '
                'lo=0.9000 hi=1.0200 epochs=5 pick_ns=100.0 routine_ns=96.0FPU '
                'worth=3.0% need=epochs>=40')
        a = Answer.from_groups(LINE.match(base.replace("FPU", " fpu=27.5ns")).groups())
        self.assertEqual((a.fpu_ns, a.fpu_unmeasured, a.worth_pct, a.need_epochs),
                         (27.5, False, 3.0, 40))
        a = Answer.from_groups(LINE.match(base.replace("FPU", " fpu=?")).groups())
        self.assertEqual((a.fpu_ns, a.fpu_unmeasured, a.need_epochs), (None, True, 40))
        for bad in (" fpu=27.5", " fpu=?ns", " fpu="):
            self.assertIsNone(LINE.match(base.replace("FPU", bad)), bad)

    def test_alike_field(self):
        """alike= last on a switch line (docs/method.md, "Within noise"):
        read, rendered by --explain and --format commit as "or Y"; a
        line without it reads alike None and says no "or"."""
        base = ('(PB) answer fn=clear_page pass=l3 kernel=linux versions=">=5.4" '
                'entry=clear_page pick=stosb action=switch routine=avx_t ratio=0.6000 '
                'lo=0.5500 hi=0.6500 epochs=9 pick_ns=500.0 routine_ns=300.0 fpu=? '
                'worth=3.0%')
        a = Answer.from_groups(LINE.match(base + " alike=avx512_t").groups())
        self.assertEqual((a.routine, a.alike, a.worth_pct), ("avx_t", "avx512_t", 3.0))
        self.assertEqual(a.to_json()["alike"], "avx512_t")
        self.assertIn("switch to avx_t (or avx512_t, quicker within noise)",
                      explain.decision(a))
        self.assertTrue(commit.one(a, "cpu")[0].startswith(
            "switch to avx_t (or avx512_t, within noise), saves 40"))
        b = Answer.from_groups(LINE.match(base).groups())
        self.assertIsNone(b.alike)
        self.assertNotIn(" or ", explain.decision(b) + commit.one(b, "cpu")[0])
        self.assertIsNone(LINE.match(base + " alike="))

    def test_drift_field(self):
        """drift=FIRST/LAST last on the line, after alike= where both are
        (docs/log-format.md): read as two ratios, said by --explain,
        --format commit and --json; a line without it reads None."""
        base = ('(PB) answer fn=copy_page pass=l1 kernel=linux versions=">=5.4" '
                'entry=copy_page pick=movsq action=keep routine=regs_nopf ratio=1.4100 '
                'lo=1.3000 hi=1.5200 epochs=21 pick_ns=50.0 routine_ns=70.5 '
                'worth=3.0%')
        a = Answer.from_groups(LINE.match(base + " drift=1.2200/1.6000").groups())
        self.assertEqual((a.action, a.drift), ("keep", (1.22, 1.6)))
        self.assertEqual(a.to_json()["drift"], [1.22, 1.6])
        self.assertIn("drifted during the run: 1.2200 over its first half of epochs, "
                      "1.6000 over its last", explain.decision(a))
        self.assertIn("the ratio drifted during the run, 1.22 then 1.60",
                      "\n".join(commit.one(a, "cpu")))
        both = Answer.from_groups(LINE.match(
            base.replace("action=keep", "action=switch") +
            " alike=regs drift=0.9000/0.8000").groups())
        self.assertEqual((both.alike, both.drift), ("regs", (0.9, 0.8)))
        none = Answer.from_groups(LINE.match(base).groups())
        self.assertIsNone(none.drift)
        self.assertIsNone(none.to_json()["drift"])
        self.assertNotIn("drift", explain.decision(none) + "\n".join(commit.one(none, "cpu")))
        # The order is fixed, and both figures are needed.
        self.assertIsNone(LINE.match(base + " drift=1.2200/1.6000 alike=regs"))
        self.assertIsNone(LINE.match(base + " drift=1.2200"))


class Screen(unittest.TestCase):
    GROUPS = ("fast", "report", "boot")

    def test_one_screen(self):
        rc, out, err = run_tool("verdict", "-q", A)
        self.assertEqual(rc, 0, err)
        fits(self, out)
        self.assertTrue(out.startswith("== emr-a.log\ncpu: GenuineIntel "
                                       "family 0x6 model 0xcf"))
        for word in ("runs_on=cpu", "pagebench-linux", "kernels: linux"):
            self.assertIn(word, out)

    def test_each_cell_says_its_lines_action(self):
        m = machine(A)
        screen = matrix.build(m)
        text = matrix.text(screen)
        rows = text.split("\n")
        checked = 0
        for l in lines_of(A):
            found = []
            for t in screen.tables:
                for i, c in enumerate(t.columns):
                    if c.fn == l["fn"] and any(
                            (w.kernel, w.versions, w.entry) ==
                            (l["kernel"], l["versions"], l["entry"])
                            for w in c.who):
                        found.append(t.cells[((l["pass"], None), i)])
            self.assertEqual(len(found), 1, l)
            cell = found[0]
            self.assertEqual(cell.action, l["action"], l)
            word = {"keep": "keep", "undecided": "undecided", "none": "n/a",
                    "switch": "→ " + (l["routine"] or "")}[l["action"]]
            self.assertTrue(cell.text().startswith(word), (cell.text(), l))
            self.assertTrue(any(r.startswith(l["pass"] + " ") and
                                cell.text() in r for r in rows), l)
            checked += 1
        self.assertEqual(checked, len(lines_of(A)))

    def test_a_switch_cell_shows_the_saving_and_interval(self):
        screen = matrix.build(machine(A))
        t = screen.tables[0]
        i = [c.label for c in t.columns].index("stosb")
        # clear_page l1f, pick stosb: ratio 0.4969 (0.4626-0.5311).
        self.assertEqual(t.cells[(("l1f", None), i)].text(), "→ avx512 −50% (47–54)")

    def test_disagreeing_picks_keep_their_own_columns(self):
        def ans(versions, action):
            return Answer("copy_page", "l1", "linux", versions, "copy_page",
                          "movsq", None, action, "regs",
                          Interval(0.9, 0.8, 1.0 if action != "switch"
                                   else 0.95), 5, 1.0, 0.9, 3.0,
                          10 if action == "undecided" else None, None)
        cols = matrix.columns([ans(">=5.4", "switch"),
                               ans("running 6.1", "switch"),
                               ans("4.15-4.20", "undecided")], "copy_page")
        self.assertEqual([len(c.who) for c in cols], [2, 1])

    def test_many_wide_columns_still_fit(self):
        """An AMD-like worst case: four clear_page picks, long routine
        names in every cell, clear_pages and copy_page too."""
        m = machine(A)
        out = []
        picks = (("clear_page", "stosb", ">=5.4"), ("clear_page", "sse2", "4.15-4.20"),
                 ("clear_page", "clzero_sf", ">=4.21 cold"),
                 ("clear_page", "orig", "running 6.18.44"),
                 ("clear_pages", "stosb_all", ">=7.0"),
                 ("clear_pages", "orig_all", "running 6.18.44"),
                 ("copy_page", "movsq", ">=5.4"), ("copy_page", "xen_cold", "4.15-4.20"),
                 ("copy_page", "movsb", ">=4.21 hot"), ("copy_page", "regs", "running 1"))
        for fn, pick, ver in picks:
            for p in (matrix.PASS_ORDER if fn == "copy_page" else matrix.PASS_ORDER[:7]):
                out.append(Answer(fn, p, "xen", ver, fn, pick, "fast_string=1",
                                  "switch", "sse2_t_pf_all_x", Interval(0.111, 0.0512, 0.1799),
                                  5, 100.0, 11.1, 3.0, None, None))
        m.answers = out
        text = matrix.text(matrix.build(m))
        fits(self, text)

    def test_a_log_without_answer_lines_is_decided_by_the_engine(self):
        """A log from before the answer lines gets the engine's answers
        (pagebench-decide), and its screen says where they came from."""
        path = os.path.join(HERE, "fixtures", "verdict", "hold.log")
        rc, out, err = run_tool("verdict", "-q", path)
        self.assertEqual(rc, 0, err)
        self.assertIn("\nanswers: made by build/bin/pagebench-decide", out)
        ms, _ = parse.load([path])
        decided.fill(ms)
        self.assertEqual(ms[0].answers_from, "pagebench-decide")
        self.assertTrue(ms[0].answers)
        self.assertEqual(out.rstrip("\n"), matrix.text(matrix.build(ms[0])).rstrip("\n"))
        rc, explain, err = run_tool("verdict", "-q", "--explain", path)
        self.assertEqual(rc, 0, err)
        self.assertIn("answers: made by build/bin/pagebench-decide", explain)

    def test_without_the_engine_a_log_says_so_in_one_line(self):
        path = os.path.join(HERE, "fixtures", "verdict", "hold.log")
        ms, _ = parse.load([path])
        tool, decided.TOOL = decided.TOOL, os.path.join(HERE, "no-such-tool")
        try:
            decided.fill(ms)
            line = matrix.no_answers_line(ms[0])
        finally:
            decided.TOOL = tool
        self.assertEqual(ms[0].answers, [])
        self.assertEqual(line, "hold.log: no answer lines, and "
                         "build/bin/pagebench-decide, which decides such logs, is not "
                         "built (make)")

    def test_explain_renders_every_field_of_every_line(self):
        """--explain: one line per answer line, in the log's order, with
        each of its fields; then the pass's stat lines."""
        rc, out, err = run_tool("verdict", "-q", "--explain", A)
        self.assertEqual(rc, 0, err)
        self.assertNotIn("cells: keep", out)
        got = [l for l in out.splitlines() if re.match(r"  \w+ (linux|xen) ", l)]
        want = lines_of(A)
        self.assertEqual(len(got), len(want))
        for g, l in zip(sorted(got), sorted(
                "  %s %s %s %s" % (l["fn"], l["kernel"], l["versions"], l["entry"])
                for l in want)):
            self.assertTrue(g.startswith(l), (g, l))
        for g in got:
            l = next(l for l in want if g.startswith("  %s %s %s %s" % (
                l["fn"], l["kernel"], l["versions"], l["entry"])))
            self.assertIn("pick %s: " % l["pick"], g)
            if l["assuming"]:
                self.assertIn("(assuming %s)" % l["assuming"], g)
        for l in want:
            if l["ratio"]:
                self.assertIn("ratio %s (95%% %s-%s)" % (l["ratio"], l["lo"], l["hi"]), out)
            if l["need"]:
                self.assertIn("need epochs>=%s" % l["need"], out)
        stats = [l for l in open(A) if " stat suite=" in l and "metric=use" not in l]
        self.assertEqual(len(re.findall(r"(?m)^    stat ", out)), len(stats))


class NewFunctions(unittest.TestCase):
    """answer-v2: memset and memcpy by mode and size class (sizes=, ns per
    call), scrub steps, and the fpu= mark, drawn generically on one
    screen: a strings log's screen with a line per mode, size class and
    pick of both functions and two scrub steps still fits."""
    GROUPS = ("fast", "report", "boot")

    CLASSES = ((0, 0), (1, 15), (16, 127), (128, 1023), (1024, 4096))

    def lines(self):
        out = []
        for fn in ("memset", "memcpy"):
            for mode in ("tput", "lat"):
                for lo, hi in self.CLASSES:
                    for k, v, pick in (("linux", ">=5.4", "stosb"),
                                       ("xen", ">=4.15", "orig")):
                        head = ('(PB) answer fn=%s pass=%s sizes=%d-%d kernel=%s '
                                'versions="%s" entry=%s pick=%s ' % (
                                    fn, mode, lo, hi, k, v, fn, pick))
                        out.append(head + (
                            "action=switch routine=avx_t ratio=0.8000 lo=0.7000 "
                            "hi=0.9000 epochs=9 pick_ns=100.0 routine_ns=80.0 "
                            "fpu=? worth=3.0%" if lo >= 128 else
                            "action=keep routine=rep ratio=1.0100 lo=0.9900 "
                            "hi=1.0300 epochs=9 pick_ns=10.0 routine_ns=10.1 "
                            "worth=3.0%"))
        for c in (1, 2):
            out.append('(PB) answer fn=scrub pass=cpus%d kernel=xen versions=">=4.21" '
                       'entry=scrub_one_page pick=stosb action=undecided '
                       'routine=clzero_sf ratio=0.9500 lo=0.9000 hi=1.0100 epochs=9 '
                       'pick_ns=50.0 routine_ns=47.0 fpu=1.5ns worth=3.0%% '
                       'need=epochs>=40' % c)
        return out

    def machine(self):
        m = machine(os.path.join(REAL, "epyc-linux-cpu-strings-2026-11-30-run2.log"))
        m.answers = [Answer.from_groups(LINE.match(l).groups())
                     for l in self.lines()]
        return m

    def test_read_with_the_optional_groups(self):
        m = self.machine()
        a = m.answers[-3]
        self.assertEqual((a.fn, a.pass_id, a.sizes, a.fpu, a.unit),
                         ("memcpy", "lat", (1024, 4096), "?", "ns/call"))
        self.assertIsNone(a.pick_gbps)
        self.assertTrue(a.fpu_unmeasured)
        s = m.answers[-1]
        self.assertEqual((s.fn, s.pass_id, s.sizes, s.fpu, s.unit),
                         ("scrub", "cpus2", None, "1.5ns", "ns/page"))
        self.assertEqual(s.to_json()["unit"], "ns/page")

    def test_one_screen(self):
        text = matrix.text(matrix.build(self.machine()))
        fits(self, text)
        self.assertNotIn("more lines", text)
        self.assertIn("\ntput 16-127 ", text)
        self.assertIn("\nlat 1024-4096 ", text)
        self.assertIn("\ncpus2 ", text)
        self.assertIn("→avx_t* −20% (10–30)", text)
        self.assertIn(matrix.FPU_NOTE, text.replace("\n  ", " "))
        self.assertIn("ns per call", text)
        # Measured FPU cost: no mark on the scrub row.
        self.assertNotRegex(text, r"(?m)^cpus1 .*\*")


class RealLogs(unittest.TestCase):
    """verdict of every real run's log of the fixtures: one screen once it
    has answer lines; until then, the line that says it has none, per
    machine."""
    GROUPS = ("report",)

    def test_every_real_log(self):
        paths = sorted(glob.glob(os.path.join(REAL, "*.log")) + [XEN_2021] +
                       glob.glob(os.path.join(HERE, "fixtures", "report", "qemu-*.log")))
        self.assertGreater(len(paths), 10)
        for path in paths:
            with self.subTest(log=os.path.basename(path)):
                ms, _ = parse.load([path])
                ms = [m for m in ms if m.has_data]
                decided.fill(ms)        # as verdict does: the engine's answers
                rc, out, err = run_tool("verdict", "-q", path)
                self.assertEqual(rc, 0, err)
                self.assertTrue(ms)
                for m in ms:
                    if m.answers:
                        screen = matrix.text(matrix.build(m))
                        self.assertIn(screen.rstrip("\n")[3:], out)
                        fits(self, screen)
                    else:
                        self.assertIn("== %s: no answer lines" % m.name, out)
                for line in out.splitlines():
                    self.assertLessEqual(len(line), matrix.WIDTH, line)


class Json(unittest.TestCase):
    def test_answers_are_structured(self):
        rc, out, err = run_tool("verdict", "-q", "--json", A, TCG)
        self.assertEqual(rc, 0, err)
        doc = json.loads(out)
        switches = [x for x in walk(doc) if isinstance(x, dict) and
                    x.get("action") == "switch"]
        want = [l for l in lines_of(A) if l["action"] == "switch"]
        self.assertEqual(len(switches), len(want))
        for got, l in zip(switches, want):
            self.assertEqual((got["fn"], got["pass"], got["routine"]),
                             (l["fn"], l["pass"], l["routine"]))
            hi = float(l["hi"])
            self.assertAlmostEqual(got["saving_pct"]["lo"], 100 * (1 - hi), 2)
            self.assertEqual(got["ratio"]["hi"], hi)
            self.assertAlmostEqual(got["pick_gbps"], 4096 / float(l["pick_ns"]), 3)
        tcg = doc["machines"][1]["answers"]
        self.assertEqual({a["action"] for a in tcg}, {"none"})
        self.assertEqual({a["why"] for a in tcg}, {"not-a-cpu"})
        for k in ("fn", "pass", "kernel", "versions", "entry", "pick",
                  "assuming", "action", "routine", "ratio", "saving_pct",
                  "epochs", "pick_ns", "routine_ns", "pick_gbps",
                  "routine_gbps", "worth_pct", "need_epochs", "why"):
            self.assertIn(k, doc["machines"][0]["answers"][0])

    def test_fleet_keeps_a_translator_apart(self):
        ms, _ = parse.load([A, TCG])
        groups = [[m.name for m in g] for g in commit.groups(ms)]
        self.assertEqual(sorted(groups), [["emr-a.log"], ["tcg.log"]])


class Commit(unittest.TestCase):
    def test_one_machine(self):
        rc, out, err = run_tool("verdict", "-q", "--format", "commit", A)
        self.assertEqual(rc, 0, err)
        lines = out.split("\n")
        self.assertLessEqual(max(len(l) for l in lines), 76)
        self.assertTrue(out.isascii())
        flat = " ".join(out.split())
        self.assertTrue(flat.startswith("CPU: GenuineIntel family 0x6 model "
                                        "0xcf stepping 2, Intel(R) Xeon(R) "
                                        "Processor"))
        for word in ("pagebench 9a7c35e", "runs_on=cpu", "budget=1000ms",
                     "Reproduce: build/bin/pagebench-linux",
                     "Linux 6.18.44-fc-v657"):
            self.assertIn(word, flat)
        # clear_page l1f, stosb: the line's figures, GB/s = 4096 / ns.
        l = next(l for l in lines_of(A) if (l["fn"], l["pass"], l["pick"])
                 == ("clear_page", "l1f", "stosb"))
        pns, rns = float(l["pick_ns"]), float(l["routine_ns"])
        self.assertIn("switch to avx512, saves %.1f%% (95%% %.1f to %.1f%%)"
                      % (100 * (1 - float(l["ratio"])),
                         100 * (1 - float(l["hi"])),
                         100 * (1 - float(l["lo"]))), flat)
        self.assertIn("stosb %.1f ns/page (%.2f GB/s) -> avx512 %.1f ns/page "
                      "(%.2f GB/s)" % (pns, 4096 / pns, rns, 4096 / rns), flat)

    def test_a_group_of_two_runs(self):
        rc, out, err = run_tool("verdict", "-q", "--format", "commit", A, B, TCG)
        self.assertEqual(rc, 0, err)
        flat = " ".join(out.split())
        self.assertIn("CPU group of 2 runs: GenuineIntel family 0x6 model 0xcf", flat)
        for want in (
                # l1f: both switch to avx512; emr-b's lower bound is the smaller.
                "L1 w/ flush (l1f): switch to avx512 on every run; the "
                "worst, emr-b.log, saves 49.0% (95% 45.3 to 52.7%)",
                # l2: one switches, the other keeps.
                "L2 w/o flush (l2): undecided: the runs differ: emr-a.log "
                "switch to avx512_t, emr-b.log keep",
                # l3f: both switch, to two different routines.
                "L3 w/ flush (l3f): switch from stosb on every run, the routine "
                "the runs differ on: movdir64b on emr-a.log; avx512 on emr-b.log; "
                "the worst, emr-b.log (avx512), saves 39.8% (95% 33.6 to 46.0%)",
                "L2 w/ flush (l2f): keep sse2 on every run"):
            self.assertIn(want, flat)
        group, _, rest = out.partition("\nCPU: ")
        self.assertNotIn("tcg.log", group)
        self.assertIn("QEMU TCG", rest)
        self.assertNotIn("switch to", rest)


class Html(unittest.TestCase):
    def test_the_page_opens_with_the_matrix(self):
        rc, out, err = run_tool("html", "-q", A, TCG)
        self.assertEqual(rc, 0, err)
        self.assertLess(out.index('<section id="answer">'),
                        out.index('<section id="claims">'))
        cells = re.findall(r'<td class="(\w+)" data-fn="(\w+)" '
                           r'data-pick="([\w-]+)" data-action="(\w*)"', out)
        screens = [matrix.build(machine(p)) for p in (A, TCG)]
        want = [(c.action or "blank", col.fn, col.label, c.action)
                for s in screens for t in s.tables for p in t.passes
                for col, c in ((t.columns[i], t.cells[(p, i)])
                               for i in range(len(t.columns)))]
        self.assertEqual(cells, want)
        self.assertIn("switch", {c[0] for c in cells})
        self.assertIn("td.switch{background", out)

    def test_no_recommendation_from_a_translator(self):
        rc, out, err = run_tool("html", "-q", TCG)
        sec = out[out.index('<section id="answer">'):out.index('<section id="claims">')]
        self.assertNotRegex(sec, r'data-action="(switch|keep|undecided)"')
        self.assertIn("not a CPU: no recommendation", sec)


class NotACpu(unittest.TestCase):
    def test_the_screen_recommends_nothing(self):
        rc, out, err = run_tool("verdict", "-q", TCG)
        self.assertEqual(rc, 0, err)
        fits(self, out)
        self.assertNotIn("→", out)
        self.assertNotIn("keep", out)
        self.assertNotIn("undecided", out)
        self.assertIn("QEMU's TCG translator, not a CPU: no recommendation", out)

    def test_commit_recommends_nothing(self):
        rc, out, err = run_tool("verdict", "-q", "--format", "commit", TCG)
        self.assertNotIn("switch to", out)
        self.assertNotIn("keep", out)
        self.assertIn("not a CPU: no recommendation", out)


class LinuxPicksOn2021(unittest.TestCase):
    def test_erms_settles_linux_picks(self):
        """The 2021 file names no vendor: where erms=1, Linux's picks
        (ERMS before REP_GOOD) are REP STOSB assuming fast strings on;
        where erms=0, REP_GOOD decides and needs the vendor: unknown."""
        path = XEN_2021
        rc, out, err = run_tool("verdict", "-q", "--json", path)
        self.assertEqual(rc, 0, err)
        machines = json.loads(out)["machines"]
        self.assertEqual({m["features"]["erms"] for m in machines}, {0, 1})
        want = {"clear_page": "stosb", "clear_pages": "stosb_all"}
        for m in machines:
            linux = [a for a in m["answers"] if a["kernel"] == "linux"]
            self.assertTrue(linux, m["machine"])
            for a in linux:
                with self.subTest(machine=m["machine"], fn=a["fn"], passid=a["pass"]):
                    if m["features"]["erms"]:
                        self.assertEqual((a["pick"], a["assuming"]),
                                         (want[a["fn"]], "fast_string=1"))
                    else:
                        self.assertEqual((a["pick"], a["why"]), (None, "unknown-pick"))


if __name__ == "__main__":
    unittest.main()


class UnnamedCpus(unittest.TestCase):
    def test_each_2021_machine_is_its_own_group(self):
        """Jan's 2021 file names no CPU: each run is a group of its own in
        the commit block, never one 'unknown CPU' group of eight."""
        path = XEN_2021
        ms, _ = parse.load([path])
        ms = [m for m in ms if m.has_data]
        rc, out, err = run_tool("verdict", "-q", "--format", "commit", path)
        self.assertEqual(rc, 0, err)
        self.assertEqual(len(re.findall(r"(?m)^CPU: ", out)), len(ms))
        self.assertNotIn("CPU group of", out)

    def test_several_machines_get_no_second_fleet_view(self):
        path = XEN_2021
        rc, out, err = run_tool("verdict", "-q", path)
        self.assertEqual(rc, 0, err)
        self.assertNotIn("\ngroup ", out)
        self.assertIn("fleet: --format commit gives the one choice", out)

