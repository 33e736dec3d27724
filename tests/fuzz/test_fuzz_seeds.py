"""The fuzz targets of tests/fuzz/ on their seeds, once, without libFuzzer:
gcc's AddressSanitizer and UndefinedBehaviorSanitizer builds of each
(make sanitized, which make test runs first) take every seed
(tests/fuzz/seeds: the figures and command lines of the tree's logs) and
every input that once failed (tests/fuzz/regressions/), so that a
regression shows without fuzzing (make fuzz does that)."""
import glob
import os
import subprocess
import unittest

TESTS = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
ROOT = os.path.dirname(TESTS)
TARGETS = ("decide", "options")


def sanitized_env():
    env = dict(os.environ)
    # A report ends the program with a status of its own; no leak check:
    # the targets keep their state in statics, and LeakSanitizer cannot
    # run under every tracer a CI may use.
    env["ASAN_OPTIONS"] = "detect_leaks=0:abort_on_error=0:exitcode=86"
    env["UBSAN_OPTIONS"] = "print_stacktrace=1:halt_on_error=1:exitcode=87"
    return env


GROUPS = ("report", "house")

class FuzzSeeds(unittest.TestCase):
    def inputs(self, target):
        seeds = glob.glob(os.path.join(ROOT, "build", "seeds", target, "*"))
        regressions = glob.glob(os.path.join(ROOT, "tests", "fuzz", "regressions",
                                             target, "*"))
        if not seeds:
            self.fail("no seeds in build/seeds/%s: run make sanitized (make test does)"
                      % target)
        self.assertTrue(regressions, "tests/fuzz/regressions/%s is empty" % target)
        return sorted(seeds) + sorted(regressions)

    def run_target(self, target):
        tool = os.path.join(ROOT, "build", "san", "bin", "fuzz-" + target)
        if not os.access(tool, os.X_OK):
            self.fail("%s is not built: run make sanitized (make test does)" % tool)
        inputs = self.inputs(target)
        r = subprocess.run([tool] + inputs, capture_output=True, text=True,
                           env=sanitized_env(), timeout=600)
        self.assertEqual(r.returncode, 0, r.stderr[-4000:])
        self.assertNotIn("runtime error", r.stderr)
        self.assertNotIn("Sanitizer", r.stderr)
        self.assertIn("ran %d inputs" % len(inputs), r.stderr)

    def test_decide(self):
        """pagebench-decide's input: the figures of every log of
        tests/fixtures/, and the overflows of issue 38."""
        self.run_target("decide")

    def test_options(self):
        """The option parser, as pagebench-linux's words and as the
        kernel's command line: every recorded command line."""
        self.run_target("options")


if __name__ == "__main__":
    unittest.main()
