"""Zero and absurd figures through every subcommand of pagebench-report:
a figure of 0 ns (an answer line's own, or a TSC rate so high that the
engine's ns round to 0), one near the top of its field, every number of
a log made 0 or all nines: each subcommand prints what it can, shows a
zero figure as such, leaves out what pagebench-decide refuses with a
note, and never ends in a traceback (issue 38: summary and html did on
pick_ns=0.0, and so did verdict --explain and --format commit)."""
import os
import re
import subprocess
import tempfile
import unittest

TESTS = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
ROOT = os.path.dirname(TESTS)
REPORT = os.path.join(ROOT, "scripts", "pagebench-report")

# A log of each kind: answer lines, suite=strings, suite=scrub, the
# module's (its fpu lines), Jan's 2021 format, value lines without answers.
BASES = ("tests/fixtures/answer/emr-a.log",
         "tests/fixtures/report/qemu-tcg-strings-epyc-2026-11-30.log",
         "tests/fixtures/real/epyc-linux-cpu-scrub-2026-11-30.log",
         "tests/fixtures/real/xeon-qemu-tcg-translator-module-clear-2026-12-01.log",
         "tests/fixtures/report/xen-aorus.log",
         "tests/fixtures/report/pb-skylake-all.log")

COMMANDS = (["summary"], ["diff"], ["winners"], ["verdict"], ["verdict", "--json"],
            ["verdict", "--explain"], ["verdict", "--format", "commit"], ["claims"],
            ["claims", "--json"], ["export", "--format", "csv"],
            ["export", "--format", "json"], ["export", "--format", "benchfmt"], ["html"])


def extreme(text, zero):
    """Every figure of text at 0 or near the top of what the grammar takes,
    and answer lines of memset and scrub beside each clear_page one."""
    big_dec, big_hex = "9" * 19, "f" * 16
    subs = [
        (r"(pick_ns|routine_ns)=\d+\.\d", r"\1=" + ("0.0" if zero else "9" * 18 + ".9")),
        (r"fpu=\d+\.\dns", "fpu=%sns" % ("0.0" if zero else "9" * 18 + ".9")),
        (r" (ratio|lo|hi)=\d+\.\d{4}", r" \1=" + ("0.0000" if zero else "9" * 15 + ".9999")),
        (r"tsc khz=\d+", "tsc khz=" + ("0" if zero else big_dec)),
        (r"^(\(\w+\) +pre=)[0-9a-f]+ (\w+)=[0-9a-f]+ post=[0-9a-f]+",
         lambda m: "%s%s %s=%s post=%s" % (m.group(1), "0" if zero else big_hex, m.group(2),
                                          "0" if zero else big_hex, "0" if zero else big_hex)),
        (r"\b(median|min|max|wall|slowest|fastest|bytes|ticks|ms|fill|clear|copy)=\d+(\.\d+)?",
         r"\1=" + ("0" if zero else big_dec)),
        (r"all=[-0-9.,]+", lambda m: "all=" + ",".join(
            ["0" if zero else big_dec] * len(m.group(0).split(",")))),
        (r"\b(l1d|l2|l3)=\d+k", r"\1=%sk" % ("0" if zero else big_dec)),
    ]
    out = []
    for line in text.splitlines():
        for rx, to in subs:
            line = re.sub(rx, to, line)
        out.append(line)
        if " answer fn=clear_page pass=l1 " in line:
            out.append(line.replace("fn=clear_page pass=l1 ", "fn=memset pass=tput "
                                    "sizes=16-127 ").replace("entry=clear_page ", "entry=memset "))
            out.append(line.replace("fn=clear_page pass=l1 ", "fn=scrub pass=cpus1 ")
                       .replace("entry=clear_page ", "entry=scrub_one_page "))
    return "\n".join(out) + "\n"


def every_value(text, digit):
    """Every number after a '=', ':', blank, comma, dot, 'x', '/', '(' or
    '-' made all one digit (names, such as avx512 or l1, mostly kept)."""
    return re.sub(r"(?<=[=: ,.x/(-])\d+", lambda m: digit * len(m.group(0)), text)


GROUPS = ("report",)

class ExtremeFigures(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.TemporaryDirectory()
        texts = []
        for b in BASES:
            with open(os.path.join(ROOT, b), encoding="utf-8", errors="replace") as f:
                texts.append(f.read())
        cls.logs = {}
        for name, mutate in (("zero", lambda t: extreme(t, True)),
                             ("absurd", lambda t: extreme(t, False)),
                             ("zeros", lambda t: every_value(t, "0")),
                             ("nines", lambda t: every_value(t, "9"))):
            path = os.path.join(cls.tmp.name, name + ".log")
            with open(path, "w", encoding="utf-8") as f:
                f.write("".join(mutate(t) for t in texts))
            cls.logs[name] = path

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def report(self, *args):
        return subprocess.run([REPORT, *args], capture_output=True, text=True, timeout=300,
                              cwd=self.tmp.name)

    def test_every_subcommand(self):
        for name, path in self.logs.items():
            for cmd in COMMANDS:
                with self.subTest(log=name, cmd=" ".join(cmd)):
                    # Twice: diff needs two machines of each kind.
                    r = self.report(*cmd, "-q", path, path)
                    self.assertNotIn("Traceback", r.stderr, r.stderr[-3000:])
                    self.assertEqual(r.returncode, 0, r.stderr[-3000:])
                    self.assertTrue(r.stdout, r.stderr[-3000:])

    def test_zero_ns_shown_as_such(self):
        """pick_ns=0.0: what summary and verdict --explain show of it (the
        commit block and the HTML page show no answer's ns of a log
        without bottom lines: the matrix, drawn by the engine, has none)."""
        for cmd in (["summary"], ["verdict", "--explain"]):
            with self.subTest(cmd=" ".join(cmd)):
                r = self.report(*cmd, "-q", self.logs["zero"])
                self.assertEqual(r.returncode, 0, r.stderr[-3000:])
                self.assertIn("0.0 ns: not a measurement", r.stdout)

    def test_refused_figures_are_noted(self):
        """Figures pagebench-decide refuses (bytes=0, a TSC of 10^19 kHz):
        that machine's screen and stderr say so; the run goes on."""
        r = self.report("verdict", self.logs["zero"])
        self.assertEqual(r.returncode, 0, r.stderr[-3000:])
        self.assertRegex(r.stderr, r"no answers: pagebench-decide refused its figures: ")
        self.assertRegex(r.stdout, r"no answer lines, and pagebench-decide refused its "
                         r"figures: ")


if __name__ == "__main__":
    unittest.main()
