"""pagebench-decide's input (tools/pagebench-decide.c): every number is
taken whole and within its field's range, or the input is refused with
the line it is on; nothing is cut to fit (issue 38: worth_bp=4294967297
was taken as 1, a figure near 2^64 plus the FPU cost wrapped into a
switch to the slowest routine)."""
import os
import subprocess
import unittest

TESTS = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
ROOT = os.path.dirname(TESTS)
DECIDE = os.path.join(ROOT, "build", "bin", "pagebench-decide")

# One machine the engine decides: stosb against avx on an AMD CPU's L1.
BASE = """machine x
cpu vendor=AuthenticAMD family=25 model=1 stepping=1
features avx=1 erms=1 rep_good=1 sse2=1
fast_string ?
run not_a_cpu=0 tsc_khz=3000000
fpu entry_centi=1000 held_centi=0 window_bytes=0
pass op=clear pass=l1 bytes=16384
series variant=stosb failed=0 quantum=1 med=100000,100000,100000
series variant=avx failed=0 quantum=1 med=90000,90000,90000
strings quantum=1
figure op=memset mode=tput n=64 variant=stosb failed=0 all=100,100,100
figure op=memset mode=tput n=64 variant=stosq failed=0 all=90,90,90
end
"""


def decide(text, *args):
    return subprocess.run([DECIDE, *args], input=text, capture_output=True, text=True,
                          timeout=60)


def with_line(prefix, line):
    """BASE with its line starting with prefix replaced by line."""
    out = [line if ln.startswith(prefix) else ln for ln in BASE.splitlines()]
    assert out != BASE.splitlines(), prefix
    return "\n".join(out) + "\n"


GROUPS = ("report",)

class DecideInput(unittest.TestCase):
    def setUp(self):
        if not os.access(DECIDE, os.X_OK):
            self.fail("%s is not built: run make" % DECIDE)

    def accepted(self, text):
        r = decide(text)
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertIn("(PB) answer fn=clear_page ", r.stdout)
        return r

    def refused(self, text, lineno, words):
        r = decide(text)
        self.assertEqual(r.returncode, 2, r.stdout + r.stderr)
        self.assertIn("pagebench-decide: line %d: " % lineno, r.stderr)
        self.assertIn(words, r.stderr)
        self.assertNotIn("(PB) answer", r.stdout)

    def test_base_is_decided(self):
        self.accepted(BASE)

    def test_worth_bp_bounds(self):
        for bp in ("10", "300", "5000"):
            with self.subTest(worth_bp=bp):
                self.accepted(with_line("run ", "run worth_bp=%s not_a_cpu=0 "
                                        "tsc_khz=3000000" % bp))
        # 2^32 + 1 was taken as 1 (and 0.0% printed): refused, not cut.
        for bp in ("0", "9", "5001", "4294967297", "18446744073709551617", "-1",
                   "+300", "3e2", ""):
            with self.subTest(worth_bp=bp):
                self.refused(with_line("run ", "run worth_bp=%s not_a_cpu=0 "
                                       "tsc_khz=3000000" % bp), 5, "worth_bp")

    def test_tsc_khz_bounds(self):
        for khz in ("0", "1000", "100000000"):
            with self.subTest(tsc_khz=khz):
                self.accepted(with_line("run ", "run not_a_cpu=0 tsc_khz=%s" % khz))
        for khz in ("1", "999", "100000001", "99999999999", "18446744073709551615"):
            with self.subTest(tsc_khz=khz):
                self.refused(with_line("run ", "run not_a_cpu=0 tsc_khz=%s" % khz), 5,
                             "tsc_khz")

    def test_figures_above_2_53_refused(self):
        top = 1 << 53
        self.accepted(with_line("series variant=avx", "series variant=avx failed=0 "
                                "quantum=1 med=%d,%d,%d" % (top, top, top)))
        for med in (top + 1, (1 << 64) - 1):
            with self.subTest(med=med):
                # This one wrapped with the FPU cost into a switch to avx.
                self.refused(with_line("series variant=avx", "series variant=avx "
                                       "failed=0 quantum=1 med=%d,%d,%d" % (med, med, med)),
                             9, "med=")
        self.refused(with_line("series variant=avx", "series variant=avx failed=0 "
                               "quantum=%d med=1,1,1" % (top + 1)), 9, "quantum")
        for fig in (top + 1, -(top + 1), (1 << 63) - 1):
            with self.subTest(fig=fig):
                self.refused(with_line("figure op=memset mode=tput n=64 variant=stosb",
                                       "figure op=memset mode=tput n=64 variant=stosb "
                                       "failed=0 all=%d,1,1" % fig), 11, "all=")

    def test_every_field_in_range(self):
        cases = [
            ("cpu ", "cpu vendor=AuthenticAMD family=4294967296 model=1 stepping=1", 2),
            ("fast_string", "fast_string 2", 4),
            ("run ", "run not_a_cpu=2 tsc_khz=3000000", 5),
            ("fpu ", "fpu entry_centi=4294967297 held_centi=0 window_bytes=0", 6),
            ("fpu ", "fpu entry_centi=1 held_centi=0 window_bytes=1099511627777", 6),
            ("pass ", "pass op=clear pass=l1 bytes=0", 7),
            ("pass ", "pass op=clear pass=l1 bytes=1099511627777", 7),
            ("series variant=stosb", "series variant=stosb failed=2 quantum=1 med=1,1,1", 8),
            ("figure op=memset mode=tput n=64 variant=stosb",
             "figure op=memset mode=tput n=4294967360 variant=stosb failed=0 all=1", 11),
        ]
        for prefix, line, lineno in cases:
            with self.subTest(line=line):
                self.refused(with_line(prefix, line), lineno, "line %d" % lineno)

    def test_matrix_rows_not_cut(self):
        # 2^32 + 1 rows was taken as 1.
        for rows in ("0", "1001", "4294967297", "-1", "1x"):
            with self.subTest(rows=rows):
                r = decide(BASE, "--matrix", rows)
                self.assertEqual(r.returncode, 2, r.stdout)
        self.assertEqual(decide(BASE, "--matrix", "40").returncode, 0)


if __name__ == "__main__":
    unittest.main()


class ReportOnARefusal(unittest.TestCase):
    """A log whose figures pagebench-decide refuses loses its own answers,
    said on its screen and on stderr; the other logs keep theirs, and the
    report does not fail (it ended in an error for every log)."""
    LOG = os.path.join(ROOT, "tests", "fixtures", "real",
                       "epyc-linux-cpu-2026-11-30.log")
    REPORT = os.path.join(ROOT, "scripts", "pagebench-report")

    def test_one_refused_the_others_decided(self):
        import tempfile
        with open(self.LOG, encoding="utf-8") as f:
            text = f.read()
        self.assertIn(" sse2=1402 ", text)
        with tempfile.TemporaryDirectory() as tmp:
            bad = os.path.join(tmp, "absurd.log")
            with open(bad, "w", encoding="utf-8") as f:
                f.write(text.replace(" sse2=1402 ", " sse2=ffffffffffffffff ", 1))
            r = subprocess.run([self.REPORT, "verdict", bad, self.LOG],
                               capture_output=True, text=True, timeout=300)
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertIn("== absurd.log: no answer lines, and pagebench-decide refused "
                      "its figures: series: med=", r.stdout)
        self.assertIn("absurd.log: no answers: pagebench-decide refused its figures",
                      r.stderr)
        self.assertRegex(r.stdout, r"== epyc-linux-cpu-2026-11-30.log\n(.*\n)*answers: "
                         r"made by pagebench-decide")
