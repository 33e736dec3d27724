"""pagebench-decide --combine (tools/decide_combine.h, harness/decide/combine.h)
on hand-written bottom lines: a group's runs that name alike routines in
either order give one line naming the first by the tables' order of
preference (read from the .def files here, not from the C); runs that
disagree give undecided and what each said; a fleet line per pick of an
era, none for a running kernel's; every line it prints in the grammar;
malformed input refused with its line number. The unit's own cases are
tests/unit/test_combine.c."""
import os
import re
import subprocess
import sys
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
TESTS = os.path.dirname(HERE)
ROOT = os.path.dirname(TESTS)
sys.path.insert(0, os.path.join(TESTS, "lib"))
sys.path.insert(0, os.path.join(ROOT, "scripts"))
from pbreport import bottom, grammar  # noqa: E402
import tables  # noqa: E402

DECIDE = os.path.join(ROOT, "build", "bin", "pagebench-decide")
KEY = 'fn=clear_page kernel=linux versions="%s" entry=clear_page'


def run_lines(versions, action, routine, alike, l2f, safe, saves):
    """One run's bottom line of a pick over l1 (even) and l2f (ratio l2f)."""
    key = KEY % versions
    head = ("bottom %s pick=stosb kernel_routine=\"clear_page_erms\" selected_by=\"ERMS\" "
            "action=%s routine=%s%s worth=3.0%% passes=l1,l2f saves=%s costs=- open=-"
            % (key, action, routine, " alike=" + alike if alike else "",
               "l2f" if l2f < 0.96 else "-"))
    cells = ["bottom_pass %s pass=l1 routine=%s verdict=even ratio=1.0000 lo=0.9900 "
             "hi=1.0100 epochs=21 pick_ns=100.0 routine_ns=100.0" % (key, routine),
             "bottom_pass %s pass=l2f routine=%s verdict=%s ratio=%.4f lo=%.4f hi=%.4f "
             "epochs=21 pick_ns=200.0 routine_ns=%.1f"
             % (key, routine, "saves" if l2f < 0.96 else "even", l2f, l2f - 0.01,
                l2f + 0.01, 200 * l2f)]
    return [head] + cells + ["bottom_sets %s safe=%s saves=%s" % (key, safe, saves)]


def combine(text):
    return subprocess.run([DECIDE, "--combine"], input=text, capture_output=True,
                          text=True, timeout=60)


GROUPS = ("report",)

class AnswerCombine(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        if not os.access(DECIDE, os.X_OK):
            raise AssertionError("%s is not built: run make" % DECIDE)
        order = [r["name"] for r in tables.table_rows() if r["op"] == "clear"]
        cls.first, cls.second = sorted(("orig", "stosl"), key=order.index)

    def test_groups_and_fleet(self):
        era, running = ">=5.4 <7.0", "running 6.18.44"
        text = "\n".join(
            ["group zen5", "run a.log"] +
            run_lines(era, "switch", "orig", "stosl", 0.80, "orig,stosl", "orig,stosl") +
            run_lines(running, "switch", "orig", "", 0.80, "orig", "orig") +
            ["run b.log"] +
            run_lines(era, "switch", "stosl", "orig", 0.84, "orig,stosl", "stosl") +
            run_lines(running, "keep", "stosl", "", 1.0, "stosl", "-") +
            ["group emr-4", "run c.log"] +
            run_lines(era, "keep", "stosq", "", 1.0, "orig,stosl,stosq", "-") +
            run_lines(running, "keep", "stosq", "", 1.0, "stosq", "-")) + "\n"
        r = combine(text)
        self.assertEqual(r.returncode, 0, r.stderr)
        out = r.stdout.splitlines()
        self.assertEqual([l for l in out if l.startswith("group ")],
                         ["group zen5", "group emr-4"])
        body = [l.split(") ", 1)[1] for l in out if not l.startswith("group ")]
        for l in body:
            self.assertIn(grammar.classify(l), bottom.KINDS + ("fleet",), l)
        lines = {}
        for l in body:
            m = grammar.compiled("bottom").match(l)
            if m:
                g = dict(zip(bottom.BOTTOM, m.groups()))
                lines.setdefault(g["versions"], []).append(g)
        zen_era, emr_era = lines[era]
        self.assertEqual((zen_era["action"], zen_era["routine"], zen_era["alike"],
                          zen_era["runs"], zen_era["differ"]),
                         ("switch", self.first, self.second, "2", None))
        zen_run = lines[running][0]
        self.assertEqual((zen_run["action"], zen_run["routine"], zen_run["differ"]),
                         ("undecided", "-", "switch orig x1; keep x1"))
        self.assertEqual((emr_era["action"], emr_era["runs"]), ("keep", "1"))
        sets = [grammar.compiled("bottom_sets").match(l) for l in body]
        self.assertEqual([m.group(5, 6) for m in sets if m and m.group(3) == era][0],
                         ("%s,%s" % (self.first, self.second), "stosl"))
        fleet = [grammar.compiled("fleet").match(l) for l in body]
        fleet = [m.groups() for m in fleet if m]
        # Safe on both groups: orig and stosl; saving on zen5 (in both its
        # runs): stosl alone.
        self.assertEqual(fleet, [("clear_page", "linux", era, "clear_page", "switch",
                                  "stosl", None, "2",
                                  "zen5:switch:%s,emr-4:keep:stosq" % self.first)])
        # l2f: the median of the runs' medians, the least lo, the greatest hi.
        cells = [grammar.compiled("bottom_pass").match(l) for l in body]
        l2f = [m.groups() for m in cells if m and m.group(3) == era and m.group(5) == "l2f"]
        # Each pass of the named routine: from the run that named it.
        ratio = {"orig": 0.80, "stosl": 0.84}[self.first]
        self.assertEqual(l2f[0][7:11], ("%.4f" % ratio, "%.4f" % (ratio - 0.01),
                                        "%.4f" % (ratio + 0.01), "21"))

    def refused(self, text, number, what):
        r = combine(text)
        self.assertEqual(r.returncode, 2, r.stdout)
        self.assertIn("pagebench-decide: line %d: %s" % (number, what), r.stderr)

    def test_refusals(self):
        lines = run_lines(">=5.4", "keep", "stosq", "", 1.0, "stosq", "-")
        self.refused("run a\n", 1, "run before its group")
        self.refused("group a b\n", 1, "group: a name of 1 to 40")
        self.refused("group g\n" + lines[0] + "\n", 2, "a bottom line before its run")
        self.refused("group g\nrun a\n" + lines[1] + "\n", 3,
                     "bottom_pass: comes after its bottom line")
        self.refused("group g\nrun a\n" + "\n".join(lines[:2]) + "\nrun b\n", 5,
                     "passes=: its bottom_pass lines are fewer than its passes")
        other = [l.replace("worth=3.0%", "worth=5.0%") for l in lines]
        self.refused("group g\nrun a\n" + "\n".join(lines) + "\nrun b\n" +
                     "\n".join(other) + "\n", 11,
                     "the runs of one group weigh one pick against different worths")
        self.refused("group g\nrun a\nhello\n", 3, "unknown line")


if __name__ == "__main__":
    unittest.main()
