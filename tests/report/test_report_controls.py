"""Control characters from a log never reach the terminal: a machine's
name (an attachment's or a title's) and its brand may carry C0 and C1
controls (ESC, backspaces, the one-byte CSI U+009B); every text output of
pagebench-report shows them escaped as \\xNN (scripts/pbreport/output.py,
escape_controls)."""
import os
import re
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
TESTS = os.path.dirname(HERE)
ROOT = os.path.dirname(TESTS)
TOOL = os.path.join(ROOT, "scripts", "pagebench-report")
HOLD = os.path.join(TESTS, "fixtures", "verdict", "hold.log")
sys.path.insert(0, os.path.join(ROOT, "scripts"))

from pbreport.output import escape_controls  # noqa: E402

# ESC followed by a letter parse.py's ANSI_RE does not take for a
# sequence, so that it stays in the name; CSI as C1; backspaces.
ATTACH = "box\u009b2J\x1ba\x08\x08good"
TITLE = "rack\u009b31m"       # a title with C0 or DEL is no title (parse.py)
BRAND = "\u009b31mRED\x08\x08\x08"
RAW = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]")


GROUPS = ("fast", "report")


class Controls(unittest.TestCase):
    GROUPS = ("report",)

    @classmethod
    def setUpClass(cls):
        with open(HOLD, encoding="utf-8") as f:
            log = f.read()
        branded = log.replace("(PB) brand: ", "(PB) brand: " + BRAND, 1)
        assert branded != log
        cls.tmp = tempfile.TemporaryDirectory()
        cls.path = os.path.join(cls.tmp.name, "controls.log")
        with open(cls.path, "w", encoding="utf-8") as f:
            f.write("[-- Attachment #1: %s --]\n%s%s:\n%s" % (ATTACH, branded, TITLE, branded))

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def report(self, *args):
        r = subprocess.run([TOOL] + list(args) + [self.path], capture_output=True,
                           encoding="utf-8", timeout=300)
        self.assertEqual(r.returncode, 0, r.stderr)
        return r.stdout

    def test_escape_controls(self):
        self.assertEqual(escape_controls("a\x1b[1m\u009bb\x08\x7f\tc\nd\re\u00e9"),
                         "a\\x1b[1m\\x9bb\\x08\\x7f\tc\nd\\x0de\u00e9")

    def test_every_text_output(self):
        names = [escape_controls(ATTACH), escape_controls(TITLE)]
        for cmd in ("summary", "winners", "verdict", "diff", "claims"):
            with self.subTest(cmd=cmd):
                out = self.report(cmd)
                self.assertIsNone(RAW.search(out), "a raw control in %s" % cmd)
                for name in names:
                    self.assertIn(name, out)
        self.assertIn(escape_controls(BRAND), self.report("summary"))

    def test_the_names_are_read_as_written(self):
        """JSON keeps the name itself (its own escapes)."""
        import json
        v = json.loads(self.report("verdict", "--json"))
        self.assertEqual([m["machine"] for m in v["machines"]], [ATTACH, TITLE])


if __name__ == "__main__":
    unittest.main()
