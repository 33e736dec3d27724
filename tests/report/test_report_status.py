"""Exit statuses of scripts/pagebench-report, and output that is lost.

0 done, 1 no usable data, 2 usage, 3 the environment cannot do what was
asked (docs/report.md, "Exit status"). A write error (a full disk, a
closed stdout) must be said on stderr and give 3: before, >/dev/full gave
a traceback and 1. A closed pipe (| head) stops quietly with 0.
"""
import os
import shutil
import subprocess
import sys
import tempfile
import unittest

sys.dont_write_bytecode = True
HERE = os.path.dirname(os.path.abspath(__file__))
TESTS = os.path.dirname(HERE)
ROOT = os.path.dirname(TESTS)
TOOL = os.path.join(ROOT, "scripts", "pagebench-report")
FIX = os.path.join(TESTS, "fixtures", "report")
LOG = os.path.join(FIX, "xen-aorus.log")
BIG = os.path.join(FIX, "pb-strings-epyc-linux.log")   # > a pipe's 64 KiB of CSV
PREFIX = "pagebench-report: "


def run(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, shell_redir=""):
    """(status, stdout, stderr) of the tool; shell_redir is sh redirection
    applied to it, such as ">&-"."""
    env = dict(os.environ, PYTHONDONTWRITEBYTECODE="1")
    cmd = [sys.executable, TOOL] + list(args)
    if shell_redir:
        cmd = ["sh", "-c", 'exec "$@" ' + shell_redir, "sh"] + cmd
    r = subprocess.run(cmd, stdout=stdout, stderr=stderr, env=env,
                       timeout=300)
    dec = (lambda b: b.decode("utf-8", "replace") if b is not None else None)
    return r.returncode, dec(r.stdout), dec(r.stderr)


GROUPS = ("fast", "report")


@unittest.skipUnless(os.path.exists("/dev/full"), "no /dev/full")
class OutputLostTest(unittest.TestCase):
    GROUPS = ("report",)

    def test_stdout_full(self):
        for args in (["summary", LOG], ["winners", LOG], ["diff", "-q", LOG, LOG],
                     ["export", "--format", "json", LOG], ["html", LOG],
                     ["summary", "--help"], ["--help"]):
            with open("/dev/full", "w") as full:
                rc, _, err = run(args, stdout=full)
            with self.subTest(args=args):
                self.assertEqual(rc, 3)
                self.assertEqual(err, PREFIX + "error: output lost: writing "
                                 "stdout: No space left on device\n")

    def test_output_file_full(self):
        for fmt in ("csv", "json", "benchfmt"):
            rc, out, err = run(["export", "--format", fmt, "-o", "/dev/full",
                                LOG])
            self.assertEqual((rc, out), (3, ""), fmt)
            self.assertEqual(err, PREFIX + "error: output lost: writing "
                             "/dev/full: No space left on device\n")
        rc, _, err = run(["html", "-o", "/dev/full", LOG])
        self.assertEqual(rc, 3)

    def test_stderr_full(self):
        # Nothing can say it, but the status does: the warnings were lost.
        with open("/dev/full", "w") as full:
            rc, out, _ = run(["summary", os.path.join(FIX, "dirty-noise.log")],
                             stderr=full)
        self.assertEqual(rc, 3)
        self.assertIn("== dirty-noise.log", out)


class StatusTest(unittest.TestCase):
    GROUPS = ("report",)

    def test_closed_pipe(self):
        """A reader gone is no loss: quietly, status 0 (lib/status.h).
        Before: "error: output lost: writing stdout: Broken pipe", 3."""
        for args in (["export", "--format", "csv", BIG], ["summary", BIG],
                     ["--help"]):
            r, w = os.pipe()
            os.close(r)
            try:
                rc, _, err = run(args, stdout=w)
            finally:
                os.close(w)
            with self.subTest(args=args):
                self.assertEqual((rc, err), (0, ""))

    def test_head_1(self):
        """export | head -1: head's one line, then quietly 0."""
        env = dict(os.environ, PYTHONDONTWRITEBYTECODE="1")
        p = subprocess.Popen([sys.executable, TOOL, "export", "--format", "csv", BIG],
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env)
        head = subprocess.run(["head", "-1"], stdin=p.stdout, capture_output=True)
        p.stdout.close()
        err = p.stderr.read()
        self.assertEqual((p.wait(timeout=300), err), (0, b""))
        self.assertEqual(head.stdout.count(b"\n"), 1)
        self.assertTrue(head.stdout.startswith(b"machine,"), head.stdout[:80])

    def test_stdout_closed(self):
        rc, _, err = run(["summary", LOG], stdout=None, shell_redir=">&-")
        self.assertEqual(rc, 3)
        self.assertEqual(err, PREFIX + "error: output lost: writing stdout: "
                         "it is closed\n")

    def test_output_file_cannot_be_opened(self):
        rc, _, err = run(["export", "--format", "csv", "-o",
                          "/nonexistent/x.csv", LOG])
        self.assertEqual(rc, 3)
        self.assertEqual(err, PREFIX + "error: output lost: opening "
                         "/nonexistent/x.csv: No such file or directory\n")

    def test_unreadable_input(self):
        # Reported before anything: without it a diff would take the next
        # machine as its base.
        for path, why in (("/nonexistent.log", "No such file or directory"),
                          (FIX, "Is a directory")):
            rc, out, err = run(["diff", path, LOG, LOG])
            self.assertEqual((rc, out), (3, ""), path)
            self.assertEqual(err.splitlines(), [
                PREFIX + "%s: error: cannot read: %s" % (path, why),
                PREFIX + "error: an input cannot be read; nothing is "
                "reported"])
        rc, _, err = run(["summary"], shell_redir="<&-")
        self.assertEqual(rc, 3)
        self.assertIn("<stdin>: error: cannot read: stdin is closed", err)

    def test_statuses_in_help(self):
        rc, out, _ = run(["summary", "--help"])
        self.assertEqual(rc, 0)
        for status in ("0  results were printed", "1  no usable data",
                       "2  usage error", "3  the environment cannot do what "
                       "was asked"):
            self.assertIn(status, out)

    def test_no_data_and_usage(self):
        self.assertEqual(run(["summary", os.path.join(FIX, "nodata-empty.log")])[0], 1)
        self.assertEqual(run(["summary", "--tie", "700", LOG])[0], 2)
        self.assertEqual(run(["nosuch"])[0], 2)


class VersionTest(unittest.TestCase):
    def test_version_is_the_logs(self):
        # The build writes git describe --always --dirty into every log.
        want = subprocess.run(["git", "-C", ROOT, "describe", "--always",
                               "--dirty"], stdout=subprocess.PIPE,
                              universal_newlines=True)
        if want.returncode != 0:
            self.skipTest("not a git checkout")
        rc, out, err = run(["--version"])
        self.assertEqual((rc, err), (0, ""))
        self.assertEqual(out, "pagebench-report %s\n" % want.stdout.strip())

    def test_version_outside_a_checkout(self):
        with tempfile.TemporaryDirectory() as tmp:
            for part in ("scripts", "docs"):
                shutil.copytree(os.path.join(ROOT, part),
                                os.path.join(tmp, part))
            r = subprocess.run([sys.executable, os.path.join(
                tmp, "scripts", "pagebench-report"), "--version"],
                stdout=subprocess.PIPE, universal_newlines=True, timeout=60)
        self.assertEqual((r.returncode, r.stdout),
                         (0, "pagebench-report unknown\n"))

    @unittest.skipUnless(os.path.exists("/dev/full"), "no /dev/full")
    def test_version_not_written(self):
        with open("/dev/full", "w") as full:
            rc, _, err = run(["--version"], stdout=full)
        self.assertEqual(rc, 3)
        self.assertIn("output lost", err)


if __name__ == "__main__":
    unittest.main()
