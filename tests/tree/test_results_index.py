"""results/README.md is scripts/results-index's output: the committed
file equals what the script makes of the logs and results/about.tsv,
every log of results/ has its row and every row its log. The one test
that reads results/; the script's own behaviour is checked on logs
written here, in a folder of the test's own."""
import os
import re
import shutil
import subprocess
import tempfile
import unittest

TESTS = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
REPO = os.path.dirname(TESTS)
SCRIPT = os.path.join(REPO, "scripts", "results-index")
RESULTS = os.path.join(REPO, "results")
# A row's first cell: the log's name, linked to itself.
ROW = re.compile(r"^\| \[([^\]]+)\]\(([^)]+)\) \|")

LOG = """\
(PB) erms=1 fsrm=1 fzrm=0 fsrs=0 fsrcs=0 l1d=48k l2=1024k
(PB) pagebench version=abc1234
(PB) cpu vendor=AuthenticAMD family=0x1a model=0x2 stepping=1
(PB) brand: Some CPU
(PB) hypervisor: none
(PB) hot load loads=1000 ticks=2247 ns=1.07 runs_on=cpu
(PB) cmdline: suite=strings reps=11
(PB) linux release=6.1.0-9-amd64 cpu=3 online=8
(PB) plan suite=strings reps=11 passes=none
(PB) runtime ms=2500 ticks=0x1
(PB) done: 0 failures
"""


def index(*args):
    return subprocess.run([SCRIPT] + list(args), capture_output=True, text=True,
                          timeout=120)


def logs_in(folder):
    return sorted(n for n in os.listdir(folder) if n not in ("README.md", "about.tsv"))


def rows_of(text):
    """The log each table row names."""
    out = []
    for line in text.splitlines():
        m = ROW.match(line)
        if m:
            out.append(m.group(1))
            if m.group(1) != m.group(2):
                raise AssertionError("row links %s to %s" % (m.group(1), m.group(2)))
    return out


GROUPS = ("fast", "house")

class ResultsIndexCommitted(unittest.TestCase):
    def test_readme_is_the_scripts_output(self):
        r = index("--check")
        self.assertEqual(r.returncode, 0, r.stdout + r.stderr)
        self.assertEqual(r.stdout, "")

    def test_every_log_a_row_every_row_a_log(self):
        with open(os.path.join(RESULTS, "README.md"), encoding="utf-8") as f:
            rows = rows_of(f.read())
        self.assertEqual(sorted(rows), rows, "rows in name order")
        self.assertEqual(rows, logs_in(RESULTS))
        with open(os.path.join(RESULTS, "about.tsv"), encoding="utf-8") as f:
            about = [l.split("\t")[0] for l in f.read().splitlines()]
        self.assertEqual(sorted(about), rows)


class ResultsIndexScript(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.mkdtemp(prefix="test_results_index.")
        self.addCleanup(shutil.rmtree, self.dir)
        self.put("box-linux-cpu-strings-2030-01-02.log", LOG)
        self.put("about.tsv", "box-linux-cpu-strings-2030-01-02.log\tA short strings run.\n")

    def put(self, name, text):
        with open(os.path.join(self.dir, name), "w", encoding="utf-8") as f:
            f.write(text)

    def readme(self):
        with open(os.path.join(self.dir, "README.md"), encoding="utf-8") as f:
            return f.read()

    def test_a_row_from_the_logs_own_lines(self):
        r = index("--dir", self.dir)
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertEqual(sorted(os.listdir(self.dir)),
                         ["README.md", "about.tsv", "box-linux-cpu-strings-2030-01-02.log"])
        row = [l for l in self.readme().splitlines() if ROW.match(l)]
        self.assertEqual(len(row), 1)
        cells = [c.strip() for c in row[0].strip("|").split(" | ")]
        self.assertEqual(cells[1:], [
            "Some CPU (AuthenticAMD 0x1a/0x2)",
            "pagebench-linux, Linux 6.1.0-9-amd64, CPU 3 of 8; runs on: cpu",
            "2030-01-02",
            "`pagebench-linux suite=strings reps=11`",
            "suite=strings reps=11, 2.5 s",
            "`abc1234`",
            "A short strings run."])

    def test_check_says_stale_and_writes_nothing(self):
        self.assertEqual(index("--dir", self.dir).returncode, 0)
        self.put("about.tsv", "box-linux-cpu-strings-2030-01-02.log\tSaid otherwise.\n")
        before = self.readme()
        r = index("--check", "--dir", self.dir)
        self.assertEqual(r.returncode, 1, r.stderr)
        self.assertIn("-| [box-linux", r.stdout)
        self.assertIn("+| [box-linux", r.stdout)
        self.assertIn("Said otherwise.", r.stdout)
        self.assertIn("is stale: run scripts/results-index", r.stderr)
        self.assertEqual(self.readme(), before)
        os.unlink(os.path.join(self.dir, "README.md"))
        self.assertEqual(index("--check", "--dir", self.dir).returncode, 1)

    def refused(self, why):
        r = index("--dir", self.dir)
        self.assertEqual(r.returncode, 3, r.stdout + r.stderr)
        self.assertIn(why, r.stderr)
        self.assertNotIn("README.md", os.listdir(self.dir))
        self.assertEqual([n for n in os.listdir(self.dir) if n.startswith(".")], [])

    def test_a_log_without_its_line(self):
        self.put("box-linux-cpu-2030-01-03.log", LOG)
        self.refused("box-linux-cpu-2030-01-03.log: no line in")

    def test_a_line_without_its_log(self):
        self.put("about.tsv", "box-linux-cpu-strings-2030-01-02.log\tA run.\n"
                 "gone-2030-01-01.log\tA log that left.\n")
        self.refused("a line for gone-2030-01-01.log, which is not there")

    def test_a_transcript_is_no_log(self):
        self.put("box-coverage-2030-01-02.txt", "run 1: 95.0% inside\n")
        self.put("about.tsv", "box-linux-cpu-strings-2030-01-02.log\tA run.\n"
                 "box-coverage-2030-01-02.txt\tSix runs.\n")
        self.refused("not a log; a lab transcript goes to lab/")

    def test_bad_about_lines(self):
        for text in ("box-linux-cpu-strings-2030-01-02.log A run, no tab.\n",
                     "box-linux-cpu-strings-2030-01-02.log\t\n",
                     "box-linux-cpu-strings-2030-01-02.log\tOne.\n"
                     "box-linux-cpu-strings-2030-01-02.log\tTwice.\n"):
            with self.subTest(text=text):
                self.put("about.tsv", text)
                r = index("--dir", self.dir)
                self.assertEqual(r.returncode, 3, r.stderr)
                self.assertIn("about.tsv:", r.stderr)

    def test_a_pipe_in_a_cell_stays_in_its_cell(self):
        self.put("about.tsv", "box-linux-cpu-strings-2030-01-02.log\tA | B.\n")
        self.assertEqual(index("--dir", self.dir).returncode, 0)
        self.assertIn("| A \\| B. |", self.readme())



class OnlyThisTestReadsResults(unittest.TestCase):
    """No other test, fuzz seed or make rule of the tests names a file of
    results/: a lab log added or pruned there changes no test (the logs
    the tests need are copies in tests/fixtures/real/)."""
    # A path into results/ ("results/" then a file's name) or a join of
    # ROOT with "results".
    READS = re.compile(r"""["']results/[\w.*-]|\b(?:ROOT|REPO)\s*,\s*["']results["']""")

    def test_no_other_reader(self):
        tests = os.path.join(REPO, "tests")
        files = [os.path.join(tests, "fuzz", "seeds")]
        for folder, _, names in os.walk(tests):
            if "fixtures" in os.path.relpath(folder, tests).split(os.sep):
                continue
            files += [os.path.join(folder, n) for n in names if n.endswith(".py")]
        readers = []
        for path in files:
            if os.path.samefile(path, __file__):
                continue
            with open(path, encoding="utf-8") as f:
                for no, line in enumerate(f, 1):
                    if self.READS.search(line):
                        readers.append("%s:%d: %s" % (os.path.relpath(path, REPO), no,
                                                      line.strip()))
        self.assertEqual(readers, [])

    def test_the_pattern_finds_a_reader(self):
        self.assertTrue(self.READS.search('os.path.join(ROOT, "results", "a.log")'))
        # Built, so that this file names no missing path itself.
        self.assertTrue(self.READS.search('"results/%s",' % "epyc.log"))
        self.assertFalse(self.READS.search('c["results"][0]'))


if __name__ == "__main__":
    unittest.main()
