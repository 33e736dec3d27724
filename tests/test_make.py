"""make on a machine without the tools names scripts/deps (issue 18)."""
import os
import subprocess
import unittest

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


class MissingTools(unittest.TestCase):
    def make(self, *args):
        return subprocess.run(["make", "-n"] + list(args), cwd=REPO,
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
