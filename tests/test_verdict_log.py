"""The verdict in C (harness/verdict.c, stats.c, decide.c, rules.c and the
tables scripts/rules2c makes of rules/) against the report's
(scripts/pbreport): the statistics on random samples, the picks on every
recorded CPUID dump, and the verdict lines of real runs of
pagebench-linux and of the kernel against `pagebench-report verdict
--json` of the same log (docs/log-format.md, "The verdict"), the paired
lines against its decisions[].paired."""
import math
import os
import random
import re
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(HERE)
BIN = os.path.join(REPO, "build", "bin")
DUMPS = os.path.join(os.environ.get("SHARED_DIR") or
                     os.path.join(REPO, "..", "shared"), "cpuid")
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(REPO, "scripts"))
sys.dont_write_bytecode = True

import verdict_lines  # noqa: E402
from pbreport import analysis as A  # noqa: E402
from pbreport import decide as D  # noqa: E402
from pbreport import grammar  # noqa: E402
from pbreport import parse as P  # noqa: E402
from pbreport import rules as R  # noqa: E402
from pbreport import stats  # noqa: E402

TAG = re.compile(r"^\([A-Za-z0-9_]{1,15}\) (.*?)\r?$")
VERDICT_KINDS = ("verdict", "verdict_pick", "verdict_paired", "verdict_paired_pick")


def binary(name):
    path = os.path.join(BIN, name)
    if not os.access(path, os.X_OK):
        raise AssertionError("%s is not built: run make" % path)
    return path


def cell(values):
    sp = stats.Spread(values)
    return A.Cell(sp.n, sp.min, sp.q1, sp.median, sp.q3, sp.max, values)


class StatsAgree(unittest.TestCase):
    """build/bin/test_stats --eval against stats.py and decide.py."""

    def eval_c(self, lines):
        r = subprocess.run([binary("test_stats"), "--eval"], input="\n".join(lines) + "\n",
                           capture_output=True, text=True, timeout=300)
        self.assertEqual(r.returncode, 0, r.stderr)
        out = r.stdout.splitlines()
        self.assertEqual(len(out), len(lines))
        return out

    @staticmethod
    def cases(rnd):
        """Sample pairs: few and many reps, with and without ties, apart,
        overlapping and equal, on both sides of the exact test's limit."""
        out = []
        for _ in range(300):
            n1, n2 = rnd.randint(1, 26), rnd.randint(1, 26)
            if rnd.random() < 0.3:
                n1, n2 = rnd.randint(20, 400), rnd.randint(20, 400)
            spread = rnd.choice((3, 20, 1000, 10 ** 6))
            base = rnd.randint(1, 10 ** 6)
            shift = rnd.choice((0, 0, 1, spread // 4, spread, 3 * spread))
            x = [base + rnd.randint(0, spread) for _ in range(n1)]
            y = [base + shift + rnd.randint(0, spread) for _ in range(n2)]
            out.append((x, y))
        return out

    def test_mann_whitney_spread_and_relation(self):
        rnd = random.Random(19)
        cases = self.cases(rnd)
        got = self.eval_c(["mw %s %s" % (",".join(map(str, x)), ",".join(map(str, y)))
                           for x, y in cases])
        exact = normal = 0
        for (x, y), line in zip(cases, got):
            f = line.split()
            with self.subTest(n1=len(x), n2=len(y), x=x[:5], y=y[:5]):
                mw = stats.mann_whitney(x, y)
                if mw.method.startswith("exact"):
                    exact += 1
                    self.assertEqual(float(f[0]), mw.p)
                else:
                    normal += 1
                    self.assertAlmostEqual(float(f[0]), mw.p, delta=1e-12 * max(mw.p, 1e-300))
                self.assertEqual(float(f[1]), stats.u_statistic(x, y))
                cx, cy = cell(x), cell(y)
                self.assertEqual([float(v) for v in f[2:8]],
                                 [cx.median, cx.q1, cx.q3, cy.median, cy.q1, cy.q3])
                rel = D.relate(cx, cy, 0.05, 0.0)
                self.assertEqual(f[8], rel.state)
                self.assertEqual(int(f[9]), rel.reps_needed or 0)
                self.assertEqual(float(f[10]), rel.delta)
        # Both branches of the test were exercised.
        self.assertGreater(exact, 100)
        self.assertGreater(normal, 30)

    def test_reps_needed(self):
        rnd = random.Random(7)
        thetas = [0.5, 1.0, 0.0, 0.7, 0.3] + [rnd.random() for _ in range(200)]
        got = self.eval_c(["reps %r" % t for t in thetas])
        for t, line in zip(thetas, got):
            with self.subTest(theta=t):
                self.assertEqual(int(line), D.reps_needed(t, 0.05) or 0)

    def test_erfc(self):
        rnd = random.Random(3)
        xs = [0, 0.999999, 1, 1.000001, 26.5] + [rnd.uniform(0, 27) for _ in range(300)]
        got = self.eval_c(["erfc %r" % x for x in xs])
        for x, line in zip(xs, got):
            with self.subTest(x=x):
                self.assertAlmostEqual(float(line), math.erfc(x),
                                       delta=1e-13 * math.erfc(x))


class RulesAgree(unittest.TestCase):
    """build/bin/test_rules --picks against rules.py, on every recorded
    CPUID dump, with MISC_ENABLE.FAST_STRING unknown, set and clear."""

    def python_picks(self, facts):
        t = R.tables()
        entries = []
        for p in t.picks:
            if p.entry not in entries:
                entries.append(p.entry)
        out = []
        for e in entries:
            for k in R.KERNELS:
                for pk in R.picks(t, k, e, facts):
                    out.append("|".join([
                        k, e, pk.version, pk.rule.variant if pk.rule else "?",
                        "" if pk.rule else ",".join(pk.unknown.needs),
                        ";".join("%s=%s" % (a, r.variant) for a, r in pk.alternatives)]))
        return out

    def test_every_dump(self):
        if not os.path.isdir(DUMPS):
            self.skipTest("no dumps at %s (shared/ beside the repo)" % DUMPS)
        cpuid = binary("pagebench-cpuid")
        dumps = sorted(d for d in os.listdir(DUMPS) if d.endswith(".txt"))
        self.assertGreater(len(dumps), 5)
        for dump in dumps:
            path = os.path.join(DUMPS, dump)
            r = subprocess.run([cpuid, path], capture_output=True, timeout=60)
            self.assertEqual(r.returncode, 0, r.stderr)
            reader = P.Reader(dump, dump)
            reader.feed(r.stdout)
            facts, _ = R.machine_facts(reader.machines[0])
            for fs in (None, 1, 0):
                with self.subTest(cpu=dump, fast_string=fs):
                    args = [binary("test_rules"), "--picks", path] + \
                        ([] if fs is None else [str(fs)])
                    c = subprocess.run(args, capture_output=True, text=True, timeout=60)
                    self.assertEqual(c.returncode, 0, c.stderr)
                    f = dict(facts) if fs is None else dict(facts, fast_string=fs)
                    self.assertEqual(c.stdout.splitlines(), self.python_picks(f))


def tagged(text):
    return [m.group(1) for m in map(TAG.match, text.splitlines()) if m]


class LinuxVerdict(unittest.TestCase):
    """pagebench-linux's verdict lines against the report on its own log."""

    def run_linux(self, *args):
        r = subprocess.run([binary("pagebench-linux")] + list(args),
                           capture_output=True, text=True, timeout=900)
        self.assertEqual(r.returncode, 0, r.stdout[-2000:] + r.stderr)
        return r.stdout

    def check_log(self, log):
        lines = tagged(log)
        kinds = [grammar.classify(l) for l in lines]
        self.assertNotIn(None, kinds, [l for l, k in zip(lines, kinds) if k is None])
        # The verdict follows the passes and precedes the end.
        first = kinds.index("verdict")
        last = max(i for i, k in enumerate(kinds) if k in VERDICT_KINDS)
        self.assertFalse({"pass", "value", "agg"} & set(kinds[first:]))
        self.assertEqual(kinds[last + 1:], ["runtime", "done"])
        return verdict_lines.check_agree(self, log)

    def test_agrees_with_the_report(self):
        log = self.run_linux("passes=l1,l1f,l2,hot,cold", "reps=6")
        got = self.check_log(log)
        self.assertEqual({fn for fn, _ in got}, {"clear_page", "clear_pages", "copy_page"})
        self.assertIn(("copy_page", "copy-hot"), got)
        # Every pass ran in epochs with both references: each decision
        # is paired against its table's.
        for (fn, label), d in got.items():
            with self.subTest(decision="%s %s" % (fn, label)):
                self.assertIn("paired", d)
                self.assertEqual(d["paired"]["reference"],
                                 "movsq" if fn == "copy_page" else "stosb")
        # This machine: what the picks need that user space cannot read.
        fast = "fast_string=" in next(l for l in tagged(log) if l.startswith("features "))
        picks = [p for d in got.values() for p in d["picks"]]
        if not fast and "vendor=GenuineIntel" in log:
            self.assertTrue(any(p[4] == "?" for p in picks))
            self.assertIn("note: fast_string unknown: ", log)

    def test_one_rep_decides_nothing(self):
        """reps=1: no rank test can separate anything; every decision with
        more than one candidate says so, with the reps that could."""
        got = self.check_log(self.run_linux("passes=l1", "reps=1", "suite=xen"))
        d = got[("clear_page", "L1 w/o flush")]
        self.assertFalse(d["decidable"])
        self.assertGreaterEqual(d["reps_needed"], 4)

    def test_no_reference_no_paired_lines(self):
        """variants= without stosb: the clear passes have no ratio lines,
        so no paired view; the copy pass, whose movsq ran, has one."""
        log = self.run_linux("passes=l1", "reps=4", "variants=sse2,avx,orig,movsq")
        got = self.check_log(log)
        self.assertFalse([l for l in tagged(log) if l.startswith("ratio suite=clear")])
        self.assertFalse([l for l in tagged(log) if l.startswith("verdict clear") and
                          " paired " in l])
        for fn in ("clear_page", "clear_pages"):
            self.assertNotIn("paired", got[(fn, "L1 w/o flush")], fn)
        self.assertEqual(got[("copy_page", "copy L1 w/o flush")]["paired"]["reference"],
                         "movsq")

    def test_no_ratio_interval(self):
        """One epoch: no ratio line has an interval, so the paired view is
        the reference alone, 1 exactly and decided, and a pick of another
        variant is not measured there."""
        got = self.check_log(self.run_linux("passes=l1", "reps=2", "variants=stosb,sse2,orig"))
        u = got[("clear_page", "L1 w/o flush")]["paired"]
        self.assertEqual((u["winner"], u["figure"], u["best"], u["decidable"]),
                         ("stosb", (1.0, 1.0, 1.0), ["stosb"], True))
        self.assertTrue(any(p[4] == "sse2" and
                            p[7] == "not measured: sse2 has no figures in this pass"
                            for p in u["picks"]), u["picks"])

    def test_picks_not_measured(self):
        """Variants that are not in the run: the picks say so, the cost stays unknown."""
        got = self.check_log(self.run_linux("passes=l1", "reps=4", "variants=sse2,avx,orig"))
        picks = got[("clear_page", "L1 w/o flush")]["picks"]
        self.assertTrue(any(p[4] == "stosb" and p[5] is None and
                            p[7] == "not measured: stosb has no figures in this pass"
                            for p in picks), picks)


@unittest.skipUnless(os.path.exists(os.path.join(REPO, "build", "pagebench.elf")),
                     "the kernel is not built")
class KernelVerdict(unittest.TestCase):
    """The kernel under TCG, on an Intel CPU model: MISC_ENABLE is read,
    so no pick is unknown, and the lines agree with the report."""

    def test_kernel_agrees_with_the_report(self):
        with tempfile.TemporaryDirectory() as tmp:
            out = os.path.join(tmp, "serial.log")
            r = subprocess.run([os.path.join(REPO, "scripts", "run-qemu"), "-q", "-o", out,
                                "--kernel", "--accel", "tcg", "--cpu", "Skylake-Client",
                                "--timeout", "600", "--append", "passes=l1,l1f,hot reps=4"],
                               capture_output=True, text=True, timeout=900)
            log = open(out, errors="replace").read()
        self.assertEqual(r.returncode, 0, r.stderr[-2000:] + log[-2000:])
        lines = tagged(log)
        features = next(l for l in lines if l.startswith("features "))
        self.assertRegex(features, r" fast_string=[01]$")
        got = verdict_lines.check_agree(self, log)
        picks = [p for d in got.values() for p in d["picks"]]
        self.assertTrue(picks)
        # In epochs, with stosb and movsq: each decision paired too.
        self.assertEqual([k for k, d in got.items() if "paired" not in d], [])
        self.assertFalse([p for p in picks if p[4] == "?"])
        done = [i for i, l in enumerate(lines) if l.startswith("done: ")]
        last = max(i for i, l in enumerate(lines) if l.startswith("verdict "))
        self.assertLess(last, done[-1])


if __name__ == "__main__":
    unittest.main()
