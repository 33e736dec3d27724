"""make on a machine without the tools names scripts/deps (issue 18); make
says one line per stage, V=1 every command."""
import glob
import os
import re
import shutil
import subprocess
import tempfile
import unittest

TESTS = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
REPO = os.path.dirname(TESTS)
# make as a user runs it, also under make test: not a sub-make of it
# (which says "Entering directory" and shares the outer make's jobs).
ENV = {k: v for k, v in os.environ.items() if k not in ("MAKEFLAGS", "MFLAGS", "MAKELEVEL")}


GROUPS = ("fast", "house")


class MissingTools(unittest.TestCase):
    def make(self, *args):
        return subprocess.run(["make", "-n"] + list(args), cwd=REPO, env=ENV,
                              capture_output=True, text=True, timeout=120)

    def test_missing_tool_names_deps(self):
        r = self.make("NASM=pb-no-such-nasm", "all")
        self.assertNotEqual(r.returncode, 0)
        self.assertIn("missing pb-no-such-nasm", r.stderr)
        self.assertIn("scripts/deps", r.stderr)

    def test_every_tool_present_builds(self):
        r = self.make("all")
        self.assertEqual(r.returncode, 0, r.stderr)

    def test_run_and_test_install_first(self):
        """make test on a fresh machine must reach its deps step, not stop."""
        r = self.make("NASM=pb-no-such-nasm", "test")
        self.assertNotIn("missing pb-no-such-nasm", r.stderr)
        self.assertIn("scripts/deps test", r.stdout)


class Quiet(unittest.TestCase):
    """Without V=1 a stage that works says one line, however many of its
    recipes run; V=1 echoes each command. A few objects, built into a
    folder of the test's own (B=)."""

    def make(self, *args):
        tmp = tempfile.mkdtemp()
        self.addCleanup(shutil.rmtree, tmp)
        objects = [os.path.join(tmp, o) for o in ("h/lib/fmt.o", "h/lib/sort.o", "h/lib/out.o",
                                                  "k/lib/fmt.o", "k/lib/sort.o")]
        r = subprocess.run(["make", "-j2", "B=" + tmp] + list(args) + objects, cwd=REPO, env=ENV,
                           capture_output=True, text=True, timeout=300)
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertTrue(all(os.path.exists(o) for o in objects), r.stdout)
        return tmp, r.stdout.splitlines()

    def test_one_line_per_stage(self):
        tmp, lines = self.make()
        self.assertEqual(sorted(lines), sorted([
            "build: kernel and ISO (%s/pagebench.elf, %s/pagebench.iso)" % (tmp, tmp),
            "build: tools (%s/bin/)" % tmp]))

    def test_v1_shows_every_command(self):
        tmp, lines = self.make("V=1")
        self.assertEqual(len([l for l in lines if " -c -o %s/" % tmp in l]), 5, lines)
        self.assertFalse([l for l in lines if l.startswith("build: ")], lines)


class Products(unittest.TestCase):
    """build/bin holds the tools a user runs; the C unit tests go to
    build/tests/, built by make test and make unit-tests, not by make."""

    def linked(self, goal):
        r = subprocess.run(["make", "-n", "-B", goal], cwd=REPO, env=ENV, capture_output=True,
                           text=True, timeout=120)
        self.assertEqual(r.returncode, 0, r.stderr)
        return {o for o in re.findall(r" -o (\S+)", r.stdout) if not o.endswith((".o", ".c"))}

    def test_make_builds_tools_only(self):
        linked = self.linked("all")
        self.assertTrue(any(o.startswith("build/bin/") for o in linked), linked)
        self.assertEqual([o for o in linked if o.startswith("build/bin/")
                          and not os.path.basename(o).startswith("pagebench-")], [])
        self.assertEqual([o for o in linked if "test_" in o], [])

    def test_unit_tests_go_to_build_tests(self):
        sources = glob.glob(os.path.join(REPO, "tests", "unit", "test_*.c"))
        want = {"build/tests/" + os.path.basename(s)[:-2] for s in sources}
        self.assertGreater(len(want), 10)
        for goal in ("unit-tests", "test"):
            with self.subTest(goal=goal):
                self.assertEqual({o for o in self.linked(goal) if "test_" in o}, want)
