"""C unit tests: the C programs in tests/unit/, built by make test (or
make unit-tests) into build/tests/. Each prints one line per check ("ok NAME", "FAIL NAME: why",
"skip NAME: why"); every line becomes a subtest here."""
import os
import re
import subprocess
import sys
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "lib"))
from tables import string_variant_needs  # noqa: E402

TESTS = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
REPO = os.path.dirname(TESTS)
BUILT = os.path.join(REPO, "build", "tests")
LINE = re.compile(r"^(ok|FAIL|skip) (\S+)(?:: (.*))?$")


def built(test, name):
    path = os.path.join(BUILT, name)
    if not os.path.exists(path):
        test.fail("%s is not built: run make unit-tests" % path)
    return path


GROUPS = ("fast", "unit")


class UnitTests(unittest.TestCase):
    def run_binary(self, name):
        path = built(self, name)
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

    def test_interval(self):
        """A pass's figures over epochs, on synthetic noise between and
        within epochs: a rerun's median inside the interval about 95% of
        the time, the intervals not padded, the stopping rule on a
        synthetic clock, the batch a short call gets."""
        self.run_binary("test_interval")

    def test_race(self):
        """time= (issue 27): the budget rule on a synthetic clock, racing on
        synthetic candidates of known ratios (a clear loser stops early,
        the closest get the most epochs, the right decision in 95% of
        seeded trials), calibration under racing, and progress never above
        100% nor a wrapped time."""
        self.run_binary("test_race")

    def test_cpu(self):
        """CPUID decoding on recorded register values, cache arithmetic."""
        self.run_binary("test_cpu")

    def test_acpi(self):
        """ACPI discovery and the FADT/HPET/MADT/SRAT parsers on synthetic tables."""
        self.run_binary("test_acpi")

    def test_smp(self):
        """Which MADT CPUs start, the trampoline page, NUMA nodes from the
        SRAT, the APIC id lists of the cpus lines."""
        self.run_binary("test_smp")

    def test_tsc(self):
        """The TSC rate from AMD P-state 0, on recorded MSR values."""
        self.run_binary("test_tsc")

    def test_mem(self):
        """The kernel's RAM allocator, and placing a block in a NUMA node's range."""
        self.run_binary("test_mem")

    def test_node_mem(self):
        """suite=scrub's region against each NUMA node's MemFree (pagebench-linux)."""
        self.run_binary("test_node_mem")

    def test_logfile(self):
        """The log kept for the UEFI log file (line ends, its limit and the
        closing note) and how the boot stick's partitions are found."""
        self.run_binary("test_logfile")

    def test_screen(self):
        """Framebuffer drawing in every pixel format, the identity mapper,
        the screen's layout and which log lines it shows."""
        self.run_binary("test_screen")

    def test_answer(self):
        """The answer (harness/decide/answer.c) on synthetic per-epoch figures:
        switch, keep, undecided and the epochs it needs, worth=, the
        candidates (no CLZERO without SFENCE, page or range shape, no
        failed variant), hot and cold entries, not-a-cpu, the reasons for
        no recommendation, the line's text; the running kernel's pick from
        recorded /proc/cpuinfo files."""
        self.run_binary("test_answer")

    def test_answer_strings(self):
        """The memset/memcpy and scrub answers (harness/decide/answer_strings.c) on
        synthetic figures: the size classes and each class's per-rep totals
        (its sizes only; a variant short of a figure, or failed, is no
        candidate), switch, keep and undecided for a class and a scrub
        step, scrub_page_hot not judged in a step, no CLZERO without
        SFENCE, the pick not measured, the lines' text."""
        self.run_binary("test_answer_strings")

    def test_rules(self):
        """The selection rules' C tables, evaluated on CPUs described by hand."""
        self.run_binary("test_rules")

    def test_rules_logic(self):
        """The rules' evaluation on made-up tables: the first row that
        holds, read three-valued (known where every way gives one
        outcome, unknown where the unknown fact matters), and the
        fast_string=1 assumption on a log that names no CPU."""
        self.run_binary("test_rules_logic")

    def test_variants(self):
        """Every clear and copy routine, with guard pages, where the CPU can run it."""
        self.run_binary("test_variants")

    def test_strings(self):
        """Every memset/memcpy routine of strings.def at every size and
        alignment: contents, guard bytes, return value, ABI, no access
        outside the range, VZEROUPPER."""
        self.run_binary("test_strings")

    def test_sample(self):
        """Retiming disturbed samples through the suites on a fake host
        (bounded, preparation redone, counted per CPU in suite=scrub), the
        cycles line's sums and arithmetic, the APERF/MPERF gate."""
        self.run_binary("test_sample")

    def test_strings_run(self):
        """The strings suite's driver on routines of its own: the wrong ones
        give verify FAILED or fault lines, the right ones value lines."""
        self.run_binary("test_strings_run")

    def test_strings_missing_feature_skipped(self):
        """With its feature treated as missing, a string variant is not run:
        each of its checks is a skip line naming the feature."""
        path = built(self, "test_strings")
        needs = {"%s/%s" % k: f for k, f in string_variant_needs().items()}
        off = sorted({f for f in needs.values() if f != "none"})
        self.assertTrue(off, "no variant of strings.def needs a feature")
        proc = subprocess.run([path, "disable=" + ",".join(off)], cwd=REPO,
                              capture_output=True, text=True, timeout=300)
        self.assertEqual(proc.returncode, 0, proc.stdout + proc.stderr)
        seen = {}
        for line in proc.stdout.splitlines():
            m = LINE.match(line)
            if m and m.group(2).count("/") == 2:
                variant, check = m.group(2).rsplit("/", 1)
                seen.setdefault(variant, []).append((m.group(1), check,
                                                     m.group(3)))
        self.assertEqual(sorted(seen), sorted(needs))
        for variant, feat in needs.items():
            with self.subTest(variant=variant):
                verdicts = {v for v, _, _ in seen[variant]}
                if feat == "none":
                    self.assertEqual(verdicts, {"ok"}, seen[variant])
                    continue
                self.assertEqual(verdicts, {"skip"}, seen[variant])
                for _, _, why in seen[variant]:
                    self.assertIn("needs %s" % feat, why)


if __name__ == "__main__":
    unittest.main()
