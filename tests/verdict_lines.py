"""The verdict lines of a log (docs/log-format.md, kinds `verdict` and
`verdict_pick`, printed by the kernel and pagebench-linux) against what
`scripts/pagebench-report verdict --json` says of the same log: the same
decisions, winners, peers, projections, picks, costs, p and
recommendations. Both are made by the same rules (rules/) and the same
statistics (scripts/pbreport/decide.py, harness/decide.c)."""
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


def pass_label(function, pass_id):
    """The report's name of a pass: "L1 w/o flush", "copy MEM", "copy-hot"."""
    header = grammar.PASS_HEADERS[pass_id]
    if function == "copy_page" and not header.startswith("copy-"):
        return "copy " + header
    return header


def texts(log):
    return [m.group(1) for m in map(TAG.match, log.splitlines()) if m]


def parse(log):
    """{(function, pass label): decision} from the verdict lines, in order."""
    out, order = {}, []
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
            continue
        m = PICK.match(t)
        if m:
            fn, pid, kernel, version, entry, assuming, what, cost, p, rec = \
                m.groups()
            key = (fn, pass_label(fn, pid))
            assert key in out, "a pick before its decision: %s" % t
            out[key]["picks"].append((kernel, version, entry, assuming, what,
                                      cost, None if p is None else float(p),
                                      rec))
    return out, order


def _pick_row(p, assuming, name):
    """A JSON pick (or alternative) as a line would say it, less p."""
    status = p.get("status")
    if assuming is None and status == "unknown":
        return ("?", None, None, p["recommendation"])
    if status == "needs-variant" or (status is None and
                                     p.get("recommendation", "").startswith(
                                         "not measured: needs variant")):
        return ("-", None, None, p["recommendation"])
    if status == "not-measured":
        return (name(p["variant"]), None, None, p["recommendation"])
    cost = "none" if p["cost_pct"] is None else "+%.1f%%" % p["cost_pct"]
    return (name(p["variant"]), cost, p["p"] if p["cost_pct"] is not None
            else None, p["recommendation"])


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
            what, cost, pv, rec = _pick_row(p, None, name)
            rec = rec.replace("switch to %s " % d["winner"],
                              "switch to %s " % name(d["winner"]))
            rec = rec.replace("but %s has" % d["winner"],
                              "but %s has" % name(d["winner"]))
            picks.append((p["kernel"], p["version"], p["entry"], None, what,
                          cost, pv, rec))
            for a in p.get("alternatives", []):
                what, cost, pv, rec = _pick_row(a, a["assuming"], name)
                rec = rec.replace("switch to %s " % d["winner"],
                                  "switch to %s " % name(d["winner"]))
                picks.append((p["kernel"], p["version"], p["entry"],
                              a["assuming"], what, cost, pv, rec))
        out[(d["function"], d["pass"])] = {
            "winner": name(d["winner"]), "median": d["winner_median"],
            "n": d["n"], "best": [name(b) for b in d["best"]],
            "decidable": d["decidable"],
            "reps_needed": None if d["decidable"] else d["reps_needed"],
            "picks": picks}
    return out


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
            for gp, wp in zip(g["picks"], w["picks"]):
                tc.assertEqual(gp[:6] + gp[7:], wp[:6] + wp[7:])
                # p to the two digits the line gives.
                if wp[6] is None:
                    tc.assertIsNone(gp[6], gp)
                else:
                    tc.assertIsNotNone(gp[6], gp)
                    tc.assertAlmostEqual(gp[6], wp[6], delta=0.051 * wp[6])
    return got
