"""A filter of scripts/pagebench-report that names what matches nothing is
a usage error (status 2) that lists what the input has. Before,
--strings-variants nosuch was ignored and --machine nosuch said "no
usable data"."""
import os
import subprocess
import sys
import unittest

sys.dont_write_bytecode = True
HERE = os.path.dirname(os.path.abspath(__file__))
TESTS = os.path.dirname(HERE)
TOOL = os.path.join(os.path.dirname(TESTS), "scripts", "pagebench-report")
FIX = os.path.join(TESTS, "fixtures", "report")
COLLECTION = os.path.join(FIX, "xen-collection.log")
STRINGS = os.path.join(FIX, "pb-strings-epyc-linux.log")
PREFIX = "pagebench-report: error: "


def run(*args):
    env = dict(os.environ, PYTHONDONTWRITEBYTECODE="1")
    r = subprocess.run([sys.executable, TOOL] + list(args),
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       env=env, timeout=300, universal_newlines=True)
    return r.returncode, r.stdout, r.stderr


def last_line(text):
    return text.splitlines()[-1] if text else ""


GROUPS = ("fast", "report")


class FilterNamesTest(unittest.TestCase):
    GROUPS = ("report",)

    def test_machine_matching_nothing(self):
        for cmd in ("summary", "winners", "diff", "html"):
            rc, out, err = run(cmd, "-q", "--machine", "nosuch", COLLECTION)
            with self.subTest(cmd=cmd):
                self.assertEqual((rc, out), (2, ""))
                self.assertEqual(last_line(err), PREFIX +
                                 "--machine 'nosuch' matches no machine; the "
                                 "machines with data are: Aorus (Skylake), "
                                 "Latitude E6410 (Sandybridge), zen2-3700x.txt")

    def test_each_machine_pattern_must_match(self):
        rc, _, err = run("winners", "-q", "--machine", "aorus", "--machine",
                         "nosuch", COLLECTION)
        self.assertEqual(rc, 2)
        self.assertIn("--machine 'nosuch' matches no machine", err)
        rc, out, _ = run("winners", "-q", "--machine", "aorus", COLLECTION)
        self.assertEqual(rc, 0)
        self.assertIn("Aorus", out)

    def test_strings_variant_matching_nothing(self):
        rc, out, err = run("summary", "-q", "--strings-variants",
                           "stosb,nosuch", STRINGS)
        self.assertEqual((rc, out), (2, ""))
        self.assertEqual(last_line(err), PREFIX +
                         "--strings-variants: no suite=strings variant named "
                         "'nosuch'; the input has: stosb, stosb_br, stosq, "
                         "stosq_br, stosl, orig, avx_t, avx512_t, movsb, "
                         "movsb_br, movsq, movsq_br")

    def test_strings_variants_without_strings(self):
        rc, _, err = run("summary", "-q", "--strings-variants", "stosb",
                         COLLECTION)
        self.assertEqual(rc, 2)
        self.assertEqual(last_line(err), PREFIX + "--strings-variants stosb: "
                         "the input has no suite=strings variants")
        rc, _, err = run("summary", "-q", "--strings-variants", ",", STRINGS)
        self.assertEqual(rc, 2)
        self.assertIn("no names in it", err)

    def test_known_names_still_select(self):
        rc, out, err = run("summary", "-q", "--strings-variants",
                           "stosb,stosq", STRINGS)
        self.assertEqual(rc, 0, err)
        self.assertIn("leader: ", out)
        self.assertNotIn("movsb", out.split("-- strings")[1])


if __name__ == "__main__":
    unittest.main()
