"""build/bin/pagebench-core-probe: the shape of what it prints and its
refusals. Its figures are the machine's; nothing here asserts a speed."""
import os
import re
import subprocess
import unittest

TESTS = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
REPO = os.path.dirname(TESTS)
TOOL = os.path.join(REPO, "build", "bin", "pagebench-core-probe")
_CORR = r"(-?\d\.\d\d|n/a \(no variation\))"
CORRELATION = re.compile(r"^correlation over the windows: add-stosb %s, imul-stosb %s, "
                         r"imul-add %s$" % (_CORR, _CORR, _CORR))
WINDOW = re.compile(r"^window=(\d+) t=(\d+)s imul=(\d+) add=(\d+) stosb=(\d+) samples=(\d+)$")
RANGE = re.compile(r"^range (imul|add|stosb): ([+-]\d+\.\d)% to ([+-]\d+\.\d)% of its median (\d+) over (\d+) windows$")


def probe(*args):
    return subprocess.run([TOOL] + list(args), capture_output=True, text=True,
                          timeout=60)


GROUPS = ("fast", "linux")


class CoreProbe(unittest.TestCase):
    GROUPS = ("linux",)

    def test_windows_ranges_and_correlation(self):
        r = probe("3", "1")
        self.assertEqual((r.returncode, r.stderr), (0, ""))
        lines = r.stdout.splitlines()
        self.assertTrue(lines[0].startswith("# pagebench-core-probe: cpu "))
        wins = [WINDOW.match(l) for l in lines if l.startswith("window=")]
        self.assertEqual([int(m.group(1)) for m in wins if m], [0, 1, 2])
        for m in wins:
            # A sample every 20 ms or so: a window of 1 s holds some, never hundreds.
            self.assertTrue(1 <= int(m.group(6)) < 100, m.group(0))
            self.assertTrue(all(int(m.group(k)) > 0 for k in (3, 4, 5)))
        ranges = {m.group(1): m for m in map(RANGE.match, lines) if m}
        self.assertEqual(sorted(ranges), ["add", "imul", "stosb"])
        for name, m in ranges.items():
            lo, hi, med = float(m.group(2)), float(m.group(3)), int(m.group(4))
            self.assertTrue(lo <= 0 <= hi, m.group(0))
            self.assertIn(med, [int(w.group({"imul": 3, "add": 4, "stosb": 5}[name]))
                                for w in wins])
        # A probe whose windows all took the same time (as REP STOSB's did
        # on an EPYC Zen 5) has no correlation: words, not "nan". Which
        # pairs have one depends on the CPU, so the test checks that the
        # words stand only where a printed column is constant (a window's
        # median may differ by half a tick from another that prints alike,
        # so a constant column does not force the words).
        corr = CORRELATION.match(lines[-1])
        self.assertTrue(corr, lines[-1])
        column = {"imul": 3, "add": 4, "stosb": 5}
        for pair, said in zip(("add-stosb", "imul-stosb", "imul-add"), corr.groups()):
            with self.subTest(pair=pair):
                a, b = pair.split("-")
                varies = all(len({w.group(column[p]) for w in wins}) > 1 for p in (a, b))
                if said == "n/a (no variation)":
                    self.assertFalse(varies, lines[-1])
                else:
                    self.assertTrue(-1 <= float(said) <= 1, said)
        r = probe("2", "1")
        self.assertEqual(r.returncode, 0)
        self.assertIn("correlation over the windows: none (fewer than 3 windows)",
                      r.stdout)

    def test_bad_arguments(self):
        for args in (["0"], ["x"], ["5", "10"], ["1", "1", "1"], ["3601"], ["2s"]):
            with self.subTest(args=args):
                r = probe(*args)
                self.assertEqual((r.returncode, r.stdout), (2, ""))
                self.assertIn("usage: pagebench-core-probe [SECONDS [WINDOW]]", r.stderr)


if __name__ == "__main__":
    unittest.main()
