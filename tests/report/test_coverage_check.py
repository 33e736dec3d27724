"""scripts/coverage-check --logs on logs whose stat and ratio lines the test
rewrote, so that the coverage and half-widths it must print are known; and
its errors. The logs come from one short real run of pagebench-linux.
Nothing here runs the six default runs the script makes by itself."""
import os
import re
import subprocess
import tempfile
import unittest

TESTS = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
REPO = os.path.dirname(TESTS)
SCRIPT = os.path.join(REPO, "scripts", "coverage-check")
LINUX = os.path.join(REPO, "build", "bin", "pagebench-linux")

# Per run: every stat line's (median, lo, hi), every ratio line's.
TIMES = [(1000, 900, 1100), (1050, 950, 1150), (1200, 1100, 1300)]
RATIOS = [("0.5000", "0.4500", "0.5500"), ("0.5200", "0.4700", "0.5700"),
          ("0.5300", "0.4800", "0.5800")]
STAT = re.compile(r"^(\(PB\) stat .* median=)\S+ lo=\S+ hi=\S+( unit=.*)$")
RATIO = re.compile(r"^(\(PB\) ratio .* median=)\S+ lo=\S+ hi=\S+$")


def check(*args):
    return subprocess.run([SCRIPT] + list(args), capture_output=True,
                          text=True, timeout=120)


GROUPS = ("fast", "linux")


class CoverageFromLogs(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.TemporaryDirectory(prefix="test_coverage_check.")
        r = subprocess.run([LINUX, "suite=clear", "passes=l1f", "budget=100ms",
                            "variants=stosb,stosq"], capture_output=True,
                           text=True, timeout=300)
        assert r.returncode == 0, r.stderr
        cls.logs = []
        for i, (t, q) in enumerate(zip(TIMES, RATIOS)):
            out = []
            for line in r.stdout.splitlines():
                m = STAT.match(line)
                if m:
                    line = "%s%d lo=%d hi=%d%s" % (m.group(1), t[0], t[1], t[2], m.group(2))
                m = RATIO.match(line)
                if m:
                    line = "%s%s lo=%s hi=%s" % (m.group(1), q[0], q[1], q[2])
                out.append(line)
            path = os.path.join(cls.tmp.name, "run%d.log" % (i + 1))
            with open(path, "w") as f:
                f.write("\n".join(out) + "\n")
            cls.logs.append(path)
        cls.stats = sum(1 for l in r.stdout.splitlines() if STAT.match(l))
        cls.ratios = sum(1 for l in r.stdout.splitlines() if RATIO.match(l))

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def test_coverage_and_half_widths(self):
        """Times: run 2's medians fall in run 1's intervals, run 3's in
        none; with every run the reference, 2 of 6 per cell. Ratios: all
        of them in every interval."""
        self.assertEqual((self.stats, self.ratios), (4, 1))  # 2 variants x (time, use); stosq/stosb
        r = check("--logs", *self.logs)
        self.assertEqual(r.returncode, 0, r.stderr)
        out = r.stdout
        self.assertIn("run lengths: not measured (read from logs)", out)
        self.assertIn("times and use probes: a rerun's figure inside the first "
                      "run's interval in 4 of 8 (50.0%; 90.0% wanted: no)", out)
        self.assertIn("times and use probes: inside another run's interval, every "
                      "run the reference in turn: 8 of 24 (33.3%; by reference run "
                      "0.0% to 50.0%)", out)
        # Half-widths 100/1000, 100/1050, 100/1200 of each of 4 cells: 9.5%.
        self.assertIn("times and use probes: half-width of the intervals: median 9.5%", out)
        self.assertIn("ratios: a rerun's figure inside the first run's interval "
                      "in 2 of 2 (100.0%; 90.0% wanted: yes)", out)
        self.assertIn("every run the reference in turn: 6 of 6 (100.0%", out)
        # 0.05 over 0.50, 0.52, 0.53: 10.0%, 9.6%, 9.4%.
        self.assertIn("ratios: half-width of the intervals: median 9.6%", out)
        self.assertRegex(out, r"clear\s+L1 w/ flush\s+ratio\s+1\s+2 of 2\s+100\.0%")

    def test_decisions(self):
        """The answer lines, rewritten: two questions over three runs, one
        that flips from a switch to a keep in run 3; the same decision,
        the flips, the drifts each run said, the decision ratios' coverage
        and half-widths by level come out as counted by hand."""
        answers = [  # (pass, action, ratio, lo, hi, drift) per run: l1f, then l3
            [("l1f", "switch", "0.9000", "0.8500", "0.9500", " drift=0.8500/0.9400"),
             ("l3", "keep", "1.0500", "1.0000", "1.1000", "")],
            [("l1f", "switch", "0.9200", "0.8700", "0.9700", ""),
             ("l3", "keep", "1.0200", "0.9900", "1.0500", "")],
            [("l1f", "keep", "1.0000", "0.9800", "1.0200", " drift=0.9500/1.0500"),
             ("l3", "keep", "1.0400", "1.0000", "1.0800", " drift=0.9900/1.0900")],
        ]
        logs = self.write_answers(answers, "answers")
        r = check("--logs", *logs)
        self.assertEqual(r.returncode, 0, r.stderr)
        out = r.stdout
        self.assertIn("decisions: 2 questions (function, pass, kernel pick); a rerun "
                      "made the first run's decision in 3 of 4 (75.0%; 90.0% wanted: "
                      "no); every pair of runs 4 of 6 (66.7%)", out)
        # l1f: switch, switch, keep (1 of 3 pairs alike); l3: keep thrice (3 of 3).
        self.assertIn("decisions: the same action (keep, switch, undecided) in every "
                      "pair of runs 4 of 6 (66.7%)\n", out)
        self.assertIn("or between two routines: 1\n  clear_page l1f pick=stosb: "
                      "switch to stosq, switch to stosq, keep\n", out)
        self.assertIn("decisions whose ratio drifted within their run (drift=): "
                      "1, 0, 2 of 2 a run\n", out)
        self.assertIn("decision ratios: a rerun's inside the first run's interval "
                      "in 3 of 4 (75.0%), where both name the same routine", out)
        # l1f: 0.05/0.90, 0.05/0.92, 0.02/1.00; l3: 0.05/1.05, 0.03/1.02, 0.04/1.04.
        self.assertIn("decision ratios: median half-width L1/L2 5.4% (3), "
                      "L3/MEM 3.8% (3), copy-hot/cold - (0)", out)

    def write_answers(self, runs, prefix):
        """A log per run, each with its answer lines (pass, action, ratio,
        lo, hi[, " drift=..."]) in place of the real run's."""
        logs = []
        for i, run in enumerate(runs):
            with open(self.logs[i % len(self.logs)]) as f:
                lines = [l for l in f.read().splitlines() if " answer " not in l]
            at = next(k for k, l in enumerate(lines) if " runtime " in l)
            lines[at:at] = ['(PB) answer fn=clear_page pass=%s kernel=linux '
                            'versions=">=5.4" entry=clear_page pick=stosb action=%s '
                            'routine=stosq ratio=%s lo=%s hi=%s epochs=11 worth=3.0%%%s'
                            % (a + ("",))[:6] for a in run]
            new = os.path.join(self.tmp.name, "%s%d.log" % (prefix, i + 1))
            with open(new, "w") as f:
                f.write("\n".join(lines) + "\n")
            logs.append(new)
        return logs

    def test_answer_of_three(self):
        """Six runs: runs 1-3 and 4-6 each give their answer pass by pass
        (the same on every run, else undecided). l3 keeps in all six; l1f switches in runs 1-5 and keeps
        in run 6, so the first three say switch to stosq and the next
        three are undecided (the runs differ). Three runs give no such
        line."""
        switch = ("l1f", "switch", "0.9000", "0.8500", "0.9500")
        keep_l1f = ("l1f", "keep", "1.0000", "0.9800", "1.0200")
        keep = ("l3", "keep", "1.0500", "1.0000", "1.1000")
        runs = [[switch, keep]] * 5 + [[keep_l1f, keep]]
        r = check("--logs", *self.write_answers(runs, "three"))
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertIn("the answer of 3 runs (per pass, as every run says it), runs 1-3, 4-6: "
                      "the same in 1 of 2 pairs of answers (50.0%), the same action "
                      "(keep, switch, undecided) in 1 (50.0%)\n"
                      "  clear_page l1f pick=stosb: switch to stosq | undecided\n",
                      r.stdout)
        r = check("--logs", *self.write_answers(runs[:3], "few"))
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertNotIn("the answer of 3 runs", r.stdout)

    def test_bad_input(self):
        """One log, options beside --logs, a missing file and a log without
        stat lines each get a clear error and their own status."""
        r = check("--logs", self.logs[0])
        self.assertEqual(r.returncode, 2)
        self.assertIn("at least 2 logs", r.stderr)
        r = check("--logs", self.logs[0], self.logs[1], "--", "reps=3")
        self.assertEqual(r.returncode, 2)
        self.assertIn("takes no options", r.stderr)
        missing = os.path.join(self.tmp.name, "absent.log")
        r = check("--logs", self.logs[0], missing)
        self.assertEqual(r.returncode, 1)
        self.assertIn("absent.log: No such file or directory", r.stderr)
        bare = os.path.join(self.tmp.name, "bare.log")
        with open(self.logs[0]) as f, open(bare, "w") as g:
            g.write("".join(l for l in f if " stat " not in l and " ratio " not in l))
        r = check("--logs", self.logs[0], bare)
        self.assertEqual(r.returncode, 1)
        self.assertIn("bare.log has no stat lines", r.stderr)


if __name__ == "__main__":
    unittest.main()
