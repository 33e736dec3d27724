"""Bad input cannot make scripts/pagebench-report slow or large.

These tests check behaviour, never time: that the work done per line is
bounded (counted, not timed), that over-long lines and inputs are cut and
the cut is reported, and that peak memory follows the data kept.
scripts/bench-report-parse shows the time figures.
"""
import os
import resource
import subprocess
import sys
import tempfile
import unittest

sys.dont_write_bytecode = True
HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
TOOL = os.path.join(ROOT, "scripts", "pagebench-report")
sys.path.insert(0, os.path.join(ROOT, "scripts"))

from pbreport import parse as P  # noqa: E402

HEADER = (b"(PB) erms=1 fsrm=0 fzrm=0 fsrs=0 fsrcs=0 l1d=32k l2=256k\n"
          b"(PB) pagebench version=test\n"
          b"(PB) plan suite=clear reps=1 passes=l1\n"
          b"(PB) L1 w/o flush:\n")


def run_tool(*args, stdin=None, limit_as=None):
    env = dict(os.environ, PYTHONDONTWRITEBYTECODE="1")

    def limit():
        if limit_as:
            resource.setrlimit(resource.RLIMIT_AS, (limit_as, limit_as))
    r = subprocess.run([sys.executable, TOOL] + list(args), input=stdin,
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       env=env, timeout=600, preexec_fn=limit)
    return r.returncode, r.stdout.decode("utf-8", "replace"), \
        r.stderr.decode("utf-8", "replace")


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
            ms, diags = P.read_bytes(data, "t.log")
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


if __name__ == "__main__":
    unittest.main()
