"""export (docs/report.md, "export"): CSV formula cells, benchfmt names.

CSV export makes formula cells inert: a text cell that starts with = + - @ (or a tab or CR) gets a ' in front,
as OWASP's advice on CSV injection says; numbers, negative ones included,
stay numbers. Before, a machine title =HYPERLINK(...) went out as a live
formula."""
import csv
import io
import os
import subprocess
import sys
import tempfile
import unittest

sys.dont_write_bytecode = True
HERE = os.path.dirname(os.path.abspath(__file__))
TESTS = os.path.dirname(HERE)
ROOT = os.path.dirname(TESTS)
TOOL = os.path.join(ROOT, "scripts", "pagebench-report")
sys.path.insert(0, os.path.join(ROOT, "scripts"))

from pbreport import export, grammar, log_grammar  # noqa: E402
from pbreport import parse as P  # noqa: E402

TITLE = '=HYPERLINK("http://example.invalid/x","click")'
LOG = (TITLE + ":\n"
       "(PB) pagebench version=test\n"
       "(PB) plan suite=strings reps=3 passes=none\n"
       "(PB) strings memset tput dst=0:\n"
       "(PB) strings overhead calls=256 min=1 median=1 n=3\n"
       "(PB)  stosb n=0 min=-0.10 median=0.20 all=-0.10,0.20,0.30\n"
       "(PB) done: 0 failures\n"
       "@SUM(1+1):\n"
       "(PB) pagebench version=test\n"
       "(PB) plan suite=clear reps=1 passes=l1\n"
       "(PB) L1 w/o flush:\n"
       "(PB)  pre=1 stosb=2 post=3\n"
       "(PB) done: 0 failures\n")


GROUPS = ("fast", "report")


class CsvFormulaTest(unittest.TestCase):
    GROUPS = ("fast", "report", "boot")

    def export(self, name):
        with tempfile.TemporaryDirectory() as tmp:
            path = os.path.join(tmp, name)
            with open(path, "w") as fh:
                fh.write(LOG)
            r = subprocess.run([sys.executable, TOOL, "export", "-q",
                                "--format", "csv", "--", name], cwd=tmp,
                               stdout=subprocess.PIPE, universal_newlines=True,
                               timeout=60)
        self.assertEqual(r.returncode, 0)
        return list(csv.DictReader(io.StringIO(r.stdout)))

    def test_formula_cells_inert(self):
        rows = self.export("-run.log")
        self.assertEqual(sorted(set(r["machine"] for r in rows)),
                         ["'" + TITLE, "'@SUM(1+1)"])
        self.assertEqual(set(r["source"] for r in rows), {"'-run.log"})
        for r in rows:
            for k, v in r.items():
                self.assertFalse(v.startswith(("=", "+", "@", "\t", "\r")),
                                 (k, v))

    def test_negative_numbers_stay_numbers(self):
        rows = self.export("run.log")
        ticks = [r["ticks"] for r in rows if r["kind"] == "strings"]
        self.assertEqual(ticks, ["-0.100", "0.200", "0.300"])
        self.assertEqual(float(ticks[0]), -0.1)


class BenchPassTest(unittest.TestCase):
    """Benchmark names come from the pass table of docs/log-format.md."""

    def test_every_pass_has_its_name(self):
        self.assertEqual(list(export.BENCH_PASS), list(P.PASSES))
        self.assertEqual(export.BENCH_PASS, {
            "L1 w/o flush": "L1-hot", "L1 w/ flush": "L1-flush",
            "L2 w/o flush": "L2-hot", "L2 w/ flush": "L2-flush",
            "L3 w/o flush": "L3-hot", "L3 w/ flush": "L3-flush",
            "MEM": "MEM", "hot": "page-hot", "cold": "page-cold",
            "L1 hot buffer": "L1-hotbuf", "L2 hot buffer": "L2-hotbuf",
            "L3 hot buffer": "L3-hotbuf", "MEM hot buffer": "MEM-hotbuf"})

    def test_a_new_pass_in_the_grammar_gets_a_name(self):
        # The grammar's pass table (scripts/pbreport/log_grammar.py) with two
        # passes more, before mem: their names come from their headers.
        table = []
        for pid, header, _ in log_grammar.PASSES:
            if pid == "mem":
                table += [("l4", "L4 w/o flush"), ("l4f", "L4 w/ flush")]
            table.append((pid, header))
        self.assertIn(("mem", "MEM"), table)
        names = export.bench_passes(table)
        self.assertEqual((names["L4 w/o flush"], names["L4 w/ flush"]),
                         ("L4-hot", "L4-flush"))
        self.assertEqual(len(names), len(export.BENCH_PASS) + 2)


if __name__ == "__main__":
    unittest.main()
