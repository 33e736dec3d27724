#!/usr/bin/env python3
"""The tree's layering, read from the sources and the built objects.

tests/lib/layers.py holds the rules as data: every source folder, what it
holds, and what it may include (and so call): folders, or one header of
another folder, a narrow interface into it (docs/hacking.md's Layout
table is written from those rows by scripts/docs-layout). This module
checks the tree against them:

- every source file lies in a folder of the table;
- every #include / %include points into the file's own folder or into one
  its row allows;
- every symbol a built object takes from another does too;
- neither the includes between files (nor between modules, x.c and x.h
  taken as one) nor the references between objects form a cycle;
- no folder holds more than FOLDER_C_MAX C files directly;
- every repository path a comment or a document names exists;
- the Python package scripts/pbreport imports its modules without a cycle,
  and at the top of each module, where a cycle cannot hide.

A call into harness/measure/host.h's interface counts as a call to the interface,
which each host implements (kernel/host.c, linux/host.c): the harness never
names a host. tests/tree/test_layout.py runs these checks;
`tests/lib/layout.py tree|cycles|check` prints them.
"""
import ast
import collections
import fnmatch
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "lib"))
import layers  # noqa: E402

TESTS = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
REPO = os.path.dirname(TESTS)
FOLDER_C_MAX = 25
SOURCE_EXT = (".c", ".h", ".asm", ".inc", ".def")
# The host interface: its functions are implemented once per host.
INTERFACE = "harness/measure/host.h"
# Object trees of the build: ring 0 and user space.
OBJECT_TREES = ("build/k", "build/h")
# The C library: libc in user space, kernel/lib/string.c in ring 0. The
# compiler itself emits calls to these (a struct copy is a memcpy), so they
# are below every layer.
C_RUNTIME = {"memcpy", "memset", "memmove", "memcmp", "strlen"}

INCLUDE = re.compile(r'^\s*[#%]\s*include\s+"([^"]+)"', re.M)


def tracked_files():
    """Files git tracks or would track, as they are in the work tree."""
    out = subprocess.run(["git", "ls-files", "-co", "--exclude-standard"],
                         cwd=REPO, capture_output=True, text=True,
                         check=True).stdout.split()
    return sorted(f for f in out if os.path.isfile(os.path.join(REPO, f)))


def source_files(files=None):
    return [f for f in (files or tracked_files())
            if f.endswith(SOURCE_EXT) and not f.startswith("tests/fixtures/")]


def folder_of(path):
    return os.path.dirname(path)


def read_table():
    """{folder: set of the folders and headers it may include}, from tests/lib/layers.py."""
    return layers.table()


def resolve_include(src, name, files):
    """The repository path #include "name" in src reads, or None."""
    near = os.path.normpath(os.path.join(folder_of(src), name))
    if near in files:
        return near
    if name in files:
        return name
    return None


def include_edges(files=None):
    """(from, to) for every quoted include; unresolved ones as (from, None, name)."""
    files = files or tracked_files()
    fileset = set(files)
    edges, unresolved = [], []
    for f in source_files(files):
        text = open(os.path.join(REPO, f), encoding="utf-8", errors="replace").read()
        for name in INCLUDE.findall(text):
            to = resolve_include(f, name, fileset)
            if to is None:
                unresolved.append((f, name))
            else:
                edges.append((f, to))
    return edges, unresolved


def module_edges(edges):
    """The same edges between modules: x.c and x.h are one module."""
    strip = lambda f: os.path.splitext(f)[0]
    return [(strip(a), strip(b)) for a, b in edges if strip(a) != strip(b)]


def interface_symbols():
    text = open(os.path.join(REPO, INTERFACE), encoding="utf-8").read()
    return set(re.findall(r"\b(host_[a-z0-9_]+)\s*\(", text))


def object_edges():
    """(from source, to source, symbol) for every symbol one object takes
    from another, per object tree; sources named without their ending."""
    iface = interface_symbols()
    edges, missing = [], []
    for tree in OBJECT_TREES:
        root = os.path.join(REPO, tree)
        objs = []
        for d, _, names in os.walk(root):
            objs += [os.path.join(d, n) for n in names if n.endswith(".o")]
        if not objs:
            missing.append(tree)
            continue
        defs, uses = {}, collections.defaultdict(set)
        generated = set()
        for o in objs:
            src = os.path.relpath(o, root)[:-2]
            nm = subprocess.run(["nm", o], capture_output=True, text=True,
                                check=True).stdout
            for line in nm.splitlines():
                p = line.split()
                if src.startswith(("build/", "gen/")):
                    # Generated sources (the font, the rules' tables) have
                    # no folder of ours: what they define is no edge, even
                    # where a unit test defines its own (test_rules_logic).
                    if len(p) == 3 and p[1].isupper():
                        generated.add(p[2])
                    continue
                if len(p) == 3 and p[1] in "TDBRVWC" and p[1].isupper():
                    # A unit test's stub of a symbol is not where the
                    # programs take it from.
                    if p[2] not in defs or defs[p[2]].startswith("tests/"):
                        defs[p[2]] = src
                elif len(p) == 2 and p[0] == "U":
                    uses[src].add(p[1])
        for src, syms in uses.items():
            for s in syms:
                if s in C_RUNTIME or s in generated:
                    continue
                if s in iface:
                    to = os.path.splitext(INTERFACE)[0]
                elif s in defs:
                    to = defs[s]
                else:
                    continue	# libc, or the linker's
                if to != src:
                    edges.append((src, to, s))
    return edges, missing


def cycles(edges):
    """The strongly connected components of more than one node (Tarjan)."""
    graph = collections.defaultdict(set)
    for a, b in edges:
        graph[a].add(b)
    index, low, stack, on, found = {}, {}, [], set(), []
    counter = [0]

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in sorted(graph[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                found.append(sorted(comp))

    sys.setrecursionlimit(max(10000, sys.getrecursionlimit()))
    for v in sorted(graph):
        if v not in index:
            visit(v)
    return found


def _module(path):
    return os.path.splitext(path)[0]


def allows(allowed, target):
    """Whether a row's allowed folders and headers admit target, a file
    (an include) or a module (a reference: a source without its ending)."""
    if folder_of(target) in allowed:
        return True
    return _module(target) in {_module(a) for a in allowed if a.endswith(".h")}


def layer_violations(table, edges):
    """Edges (a, b, why) whose target a's row does not allow."""
    bad = []
    for a, b, why in edges:
        fa, fb = folder_of(a), folder_of(b)
        if fa == fb or fa not in table:
            continue
        if not allows(table[fa], b):
            bad.append((a, b, why))
    return bad


def table_cycles(table):
    return cycles([(a, b) for a, bs in table.items() for b in bs])


def unlisted_folders(table, files=None):
    return sorted({folder_of(f) for f in source_files(files)} - set(table))


def crowded_folders(files=None):
    count = collections.Counter(folder_of(f) for f in (files or tracked_files())
                                if f.endswith(".c"))
    return sorted((f, n) for f, n in count.items() if n > FOLDER_C_MAX)


# Paths a comment or a document may name: ones that start with a folder of
# ours, standing on their own (not inside a URL or another path).
NAMED_PATH = re.compile(
    r"(?<![\w./<-])((?:boot|kernel|harness|lib|cpu|variants|linux|tools|"
    r"module|scripts|tests|docs|results|lab|\.ci)/[\w.*/+-]*[\w*/])")
# Not repository paths: what the build writes, and the Linux tree's own.
NOT_OURS = ("build/", "linux/module.h")
CHECKED_EXT = SOURCE_EXT + (".py", ".md", ".sh", ".txt", ".ld", ".cfg")


def kept_as_it_came(f):
    """A fixture, a log or a lab transcript: what it names is as it was
    when it was made; only the READMEs beside them are held to the tree."""
    return f.startswith("tests/fixtures/") or \
        (f.startswith(("results/", "lab/")) and not f.endswith("README.md"))


def named_paths(scan=None):
    """(file, line, path) for every repository path a file of scan (all
    by default) names that does not exist; system headers in
    #include <...> aside."""
    files = tracked_files()
    fileset = set(files)
    folders = {folder_of(f) for f in files}
    folders |= {p for f in folders for p in _parents(f)}
    bad = []
    for f in scan or files:
        if not (f.endswith(CHECKED_EXT) or _is_script(f)) or kept_as_it_came(f):
            continue
        text = open(os.path.join(REPO, f), encoding="utf-8", errors="replace").read()
        for lineno, line in enumerate(text.splitlines(), 1):
            if re.match(r"\s*#\s*include\s*<", line):
                continue
            for m in NAMED_PATH.finditer(line):
                p = m.group(1).rstrip("/.")
                if p.startswith(NOT_OURS) or _exists(p, fileset, folders):
                    continue
                bad.append((f, lineno, p))
    return bad


# A Markdown link whose target is a file of ours: [text](path#anchor).
MD_LINK = re.compile(r"\[[^\]]*\]\(([^)\s]+)\)")


def heading_anchors(path):
    """The anchors GitHub gives the headings of a Markdown file: lower
    case, punctuation but - and _ dropped, spaces as -, and -1, -2, ...
    after a repeated one."""
    seen, out = collections.Counter(), set()
    fenced = False
    with open(path, encoding="utf-8") as f:
        for line in f:
            if line.startswith("```"):
                fenced = not fenced
            m = None if fenced else re.match(r"#{1,6} +(.*?)\s*$", line)
            if not m:
                continue
            slug = re.sub(r"[^\w\- ]", "", m.group(1).lower()).replace(" ", "-")
            out.add(slug if not seen[slug] else "%s-%d" % (slug, seen[slug]))
            seen[slug] += 1
    return out


def broken_links(scan=None):
    """(file, line, target, why) for every relative link of a Markdown file
    of scan (every tracked .md by default) whose file or heading is not
    there; links to other sites are not followed."""
    bad = []
    for f in scan or [f for f in tracked_files() if f.endswith(".md")]:
        if f.startswith("tests/fixtures/"):
            continue
        fenced = False
        with open(os.path.join(REPO, f), encoding="utf-8") as fh:
            lines = fh.read().splitlines()
        for lineno, line in enumerate(lines, 1):
            if line.startswith("```"):
                fenced = not fenced
            if fenced or line.startswith("    "):
                continue
            for m in MD_LINK.finditer(line):
                target = m.group(1)
                if re.match(r"[a-z]+:", target):
                    continue
                path, _, anchor = target.partition("#")
                full = os.path.normpath(os.path.join(REPO, os.path.dirname(f), path)) \
                    if path else os.path.join(REPO, f)
                if not os.path.exists(full):
                    bad.append((f, lineno, target, "no such file"))
                elif anchor and full.endswith(".md") and \
                        anchor not in heading_anchors(full):
                    bad.append((f, lineno, target, "no such heading"))
    return bad


def _parents(folder):
    while folder:
        yield folder
        folder = os.path.dirname(folder)


def _is_script(f):
    return f.startswith(("scripts/", "tests/", ".ci/")) and "." not in os.path.basename(f)


def _exists(p, fileset, folders):
    if "*" in p:
        return any(fnmatch.fnmatch(f, p) for f in fileset)
    return p in fileset or p in folders


PY_PACKAGES = ("scripts/pbreport",)


def python_imports(package):
    """([(module, module it imports)], [(module, line, what)] of imports
    inside a function or class) within one package folder, its modules
    named by file name without .py."""
    root = os.path.join(REPO, package)
    mods = sorted(f[:-3] for f in os.listdir(root) if f.endswith(".py"))
    edges, hidden = [], []
    for mod in mods:
        with open(os.path.join(root, mod + ".py"), encoding="utf-8") as fh:
            tree = ast.parse(fh.read())
        top = set(id(n) for n in tree.body)
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and node.level == 1:
                names = [node.module] if node.module else \
                    [a.name for a in node.names]
                targets = [n.split(".")[0] for n in names if n]
            elif isinstance(node, ast.Import):
                targets = []
            else:
                continue
            inside = [t for t in targets if t in mods]
            edges += [(mod, t) for t in inside if t != mod]
            if id(node) not in top and inside:
                hidden.append((mod, node.lineno, ", ".join(inside)))
    return edges, hidden


def tree_report(files=None):
    """Lines per folder and the largest file of each."""
    files = files or tracked_files()
    per = collections.defaultdict(list)
    for f in source_files(files):
        with open(os.path.join(REPO, f), encoding="utf-8", errors="replace") as fh:
            per[folder_of(f)].append((sum(1 for _ in fh), f))
    rows = []
    for folder in sorted(per):
        items = per[folder]
        n, biggest = max(items)
        rows.append((folder, len(items), sum(c for c, _ in items), biggest, n))
    return rows


def main(argv):
    what = argv[1] if len(argv) > 1 else "check"
    if what == "tree":
        print("%-18s %5s %6s  %s" % ("folder", "files", "lines", "largest file"))
        for folder, n, lines, big, big_n in tree_report():
            print("%-18s %5d %6d  %s (%d)" % (folder + "/", n, lines, big, big_n))
        return 0
    if what == "cycles":
        inc, _ = include_edges()
        obj, missing = object_edges()
        for c in cycles(inc):
            print("include cycle:", " -> ".join(c))
        for c in cycles(module_edges(inc)):
            print("include cycle between modules:", " -> ".join(c))
        for c in cycles([(a, b) for a, b, _ in obj]):
            print("reference cycle:", " -> ".join(c))
        for t in missing:
            print("not built: %s (run make)" % t)
        return 0
    if what == "check":
        table = read_table()
        inc, unresolved = include_edges()
        obj, missing = object_edges()
        problems = []
        problems += ["folder not in the layer rules (tests/lib/layers.py): %s/" % f
                     for f in unlisted_folders(table)]
        problems += ["unresolved include in %s: %s" % u for u in unresolved]
        problems += ["include points up: %s -> %s" % (a, b)
                     for a, b, _ in layer_violations(table, [(a, b, "") for a, b in inc])]
        problems += ["reference points up: %s -> %s (%s)" % e
                     for e in layer_violations(table, obj)]
        problems += ["include cycle: " + " -> ".join(c) for c in cycles(inc)]
        problems += ["include cycle between modules: " + " -> ".join(c)
                     for c in cycles(module_edges(inc))]
        problems += ["reference cycle: " + " -> ".join(c)
                     for c in cycles([(a, b) for a, b, _ in obj])]
        problems += ["the layer rules (tests/lib/layers.py) have a cycle: " + " -> ".join(c)
                     for c in table_cycles(table)]
        problems += ["%s/ holds %d C files" % c for c in crowded_folders()]
        problems += ["%s:%d names %s, which does not exist" % b for b in named_paths()]
        problems += ["%s:%d links to %s: %s" % b for b in broken_links()]
        problems += ["not built: %s (run make)" % t for t in missing]
        for pkg in PY_PACKAGES:
            edges, hidden = python_imports(pkg)
            problems += ["python import cycle in %s: %s" % (pkg, " -> ".join(c))
                         for c in cycles(edges)]
            problems += ["%s/%s.py:%d imports %s inside a function" % (
                (pkg,) + h) for h in hidden]
        for p in problems:
            print(p)
        print("%d problems" % len(problems))
        return 1 if problems else 0
    print("usage: tests/lib/layout.py [tree|cycles|check]", file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv))
