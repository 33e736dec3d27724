"""The answer and bottom lines, as scripts/pagebench-report renders them:
read into the typed model, the one screen of `verdict` (the bottom lines
first, then the engine's matrix), `--json`'s answers[] and
bottom_lines[], `--format commit` for one log and a fleet, the HTML
page; and no recommendation anywhere from a run that is no CPU's. The
fixtures are tests/fixtures/answer/*.log (answer lines only) and
tests/fixtures/bottom/*.log (answer and bottom lines); each folder's
gen-fixtures.py says how they are made. Every expected figure here is
read off their lines with the documented expression, not computed by
the code under test."""
import glob
import html
import json
import os
import tempfile
import re
import sys
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
TESTS = os.path.dirname(HERE)
sys.path.insert(0, os.path.join(TESTS, "lib"))
sys.path.insert(0, os.path.join(os.path.dirname(TESTS), "scripts"))
from report_tool import ROOT, run_tool  # noqa: E402
from pbreport import bottom, commit, decided, engine, explain, grammar, parse  # noqa: E402
from pbreport import picks, verdictpage  # noqa: E402
from pbreport.answer import Answer, Interval  # noqa: E402

FIX = os.path.join(TESTS, "fixtures", "answer")
A, B, TCG = (os.path.join(FIX, n) for n in ("emr-a.log", "emr-b.log", "tcg.log"))
# Real runs' logs (tests/fixtures/real/README.md) and the 2021 file.
REAL = os.path.join(TESTS, "fixtures", "real")
XEN_2021 = os.path.join(REAL, "xen-2021-clear-page.txt")
BOTTOM = os.path.join(TESTS, "fixtures", "bottom")
ZEN_A, ZEN_B, EMR = (os.path.join(BOTTOM, n) for n in ("zen5-a.log", "zen5-b.log", "emr.log"))
LINE = re.compile("^" + grammar.TAG + grammar.regex("answer"))
FIELDS = ("fn", "pass", "sizes_lo", "sizes_hi", "kernel", "versions", "entry",
          "pick", "assuming", "action", "routine", "ratio", "lo", "hi", "epochs",
          "pick_ns", "routine_ns", "fpu", "price", "worth", "need", "why")
BOTTOM_LINE = re.compile("^" + grammar.TAG + grammar.regex("bottom"))


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


def bottoms_of(path):
    """The bottom lines of a log, as {field: text}, read with the
    documented expression alone."""
    with open(path, encoding="utf-8") as fh:
        return [dict(zip(bottom.BOTTOM, m.groups())) for m in map(
            BOTTOM_LINE.match, (l.rstrip("\n") for l in fh)) if m]


def matrix_columns(lines):
    """The engine's matrix read back: [(pick, {row label: cell})], cells
    parted by two blanks or more, as a reader's eye does."""
    cols, k = [], 0
    while k < len(lines):
        if not re.match(r"^pass +\w", lines[k]) or k + 1 >= len(lines):
            k += 1
            continue
        block = [(name, {}) for name in re.split(r"\s{2,}", lines[k + 1].strip())]
        k += 2
        while k < len(lines) and re.match(r"^[a-z0-9]+(?: \d+-\d+)?  ", lines[k]):
            label, *cells = re.split(r"\s{2,}", lines[k].rstrip())
            for (_, got), cell in zip(block, cells):
                got[label] = cell
            k += 1
        cols += block
    return cols


def room(line):
    """What a line takes of the page's width: its UTF-8 bytes, so that
    the page fits however its columns are counted (a terminal shows "→"
    in one; a C locale's wc -L counts three)."""
    return len(line.encode())


def fits(test, text, height=verdictpage.HEIGHT, width=verdictpage.WIDTH):
    lines = text.rstrip("\n").split("\n")
    test.assertLessEqual(len(lines), height, text)
    test.assertLessEqual(max(room(l) for l in lines), width,
                         max(lines, key=room))


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
        read, rendered by --explain as "or Y"; a
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
        b = Answer.from_groups(LINE.match(base).groups())
        self.assertIsNone(b.alike)
        self.assertNotIn(" or ", explain.decision(b))
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
        both = Answer.from_groups(LINE.match(
            base.replace("action=keep", "action=switch") +
            " alike=regs drift=0.9000/0.8000").groups())
        self.assertEqual((both.alike, both.drift), ("regs", (0.9, 0.8)))
        none = Answer.from_groups(LINE.match(base).groups())
        self.assertIsNone(none.drift)
        self.assertIsNone(none.to_json()["drift"])
        self.assertNotIn("drift", explain.decision(none))
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
        for word in ("runs_on=cpu", "pagebench-linux", "\ncells: "):
            self.assertIn(word, out)

    @staticmethod
    def engine_matrix(path):
        m = machine(path)
        return engine.matrix(m.answers, m.bottoms, 1000)

    def test_each_cell_says_its_lines_action(self):
        cols = matrix_columns(self.engine_matrix(A))
        checked = 0
        for l in lines_of(A):
            word = {"keep": "keep", "undecided": "undecided", "none": "n/a",
                    "switch": "→ " + (l["routine"] or "")}[l["action"]]
            cells = [c[l["pass"]] for pick, c in cols if pick == (l["pick"] or "-") and
                     l["pass"] in c and c[l["pass"]].startswith(word)]
            self.assertTrue(cells, (l, cols))
            checked += 1
        self.assertEqual(checked, len(lines_of(A)))

    def test_a_switch_cell_shows_the_saving_and_interval(self):
        cols = dict(matrix_columns(self.engine_matrix(A)))
        # clear_page l1f, pick stosb: ratio 0.4969 (0.4626-0.5311).
        self.assertEqual(cols["stosb"]["l1f"], "→ avx512 −50% (47–54)")

    def test_bottom_lines_first_then_the_bottom_row(self):
        """A log with bottom lines: one sentence per pick said alike,
        naming the kernel's own routine and its flag, before the matrix;
        and the matrix's bottom row says each column's bottom line."""
        rc, out, err = run_tool("verdict", "-q", ZEN_A)
        self.assertEqual(rc, 0, err)
        fits(self, out)
        said = " ".join(out[:out.index("\ncells: ")].split())
        running = [b for b in bottoms_of(ZEN_A) if b["versions"].startswith("running ")]
        self.assertTrue(running)
        for b in running:
            self.assertIn("Linux %s" % b["versions"][len("running "):], said)
            self.assertIn("%s (%s=1 in /proc/cpuinfo): %s" % (
                b["kernel_routine"], b["selected_by"], b["action"]), said)
        rows = [l for l in out.splitlines() if l.startswith("bottom  ")]
        self.assertTrue(rows, out)
        first = next(b for b in bottoms_of(ZEN_A) if b["fn"] == "clear_page")
        self.assertTrue(rows[0].split()[1].startswith(first["action"]), rows)
        self.assertIn("vector price: XSAVEC+XRSTOR of xcr0=0xe7 in user space: 180 ns "
                      "(179–181)", out)

    def test_disagreeing_picks_keep_their_own_columns(self):
        def ans(versions, action):
            return Answer("copy_page", "l1", "linux", versions, "copy_page",
                          "movsq", None, action, "regs",
                          Interval(0.9, 0.8, 1.0 if action != "switch"
                                   else 0.95), 5, 1.0, 0.9, 3.0,
                          10 if action == "undecided" else None, None)
        cols = picks.columns([ans(">=5.4", "switch"),
                              ans("running 6.1", "switch"),
                              ans("4.15-4.20", "undecided")], "copy_page")
        self.assertEqual([len(c.who) for c in cols], [2, 1])

    def test_many_wide_columns_still_fit(self):
        """An AMD-like worst case: four clear_page picks, long routine
        names in every cell, clear_pages and copy_page too."""
        m = machine(A)
        out = []
        picks_ = (("clear_page", "stosb", ">=5.4"), ("clear_page", "sse2", "4.15-4.20"),
                  ("clear_page", "clzero_sf", ">=4.21 cold"),
                  ("clear_page", "orig", "running 6.18.44"),
                  ("clear_pages", "stosb_all", ">=7.0"),
                  ("clear_pages", "orig_all", "running 6.18.44"),
                  ("copy_page", "movsq", ">=5.4"), ("copy_page", "xen_cold", "4.15-4.20"),
                  ("copy_page", "movsb", ">=4.21 hot"), ("copy_page", "regs", "running 1"))
        for fn, pick, ver in picks_:
            for p in (picks.PASS_ORDER[:9] if fn == "copy_page" else picks.PASS_ORDER[:7]):
                routine = "sse2_t_pf" if fn == "copy_page" else \
                    "avx512_t" if fn == "clear_page" else "avx512_all"
                text = ('answer fn=%s pass=%s kernel=xen versions="%s" entry=%s pick=%s '
                        'assuming=fast_string=1 action=switch routine=%s ratio=0.1110 '
                        'lo=0.0512 hi=0.1799 epochs=5 pick_ns=100.0 routine_ns=11.1 '
                        'worth=3.0%%' % (fn, p, ver, fn, pick, routine))
                out.append(Answer.from_groups(grammar.compiled("answer").match(text).groups(),
                                              0, text))
        m.answers = out
        fits(self, "\n".join(verdictpage.screen(m)))

    def test_a_log_without_answer_lines_is_decided_by_the_engine(self):
        """A log from before the answer lines gets the engine's answers
        and bottom lines (pagebench-decide), and its screen says where
        they came from."""
        path = os.path.join(TESTS, "fixtures", "verdict", "hold.log")
        rc, out, err = run_tool("verdict", "-q", path)
        self.assertEqual(rc, 0, err)
        self.assertIn("\nanswers: made by pagebench-decide", out)
        ms, _ = parse.load([path])
        decided.fill(ms)
        self.assertEqual(ms[0].answers_from, "pagebench-decide")
        self.assertTrue(ms[0].answers)
        self.assertTrue(ms[0].bottoms)
        self.assertEqual(out.rstrip("\n"), "\n".join(verdictpage.screen(ms[0])))
        rc, explain, err = run_tool("verdict", "-q", "--explain", path)
        self.assertEqual(rc, 0, err)
        self.assertIn("answers: made by pagebench-decide", explain)

    def test_without_the_engine_a_log_says_so_in_one_line(self):
        path = os.path.join(TESTS, "fixtures", "verdict", "hold.log")
        ms, _ = parse.load([path])
        tool, engine.TOOL = engine.TOOL, os.path.join(HERE, "no-such-tool")
        try:
            decided.fill(ms)
            line = decided.no_answers_line(ms[0])
        finally:
            engine.TOOL = tool
        self.assertEqual(ms[0].answers, [])
        self.assertEqual(line, "hold.log: no answer lines, and pagebench-decide, which "
                         "decides such logs, is not built (make)")

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
                        keep = "stosq" if fn == "memset" else "movsq"
                        out.append(head + (
                            "action=switch routine=avx_t ratio=0.8000 lo=0.7000 "
                            "hi=0.9000 epochs=9 pick_ns=100.0 routine_ns=80.0 "
                            "fpu=? worth=3.0%" if lo >= 128 else
                            "action=keep routine=%s ratio=1.0100 lo=0.9900 "
                            "hi=1.0300 epochs=9 pick_ns=10.0 routine_ns=10.1 "
                            "worth=3.0%%" % keep))
        for c in (1, 2):
            out.append('(PB) answer fn=scrub pass=cpus%d kernel=xen versions=">=4.21" '
                       'entry=scrub_one_page pick=stosb action=undecided '
                       'routine=clzero_sf ratio=0.9500 lo=0.9000 hi=1.0100 epochs=9 '
                       'pick_ns=50.0 routine_ns=47.0 fpu=1.5ns worth=3.0%% '
                       'need=epochs>=40' % c)
        return out

    def machine(self):
        m = machine(os.path.join(REAL, "epyc-linux-cpu-strings-2026-11-30-run2.log"))
        m.answers = [Answer.from_groups(LINE.match(l).groups(), 0, l[len("(PB) "):])
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
        """Drawn by the engine: a row per mode and size class, ns per call;
        fpu=, from before the vector price, draws no mark."""
        text = "\n".join(verdictpage.screen(self.machine()))
        fits(self, text)
        self.assertNotIn("more lines", text)
        self.assertIn("\ntput 16-127 ", text)
        self.assertIn("\nlat 1024-4096 ", text)
        self.assertIn("\ncpus2 ", text)
        self.assertIn("→avx_t −20% (10–30)", text)
        self.assertIn("ns per call", text)
        self.assertNotIn("*", text[text.index("\ncells: "):])


class RealLogs(unittest.TestCase):
    """verdict of every real run's log of the fixtures: one screen once it
    has answer lines; until then, the line that says it has none, per
    machine."""
    GROUPS = ("report",)

    def test_every_real_log(self):
        paths = sorted(glob.glob(os.path.join(REAL, "*.log")) + [XEN_2021] +
                       glob.glob(os.path.join(TESTS, "fixtures", "report", "qemu-*.log")))
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
                        screen = "\n".join(verdictpage.screen(m))
                        self.assertIn(screen[3:], out)
                        fits(self, screen)
                    else:
                        self.assertIn("== %s: no answer lines" % m.name, out)
                for line in out.splitlines():
                    self.assertLessEqual(room(line), verdictpage.WIDTH, line)


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

    def test_bottom_lines_are_structured(self):
        """bottom_lines[]: the issue's keys, exactly; each pass's saving
        the line's own arithmetic, 1 - ratio; --kernel keeps one kernel's."""
        rc, out, err = run_tool("verdict", "-q", "--json", ZEN_A)
        self.assertEqual(rc, 0, err)
        got = json.loads(out)["machines"][0]["bottom_lines"]
        want = bottoms_of(ZEN_A)
        self.assertEqual(len(got), len(want))
        for g, w in zip(got, want):
            self.assertEqual(set(g), {"fn", "kernel", "versions", "entry", "pick", "action",
                                      "routine", "alike", "vector_price_ns", "passes"})
            self.assertEqual((g["fn"], g["kernel"], g["versions"], g["entry"], g["action"]),
                             (w["fn"], w["kernel"], w["versions"], w["entry"], w["action"]))
            self.assertEqual(g["alike"], w["alike"].split(",") if w["alike"] else [])
            self.assertEqual([p["pass"] for p in g["passes"]], w["passes"].split(","))
            for p in g["passes"]:
                self.assertEqual(set(p), {"pass", "saving_pct", "lo", "hi"})
        cell = re.compile("^" + grammar.TAG + grammar.regex("bottom_pass"))
        with open(ZEN_A, encoding="utf-8") as fh:
            first = next(m.groups() for m in map(cell.match, fh) if m)
        self.assertAlmostEqual(got[0]["passes"][0]["saving_pct"], 100 * (1 - float(first[7])), 2)
        self.assertAlmostEqual(got[0]["passes"][0]["lo"], 100 * (1 - float(first[9])), 2)
        rc, out, err = run_tool("verdict", "-q", "--json", "--kernel", "xen", ZEN_A)
        self.assertEqual(rc, 0, err)
        doc = json.loads(out)["machines"][0]
        self.assertEqual({b["kernel"] for b in doc["bottom_lines"]}, {"xen"})
        self.assertEqual({a["kernel"] for a in doc["answers"]}, {"xen"})

    def test_fleet_keeps_a_translator_apart(self):
        ms, _ = parse.load([A, TCG])
        groups = [[m.name for m in g] for g in commit.groups(ms)]
        self.assertEqual(sorted(groups), [["emr-a.log"], ["tcg.log"]])


class Commit(unittest.TestCase):
    """--format commit: per CPU group at most 25 lines of at most 72
    columns, ASCII, made of the bottom lines; a group of runs combined; a
    fleet line per pick of an era."""

    def commit(self, *args):
        rc, out, err = run_tool("verdict", "-q", "--format", "commit", *args)
        self.assertEqual(rc, 0, err)
        self.assertTrue(out.isascii())
        blocks = out.rstrip("\n").split("\n\n")
        for b in blocks:
            lines = b.split("\n")
            self.assertLessEqual(len(lines), 25, b)
            self.assertLessEqual(max(len(l) for l in lines), 72, b)
        return out, blocks

    def test_one_log(self):
        out, blocks = self.commit("--kernel", "linux", ZEN_A)
        self.assertEqual(len(blocks), 1)
        flat = " ".join(out.split())
        self.assertTrue(flat.startswith("CPU: AuthenticAMD family 0x1a model 0x2 stepping 1"))
        self.assertNotIn("Xen", out)
        run = next(b for b in bottoms_of(ZEN_A) if b["fn"] == "clear_page")
        self.assertIn("Linux 6.18.44-fc-v1 runs %s (ERMS=1 in /proc/cpuinfo): %s" % (
            run["kernel_routine"], run["action"]), flat)
        # The named routine's table: a row per pass of the bottom line.
        rows = [l.split()[0] for l in out.splitlines()
                if re.match(r"^  (l1|l1f|l2|l2f|mem) ", l)]
        self.assertEqual(rows[:len(run["passes"].split(","))], run["passes"].split(","))
        for word in ("Measured: pagebench-linux on Linux 6.18.44-fc-v1", "runs_on=cpu",
                     "pagebench f1x7ure", "time=30s",
                     "Reproduce: build/bin/pagebench-linux passes=l1,l1f,l2,l2f,mem"):
            self.assertIn(word, flat)

    def test_reproduce_leaves_out_log(self):
        """A rerun of the command as pasted must run: the first run's
        log= file exists, and pagebench-linux refuses to overwrite it."""
        with open(ZEN_A) as f:
            text = f.read()
        self.assertIn("\n(PB) cmdline: passes=", text)
        with tempfile.TemporaryDirectory() as tmp:
            path = os.path.join(tmp, "zen.log")
            with open(path, "w") as f:
                f.write(text.replace("(PB) cmdline: passes=", "(PB) cmdline: log=/tmp/x.log passes=", 1))
            out, _ = self.commit("--kernel", "linux", path)
        flat = " ".join(out.split())
        self.assertIn("Reproduce: build/bin/pagebench-linux passes=l1,l1f,l2,l2f,mem", flat)
        self.assertNotIn("log=", flat)

    def test_three_logs(self):
        """Two runs of one CPU combined (pagebench-decide --combine), a
        second CPU, then the fleet's lines of the eras' picks."""
        out, blocks = self.commit("--kernel", "linux", ZEN_A, ZEN_B, EMR)
        self.assertEqual(len(blocks), 3)
        self.assertNotIn("Xen", out)
        self.assertIn(", 2 runs:", " ".join(out.split()))
        self.assertTrue(blocks[2].startswith("Fleet of 2 CPU groups:"), blocks[2])
        self.assertNotIn("running", blocks[2])
        self.assertIn("Linux >=5.4 <7.0 clear_page: ", " ".join(blocks[2].split()))

    def test_function_and_kernel(self):
        out, blocks = self.commit("--kernel", "xen", "--function", "copy_page", ZEN_A)
        self.assertFalse([l for l in out.splitlines() if l.startswith("Linux ")], out)
        self.assertNotIn("clear_page", out)
        self.assertIn("Xen", out)

    def test_answer_lines_without_bottom_lines(self):
        """A log with answer lines only (and no figures to decide again)
        says so, and makes nothing up."""
        out, blocks = self.commit(A)
        self.assertIn("No bottom lines:", out)
        self.assertNotIn("switch to", out)


class Html(unittest.TestCase):
    def test_the_page_opens_with_the_answer(self):
        """Each machine's bottom lines, then the engine's matrix: the same
        text as verdict's."""
        rc, out, err = run_tool("html", "-q", ZEN_A, TCG)
        self.assertEqual(rc, 0, err)
        self.assertLess(out.index('<section id="answer">'),
                        out.index('<section id="claims">'))
        pres = re.findall(r'<pre class="answer">(.*?)</pre>', out, re.S)
        ms = [machine(p) for p in (ZEN_A, TCG)]
        decided.fill(ms)
        want = [engine.matrix(m.answers, m.bottoms, 1000) for m in ms]
        self.assertEqual([html.unescape(p).split("\n") for p in pres], want)
        actions = re.findall(r'<li class="[\w-]+" data-fn="\w+" data-kernel="\w+" '
                             r'data-action="([\w-]+)"', out)
        # tcg.log's answer lines are from before the bottom lines: decided
        # again, every one none (not a CPU).
        self.assertEqual(set(actions), {b["action"] for b in bottoms_of(ZEN_A)} | {"none"})

    def test_no_recommendation_from_a_translator(self):
        rc, out, err = run_tool("html", "-q", TCG)
        sec = out[out.index('<section id="answer">'):out.index('<section id="claims">')]
        self.assertNotRegex(sec, r'data-action="(switch|keep|undecided|trade-off)"')
        self.assertNotIn("→", sec)
        self.assertIn("not a CPU: no recommendation", sec)


class NotACpu(unittest.TestCase):
    def test_the_screen_recommends_nothing(self):
        rc, out, err = run_tool("verdict", "-q", TCG)
        self.assertEqual(rc, 0, err)
        fits(self, out)
        self.assertNotIn("→", out)
        self.assertNotIn("keep", out)
        self.assertNotIn("undecided", out)
        self.assertIn("QEMU's TCG translator, not a CPU: no recommendation",
                      " ".join(out.split()))

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
        self.assertEqual(len(re.findall(r"(?m)^CPU(?: \([^)]*\))?: ", out)), len(ms))
        self.assertNotIn("CPU group of", out)

    def test_several_machines_get_no_second_fleet_view(self):
        path = XEN_2021
        rc, out, err = run_tool("verdict", "-q", path)
        self.assertEqual(rc, 0, err)
        self.assertNotIn("\ngroup ", out)
        self.assertIn("fleet: --format commit gives the one choice", out)

