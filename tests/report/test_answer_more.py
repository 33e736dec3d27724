"""The memset/memcpy and scrub answers (docs/log-format.md, "The answer";
harness/decide/answer_strings.c): a short pagebench-linux suite=strings run on
this machine's CPU prints one line per function, mode, size class and
pick, in the grammar, its figures the arithmetic of its own value lines;
pagebench-decide gives a real strings and scrub log (tests/fixtures/real/)
one answer per question. Nothing here asserts which routine wins."""
import os
import statistics
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
TESTS = os.path.dirname(HERE)
ROOT = os.path.dirname(TESTS)
REAL = os.path.join(TESTS, "fixtures", "real")
sys.path.insert(0, os.path.join(ROOT, "scripts"))
from tables import table_rows  # noqa: E402
from pbreport import decided, engine, grammar, parse  # noqa: E402

LINUX = os.path.join(ROOT, "build", "bin", "pagebench-linux")
SIZES = (0, 8, 64, 512, 2048)
RX = grammar.compiled("answer")


def key(a):
    """The question an answer answers."""
    return (a.fn, a.pass_id, a.sizes, a.kernel, a.versions, a.entry)


def class_totals(m, fn, mode, sizes, variant):
    """Each rep's total of variant over the class's sizes and alignments,
    hundredths of a tick, as the value lines print them (below 0 as 0)."""
    blocks = [b for b in m.strings.ordered_blocks()
              if not b.zero and b.op == fn and b.mode == mode]
    figs = [b.figures[(variant, n)] for b in blocks for n in b.keys
            if isinstance(n, int) and sizes[0] <= n <= sizes[1]]
    reps = min(len(f.values) for f in figs)
    tot = [sum(max(0, round(f.values[r] * 100)) for f in figs) for r in range(reps)]
    return tot[1:] if len(tot) % 2 == 0 else tot


def one_per_question(test, answers, groups):
    """No question twice; every group (fn, pass, sizes) asks every pick."""
    keys = [key(a) for a in answers]
    test.assertEqual(len(keys), len(set(keys)))
    picks = {}
    for a in answers:
        picks.setdefault((a.fn, a.pass_id, a.sizes), set()).add(key(a)[3:])
    test.assertEqual(set(picks), groups)
    by_fn = {}
    for (fn, _, _), p in picks.items():
        by_fn.setdefault(fn, []).append(p)
    for fn, ps in by_fn.items():
        test.assertTrue(all(p == ps[0] for p in ps), fn)


def covers(test, answers, sizes):
    """Each size of the run falls in exactly one class the lines name."""
    classes = {a.sizes for a in answers}
    for n in sizes:
        test.assertEqual(len([c for c in classes if c[0] <= n <= c[1]]), 1, n)


GROUPS = ("fast", "report")


class StringsRun(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        if not os.access(LINUX, os.X_OK):
            raise AssertionError("%s is not built: run make" % LINUX)
        p = subprocess.run([LINUX, "suite=strings", "reps=3",
                            "sizes=" + ",".join(map(str, SIZES))],
                           capture_output=True, text=True, timeout=120)
        assert p.returncode == 0, p.stderr
        cls.text = p.stdout
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "strings.log")
            with open(path, "w", encoding="utf-8") as fh:
                fh.write(p.stdout)
            ms, _ = parse.load([path])
        cls.m = ms[0]

    def test_lines_in_the_grammar(self):
        lines = [l.split(") ", 1)[1] for l in self.text.splitlines() if ") answer " in l]
        self.assertTrue(lines)
        for l in lines:
            self.assertTrue(RX.match(l), l)
        self.assertEqual(len(lines), len(self.m.answers))
        kinds = [grammar.classify(l.split(") ", 1)[1]) for l in self.text.splitlines()]
        self.assertLess(max(i for i, k in enumerate(kinds) if k == "answer"),
                        kinds.index("runtime"))

    def test_one_line_per_question(self):
        a = self.m.answers
        self.assertEqual({x.fn for x in a}, {"memset", "memcpy"})
        covers(self, a, SIZES)
        one_per_question(self, a, {(fn, mode, s) for fn in ("memset", "memcpy")
                                   for mode in ("tput", "lat")
                                   for s in {x.sizes for x in a}})

    def test_figures_are_the_value_lines_arithmetic(self):
        khz = self.m.tsc_khz
        checked = 0
        for a in self.m.answers:
            if a.ratio is None or a.pick is None:
                continue
            with self.subTest(answer=key(a) + (a.pick, a.routine)):
                self.assertLessEqual(a.ratio.lo, a.ratio.median)
                self.assertLessEqual(a.ratio.median, a.ratio.hi)
                self.assertEqual(a.epochs, 3)
                self.assertEqual(a.unit, "ns/call")
                self.assertIsNone(a.pick_gbps)      # ns per call: no page's GB/s
                p = class_totals(self.m, a.fn, a.pass_id, a.sizes, a.pick)
                r = class_totals(self.m, a.fn, a.pass_id, a.sizes, a.routine)
                self.assertAlmostEqual(a.ratio.median, statistics.median(
                    x / y for x, y in zip(r, p)), delta=1e-4)
                if khz:
                    self.assertAlmostEqual(a.pick_ns, statistics.median(p) / 100 / khz * 1e6,
                                           delta=0.051)
                    self.assertAlmostEqual(a.routine_ns,
                                           statistics.median(r) / 100 / khz * 1e6,
                                           delta=0.051)
                checked += 1
        self.assertGreater(checked, 0)


class RealLogs(unittest.TestCase):
    """pagebench-decide on a real strings and scrub log, which carry no
    answer lines."""

    def machine(self, name):
        if not os.access(engine.TOOL, os.X_OK):
            self.fail("%s is not built: run make" % engine.TOOL)
        ms, _ = parse.load([os.path.join(REAL, name)])
        self.assertFalse(ms[0].answers)
        decided.fill(ms)
        self.assertEqual(ms[0].answers_from, "pagebench-decide")
        return ms[0]

    def test_strings_logs(self):
        for name in ("epyc-linux-cpu-strings-2026-11-30-run2.log",):
            with self.subTest(log=name):
                m = self.machine(name)
                a = m.answers
                self.assertEqual({x.fn for x in a}, {"memset", "memcpy"})
                sizes = {n for b in m.strings.ordered_blocks() if not b.zero
                         for n in b.keys}
                covers(self, a, sizes)
                one_per_question(self, a, {(fn, mode, s) for fn in ("memset", "memcpy")
                                           for mode in ("tput", "lat")
                                           for s in {x.sizes for x in a}})
                for x in a:
                    self.assertTrue(x.action != "none" or x.why, x)

    def test_scrub_log(self):
        m = self.machine("epyc-linux-cpu-scrub-2026-11-30.log")
        a = m.answers
        self.assertEqual({x.fn for x in a}, {"scrub"})
        steps = {"cpus%d" % s["cpus"] for s in m.scrub}
        one_per_question(self, a, {("scrub", s, None) for s in steps})
        self.assertFalse([x for x in a if x.entry.endswith("_hot")])
        self.assertTrue([x for x in a if x.entry == "scrub_one_page"])
        self.assertEqual({x.unit for x in a}, {"ns/page"})


if __name__ == "__main__":
    unittest.main()


class ModuleFpuCost(unittest.TestCase):
    """A module log without answer lines (from before them): its
    `linux-module fpu` and `irqs` lines reach pagebench-decide as the
    module's own run would have used them (module/run_host.c), so a vector
    routine is weighed with its kernel_fpu_begin/end cost, not `fpu=?`."""
    LOG = os.path.join(REAL, "xeon-qemu-tcg-translator-module-clear-2026-12-01.log")
    DECIDE = os.path.join(ROOT, "build", "bin", "pagebench-decide")

    def decide(self, text):
        r = subprocess.run([self.DECIDE], input=text, capture_output=True, text=True,
                           timeout=60)
        self.assertEqual(r.returncode, 0, r.stderr)
        return [RX.match(l[len("(PB) "):]) for l in r.stdout.splitlines()
                if l.startswith("(PB) answer ")]

    def test_the_module_cost_reaches_the_engine(self):
        ms, _ = parse.load([self.LOG])
        text = decided.figures(ms[0], "0")
        # The log's task: begin_end_median=1934 restore_median=1888; kthread
        # 204; window_bytes=1048576: hundredths of a tick.
        self.assertIn("\nfpu entry_centi=382200 held_centi=20400 window_bytes=1048576\n",
                      text)
        # The translator's figures advise nothing; taken as a CPU's here only
        # to see the price weigh. With it, avx_t (578 ns a page before a
        # price of 1253 ns) is weighed and loses: no line leaves it out.
        self.assertIn(" not_a_cpu=1 ", text)
        text = text.replace(" not_a_cpu=1 ", " not_a_cpu=0 ")
        vec = {(r["op"], r["name"]) for r in table_rows() if r["regs"] == "VEC"}
        lines = [m.groups() for m in self.decide(text)]
        self.assertFalse([g for g in lines if g[25]])
        self.assertTrue(all(g[18] is not None for g in lines if ("clear", g[10]) in vec))
        # Without it, no vector routine is named, no price said, and a
        # quicker vector routine is shown beside the answer (unpriced=).
        bare = "".join(l + "\n" for l in text.splitlines() if not l.startswith("fpu "))
        lines = [m.groups() for m in self.decide(bare)]
        self.assertFalse([g for g in lines if ("clear", g[10]) in vec or g[18]])
        self.assertTrue([g for g in lines if g[25] and ("clear", g[25]) in vec])

    def test_fpu_before_run_refused(self):
        r = subprocess.run([self.DECIDE], input="machine x\ncpu vendor=?\nfpu entry_centi=1 "
                           "held_centi=1 window_bytes=0\n", capture_output=True, text=True,
                           timeout=60)
        self.assertNotEqual(r.returncode, 0)
        self.assertIn("fpu before run", r.stderr)
