"""scripts/pbreport decides nothing (issue 29) and computes no statistic
(issue 40): the one decision is the C engine's answer lines
(harness/decide/answer.c; build/bin/pagebench-decide for logs without them), and
every comparison the report shows is the engine's too (pagebench-decide
--compare, through versus.py). An AST scan of every module fails where one
computes an interval, evaluates a selection rule, reads the rules files,
or runs a significance test of its own (docs/report.md, "Comparisons").
"""
import ast
import os
import sys
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
PKG = os.path.join(os.path.dirname(os.path.dirname(HERE)), "scripts", "pbreport")

# Modules of the old decision copy, and the old statistics (stats.py: the
# Mann-Whitney U test): none may come back or be imported.
GONE = {"rules", "rulesfile", "decide", "verdict", "paired", "nextuse", "stats"}
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
# A test of the report's own, as stats.py and analysis.Comparison made
# them, or the spread an interval or a test is made of: nowhere.
TESTS = {"mann_whitney", "Comparison", "why_undecided", "u_statistic", "midranks",
         "min_p", "p_value", "erfc", "stdev", "pstdev", "variance", "std_dev"}


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
        elif kind in ("defines", "uses") and name in TESTS:
            out.append("%s %s %s: a statistic of the report's own (the "
                       "engine's: versus.py)" % (where, kind, name))
    if module in GONE:
        out.append("%s.py: a module of the Python decision copy or statistics" % module)
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
            "c = A.Comparison(a, b, 0.05)\n": "a statistic of the report's own",
            "from . import stats\n": "imports stats",
            "p = stats.mann_whitney(x, y).p\n": "uses mann_whitney",
            "s = statistics.stdev(v)\n": "uses stdev",
            "ok = R.eval_condition(w, f)\n": "uses eval_condition",
            "class Winner:\n    pass\n": "defines Winner",
        }
        for src, want in cases.items():
            with self.subTest(src=src):
                got = violations(src, "matrix")
                self.assertTrue(any(want in g for g in got), got)
        # The engine's comparisons are what the report may use.
        self.assertEqual(violations("b = versus.Batch()\nv = b.versus(x, [y])[0]\n",
                                    "textout"), [])
        self.assertEqual(violations("", "stats"),
                         ["stats.py: a module of the Python decision copy or statistics"])


if __name__ == "__main__":
    sys.exit(unittest.main())
