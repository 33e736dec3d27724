"""The verdict lines of a log (docs/log-format.md, kinds `verdict`,
`verdict_pick`, `verdict_paired` and `verdict_paired_pick`, printed by the
kernel and pagebench-linux) against what `scripts/pagebench-report verdict
--json` says of the same log: the same decisions, winners, peers,
projections, picks, costs, p and recommendations, and the same view of
each decision paired against the reference (decisions[].paired). Both are
made by the same rules (rules/) and the same statistics
(scripts/pbreport/decide.py, paired.py, harness/decide.c)."""
import json
import os
import re
import subprocess
import sys
import tempfile

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(REPO, "scripts"))
from pbreport import grammar  # noqa: E402

FUNCTIONS = ("clear_page", "clear_pages", "copy_page")
TAG = re.compile(r"^\([A-Za-z0-9_]{1,15}\) (.*?)\r?$")
DECISION = grammar.compiled("verdict")
PICK = grammar.compiled("verdict_pick")
PAIRED = grammar.compiled("verdict_paired")
PAIRED_PICK = grammar.compiled("verdict_paired_pick")


def pass_label(function, pass_id):
    """The report's name of a pass: "L1 w/o flush", "copy MEM", "copy-hot"."""
    header = grammar.PASS_HEADERS[pass_id]
    if function == "copy_page" and not header.startswith("copy-"):
        return "copy " + header
    return header


def texts(log):
    return [m.group(1) for m in map(TAG.match, log.splitlines()) if m]


def _pick(m):
    """A pick line's fields, less its function and pass."""
    kernel, version, entry, assuming, what, cost, p, rec = m.groups()[2:]
    return (kernel, version, entry, assuming, what, cost,
            None if p is None else float(p), rec)


def parse(log):
    """{(function, pass label): decision} from the verdict lines, in order;
    a decision's paired lines, where it has them, under "paired". Each
    line must follow the lines of its own decision: the times' picks
    after their verdict line, the paired line right after them, the
    paired picks after it."""
    out, order, last = {}, [], None
    for t in texts(log):
        m = DECISION.match(t)
        if m:
            fn, pid, win, med, n, best, state, reps = m.groups()
            key = (fn, pass_label(fn, pid))
            assert key not in out, "two decisions for %s" % (key,)
            out[key] = {"winner": win, "median": float(med), "n": int(n),
                        "best": best.split(","),
                        "decidable": state == "decided",
                        "reps_needed": int(reps) if reps else None,
                        "picks": []}
            order.append(key)
            last = (key, "times")
            continue
        m = PICK.match(t)
        if m:
            key = (m.group(1), pass_label(m.group(1), m.group(2)))
            assert last == (key, "times"), "a pick away from its decision: %s" % t
            out[key]["picks"].append(_pick(m))
            continue
        m = PAIRED.match(t)
        if m:
            fn, pid, ref, win, ratio, lo, hi, best, state = m.groups()
            key = (fn, pass_label(fn, pid))
            assert last == (key, "times"), \
                "a paired line away from its decision: %s" % t
            out[key]["paired"] = {"reference": ref, "winner": win,
                                  "figure": (float(ratio), float(lo),
                                             float(hi)),
                                  "best": best.split(","),
                                  "decidable": state == "decided",
                                  "picks": []}
            last = (key, "paired")
            continue
        m = PAIRED_PICK.match(t)
        if m:
            key = (m.group(1), pass_label(m.group(1), m.group(2)))
            assert last == (key, "paired"), \
                "a paired pick away from its paired line: %s" % t
            out[key]["paired"]["picks"].append(_pick(m))
            continue
        if t.startswith("verdict "):
            raise AssertionError("a verdict line of no kind: %s" % t)
    return out, order


def _pick_row(p, assuming, name):
    """A JSON pick (or alternative) as a line would say it, less p."""
    status = p.get("status")
    if assuming is None and status == "unknown":
        return ("?", None, None, p["recommendation"])
    # A needs-variant alternative has no status of its own; a view's row
    # of it (nextuse.pick_rows()) has its unknown pick's.
    if status == "needs-variant" or (status in (None, "unknown") and
                                     p.get("recommendation", "").startswith(
                                         "not measured: needs variant")):
        return ("-", None, None, p["recommendation"])
    if status == "not-measured":
        return (name(p["variant"]), None, None, p["recommendation"])
    cost = "none" if p["cost_pct"] is None else "+%.1f%%" % p["cost_pct"]
    return (name(p["variant"]), cost, p["p"] if p["cost_pct"] is not None
            else None, p["recommendation"])


def _line_row(pick, row, assuming, winner, name):
    """A pick line's fields, as a row of the report (the pick, one of its
    alternatives, or a view's row) says them: the winner by its log name
    in the recommendation."""
    what, cost, pv, rec = _pick_row(row, assuming, name)
    for words in ("switch to %s ", "but %s has"):
        rec = rec.replace(words % winner, words % name(winner))
    return (pick["kernel"], pick["version"], pick["entry"], assuming, what,
            cost, pv, rec)


def expected(machine):
    """The report's decisions of the page functions, in the lines' terms:
    the log's variant names (the report says today's)."""
    out = {}
    for d in machine["decisions"]:
        if d["function"] not in FUNCTIONS:
            continue
        names = d.get("log_names", {})
        name = (lambda v: names.get(v, v))
        picks = []
        for p in d["picks"]:
            picks.append(_line_row(p, p, None, d["winner"], name))
            for a in p.get("alternatives", []):
                picks.append(_line_row(p, a, a["assuming"], d["winner"], name))
        key = (d["function"], d["pass"])
        out[key] = {
            "winner": name(d["winner"]), "median": d["winner_median"],
            "n": d["n"], "best": [name(b) for b in d["best"]],
            "decidable": d["decidable"],
            "reps_needed": None if d["decidable"] else d["reps_needed"],
            "picks": picks}
        if d["paired"] is not None:
            out[key]["paired"] = _paired(d["paired"], name)
    return out


def _paired(u, name):
    """decisions[].paired in the paired lines' terms: one pick line per
    row of its picks (nextuse.pick_rows())."""
    picks = [_line_row(p, p, p.get("assuming"), u["winner"], name)
             for p in u["picks"]]
    f = u["figures"][u["winner"]]
    return {"reference": name(u["reference"]), "winner": name(u["winner"]),
            "figure": (f["ratio"], f["lo"], f["hi"]),
            "best": [name(b) for b in u["best"]],
            "decidable": u["decidable"], "picks": picks}


def report_json(log):
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "run.log")
        with open(path, "w") as f:
            f.write(log)
        r = subprocess.run([os.path.join(REPO, "scripts", "pagebench-report"),
                            "verdict", "--json", "-q", path],
                           capture_output=True, text=True, timeout=300)
    if r.returncode != 0:
        raise AssertionError("pagebench-report verdict: %d %s" % (
            r.returncode, r.stderr))
    return json.loads(r.stdout)


def check_agree(tc, log):
    """Asserts that the log's verdict lines say what the report says of the
    log; returns the parsed lines."""
    got, order = parse(log)
    report = report_json(log)
    tc.assertEqual(len(report["machines"]), 1)
    want = expected(report["machines"][0])
    tc.assertTrue(want, "the report made no decision of the page functions")
    tc.assertEqual(sorted(got), sorted(want))
    for key in order:
        g, w = got[key], want[key]
        with tc.subTest(decision="%s %s" % key):
            for field in ("winner", "median", "n", "best", "decidable",
                          "reps_needed"):
                tc.assertEqual(g[field], w[field], field)
            tc.assertEqual(len(g["picks"]), len(w["picks"]),
                           "\n%s\n%s" % (g["picks"], w["picks"]))
            _same_picks(tc, g["picks"], w["picks"])
            tc.assertEqual("paired" in g, "paired" in w,
                           "paired lines where the report has %s" % (
                               "a paired view" if "paired" in w else "none"))
            if "paired" not in w:
                continue
            gu, wu = g["paired"], w["paired"]
            for field in ("reference", "winner", "figure", "best",
                          "decidable"):
                tc.assertEqual(gu[field], wu[field], "paired " + field)
            _same_picks(tc, gu["picks"], wu["picks"])
    return got


def _same_picks(tc, got, want):
    tc.assertEqual(len(got), len(want), "\n%s\n%s" % (got, want))
    for gp, wp in zip(got, want):
        tc.assertEqual(gp[:6] + gp[7:], wp[:6] + wp[7:])
        # p to the two digits the line gives.
        if wp[6] is None:
            tc.assertIsNone(gp[6], gp)
        else:
            tc.assertIsNotNone(gp[6], gp)
            tc.assertAlmostEqual(gp[6], wp[6], delta=0.051 * wp[6])
