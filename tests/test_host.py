"""Host unit tests: the C programs in tests/host/, built by make into
build/host/. Each prints one line per check ("ok NAME", "FAIL NAME: why",
"skip NAME: why"); every line becomes a subtest here."""
import os
import re
import subprocess
import unittest

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
LINE = re.compile(r"^(ok|FAIL|skip) (\S+)(?:: (.*))?$")


class HostUnitTests(unittest.TestCase):
    def run_binary(self, name):
        path = os.path.join(REPO, "build", "host", name)
        if not os.path.exists(path):
            self.fail("%s is not built: run make" % path)
        proc = subprocess.run([path], cwd=REPO, capture_output=True, text=True,
                              timeout=300)
        checks = 0
        for line in proc.stdout.splitlines():
            m = LINE.match(line)
            if not m:
                continue
            checks += 1
            verdict, check, why = m.groups()
            with self.subTest(check=check):
                if verdict == "skip":
                    self.skipTest(why or "skipped")
                self.assertEqual(verdict, "ok", "%s: %s" % (check, why))
        self.assertGreater(checks, 0, "%s printed no checks:\n%s%s"
                           % (name, proc.stdout, proc.stderr))
        self.assertGreaterEqual(proc.returncode, 0, "%s crashed" % name)
        if proc.returncode and "FAIL" not in proc.stdout:
            self.fail("%s exited %d without a FAIL line:\n%s"
                      % (name, proc.returncode, proc.stderr))

    def test_lib(self):
        """The formatter, the command-line parser and the plan."""
        self.run_binary("test_lib")

    def test_cpu(self):
        """CPUID decoding on recorded register values, cache arithmetic."""
        self.run_binary("test_cpu")

    def test_screen(self):
        """Framebuffer drawing in every pixel format, the identity mapper,
        the screen's layout and which log lines it shows."""
        self.run_binary("test_screen")

    def test_variants(self):
        """Every clear and copy routine, with guard pages, where the CPU can run it."""
        self.run_binary("test_variants")


if __name__ == "__main__":
    unittest.main()
