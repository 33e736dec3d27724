"""build/bin/pagebench-store-value: the shape of what it prints, its
arithmetic and its refusals. Its figures are the machine's; nothing here
asserts a speed or which value is quicker."""
import os
import re
import subprocess
import unittest

TESTS = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
REPO = os.path.dirname(TESTS)
TOOL = os.path.join(REPO, "build", "bin", "pagebench-store-value")
KINDS = ("movnti", "movntdq_zmm", "movdqa_zmm", "stosb")
LINE = re.compile(r"^store=(\w+) bytes=(\d+) zero_ticks=(\d+) pattern_ticks=(\d+) "
                  r"pattern_over_zero=(\d+\.\d{3}) zero_mean_ticks=(\d+) "
                  r"mean_over_median=(\d+\.\d{3})$")
SKIP = re.compile(r"^store=(\w+) skipped: the CPU lacks (\w+)$")


def tool(*args):
    return subprocess.run([TOOL] + list(args), capture_output=True, text=True, timeout=120)


GROUPS = ("fast", "linux")


@unittest.skipUnless(os.access(TOOL, os.X_OK), "build/bin/pagebench-store-value is not built")
class StoreValue(unittest.TestCase):
    def test_every_kind_every_size(self):
        """A line per store kind and size, in that order, or one skip line
        for a kind the CPU lacks; the ratios are pattern over zero and the
        zeros' mean call over their median call."""
        r = tool("256", "4096")
        self.assertEqual((r.returncode, r.stderr), (0, ""))
        lines = r.stdout.splitlines()
        self.assertTrue(lines[0].startswith("# median TSC ticks of a call over "))
        self.assertIn("0x3ff0000000000000", lines[0])
        got = []
        for line in lines[1:]:
            m, s = LINE.match(line), SKIP.match(line)
            self.assertTrue(m or s, line)
            if s:
                got.append((s.group(1), None))
                continue
            zero, pattern = int(m.group(3)), int(m.group(4))
            self.assertGreater(zero, 0, line)
            self.assertEqual(m.group(5), "%.3f" % (pattern / zero))
            mean = int(m.group(6))
            self.assertGreater(mean, 0, line)
            self.assertEqual(m.group(7), "%.3f" % (mean / zero))
            got.append((m.group(1), int(m.group(2))))
        want = []
        for k in KINDS:
            skipped = (k, None) in got
            want += [(k, None)] if skipped else [(k, 256), (k, 4096)]
        self.assertEqual(got, want)

    def test_calls(self):
        """--calls: each kind and size's zeros calls, every one's ticks in
        order (the count the header says), or the kind's skip line; only
        as the first word."""
        r = tool("--calls", "256", "4096")
        self.assertEqual((r.returncode, r.stderr), (0, ""))
        lines = r.stdout.splitlines()
        head = re.match(r"^# TSC ticks of each of (\d+) calls on one buffer storing zeros, "
                        r"in the order they ran$", lines[0])
        self.assertTrue(head, lines[0])
        got = []
        for line in lines[1:]:
            m = re.match(r"^store=(\w+) bytes=(\d+) calls=([0-9,]+)$", line)
            s = SKIP.match(line)
            self.assertTrue(m or s, line)
            if s:
                got.append((s.group(1), None))
                continue
            ticks = [int(t) for t in m.group(3).split(",")]
            self.assertEqual(len(ticks), int(head.group(1)), line)
            self.assertTrue(all(t > 0 for t in ticks), line)
            got.append((m.group(1), int(m.group(2))))
        want = []
        for k in KINDS:
            want += [(k, None)] if (k, None) in got else [(k, 256), (k, 4096)]
        self.assertEqual(got, want)
        r = tool("256", "--calls")
        self.assertEqual(r.returncode, 2)
        self.assertIn("--calls comes first", r.stderr)
        self.assertEqual(r.stdout, "")

    def test_defaults(self):
        """No argument: the three levels bench-vs-peers compares by default."""
        r = tool()
        self.assertEqual(r.returncode, 0, r.stderr)
        sizes = {int(m.group(2)) for m in map(LINE.match, r.stdout.splitlines()) if m}
        self.assertEqual(sizes, {24576, 524288, 8384512})

    def test_refusals(self):
        for bad in ("0", "100", "257", "-256", "4k", "", "2147483648"):
            with self.subTest(arg=bad):
                r = tool(bad)
                self.assertEqual(r.returncode, 2, r.stdout)
                self.assertIn("BYTES is a multiple of 256", r.stderr)
                self.assertEqual(r.stdout, "")
        r = tool(*["256"] * 17)
        self.assertEqual(r.returncode, 2)

    def test_closed_stdout(self):
        """A full stdout is status 3 and says so."""
        with open("/dev/full", "w") as full:
            r = subprocess.run([TOOL, "256"], stdout=full, stderr=subprocess.PIPE,
                               text=True, timeout=60)
        self.assertEqual(r.returncode, 3)
        self.assertIn("pagebench-store-value: stdout:", r.stderr)


if __name__ == "__main__":
    unittest.main()
