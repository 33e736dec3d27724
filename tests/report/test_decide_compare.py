"""pagebench-decide --compare (tools/decide_compare.h): each figure's
median and 95% interval over its epochs and the ratios asked for, by the
engine's arithmetic (harness/stats/interval.h), on series made up here; and its
refusals, each with its line. The report takes every comparison it shows
from this mode (scripts/pbreport/versus.py)."""
import os
import re
import subprocess
import unittest

TESTS = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
ROOT = os.path.dirname(TESTS)
DECIDE = os.path.join(ROOT, "build", "bin", "pagebench-decide")
# The interval's factor f(E), in millionths, where make writes it (scripts/interval-constants).
FACTORS = os.path.join(ROOT, "build", "gen", "interval_table.c")

GROUPS = ("fast", "report")


def compare(text):
    return subprocess.run([DECIDE, "--compare"], input=text, capture_output=True,
                          text=True, timeout=60)


def factor_ppm(epochs):
    with open(FACTORS) as f:
        return int(re.search(r"\[%d\] = (\d+)," % epochs, f.read()).group(1))


def lines(*body):
    return "\n".join(body) + "\n"


class Compare(unittest.TestCase):
    def setUp(self):
        for path in (DECIDE, FACTORS):
            if not os.path.exists(path):
                self.fail("%s is not built: run make" % path)

    def out(self, text):
        r = compare(text)
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertEqual(r.stderr, "")
        return r.stdout.splitlines()

    def test_a_figure_by_hand(self):
        """Epoch medians 100, 110, 120: median 110, standard deviation 10,
        half-width f(3) x 10 in whole hundredths; an even count leaves
        its first epoch out, as the answer does."""
        half = 10 * factor_ppm(3) // 1000000
        want = "interval variant=a epochs=3 median=110 lo=%d hi=%d" % (110 - half, 110 + half)
        self.assertEqual(self.out(lines("pass p", "series variant=a quantum=1 med=120,100,110")),
                         ["pass p", want])
        self.assertEqual(self.out(lines("pass p", "series variant=a quantum=1 "
                                        "med=5000,120,100,110"))[1], want)
        # Never narrower than its quantum; below 3 epochs no interval.
        self.assertEqual(self.out(lines("pass p", "series variant=a quantum=7 med=50,50,50"))[1],
                         "interval variant=a epochs=3 median=50 lo=43 hi=57")
        self.assertEqual(self.out(lines("pass p", "series variant=a quantum=1 med=50,60"))[1],
                         "interval variant=a epochs=1 median=60 lo=? hi=?")

    def test_ratios(self):
        """b takes twice a's time in every epoch: a over b is 0.5 and b
        over a 2, each within its quantum's share; over the epochs both
        have; none where a figure is 0."""
        out = self.out(lines(
            "machine m one", "pass op=clear pass=l1 bytes=16384",
            "series variant=a failed=0 quantum=100 med=1000,1100,1200,1000,900",
            "series variant=b failed=1 quantum=100 med=2000,2200,2400",
            "series variant=z quantum=1 med=0,0,0",
            "compare num=a den=b", "compare num=b den=a", "compare num=a den=z", "end"))
        self.assertEqual(out[:2], ["machine m one", "pass op=clear pass=l1 bytes=16384"])
        got = {}
        for l in out:
            m = re.match(r"ratio num=(\w) den=(\w) epochs=(\d+) median=(\S+) lo=(\S+) hi=(\S+)$", l)
            if m:
                got[m.group(1, 2)] = (int(m.group(3)),) + tuple(float(x) for x in m.group(4, 5, 6))
        self.assertEqual(got[("a", "b")][:2], (3, 0.5))
        self.assertEqual(got[("b", "a")][:2], (3, 2.0))
        # The ratio's half-width is its step: each figure's quantum's share of
        # it, taken at the figures' medians over all their epochs (a: 1000).
        med = {"a": 1000, "b": 2200}
        for (num, den), (_, _, lo, hi) in got.items():
            step = med[num] / med[den] * (100 / med[num] + 100 / med[den])
            self.assertAlmostEqual((hi - lo) / 2, step, delta=2e-6)
        self.assertIn("ratio num=a den=z none", out)
        self.assertEqual(len(out), 2 + 3 + 3)

    def test_no_interval_below_three_epochs(self):
        out = self.out(lines("pass p", "series variant=a quantum=1 med=100,200,300",
                             "series variant=b quantum=1 med=100", "compare num=a den=b"))
        self.assertEqual(out[-1], "ratio num=a den=b epochs=1 median=1.000000 lo=? hi=?")

    def test_sets_are_apart(self):
        """A pass or machine line starts afresh: a name of the set before is unknown."""
        r = compare(lines("pass 0", "series variant=a quantum=1 med=1,1,1",
                          "pass 1", "series variant=b quantum=1 med=1,1,1",
                          "compare num=b den=a"))
        self.assertEqual(r.returncode, 2)
        self.assertIn("line 5: compare: no such series in this pass: a", r.stderr)

    def test_refusals(self):
        """Each bad line refuses the input (status 2) and says which line."""
        ok = "series variant=a quantum=1 med=1,2,3"
        cases = [
            (lines(ok), 1, "series outside a pass"),
            (lines("pass p", "series variant=a med=1,2,3"), 2, "quantum= and med= are needed"),
            (lines("pass p", "series variant=a quantum=1 med=1,x,3"), 2, "whole numbers"),
            (lines("pass p", "series variant=a quantum=1 med=1,-2,3"), 2, "whole numbers"),
            (lines("pass p", "series variant=a quantum=1 med=9007199254740993"), 2,
             "0 to 2^53"),
            (lines("pass p", "series variant=a quantum=1 med=" + ",".join(["1"] * 64)), 2,
             "more epochs than an interval takes (63)"),
            (lines("pass p", ok, ok), 3, "named twice in one pass"),
            (lines("pass p", "series variant=%s quantum=1 med=1" % ("v" * 64)), 2,
             "1 to 63 characters"),
            (lines("pass p", ok, "compare num=a"), 3, "num= and den= are needed"),
            (lines("pass p", ok, "compare num=a den=b"), 3, "no such series in this pass: b"),
            (lines("pass p", ok, "end", "compare num=a den=a"), 4, "compare outside a pass"),
            (lines("pass p", "figure op=memset"), 2, "unknown line: figure"),
            (lines("pass p", ok + "," + "1" * 16384), 2, "line too long"),
        ]
        for text, lineno, words in cases:
            with self.subTest(words=words):
                r = compare(text)
                self.assertEqual(r.returncode, 2, r.stdout + r.stderr)
                self.assertIn("pagebench-decide: line %d: " % lineno, r.stderr)
                self.assertIn(words, r.stderr)
        self.assertEqual(compare(lines("pass p", ok, "compare num=a den=a")).returncode, 0)

    def test_usage(self):
        r = subprocess.run([DECIDE, "--help"], capture_output=True, text=True, timeout=60)
        self.assertEqual(r.returncode, 0)
        self.assertIn("--compare < SERIES", r.stdout)
        r = subprocess.run([DECIDE, "--compare", "x"], capture_output=True, text=True,
                           timeout=60)
        self.assertEqual(r.returncode, 2)


if __name__ == "__main__":
    unittest.main()
