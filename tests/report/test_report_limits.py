"""Bad input cannot make scripts/pagebench-report slow or large.

These tests check behaviour, never time: that the work done per line is
bounded (counted, not timed), that over-long lines and inputs are cut and
the cut is reported, and that peak memory follows the data kept.
scripts/bench-report-parse shows the time figures.
"""
import contextlib
import importlib.machinery
import importlib.util
import io
import os
import resource
import subprocess
import sys
import tempfile
import unittest

sys.dont_write_bytecode = True
HERE = os.path.dirname(os.path.abspath(__file__))
TESTS = os.path.dirname(HERE)
ROOT = os.path.dirname(TESTS)
sys.path.insert(0, os.path.join(ROOT, "scripts"))
sys.path.insert(0, os.path.join(TESTS, "lib"))
import report_tool  # noqa: E402
from report_tool import TOOL  # noqa: E402

from pbreport import parse as P  # noqa: E402
from pbreport import cli  # noqa: E402
from pbreport import fleet as F  # noqa: E402

HEADER = (b"(PB) erms=1 fsrm=0 fzrm=0 fsrs=0 fsrcs=0 l1d=32k l2=256k\n"
          b"(PB) pagebench version=test\n"
          b"(PB) plan suite=clear reps=1 passes=l1\n"
          b"(PB) L1 w/o flush:\n")


def run_tool(*args, stdin=None, limit_as=None):
    def limit():
        if limit_as:
            resource.setrlimit(resource.RLIMIT_AS, (limit_as, limit_as))
    return report_tool.run_tool(*args, stdin=stdin, timeout=600,
                                preexec_fn=limit)


GROUPS = ("fast", "report")


class CountingRegex:
    """Stands in for a compiled expression and counts match calls."""

    def __init__(self, rx, counter):
        self.rx, self.counter = rx, counter

    def match(self, *args):
        self.counter[0] += 1
        return self.rx.match(*args)


class TagScanTest(unittest.TestCase):
    def counted(self, data):
        calls = [0]
        saved = P.LINE_TYPES
        P.LINE_TYPES = [(k, CountingRegex(rx, calls)) for k, rx in saved]
        try:
            # No line cut: the scan itself must be bounded.
            ms, diags = P.read_bytes(data, "t.log", max_line=1 << 20)
        finally:
            P.LINE_TYPES = saved
        return ms, diags, calls[0]

    def test_tags_tried_per_line_are_bounded(self):
        # A line of 10000 tags: each one was a place to try every line
        # type on the rest of the line, which made the scan quadratic.
        _, diags, calls = self.counted(b"(PB) " * 10000 + b"\n")
        kinds = len(P.LINE_TYPES)
        self.assertLessEqual(calls, 2 * kinds * P.MAX_TAG_TRIES)
        self.assertEqual(len(diags), 1)
        self.assertEqual(diags[0].reason,
                         "tagged line of unknown form (tried the first %d "
                         "of its 10000 tags)" % P.MAX_TAG_TRIES)

    def test_noise_tags_before_the_line_still_read(self):
        # Garbled serial output can put a few tags before the real line.
        noise = b"(PB) (XEN) " * ((P.MAX_TAG_TRIES - 1) // 2)
        ms, diags, _ = self.counted(
            HEADER + noise + b"(PB)  pre=1 stosb=2 post=3\n(PB) done: 0 failures\n")
        p = ms[0].passes[("clear", "L1 w/o flush")]
        self.assertEqual([(s.pre, s.ticks, s.post) for s in p.samples],
                         [(1, 2, 3)])
        self.assertEqual([d.kind for d in diags], ["warning"])
        self.assertIn("noise before the tag", diags[0].reason)



def samples(ms):
    return [(m.name, p.key, s.variant, s.pre, s.ticks, s.post, s.line)
            for m in ms for p in m.ordered_passes() for s in p.samples]


PBREPORT = os.path.join(ROOT, "scripts", "pbreport") + os.sep


def work(fn, *args):
    """fn(*args) and the number of lines of scripts/pbreport it ran: a
    count of the steps taken, the same on every machine, unlike a time."""
    steps = [0]

    def local(frame, event, arg):
        if event == "line":
            steps[0] += 1
        return local

    def tracer(frame, event, arg):
        if frame.f_code.co_filename.startswith(PBREPORT):
            return local
        return None
    sys.settrace(tracer)
    try:
        out = fn(*args)
    finally:
        sys.settrace(None)
    return out, steps[0]


def report_of(argv, data):
    """What cli.run prints for argv with data as the one LOG (twice for
    diff)."""
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "t.log")
        with open(path, "wb") as fh:
            fh.write(data)
        logs = [path, path] if argv[0] == "diff" else [path]
        out = io.StringIO()
        with contextlib.redirect_stdout(out), \
                contextlib.redirect_stderr(io.StringIO()):
            rc = cli.run(argv + logs)
        return rc, out.getvalue()


COMMANDS = (["summary"], ["winners"], ["diff"], ["diff", "--relative"],
            ["html", "--relative"], ["export", "--format", "csv"],
            ["export", "--format", "json"], ["export", "--format", "benchfmt"])

STRINGS_HEADER = (b"(PB) pagebench version=test\n"
                  b"(PB) plan suite=strings reps=3 passes=none\n"
                  b"(PB) strings memset tput dst=0:\n"
                  b"(PB) strings overhead calls=256 min=1 median=1 n=3\n")


def figures(i):
    return b"min=%d.00 median=%d.50 all=%d.00,%d.50,%d.90" % (
        (i % 7 + 1,) * 5)


class GrowthTest(unittest.TestCase):
    """Twice the input takes about twice the steps, not four times, in
    every subcommand."""
    GROUPS = ("report",)

    def assertLinear(self, make, n=200):
        for argv in COMMANDS:
            (small_out, small), (large_out, large) = (
                work(report_of, argv, make(k)) for k in (n, 2 * n))
            with self.subTest(argv=argv):
                self.assertEqual((small_out[0], large_out[0]), (0, 0))
                self.assertLess(large / small, 2.5, "steps %d for n=%d, %d "
                                "for n=%d" % (small, n, large, 2 * n))

    def test_one_new_variant_per_line(self):
        # Each variant's figures were picked out of all the pass's
        # samples, and a ratio to the best variant ranked them all again.
        self.assertLinear(lambda n: HEADER + b"".join(
            b"(PB)  pre=200 v%d=%x post=190\n" % (i, 0x900 + i % 97)
            for i in range(n)) + b"(PB) done: 0 failures\n")

    def test_many_samples_of_a_few_variants(self):
        self.assertLinear(lambda n: HEADER + b"".join(
            b"(PB)  pre=200 v%d=%x post=190\n" % (i % 3, 0x900 + i % 97)
            for i in range(n)) + b"(PB) done: 0 failures\n")

    def test_strings_variants(self):
        self.assertLinear(lambda n: STRINGS_HEADER + b"".join(
            b"(PB)  v%d n=64 %s\n" % (i, figures(i)) for i in range(n))
            + b"(PB) done: 0 failures\n")

    def test_strings_sizes(self):
        self.assertLinear(lambda n: STRINGS_HEADER + b"".join(
            b"(PB)  v%d n=%d %s\n" % (i % 2, i // 2, figures(i))
            for i in range(n)) + b"(PB) done: 0 failures\n")


def bench():
    """scripts/bench-report-parse as a module: its way of measuring a
    run's peak memory, and its input shapes."""
    loader = importlib.machinery.SourceFileLoader(
        "bench_report_parse", os.path.join(ROOT, "scripts",
                                           "bench-report-parse"))
    spec = importlib.util.spec_from_loader(loader.name, loader)
    mod = importlib.util.module_from_spec(spec)
    loader.exec_module(mod)
    return mod


@unittest.skipUnless(os.path.exists("/proc/self/status"), "no /proc")
class MemoryTest(unittest.TestCase):
    GROUPS = ("report",)

    def test_export_memory_follows_the_samples(self):
        # export --format json built the whole document, and its text, in
        # memory: over 100 MB per MB of log. The samples themselves are
        # columns of numbers (parse.Pass); every format now streams.
        b = bench()
        with tempfile.TemporaryDirectory() as tmp:
            logs = []
            for mb in (1, 2):
                logs.append(os.path.join(tmp, "%d.log" % mb))
                b.write_shape(logs[-1], "log", mb << 20)
            for fmt in ("json", "csv", "benchfmt"):
                got = [b.run_once(TOOL, ["export", "-q", "--format", fmt,
                                         "-o", os.devnull, path], 600, tmp)
                       for path in logs]
                with self.subTest(fmt=fmt):
                    self.assertEqual([rc for _, _, rc in got], [0, 0])
                    per_mb = (got[1][1] - got[0][1]) / 1.048576
                    self.assertLess(per_mb, 30, "peak RSS %.0f MB for 1 MiB, "
                                    "%.0f MB for 2 MiB" % (got[0][1],
                                                           got[1][1]))
                    # The figure measures something: twice the samples
                    # take more memory.
                    self.assertGreater(per_mb, 1)


@unittest.skipUnless(os.path.exists("/proc/self/status"), "no /proc")
class LargeLogMemory(unittest.TestCase):
    """verdict and summary hold at most about three times their input
    (issue 38: a 200 MB log took 1.6 GB): on a 50 MiB log made of the logs
    in tests/fixtures/real/ over and over (answer lines, value lines of logs without
    them, which pagebench-decide decides, suite=strings and suite=scrub),
    the peak resident memory of each is at most 3 bytes a byte read, and
    the interpreter's own 32 MiB. Arithmetic on the process, not on the
    CPU's speed: no time is asserted."""
    # Not in fast: it reads 50 MiB twice, about 45 s.
    GROUPS = ("report",)
    SIZE = 50 << 20

    def test_verdict_and_summary(self):
        b = bench()
        real = os.path.join(ROOT, "tests", "fixtures", "real")
        logs = sorted(os.path.join(real, n) for n in os.listdir(real) if n.endswith(".log"))
        with tempfile.TemporaryDirectory() as tmp:
            path, size = os.path.join(tmp, "large.log"), 0
            with open(path, "wb") as out:
                while size < self.SIZE:
                    for log in logs:
                        with open(log, "rb") as f:
                            data = f.read()
                        out.write(data)
                        size += len(data)
            limit_mb = (3 * size + (32 << 20)) / 1e6
            for cmd in ("verdict", "summary"):
                with self.subTest(cmd=cmd):
                    _, peak_mb, rc = b.run_once(TOOL, [cmd, "-q", path], 900, tmp)
                    self.assertEqual(rc, 0)
                    self.assertLess(peak_mb, limit_mb, "%s: peak RSS %.0f MB for a %.0f MB "
                                    "log" % (cmd, peak_mb, size / 1e6))


class CompactColumnsTest(unittest.TestCase):
    """The parser keeps figures in 32 bits where they fit and widens a
    column, without loss, where one does not: the memory saving changes no
    figure."""
    GROUPS = ("fast", "report")

    def test_a_column_widens(self):
        col = P.array("I", [1, 2])
        col = P.put(col, 1 << 40)
        self.assertEqual((col.typecode, list(col)), ("Q", [1, 2, 1 << 40]))
        col = P.put(P.array("i", [3]), -1)
        self.assertEqual((col.typecode, list(col)), ("i", [3, -1]))
        col = P.put(P.array("i", [3]), 1 << 33)
        self.assertEqual((col.typecode, list(col)), ("q", [3, 1 << 33]))
        col = P.put(P.array("I", [3]), -1)
        self.assertEqual((col.typecode, list(col)), ("q", [3, -1]))

    def test_large_figures_survive(self):
        data = (HEADER + b"(PB)  pre=1 stosb=%x post=3\n" % (1 << 40)
                + b"(PB)  pre=4 stosb=5 post=%x\n(PB) done: 0 failures\n" % (1 << 63))
        ms, _ = P.read_bytes(data, "t.log")
        p = ms[0].passes[("clear", "L1 w/o flush")]
        self.assertEqual(list(p.column("stosb", "ticks")), [1 << 40, 5])
        self.assertEqual(list(p.column("stosb", "post")), [3, 1 << 63])

    def test_hundredths_are_the_printed_decimals(self):
        text = "-0.05,0.00,17.67,20.42,99999999999.99"
        got = P.hundredths(text)
        self.assertEqual(list(got), [-5, 0, 1767, 2042, 9999999999999])
        self.assertEqual(got.typecode, "q")
        self.assertEqual([c / 100 for c in got], [float(x) for x in text.split(",")])
        self.assertEqual(P.hundredths("1.00,2.50").typecode, "i")


class LimitsTest(unittest.TestCase):
    GROUPS = ("report",)

    def test_long_line_cut_and_said(self):
        data = (HEADER + b"(PB)  pre=1 stosb=2 post=3" + b" " * 9974 + b"\n"
                + b"(PB)  pre=4 stosb=5 post=6\n(PB) done: 0 failures\n")
        ms, diags = P.read_bytes(data, "t.log")
        self.assertEqual([str(d) for d in diags], [
            "t.log:5: cut: a line of 10000 bytes; read its first 4096 "
            "(--max-line)",
            "t.log:5: skipped: cut off (no line end); values may be "
            "incomplete"])
        # The cut line's figures are not taken; the next line's are.
        self.assertEqual([s[3:6] for s in samples(ms)], [(4, 5, 6)])

    def test_cut_inside_a_utf8_sequence(self):
        data = b"(PB) brand: " + "\u00e9".encode() * 3000 + b"\n"
        _, diags = P.read_bytes(data, "t.log")
        self.assertEqual([d.kind for d in diags], ["cut", "skip"])
        # Not "binary garbage": the cut did not leave half a character.
        self.assertEqual(diags[1].reason,
                         "cut off (no line end); values may be incomplete")

    def test_input_cut_and_said(self):
        data = HEADER + b"(PB)  pre=1 stosb=2 post=3\n" * 100
        ms, diags = P.read_bytes(data, "t.log", max_input=len(HEADER) + 27 * 10)
        self.assertEqual(len(samples(ms)), 10)
        self.assertIn("t.log:15: cut: the input is longer than %d bytes "
                      "(--max-input); the rest is not read"
                      % (len(HEADER) + 270), [str(d) for d in diags])

    def test_input_of_exactly_the_limit_is_not_cut(self):
        data = HEADER + b"(PB)  pre=1 stosb=2 post=3\n"
        _, diags = P.read_bytes(data, "t.log", max_input=len(data))
        self.assertNotIn("cut", [d.kind for d in diags])

    def test_chunk_boundaries_change_nothing(self):
        # Lines split across reads must come out as whole lines.
        fixtures = os.path.join(TESTS, "fixtures", "report")
        saved = P.READ_CHUNK
        for name in sorted(os.listdir(fixtures)):
            if not name.endswith(".log"):
                continue
            with open(os.path.join(fixtures, name), "rb") as fh:
                data = fh.read()
            want = P.read_bytes(data, name)
            for chunk in (1, 7, 4096):
                P.READ_CHUNK = chunk
                try:
                    got = P.read_bytes(data, name)
                finally:
                    P.READ_CHUNK = saved
                with self.subTest(name=name, chunk=chunk):
                    self.assertEqual(samples(got[0]), samples(want[0]))
                    self.assertEqual([str(d) for d in got[1]],
                                     [str(d) for d in want[1]])

    def test_pdsh_stream_read_as_it_comes(self):
        # fleet reads pdsh/clush streams host by host; it read each input
        # whole before, so a stream had no limit.
        path = os.path.join(TESTS, "fixtures", "verdict", "pdsh.log")
        want = F.load([path])
        saved = P.READ_CHUNK
        P.READ_CHUNK = 7
        try:
            got = F.load([path])
        finally:
            P.READ_CHUNK = saved
        self.assertEqual([m.name for m in got[0]], ["nodea", "nodeb"])
        self.assertEqual(samples(got[0]), samples(want[0]))
        self.assertEqual([str(d) for d in got[1]], [str(d) for d in want[1]])
        with open(path, "rb") as fh:
            data = fh.read()
        data = data.replace(b"nodeb: (PB) hypervisor: none\n",
                            b"nodeb: (PB) hypervisor: " + b"x" * 5000 + b"\n")
        with tempfile.TemporaryDirectory() as tmp:
            long_path = os.path.join(tmp, "pdsh.log")
            with open(long_path, "wb") as fh:
                fh.write(data)
            ms, diags = F.load([long_path])
        self.assertEqual(samples(ms), samples(want[0]))
        # The host's line, without its "nodeb: " prefix.
        self.assertIn("%s[nodeb]:8: cut: a line of 5017 bytes; read its "
                      "first 4096 (--max-line)" % long_path,
                      [str(d) for d in diags])

    def test_reports_per_input_are_bounded(self):
        # Every other line a new reason: no two skips merge into a range.
        lines = [b"noise %d" % i if i % 2 else b"(PB) unknown %d" % i
                 for i in range(5000)]
        _, diags = P.read_bytes(b"\n".join(lines) + b"\n", "t.log")
        self.assertEqual(len(diags), P.MAX_DIAGS + 1)
        self.assertEqual(str(diags[-1]),
                         "t.log:5000: warning: not listed: %d more skipped "
                         "lines (only the first %d reports of an input are)"
                         % (5000 - P.MAX_DIAGS, P.MAX_DIAGS))

    def test_options_and_quiet(self):
        log = os.path.join(TESTS, "fixtures", "report", "pb-skylake-clear-a.log")
        rc, out, err = run_tool("winners", "-q", "--max-input", "2k", log)
        # -q hides the skipped line the cut leaves, not the cut.
        self.assertEqual(rc, 0, err)
        self.assertEqual(err, "pagebench-report: %s:55: cut: the input is "
                         "longer than 2048 bytes (--max-input); the rest is "
                         "not read\n" % log)
        self.assertIn("stosb_all", out)
        for bad in ("0", "-1", "1T", "k"):
            rc, _, err = run_tool("summary", "--max-line", bad, log)
            self.assertEqual(rc, 2, bad)
            self.assertIn("not a size in bytes", err)

    def test_cuts_beyond_the_list_are_counted_as_a_cut(self):
        # Each line gives a cut; their skips (one reason) merge into one.
        lines = [b"x" * 5000] * (P.MAX_DIAGS + 5)
        _, diags = P.read_bytes(b"\n".join(lines) + b"\n", "t.log")
        self.assertEqual([d.kind for d in diags].count("skip"), 1)
        self.assertEqual(diags[-1].kind, "cut")
        self.assertEqual(diags[-1].reason, "not listed: 6 more cut lines "
                         "(only the first %d reports of an input are)"
                         % P.MAX_DIAGS)

    def test_dev_zero_ends_within_its_memory(self):
        # Read until MemoryError before inputs had a limit. Here the
        # process may use 400 MB; the input stops at the default limit.
        if not os.path.exists("/dev/zero"):
            self.skipTest("no /dev/zero")
        rc, out, err = run_tool("summary", "/dev/zero", limit_as=400 << 20)
        self.assertEqual(rc, 1, err)
        self.assertEqual(err.splitlines(), [
            "pagebench-report: /dev/zero:1: cut: a line of %d bytes or "
            "more; read its first %d (--max-line)" % (P.MAX_INPUT,
                                                      P.MAX_LINE),
            "pagebench-report: /dev/zero:1: cut: the input is longer than "
            "%d bytes (--max-input); the rest is not read" % P.MAX_INPUT,
            "pagebench-report: no usable data found"])


if __name__ == "__main__":
    unittest.main()
