"""CSV export makes formula cells inert (docs/report.md, "export").

A text cell that starts with = + - @ (or a tab or CR) gets a ' in front,
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
TOOL = os.path.join(os.path.dirname(HERE), "scripts", "pagebench-report")

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


class CsvFormulaTest(unittest.TestCase):
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


if __name__ == "__main__":
    unittest.main()
