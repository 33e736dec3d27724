"""Every example output in README.md and docs/ is made by a command run
here, or is log lines the grammar accepts (scripts/docs-examples): the
docs are current, and the check fails, naming file, line and diff, when
a block is stale, a log line does not parse, or a block of log lines has
no marker."""
import os
import shutil
import subprocess
import sys
import tempfile
import unittest

TESTS = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
ROOT = os.path.dirname(TESTS)
SCRIPT = os.path.join(ROOT, "scripts", "docs-examples")
LOG = "tests/fixtures/real/epyc-linux-cpu-scrub-2026-11-30.log"
CMD = "scripts/pagebench-report winners " + LOG


def docs_examples(*args):
    r = subprocess.run([sys.executable, SCRIPT] + list(args), stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, encoding="utf-8", timeout=600,
                       env=dict(os.environ, PYTHONDONTWRITEBYTECODE="1"))
    return r.returncode, r.stdout + r.stderr


GROUPS = ("fast", "house")


class DocsExamples(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.mkdtemp(prefix="docs-examples-")
        self.addCleanup(shutil.rmtree, self.tmp)

    def doc(self, text):
        path = os.path.join(self.tmp, "doc.md")
        with open(path, "w", encoding="utf-8") as f:
            f.write(text)
        return path

    def test_docs_are_current(self):
        rc, out = docs_examples()
        self.assertEqual(rc, 0, out)
        last = out.strip().splitlines()[-1].split()
        # Not vacuous: the README's answer and log-format.md's lines are checked.
        self.assertGreaterEqual(int(last[1]), 1, out)
        self.assertGreaterEqual(int(last[4]), 10, out)

    def test_stale_block_fails_with_file_line_and_diff(self):
        r = subprocess.run(CMD.split(), cwd=ROOT, stdout=subprocess.PIPE, encoding="utf-8")
        self.assertEqual(r.returncode, 0)
        lines = [l.rstrip() for l in r.stdout.rstrip().split("\n")]
        stale = lines[:]
        stale[1] = stale[1] + " (old)"
        body = "".join("    %s\n" % l if l else "\n" for l in stale)
        path = self.doc("# T\n\nIt prints:\n\n<!-- example: %s -->\n%s\nAfter.\n" % (CMD, body))
        rc, out = docs_examples(path)
        self.assertEqual(rc, 1, out)
        self.assertIn("%s:6: stale example of `%s`" % (path, CMD), out)
        self.assertIn("\n-%s (old)\n+%s\n" % (lines[1], lines[1]), out)

        os.chmod(path, 0o644)
        rc, out = docs_examples("--update", path)
        self.assertEqual(rc, 0, out)
        self.assertIn("%s:6: updated" % path, out)
        self.assertEqual(os.stat(path).st_mode & 0o777, 0o644)
        self.assertEqual(os.listdir(self.tmp), ["doc.md"])
        with open(path, encoding="utf-8") as f:
            text = f.read()
        want = "".join("    %s\n" % l if l.strip() else "\n" for l in lines)
        self.assertEqual(text, "# T\n\nIt prints:\n\n<!-- example: %s -->\n%s\nAfter.\n"
                         % (CMD, want))
        self.assertEqual(docs_examples(path)[0], 0)

    def test_fenced_block_in_a_list_item(self):
        # scripts/version: a cheap command (git describe) of one line.
        path = self.doc("- item:\n\n  <!-- example: scripts/version -->\n  ```\n  old\n  ```\n")
        self.assertEqual(docs_examples(path)[0], 1)
        rc, out = docs_examples("--update", path)
        self.assertEqual(rc, 0, out)
        with open(path, encoding="utf-8") as f:
            text = f.read().split("\n")
        self.assertEqual(text[3], "  ```")
        self.assertNotIn("  old", text)
        self.assertEqual(docs_examples(path)[0], 0)

    def test_grammar_block(self):
        good = "<!-- grammar example -->\n    (PB) runtime ms=251 ticks=0x26e061fa\n    ...\n"
        self.assertEqual(docs_examples(self.doc(good))[0], 0)
        bad = good + "    (PB) runtime in no documented shape\n"
        rc, out = docs_examples(self.doc(bad))
        self.assertEqual(rc, 1, out)
        self.assertIn("doc.md:4: no line type of docs/log-format.md matches it", out)
        rc, out = docs_examples(self.doc("<!-- grammar example -->\n    ...\n"))
        self.assertIn("no log line in a grammar example", out)

    def test_log_lines_need_a_marker(self):
        rc, out = docs_examples(self.doc("Text:\n\n    (PB) runtime ms=251 ticks=0x26e061fa\n"))
        self.assertEqual(rc, 1, out)
        self.assertIn("doc.md:3: log lines in a block with no marker", out)

    def test_bad_markers(self):
        for text, why in [
                ("<!-- example: %s -->\nNo block.\n" % CMD, "doc.md:1: marker with no"),
                ("<!-- example: %s -->\n    x\n" % os.path.join("scripts", "no-such"),
                 "no such program in the tree"),
                ("<!-- example: scripts/pagebench-report verdict no-such.log -->\n    x\n",
                 "exited 3")]:
            rc, out = docs_examples(self.doc(text))
            self.assertEqual(rc, 1, out)
            self.assertIn(why, out)
        self.assertEqual(docs_examples(os.path.join(self.tmp, "none.md"))[0], 2)


if __name__ == "__main__":
    unittest.main()
