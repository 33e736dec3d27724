"""pagebench-linux's log= (linux/log_file.c): on a terminal the raw lines go to a
new file and the terminal ends with the answer's matrix and the log's path;
into a pipe or a file they go to standard output as before; a log that
cannot be written is an error, never a silent loss. The matrix is drawn
once, by harness/render/matrix.c: pagebench-report verdict shows the same
text, from one real run. Runs are short (time=2s, one pass)."""
import os
import pwd
import pty
import re
import resource
import shutil
import signal
import subprocess
import sys
import tempfile
import unittest

TESTS = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
REPO = os.path.dirname(TESTS)
sys.path.insert(0, os.path.join(REPO, "scripts"))
from pbreport import grammar  # noqa: E402
from pbreport.answer import Answer  # noqa: E402

TOOL = os.path.join(REPO, "build", "bin", "pagebench-linux")
REPORT = os.path.join(REPO, "scripts", "pagebench-report")
DECIDE = os.path.join(REPO, "build", "bin", "pagebench-decide")
QUICK = ["suite=clear", "passes=l1", "time=2s"]
TAG = re.compile(r"^\(PB\) (.*)$")
# Into a pipe, stderr carries one progress line as each pass first runs.
PROGRESS = re.compile(r"^\[\s*\d+%\] .*  \d+s, ~\d+s left\n", re.M)


def without_progress(stderr):
    """stderr less its progress lines, each of which must be whole."""
    return PROGRESS.sub("", stderr)
DEFAULT_NAME = re.compile(r"^pagebench-[A-Za-z0-9_.-]+-\d{8}T\d{6}Z\.log$")


def on_terminal(args, cwd):
    """Runs args with standard output a terminal (stderr a pipe): what
    the terminal showed, with its \\r\\n as \\n, stderr and the status."""
    master, slave = pty.openpty()
    try:
        proc = subprocess.Popen(args, stdout=slave, stderr=subprocess.PIPE, cwd=cwd)
        os.close(slave)
        slave = None
        chunks = []
        while True:
            try:
                data = os.read(master, 65536)
            except OSError:
                break
            if not data:
                break
            chunks.append(data)
        err = proc.stderr.read().decode()
        proc.stderr.close()
        status = proc.wait(timeout=120)
    finally:
        if slave is not None:
            os.close(slave)
        os.close(master)
    return b"".join(chunks).decode().replace("\r\n", "\n"), err, status


def kinds(lines):
    return {grammar.classify(l) for l in lines}


GROUPS = ("fast", "linux")


class LinuxLogFile(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        if not os.access(TOOL, os.X_OK):
            raise AssertionError("%s is not built: run make" % TOOL)
        cls.dir = tempfile.mkdtemp(prefix="pb-log-")
        cls.shown, cls.err, cls.status = on_terminal([TOOL] + QUICK, cls.dir)
        cls.files = os.listdir(cls.dir)

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.dir)

    def log_lines(self):
        self.assertEqual(len(self.files), 1, self.files)
        with open(os.path.join(self.dir, self.files[0])) as f:
            raw = f.read().splitlines()
        out = []
        for l in raw:
            m = TAG.match(l)
            self.assertTrue(m, "untagged line in the log: %r" % l)
            out.append(m.group(1))
        return out

    def test_default_file_is_complete(self):
        """On a terminal, the default: a new pagebench-HOST-DATE.log here,
        every line documented, ending with done:, with the answer lines;
        the same kinds of line as log=- prints on standard output."""
        self.assertEqual(self.status, 0, self.shown + self.err)
        self.assertRegex(self.files[0], DEFAULT_NAME)
        lines = self.log_lines()
        for l in lines:
            self.assertIsNotNone(grammar.classify(l), "undocumented: %r" % l)
        self.assertEqual(lines[-1], "done: 0 failures")
        self.assertIn("answer", kinds(lines))
        plain = subprocess.run([TOOL, "log=-"] + QUICK, capture_output=True, text=True,
                               timeout=120)
        self.assertEqual(plain.returncode, 0, plain.stderr)
        self.assertEqual(without_progress(plain.stderr), "")
        piped = [TAG.match(l).group(1) for l in plain.stdout.splitlines()]
        # The figures differ run to run; what is said does not.
        self.assertEqual(kinds(piped), kinds(lines))
        self.assertEqual(piped[-1], lines[-1])

    def test_terminal_ends_with_matrix_and_path(self):
        """The terminal shows no raw line: the matrix (at most 40 lines of
        at most 100 columns with the path) and, last, where the log is."""
        out = self.shown.splitlines()
        self.assertFalse([l for l in out if TAG.match(l)])
        self.assertLessEqual(len(out), 40)
        self.assertLessEqual(max(len(l) for l in out), 100)
        self.assertEqual(out[-1], "log: %s (done: 0 failures)" % self.files[0])
        self.assertTrue(out[0].startswith("cells: "), out[0])
        self.assertTrue([l for l in out if re.match(r"pass +clear_page", l)], out)
        self.assertTrue([l for l in out if l.startswith("bottom  ")], out)

    def test_matrix_is_verdicts(self):
        """pagebench-report verdict of the same log shows the same matrix:
        from its cells line on, the text is equal, line for line."""
        rep = subprocess.run([REPORT, "verdict", os.path.join(self.dir, self.files[0])],
                             capture_output=True, text=True, timeout=120)
        self.assertEqual(rep.returncode, 0, rep.stderr)
        py = rep.stdout.splitlines()
        start = next(i for i, l in enumerate(py) if l.startswith("cells: "))
        self.assertEqual(self.shown.splitlines()[:-1], py[start:])


class LinuxAnswerMatrixDrift(unittest.TestCase):
    """A decision whose ratio drifted (drift=) ends its cell with "~", and
    the footnote says so (pagebench-decide --matrix), from answers made of
    figures: avx_t at 0.9 of REP STOSB over the first ten epochs of 21 and
    at 0.6 over the rest."""

    FIGURES = ["machine drift",
               "cpu vendor=AuthenticAMD family=26 model=2 stepping=1",
               "features erms=1 fsrm=1 avx=1 avx512f=1 sse2=1",
               "fast_string 1",
               "run worth_bp=300 not_a_cpu=0 tsc_khz=2000000",
               # A vector price of nothing: the vector routine weighs as it ran.
               "price ticks=0 lo=0 hi=0 held=0 window_bytes=0",
               "pass op=clear pass=l2 bytes=524288"]

    @staticmethod
    def series(name, first, last):
        # +-1% alternately: noise the engine sees, the same on every run.
        return "series variant=%s failed=0 quantum=1 med=%s" % (name, ",".join(
            str(int(100000 * (first if e < 10 else last) * (1 + 0.01 * (e % 3 - 1))))
            for e in range(21)))

    def test_drift_marked_alike(self):
        if not os.access(DECIDE, os.X_OK):
            raise AssertionError("%s is not built: run make" % DECIDE)
        text = "\n".join(self.FIGURES + [self.series("stosb", 1.0, 1.0),
                                          self.series("avx_t", 0.9, 0.6),
                                          self.series("sse2", 3.0, 3.0), "end"]) + "\n"
        lines = subprocess.run([DECIDE], input=text, capture_output=True, text=True,
                               timeout=60)
        c = subprocess.run([DECIDE, "--matrix", "40"], input=text, capture_output=True,
                           text=True, timeout=60)
        self.assertEqual((lines.returncode, c.returncode), (0, 0), lines.stderr + c.stderr)
        line = re.compile("^" + grammar.TAG + grammar.regex("answer"))
        answers = [Answer.from_groups(line.match(l).groups())
                   for l in lines.stdout.splitlines() if line.match(l)]
        self.assertTrue(any(a.drift for a in answers), lines.stdout)
        self.assertRegex(c.stdout, r"→ avx_t −\d+% \(\d+–\d+\)~")
        self.assertIn("~: its ratio drifted during the run (drift=): a rerun may decide "
                      "otherwise", " ".join(c.stdout.split()))


class LinuxAnswerLinesRead(unittest.TestCase):
    """pagebench-decide reads a log's own answer and bottom lines back
    (tools/answer_lines.c) and prints them again byte for byte: what it
    draws is what the run said. A malformed line is refused with its line
    number and what is wrong, status 2, nothing printed for it."""

    @classmethod
    def setUpClass(cls):
        if not os.access(DECIDE, os.X_OK) or not os.access(TOOL, os.X_OK):
            raise AssertionError("pagebench-linux or pagebench-decide is not built: run make")
        r = subprocess.run([TOOL, "log=-", "suite=clear", "passes=l1,l2f", "time=2s"],
                           capture_output=True, text=True, timeout=120)
        if r.returncode:
            raise AssertionError(r.stderr)
        kinds = re.compile(r"^\(PB\) ((?:answer|bottom|bottom_pass|bottom_sets) .*)$")
        cls.lines = [m.group(1) for m in map(kinds.match, r.stdout.splitlines()) if m]

    def decide(self, lines, *args):
        return subprocess.run([DECIDE] + list(args), input="machine m\n" + "\n".join(lines) +
                              "\n", capture_output=True, text=True, timeout=60)

    def test_lines_round_trip(self):
        kinds = {l.split(" ", 1)[0] for l in self.lines}
        self.assertEqual(kinds, {"answer", "bottom", "bottom_pass", "bottom_sets"})
        r = self.decide(self.lines)
        self.assertEqual(r.returncode, 0, r.stderr)
        out = r.stdout.splitlines()
        self.assertEqual(out[0], "machine m")
        self.assertEqual([l.split(") ", 1)[1] for l in out[1:]], self.lines)

    def test_matrix_of_the_lines(self):
        """--matrix draws the lines: a bottom row under the per-pass rows."""
        r = self.decide(self.lines, "--matrix", "40")
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertTrue([l for l in r.stdout.splitlines() if l.startswith("bottom  ")],
                        r.stdout)

    def refused(self, lines, number, what):
        r = self.decide(lines)
        self.assertEqual(r.returncode, 2, r.stdout)
        self.assertIn("pagebench-decide: line %d: %s" % (number, what), r.stderr)

    def test_refusals(self):
        first = next(i for i, l in enumerate(self.lines) if l.startswith("answer "))
        a = self.lines[first]
        bottom = next(i for i, l in enumerate(self.lines) if l.startswith("bottom "))
        b = self.lines[bottom]
        line = first + 2    # after "machine m", counted from 1
        self.refused(self.lines[:first] + [re.sub(r" ratio=\d\.\d{4}", " ratio=0.98", a)],
                     line, "ratio=: not a ratio N.NNNN")
        self.refused([a.replace(' versions="', ' versions="%s' % ("x" * 70))], 2,
                     "versions=: longer than 63 characters")
        self.refused([a + " colour=red"], 2, "colour=: not a field of this line")
        self.refused([a + " worth=3.0%"], 2, "worth=: named twice")
        self.refused([re.sub(r"epochs=\d+", "epochs=99999999999999999999", a)], 2,
                     "epochs=: not a whole number in range")
        self.refused([re.sub(r" routine=\w+", " routine=no_such_routine_x", a)], 2,
                     "routine=: no such variant")
        self.refused([a.replace(" worth=3.0%", " worth=73.0%")], 2, "worth=: not a worth")
        # A bottom line without its bottom_pass lines, then the next: refused there.
        rest = [l for l in self.lines[bottom + 1:] if not l.startswith("bottom_pass")]
        self.refused([b] + rest[:2], 3, "passes=: its bottom_pass lines are fewer than its passes")
        # Figures and lines in one machine.
        self.refused([a, "run not_a_cpu=0 tsc_khz=1"], 3,
                     "a machine has either its own answer lines or figures")


class LinuxLogErrors(unittest.TestCase):
    """A log that cannot be written stops the run with status 3 and says
    why on stderr; nothing is overwritten, nothing is silently lost."""

    def setUp(self):
        self.dir = tempfile.mkdtemp(prefix="pb-log-")

    def tearDown(self):
        shutil.rmtree(self.dir)

    def run_tool(self, *args, **kw):
        return subprocess.run([TOOL] + list(args), capture_output=True, text=True,
                              timeout=120, cwd=self.dir, **kw)

    def test_existing_file_refused(self):
        path = os.path.join(self.dir, "old.log")
        with open(path, "w") as f:
            f.write("an earlier run\n")
        r = self.run_tool("log=" + path, *QUICK)
        self.assertEqual(r.returncode, 3)
        self.assertEqual(r.stdout, "")
        self.assertRegex(r.stderr, r"^pagebench-linux: cannot create the log %s: File exists "
                         r"\(a run never overwrites a file" % re.escape(path))
        with open(path) as f:
            self.assertEqual(f.read(), "an earlier run\n")

    def test_symlink_refused(self):
        """A link someone placed is not followed, even to a new file."""
        link, target = os.path.join(self.dir, "x.log"), os.path.join(self.dir, "target")
        os.symlink(target, link)
        r = self.run_tool("log=" + link, *QUICK)
        self.assertEqual(r.returncode, 3)
        self.assertIn("File exists", r.stderr)
        self.assertFalse(os.path.exists(target))

    def test_dev_full_refused(self):
        """log=/dev/full names an existing file: refused, as any other."""
        r = self.run_tool("log=/dev/full", *QUICK)
        self.assertEqual(r.returncode, 3)
        self.assertIn("cannot create the log /dev/full: File exists", r.stderr)

    def test_missing_folder(self):
        path = os.path.join(self.dir, "no", "such", "x.log")
        r = self.run_tool("log=" + path, *QUICK)
        self.assertEqual(r.returncode, 3)
        self.assertEqual(r.stderr, "pagebench-linux: cannot create the log %s: no: No such "
                         "file or directory\n" % path)

    def test_folder_others_can_swap(self):
        """A folder any user may write and not sticky: another could put
        a link where the log goes; refused, as scripts/cmdline.py does."""
        shared = os.path.join(self.dir, "shared")
        os.mkdir(shared)
        os.chmod(shared, 0o777)
        r = self.run_tool("log=" + os.path.join(shared, "x.log"), *QUICK)
        self.assertEqual(r.returncode, 3)
        self.assertIn("writable by other users and not sticky", r.stderr)
        self.assertEqual(os.listdir(shared), [])
        os.chmod(shared, 0o1777)
        r = self.run_tool("log=" + os.path.join(shared, "x.log"), "suite=xen", "passes=l1",
                          "reps=1", "variants=stosb")
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertEqual(os.listdir(shared), ["x.log"])

    @unittest.skipUnless(os.geteuid() == 0, "needs root: the link is another user's")
    def test_link_planted_above_the_log(self):
        """As root: a folder any user may write (ww), and in it another
        user's link to a folder of root's (ww/sub -> rootonly, 0700).
        log=ww/sub/x.log must not create rootonly/x.log (issue 38: only
        the last folder, rootonly, was checked); wherever on the path, a
        link in a folder another user can write is refused, and so is
        nobody's link in a sticky one (/tmp's kind). Root's own link in
        a sticky folder of root's, and any link in root's own folders,
        are followed."""
        nobody = pwd.getpwnam("nobody").pw_uid
        ww, rootonly, sticky, safe = (os.path.join(self.dir, n)
                                      for n in ("ww", "rootonly", "sticky", "safe"))
        for d, mode in ((ww, 0o777), (rootonly, 0o700), (sticky, 0o1777), (safe, 0o755)):
            os.mkdir(d)
            os.chmod(d, mode)
        os.mkdir(os.path.join(ww, "real"))
        for link in (os.path.join(ww, "sub"), os.path.join(sticky, "theirs"),
                     os.path.join(sticky, "mine"), os.path.join(safe, "mine")):
            os.symlink(rootonly, link)
        os.lchown(os.path.join(ww, "sub"), nobody, nobody)
        os.lchown(os.path.join(sticky, "theirs"), nobody, nobody)
        quick = ["suite=xen", "passes=l1", "reps=1", "variants=stosb"]
        for path, what in (("ww/sub/x.log", "sub is a symbolic link in a folder other "
                            "users can write"),
                           (os.path.join(ww, "sub", "x.log"), "sub is a symbolic link"),
                           ("ww/real/../sub/x.log", "sub is a symbolic link"),
                           ("sticky/theirs/x.log", "theirs is a symbolic link")):
            with self.subTest(log=path):
                r = self.run_tool("log=" + path, *quick)
                self.assertEqual(r.returncode, 3, r.stderr)
                self.assertIn(what, r.stderr)
                self.assertEqual(os.listdir(rootonly), [])
        for path, name in (("sticky/mine/a.log", "a.log"), ("safe/mine/b.log", "b.log"),
                           ("ww/real/c.log", None)):
            with self.subTest(log=path):
                r = self.run_tool("log=" + path, *quick)
                self.assertEqual(r.returncode, 0, r.stderr)
                if name:
                    self.assertIn(name, os.listdir(rootonly))

    def test_option_error_leaves_no_file(self):
        """A mistyped option with the log in a file: the error on stderr,
        status 2, and no file left behind for it."""
        path = os.path.join(self.dir, "x.log")
        r = self.run_tool("log=" + path, "suite=stirngs")
        self.assertEqual(r.returncode, 2)
        self.assertRegex(r.stderr, r"^pagebench-linux: option error: suite=: unknown")
        self.assertFalse(os.path.exists(path))

    def test_write_error(self):
        """The file cannot grow (RLIMIT_FSIZE, as a full disk): the run
        stops at the first line that does not fit, status 3, and says so."""
        path = os.path.join(self.dir, "x.log")

        def small():
            signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
            resource.setrlimit(resource.RLIMIT_FSIZE, (2048, 2048))
        r = self.run_tool("log=" + path, *QUICK, preexec_fn=small)
        self.assertEqual(r.returncode, 3)
        self.assertEqual(r.stderr, "pagebench-linux: cannot write the log to %s: File too "
                         "large\n" % path)
        self.assertLessEqual(os.path.getsize(path), 2048)

    def test_answer_to_full_stdout(self):
        """The log complete in its file, the answer to a full standard
        output: status 3, and stderr says where the log is."""
        path = os.path.join(self.dir, "x.log")
        with open("/dev/full", "w") as full:
            r = subprocess.run([TOOL, "log=" + path] + QUICK, stdout=full,
                               stderr=subprocess.PIPE, text=True, timeout=120, cwd=self.dir)
        self.assertEqual(r.returncode, 3)
        self.assertEqual(without_progress(r.stderr), "pagebench-linux: cannot write the answer to standard "
                         "output: No space left on device; the log is complete in %s\n" % path)
        with open(path) as f:
            self.assertEqual(f.read().splitlines()[-1], "(PB) done: 0 failures")


if __name__ == "__main__":
    unittest.main()
