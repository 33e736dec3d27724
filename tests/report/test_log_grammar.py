"""The log grammar is data (scripts/pbreport/log_grammar.py): the parser
is built from it, and docs/log-format.md's tables are written from it by
scripts/docs-grammar. These tests hold the docs to the data and check
that the writer notices a stale or missing table."""
import os
import shutil
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
TESTS = os.path.dirname(HERE)
REPO = os.path.dirname(TESTS)
TOOL = os.path.join(REPO, "scripts", "docs-grammar")
sys.path.insert(0, os.path.join(REPO, "scripts"))
from pbreport import grammar, log_grammar  # noqa: E402


def run(*args):
    return subprocess.run([TOOL] + list(args), stdout=subprocess.PIPE,
                          stderr=subprocess.STDOUT, text=True)


GROUPS = ("fast", "house")

class LogGrammar(unittest.TestCase):
    def test_docs_tables_are_the_datas(self):
        r = run("--check")
        self.assertEqual(r.returncode, 0, r.stdout)

    def test_parser_is_built_from_the_data(self):
        self.assertEqual(grammar.KINDS, [k for k, _, _, _ in log_grammar.LINE_TYPES])
        self.assertEqual(len(set(grammar.KINDS)), len(grammar.KINDS),
                         "a kind named twice")
        self.assertEqual(list(grammar.PASS_HEADERS),
                         [p for p, _, _ in log_grammar.PASSES])

    def test_stale_table_is_found_and_rewritten(self):
        tmp = tempfile.mkdtemp()
        self.addCleanup(shutil.rmtree, tmp)
        doc = os.path.join(tmp, "log-format.md")
        with open(os.path.join(REPO, "docs", "log-format.md"), encoding="utf-8") as f:
            text = f.read()
        kind = log_grammar.LINE_TYPES[0][0]
        with open(doc, "w", encoding="utf-8") as f:
            f.write(text.replace("| `%s` |" % kind, "| `%s_edited` |" % kind, 1))
        r = run("--check", doc)
        self.assertEqual(r.returncode, 1, r.stdout)
        self.assertIn("table line-types differs", r.stdout)
        self.assertEqual(run(doc).returncode, 0)
        self.assertEqual(run("--check", doc).returncode, 0)
        with open(doc, encoding="utf-8") as f:
            self.assertEqual(f.read(), text)

    def test_missing_block_is_an_error(self):
        tmp = tempfile.mkdtemp()
        self.addCleanup(shutil.rmtree, tmp)
        doc = os.path.join(tmp, "log-format.md")
        with open(doc, "w", encoding="utf-8") as f:
            f.write("<!-- grammar: passes -->\n| x |\n<!-- end grammar -->\n")
        r = run("--check", doc)
        self.assertEqual(r.returncode, 2)
        self.assertIn("no block for tables line-types, old-names", r.stdout)


if __name__ == "__main__":
    unittest.main()
