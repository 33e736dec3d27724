"""scripts/pbreport decides nothing (issue 29): the one decision is the C
engine's answer lines (harness/decide/answer.c; build/bin/pagebench-decide for
logs without them). An AST scan of every module fails where one computes
an interval, evaluates a selection rule, reads the rules files, or names
a winner by a significance test outside the description diff, the
strings leaders and the claims make (docs/report.md, "What is computed").
"""
import ast
import os
import sys
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
PKG = os.path.join(os.path.dirname(HERE), "scripts", "pbreport")

# Modules of the old decision copy: none may come back or be imported.
GONE = {"rules", "rulesfile", "decide", "verdict", "paired", "nextuse"}
# Names that only a decision needs: a t-quantile or an interval computed,
# a reps/epochs projection, a rule evaluated, a winner decided.
DECIDING = {"t_quantile", "t_crit", "tquantile", "student_t", "t_table",
            "interval", "interval_of", "interval_of_ratio", "ratio_interval",
            "confidence_interval", "relate", "reps_needed", "project",
            "projected_reps", "eval_condition", "eval_atom", "rule_picks",
            "Evaluator", "Decision", "Winner", "judge", "machine_verdict",
            "kernel_view", "decision_picks", "wilcoxon", "figures_ratio"}
# Files a rule evaluation reads.
RULE_FILES = ("selection.rules", "synthetic.rules")
# Where the diff's Mann-Whitney U (stats.mann_whitney through
# analysis.Comparison) may be used: to describe two cells (diff), the
# strings leaders by size and the claims' cases, never an answer.
DESCRIBES = {"stats", "analysis", "textout", "textfmt", "strings", "claims"}
TESTS = {"mann_whitney", "Comparison", "why_undecided", "u_statistic"}


def names_in(tree):
    """(kind, name, line) of every definition, import and call/attribute
    name of a module."""
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.ClassDef,
                             ast.AsyncFunctionDef)):
            yield "defines", node.name, node.lineno
        elif isinstance(node, ast.ImportFrom):
            mod = (node.module or "").split(".")[-1]
            if mod:
                yield "imports", mod, node.lineno
            for a in node.names:
                yield "imports", a.name, node.lineno
        elif isinstance(node, ast.Import):
            for a in node.names:
                yield "imports", a.name.split(".")[-1], node.lineno
        elif isinstance(node, ast.Attribute):
            yield "uses", node.attr, node.lineno
        elif isinstance(node, ast.Name):
            yield "uses", node.id, node.lineno
        elif isinstance(node, ast.Constant) and isinstance(node.value, str):
            for f in RULE_FILES:
                if f in node.value:
                    yield "reads", f, node.lineno


def violations(source, module):
    """What in one module's source decides: ["module:line: why"]."""
    out = []
    tree = ast.parse(source)
    for kind, name, line in names_in(tree):
        where = "%s:%d" % (module, line)
        if kind == "imports" and name in GONE:
            out.append("%s imports %s (the Python decision copy)" % (where, name))
        elif kind in ("defines", "uses") and name in DECIDING:
            out.append("%s %s %s (a decision)" % (where, kind, name))
        elif kind == "reads":
            out.append("%s names %s (the rules are the C engine's)" % (where, name))
        elif name in TESTS and module not in DESCRIBES:
            out.append("%s %s %s: a significance test outside the "
                       "description" % (where, kind, name))
    if module in GONE:
        out.append("%s.py: a module of the Python decision copy" % module)
    return out


def scan(pkg=PKG):
    out = []
    for f in sorted(os.listdir(pkg)):
        if f.endswith(".py"):
            with open(os.path.join(pkg, f), encoding="utf-8") as fh:
                out += violations(fh.read(), f[:-3])
    return out


GROUPS = ("fast", "report")


class ReportDecidesNothing(unittest.TestCase):
    def test_the_package_decides_nothing(self):
        self.assertEqual(scan(), [])

    def test_the_scan_can_fail(self):
        """Each kind of decision, written as the old copy had it, is
        caught."""
        cases = {
            "from . import rules as R\n": "imports rules",
            "def t_quantile(df):\n    return 2\n": "defines t_quantile",
            "x = stats.interval(v)\n": "uses interval",
            "r = D.relate(a, b, 0.05, 0)\n": "uses relate",
            "p = open('rules/selection.rules')\n": "selection.rules",
            "c = A.Comparison(a, b, 0.05)\n": "a significance test",
            "ok = R.eval_condition(w, f)\n": "uses eval_condition",
            "class Winner:\n    pass\n": "defines Winner",
        }
        for src, want in cases.items():
            with self.subTest(src=src):
                got = violations(src, "matrix")
                self.assertTrue(any(want in g for g in got), got)
        self.assertEqual(violations("c = A.Comparison(a, b, 0.05)\n",
                                    "textout"), [])
        self.assertEqual(violations("", "verdict"),
                         ["verdict.py: a module of the Python decision copy"])


if __name__ == "__main__":
    sys.exit(unittest.main())
