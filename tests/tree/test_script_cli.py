"""The command-line habits every script here shares: --version gives the
build's version string (the log's version line), and the exit statuses
mean the same in each (docs/hacking.md, "Conventions";
docs/running.md, each tool's "Exit status")."""
import os
import subprocess
import unittest

TESTS = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
REPO = os.path.dirname(TESTS)
SCRIPTS = ("mkiso", "run-qemu", "run-linux-module", "usb-logs", "write-usb")


def script(name, *args, **kw):
    if "stdout" not in kw:
        kw["capture_output"] = True
    return subprocess.run([os.path.join(REPO, "scripts", name)] + list(args),
                          stdin=subprocess.DEVNULL, text=True, timeout=60, **kw)


GROUPS = ("fast", "house")


class Version(unittest.TestCase):
    GROUPS = ("house",)

    def test_same_string_as_the_build(self):
        """The Makefile's VERSION is what the kernel and pagebench-linux
        print in their version line."""
        make = subprocess.run(["make", "-s", "--no-print-directory", "-C", REPO, "--eval",
                               "print-version: ; @echo $(VERSION)", "print-version"],
                              capture_output=True, text=True, timeout=60)
        self.assertEqual(make.returncode, 0, make.stderr)
        version = make.stdout.strip()
        self.assertRegex(version, r"^\S+$")
        for name in SCRIPTS:
            with self.subTest(script=name):
                r = script(name, "--version")
                self.assertEqual(r.returncode, 0, r.stderr)
                self.assertEqual(r.stdout, "%s %s\n" % (name, version))

    def test_outside_a_checkout(self):
        """No git repository above: "unknown", as the Makefile says then."""
        env = dict(os.environ, GIT_DIR="/nonexistent", GIT_CEILING_DIRECTORIES="/")
        r = script("usb-logs", "--version", env=env)
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertEqual(r.stdout, "usb-logs unknown\n")


class ExitStatus(unittest.TestCase):
    GROUPS = ("house",)

    def test_help_documents_the_shared_statuses(self):
        for name in SCRIPTS:
            with self.subTest(script=name):
                r = script(name, "--help")
                self.assertEqual(r.returncode, 0, r.stderr)
                self.assertIn("Exit status (as in every pagebench tool", r.stdout)
                for status in ("0", "2", "3"):
                    self.assertRegex(r.stdout, r"\n  %s  \S" % status)

    def test_closed_pipe_is_quiet(self):
        """stdout's reader gone: 0 and no word (was 120 and "Exception
        ignored ... BrokenPipeError"); >/dev/full: 3, said on stderr."""
        env = dict(os.environ)
        env.pop("PYTHONUNBUFFERED", None)       # the buffer meets the pipe at exit
        for name in SCRIPTS[1:] + ("coverage-check", "order-check", "bench-vs-peers",
                                   "interval-constants", "results-index"):
            with self.subTest(script=name):
                r, w = os.pipe()
                os.close(r)
                try:
                    p = script(name, "--help", stdout=w,
                               stderr=subprocess.PIPE, env=env)
                finally:
                    os.close(w)
                self.assertEqual((p.returncode, p.stderr), (0, ""))
                with open("/dev/full", "w") as full:
                    p = script(name, "--help", stdout=full,
                               stderr=subprocess.PIPE, env=env)
                self.assertEqual(p.returncode, 3)
                self.assertEqual(p.stderr, "%s: cannot write to standard output: "
                                 "No space left on device\n" % name)

    def test_usage_errors_are_2(self):
        for name in SCRIPTS:
            for args in (["--no-such-option"], ["x", "y", "z", "w"], ["bad\nvalue"]):
                with self.subTest(script=name, args=args):
                    r = script(name, *args)
                    self.assertEqual(r.returncode, 2, r.stderr)
                    self.assertTrue(r.stderr)
