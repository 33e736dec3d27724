"""scripts/order-check: its three answers, from a stand-in for
pagebench-linux (--tool) whose stat lines the test chose, so that the
answer it must give is known; its refusals; and one short real run, whose
answer depends on the machine and is only checked for its shape."""
import os
import re
import subprocess
import sys
import tempfile
import unittest

TESTS = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
REPO = os.path.dirname(TESTS)
SCRIPT = os.path.join(REPO, "scripts", "order-check")

# A stand-in for pagebench-linux: the stat line of the variant last in
# variants=, its figures by side (alone: one variant) and by call, from
# the figures file beside it.
STAND_IN = r'''#!%s
import json, os, sys
here = os.path.dirname(os.path.abspath(__file__))
args = dict(a.split("=", 1) for a in sys.argv[1:])
vs = args["variants"].split(",")
side = "alone" if len(vs) == 1 else "after"
with open(os.path.join(here, "figures.json")) as f:
    figs = json.load(f)
count = os.path.join(here, side + ".count")
n = int(open(count).read()) if os.path.exists(count) else 0
open(count, "w").write(str(n + 1))
med, lo, hi = figs[side][n]
print("(PB) pagebench version=stand-in")
print("(PB) stat suite=%%s pass=%%s variant=%%s reps=9 epochs=3 batch=1 "
      "median=%%d lo=%%d hi=%%d unit=ticks stop=reps"
      %% (args["suite"], args["passes"], vs[-1], med, lo, hi))
print("(PB) done: 0 failures")
''' % sys.executable


def check(*args):
    return subprocess.run([SCRIPT] + list(args), capture_output=True,
                          text=True, timeout=300)


GROUPS = ("fast", "linux")


class Answers(unittest.TestCase):
    def answer(self, alone, after, *extra):
        with tempfile.TemporaryDirectory(prefix="test_order_check.") as d:
            tool = os.path.join(d, "pagebench-linux")
            with open(tool, "w") as f:
                f.write(STAND_IN)
            os.chmod(tool, 0o755)
            with open(os.path.join(d, "figures.json"), "w") as f:
                f.write('{"alone": %s, "after": %s}' % (alone, after))
            r = check("-n", str(len(alone)), "--tool", tool, *extra,
                      "stosb", "sse2")
        self.assertEqual(r.returncode, 0, r.stderr)
        return r.stdout.splitlines()

    def test_apart_depends_on_the_order(self):
        out = self.answer([[100, 90, 110], [104, 95, 113]],
                          [[250, 230, 270], [240, 220, 260]])
        self.assertEqual(out[1], "alone  100 [90, 110]  104 [95, 113]")
        self.assertEqual(out[2], "after  250 [230, 270]  240 [220, 260]")
        self.assertEqual(out[3], "median of the runs' medians: alone 102, "
                                 "after sse2 245 (2.402 times)")
        self.assertEqual(out[4], "clear stosb after sse2: depends on the order")
        self.assertIn("(stand-in)", out[0])

    def test_inside_each_other_no_effect(self):
        out = self.answer([[100, 90, 110], [104, 95, 113], [98, 88, 108]],
                          [[103, 93, 113], [99, 90, 108], [106, 97, 115]],
                          "--suite", "copy", "--pass", "l1")
        self.assertEqual(out[-1], "copy stosb after sse2: no effect seen")
        self.assertIn("suite=copy passes=l1", out[0])

    def test_in_part_undecided(self):
        # The first "after" median falls in an alone interval, the second not.
        out = self.answer([[100, 90, 110], [104, 95, 113]],
                          [[108, 98, 118], [140, 130, 150]])
        self.assertRegex(out[-1], r"^clear stosb after sse2: undecided: .*"
                                  r"more runs \(-n\) would decide$")


class Refusals(unittest.TestCase):
    def test_bad_arguments(self):
        for args, said in ((["stosb", "stosb"], "the same variant"),
                           (["-n", "1", "stosb", "sse2"], "--runs: at least 2"),
                           (["--pass", "hot", "stosb", "sse2"], "invalid choice")):
            with self.subTest(args=args):
                r = check(*args)
                self.assertEqual(r.returncode, 2)
                self.assertIn(said, r.stderr)

    def test_missing_tool(self):
        r = check("--tool", "/nonexistent/pagebench-linux", "stosb", "sse2")
        self.assertEqual(r.returncode, 1)
        self.assertIn("/nonexistent/pagebench-linux is not built", r.stderr)

    def test_unknown_variant(self):
        r = check("nosuch", "sse2")
        self.assertEqual(r.returncode, 1)
        self.assertRegex(r.stderr, r"^order-check: pagebench-linux suite=clear "
                                   r"passes=l2 variants=nosuch exited 2: .*option "
                                   r"error: variants=: no variant 'nosuch'")


class RealRun(unittest.TestCase):
    GROUPS = ("linux",)

    def test_shape(self):
        r = check("-n", "2", "--pass", "l1f", "stosq", "stosb")
        self.assertEqual(r.returncode, 0, r.stderr)
        out = r.stdout.splitlines()
        self.assertEqual(len(out), 5, out)
        self.assertRegex(out[0], r"^pagebench-linux suite=clear passes=l1f \(\S+\): "
                                 r"stosq alone, and right after stosb, 2 runs each")
        fig = r"\d+(\.\d+)? \[\d+(\.\d+)?, \d+(\.\d+)?\]"
        for line, side in zip(out[1:3], ("alone", "after")):
            self.assertRegex(line, r"^%-6s %s  %s$" % (side, fig, fig))
        self.assertRegex(out[4], r"^clear stosq after stosb: (depends on the "
                                 r"order|no effect seen|undecided: .*)$")


if __name__ == "__main__":
    unittest.main()
