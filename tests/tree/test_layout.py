"""The tree keeps the layer rules of tests/lib/layers.py (docs/hacking.md's
Layout table is written from them): includes and symbol references point
down, nothing goes in a circle, folders stay small, and every path a
comment names exists. tests/lib/layout.py does the reading; each check is also
shown to fail on a tree built to break it."""
import os
import shutil
import subprocess
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "lib"))
import layout  # noqa: E402


GROUPS = ("fast", "house")


class TreeKeepsTheLayout(unittest.TestCase):
    # Reading every object's symbols takes 20 s of -g fast's two minutes.
    GROUPS = ("house",)

    @classmethod
    def setUpClass(cls):
        cls.files = layout.tracked_files()
        cls.table = layout.read_table()
        cls.includes, cls.unresolved = layout.include_edges(cls.files)
        cls.refs, cls.missing = layout.object_edges()

    def test_objects_are_built(self):
        self.assertEqual(self.missing, [], "run make first")
        self.assertGreater(len(self.refs), 100, "too few references read")

    def test_every_folder_is_in_the_table(self):
        self.assertEqual(layout.unlisted_folders(self.table, self.files), [])

    def test_every_include_resolves(self):
        self.assertEqual(self.unresolved, [])
        self.assertGreater(len(self.includes), 200, "too few includes read")

    def test_includes_point_down(self):
        bad = layout.layer_violations(self.table,
                                      [(a, b, "") for a, b in self.includes])
        self.assertEqual(["%s -> %s" % (a, b) for a, b, _ in bad], [])

    def test_references_point_down(self):
        bad = layout.layer_violations(self.table, self.refs)
        self.assertEqual(["%s -> %s (%s)" % e for e in bad], [])

    def test_no_include_cycle(self):
        self.assertEqual(layout.cycles(self.includes), [])

    def test_no_include_cycle_between_modules(self):
        """x.c and x.h as one: suite.h -> plan.h, plan.c -> strings.h ->
        suite.h was such a cycle."""
        self.assertEqual(layout.cycles(layout.module_edges(self.includes)), [])

    def test_no_reference_cycle(self):
        self.assertEqual(layout.cycles([(a, b) for a, b, _ in self.refs]), [])

    def test_the_table_itself_has_no_cycle(self):
        self.assertEqual(layout.table_cycles(self.table), [])

    def test_no_folder_is_crowded(self):
        self.assertEqual(layout.crowded_folders(self.files), [])

    def test_named_paths_exist(self):
        bad = layout.named_paths()
        self.assertEqual(["%s:%d names %s" % b for b in bad], [])

    def test_doc_links_resolve(self):
        """README and docs/ link to each other by relative paths and
        headings; a moved section must take its links along."""
        bad = layout.broken_links()
        self.assertEqual(["%s:%d links to %s: %s" % b for b in bad], [])

    def test_harness_names_no_host(self):
        """The harness reaches a host only through harness/measure/host.h."""
        for a, b, sym in self.refs:
            if a.startswith(("lib/", "cpu/", "variants/", "harness/")):
                self.assertFalse(b.startswith(("kernel/", "linux/", "boot/")),
                                 "%s -> %s (%s)" % (a, b, sym))


class PythonImports(unittest.TestCase):
    """scripts/pbreport's modules import each other without a cycle, at
    the top of the module: an import inside a function hid two cycles
    (analysis <-> perbyte, strings <-> textout)."""

    def test_no_import_cycle(self):
        for pkg in layout.PY_PACKAGES:
            edges, _ = layout.python_imports(pkg)
            self.assertGreater(len(edges), 30, "too few imports read")
            self.assertEqual(layout.cycles(edges), [])

    def test_no_import_inside_a_function(self):
        for pkg in layout.PY_PACKAGES:
            _, hidden = layout.python_imports(pkg)
            self.assertEqual(["%s:%d %s" % h for h in hidden], [])

    def test_a_hidden_cycle_is_caught(self):
        with tempfile.TemporaryDirectory(dir=layout.REPO, prefix=".pb-layout-") as d:
            for name, text in (("a.py", "from . import b\n"),
                               ("b.py", "def f():\n    from .a import x\n"),
                               ("c.py", "import os\n")):
                with open(os.path.join(d, name), "w") as f:
                    f.write(text)
            edges, hidden = layout.python_imports(os.path.relpath(d, layout.REPO))
        self.assertEqual(layout.cycles(edges), [["a", "b"]])
        self.assertEqual(hidden, [("b", 2, "a")])


class ChecksCanFail(unittest.TestCase):
    """Each check, on edges and files made to break it."""

    TABLE = {"lib": set(), "cpu": {"lib"}, "kernel": {"cpu", "lib"}}
    STALE = "kernel" + "/no_such_file.c"	# split, or this file would name it

    def test_an_upward_include_is_caught(self):
        bad = layout.layer_violations(self.TABLE, [("lib/out.c", "cpu/cpu.h", "")])
        self.assertEqual(len(bad), 1)

    def test_a_header_admits_itself_and_its_c_only(self):
        """A row may name one header of another folder: its include, and
        references to its .c, pass; the folder's other files do not."""
        table = {"low": {"up/iface.h"}, "up": set()}
        self.assertEqual(layout.layer_violations(
            table, [("low/a.c", "up/iface.h", ""), ("low/a", "up/iface", "f")]), [])
        bad = layout.layer_violations(
            table, [("low/a.c", "up/other.h", ""), ("low/a", "up/other", "g")])
        self.assertEqual([b for _, b, _ in bad], ["up/other.h", "up/other"])

    def test_a_downward_include_passes(self):
        self.assertEqual(layout.layer_violations(
            self.TABLE, [("kernel/main.c", "cpu/cpu.h", ""),
                         ("cpu/cpu.c", "cpu/cpu.h", "")]), [])

    def test_a_cycle_is_caught(self):
        found = layout.cycles([("a", "b"), ("b", "c"), ("c", "a"), ("c", "d")])
        self.assertEqual(found, [["a", "b", "c"]])

    def test_a_module_cycle_is_caught(self):
        edges = [("a.h", "b.h"), ("b.c", "a.h")]
        self.assertEqual(layout.cycles(edges), [])
        self.assertEqual(layout.cycles(layout.module_edges(edges)), [["a", "b"]])

    def test_a_table_cycle_is_caught(self):
        self.assertEqual(layout.table_cycles({"x": {"y"}, "y": {"x"}}), [["x", "y"]])

    def test_an_unlisted_folder_is_caught(self):
        self.assertEqual(layout.unlisted_folders(self.TABLE, ["newdir/a.c", "lib" + "/a.c"]),
                         ["newdir"])

    def test_a_crowded_folder_is_caught(self):
        files = ["k/f%d.c" % i for i in range(layout.FOLDER_C_MAX + 1)]
        self.assertEqual(layout.crowded_folders(files), [("k", layout.FOLDER_C_MAX + 1)])

    def test_a_stale_path_is_caught(self):
        with tempfile.TemporaryDirectory(dir=layout.REPO, prefix=".pb-layout-") as d:
            rel = os.path.relpath(d, layout.REPO)
            name = os.path.join(rel, "x.c")
            with open(os.path.join(layout.REPO, name), "w") as f:
                f.write("/* see %s and lib/fmt.c */\n"
                        "#include <linux/module.h>\n" % self.STALE)
            bad = layout.named_paths([name])
        self.assertEqual([p for _, _, p in bad], [self.STALE])

    def test_a_broken_link_is_caught(self):
        with tempfile.TemporaryDirectory(dir=layout.REPO, prefix=".pb-layout-") as d:
            rel = os.path.relpath(d, layout.REPO)
            name = os.path.join(rel, "x.md")
            with open(os.path.join(layout.REPO, name), "w") as f:
                f.write("# A `b=c`: d\n## A `b=c`: d\n"
                        "[ok](#a-bc-d) [ok](#a-bc-d-1) [ok](../README.md) "
                        "[ok](https://example.org/x.md)\n"
                        "[bad](#nowhere) [bad](no-such.md) [bad](../README.md#nowhere)\n"
                        "    [in code](no-such.md)\n")
            bad = layout.broken_links([name])
        self.assertEqual([(line, target, why) for _, line, target, why in bad],
                         [(4, "#nowhere", "no such heading"),
                          (4, "no-such.md", "no such file"),
                          (4, "../README.md#nowhere", "no such heading")])

    def test_the_table_is_read(self):
        table = layout.read_table()
        self.assertEqual(table["lib"], set())
        self.assertIn("lib", table["cpu"])
        self.assertNotIn("kernel", table["harness"])


class LayerRulesAreData(unittest.TestCase):
    """The rules are tests/lib/layers.py; docs/hacking.md's Layout table is
    written from them by scripts/docs-layout, never read by code."""

    TOOL = os.path.join(layout.REPO, "scripts", "docs-layout")

    def run_tool(self, *args):
        return subprocess.run([self.TOOL] + list(args), stdout=subprocess.PIPE,
                              stderr=subprocess.STDOUT, text=True)

    def test_the_docs_table_is_the_rules(self):
        r = self.run_tool("--check")
        self.assertEqual(r.returncode, 0, r.stdout)

    def test_a_stale_table_is_found_and_rewritten(self):
        tmp = tempfile.mkdtemp()
        self.addCleanup(shutil.rmtree, tmp)
        doc = os.path.join(tmp, "hacking.md")
        with open(os.path.join(layout.REPO, "docs", "hacking.md"), encoding="utf-8") as f:
            text = f.read()
        with open(doc, "w", encoding="utf-8") as f:
            f.write(text.replace("| `lib/` |", "| `lib/` | edited", 1))
        r = self.run_tool("--check", doc)
        self.assertEqual(r.returncode, 1, r.stdout)
        self.assertIn("differs from tests/lib/layers.py", r.stdout)
        self.assertEqual(self.run_tool(doc).returncode, 0)
        with open(doc, encoding="utf-8") as f:
            self.assertEqual(f.read(), text)

    def test_missing_markers_are_an_error(self):
        tmp = tempfile.mkdtemp()
        self.addCleanup(shutil.rmtree, tmp)
        doc = os.path.join(tmp, "hacking.md")
        with open(doc, "w", encoding="utf-8") as f:
            f.write("## Layout\n| Folder | What it holds | May include |\n")
        r = self.run_tool("--check", doc)
        self.assertEqual(r.returncode, 2, r.stdout)
        self.assertIn("no block <!-- layers: table -->", r.stdout)

    def test_every_row_names_known_folders_and_headers(self):
        folders = {l.folder for l in layout.layers.LAYERS}
        self.assertEqual(len(folders), len(layout.layers.LAYERS), "a folder listed twice")
        for l in layout.layers.LAYERS:
            for name in l.includes:
                if name.endswith(".h"):
                    self.assertIn(layout.folder_of(name), folders, l.folder)
                    self.assertTrue(os.path.isfile(os.path.join(layout.REPO, name)), name)
                else:
                    self.assertIn(name, folders, l.folder)
            for name in l.notes:
                self.assertTrue(name is None or name in l.includes, (l.folder, name))


if __name__ == "__main__":
    unittest.main()
