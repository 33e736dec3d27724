"""verdict: per machine, function and pass, the winner, the variants as
good as it, whether the data can decide, what Linux and Xen select on this
CPU and what that costs, and a one-line recommendation (docs/report.md,
"verdict")."""
import json
import os
import re

from . import aliases
from . import analysis as A
from . import decide as D
from . import nextuse
from . import paired
from . import rules as R
from . import stats
from . import strings as S
from .parse import pass_label

ROOT = R.ROOT
DEF_FILES = {"clear": "clear.def", "copy": "copy.def"}

# Strings size classes (bytes, inclusive).
SIZE_CLASSES = ((0, 0), (1, 15), (16, 127), (128, 1023), (1024, 4096))
FUNCTIONS = ("clear_page", "clear_pages", "copy_page", "memset", "memcpy",
             "scrub")
SUITE_OF = {"clear_page": "clear", "clear_pages": "clear",
            "copy_page": "copy", "scrub": "scrub"}

_SHAPES = {}


# The module's build appends module/<suite>.def, the running kernel's own
# routines, to the table of variants/ (docs/running.md, "pagebench.ko").
DEF_FOLDERS = ("variants", "module")
# Its rows are named after the entry points they call: kernel_clear_page.
OWN_PREFIX = "kernel_"


def _read_def(suite):
    """{variant: (shape, what)} from variants/<suite>.def and module/'s."""
    if suite not in _SHAPES:
        out = {}
        for folder in DEF_FOLDERS:
            path = os.path.join(ROOT, folder, DEF_FILES[suite])
            with open(path, encoding="utf-8") as fh:
                for line in fh:
                    # name, [routine,] shape: the routine column went when
                    # the rows started naming their routines (op_name).
                    m = re.match(r'^\s*(?:CLEAR|COPY)\((\w+),(?:\s*\w+,)?\s*'
                                 r'(PAGE|RANGE),.*"(.*)"\)\s*$', line)
                    if m:
                        out[m.group(1)] = (m.group(2), m.group(3))
        _SHAPES[suite] = out
    return _SHAPES[suite]


def shapes(suite):
    """{variant: "PAGE" or "RANGE"} from variants/<suite>.def."""
    return {v: sw[0] for v, sw in _read_def(suite).items()}


def unordered(function, variant):
    """Whether a clear variant leaves its stores unordered (no SFENCE):
    its time does not include their completion, and a kernel could not
    use it as it is."""
    if SUITE_OF.get(function) != "clear":
        return False
    what = _read_def("clear").get(variant, ("", ""))[1]
    return "no SFENCE" in what


def class_text(lo, hi):
    return "n=%d" % lo if lo == hi else "n=%d-%d" % (lo, hi)


# -- candidates -------------------------------------------------------------

class Candidates:
    """The cells one decision is made over: {today's name: Cell}, and
    the log's names for them."""

    def __init__(self, function, label, cells, names, tie, what):
        self.function, self.label = function, label
        self.cells, self.names, self.tie, self.what = cells, names, tie, what


def pass_candidates(m, function):
    suite = SUITE_OF[function]
    out = []
    for p in m.ordered_passes():
        if p.suite != suite:
            continue
        cells, orig = {}, {}
        for v in p.variants:            # today's names (parse renamed them)
            if function != "clear_pages" and suite in DEF_FILES and \
                    shapes(suite).get(v, "PAGE") == "RANGE":
                continue
            c = A.raw_cell(m, p, v)
            if c is None or c.failed:
                continue
            cells[v], orig[v] = c, aliases.log_name(m, suite, v)
        if cells:
            c = Candidates(function, pass_label(p.suite, p.name),
                           cells, orig, 0.0,
                           "%s; ticks per pass" % (
                               "per-page variants" if function in
                               ("clear_page", "copy_page") else
                               "every variant"))
            c.pass_obj = p          # its use probes, for nextuse
            out.append(c)
    return out


def strings_candidates(m, op, keep=None):
    """Per mode and size class: a cell per variant whose samples are the
    per-rep sums over the class's sizes and alignments (the time of one
    call at each), for variants with every figure of the class."""
    out = []
    blocks = [b for b in S.size_blocks(m) if b.op == op and
              (keep is None or keep(b))]
    modes = []
    for b in blocks:
        if b.mode not in modes:
            modes.append(b.mode)
    for mode in modes:
        mb = [b for b in blocks if b.mode == mode]
        for lo, hi in SIZE_CLASSES:
            keys = [(b, n) for b in mb for n in S.sizes(b) if lo <= n <= hi]
            if not keys:
                continue
            allv = []
            for b in mb:
                allv += [v for v in b.variants if v not in allv]
            cells, orig = {}, {}
            for v in allv:
                figs = [b.figures.get((v, n)) for b, n in keys]
                if any(f is None or not f.values for f in figs):
                    continue
                if S.failed(m, op, v):
                    continue
                reps = min(len(f.values) for f in figs)
                sums = [sum(f.values[r] for f in figs) for r in range(reps)]
                sp = stats.Spread(sums)
                cells[v] = A.Cell(sp.n, sp.min, sp.q1, sp.median,
                                  sp.q3, sp.max, sums)
                orig[v] = aliases.log_name(m, op, v)
            if cells:
                c = Candidates(op, "%s %s" % (mode, class_text(lo, hi)),
                               cells, orig, S.DEFAULT_TIE,
                               "per mode and size class: ticks of one call "
                               "at each size and alignment, summed")
                c.span = (lo, hi)
                out.append(c)
    return out


def candidates(m, function):
    if function in ("memset", "memcpy"):
        return strings_candidates(m, function)
    return pass_candidates(m, function)


# -- picks ------------------------------------------------------------------

def kernel_view(tabs, facts, versions, own=None):
    """{kernel: [(era, {FLAG: value})]}: the flags the picks read, in each
    era where the kernel has picks and its flags have rows (own: the
    running Linux's own, as for rules.Evaluator)."""
    out = {}
    for k in R.KERNELS:
        v = versions.get(k)
        if v is not None:
            eras = [(v, R.bump(v))]
        else:
            edges = [None] + tabs.bounds(k) + [None]
            eras = list(zip(edges[:-1], edges[1:]))
        rows = []
        for lo, hi in eras:
            probe = lo if lo is not None else R._before(hi) if hi else (0,)
            live = [p for p in tabs.picks
                    if p.kernel == k and p.versions.contains(probe)]
            if not live:
                continue
            flags = sorted(set(a.name for p in live for a in p.condition
                               if a.flag))
            ev = R.Evaluator(tabs, k, probe, facts,
                             own if k == "linux" else None)
            vals = {}
            for f in flags:
                x = ev.flag(f)
                vals[f] = ("?(needs %s)" % ",".join(x.needs)
                           if isinstance(x, R.Unknown) else x)
            # An era with the same flags as the one before joins it; the
            # label is made from the joined bounds, so "5.4" (one
            # release) and ">=5.5 <5.10" give ">=5.4 <5.10".
            if rows and rows[-1][2] == vals and rows[-1][1] == lo:
                rows[-1][1] = hi
                continue
            rows.append([lo, hi, vals])
        out[k] = [(R.vtext(v) if v is not None else R.era_text(lo, hi), vals)
                  for lo, hi, vals in rows]
    return out


def rel_json(r):
    return {"state": r.state, "test": r.test, "why": r.reason,
            "delta_pct": None if r.delta is None else round(100 * r.delta, 2),
            "p": r.p, "reps_needed": r.reps_needed}


def judge(dec, variant, cand):
    """(fields, recommendation) of one kernel pick's variant in a decision."""
    r = dec.against(variant)
    if r is None:
        return ({"status": "not-measured", "cost_pct": None, "p": None,
                 "significant": None, "among_best": None},
                "not measured: %s has no figures in this pass" % variant)
    w = dec.cells[dec.winner]
    c = dec.cells[variant]
    f = {"status": "measured", "delta_pct": round(100 * r.delta, 2)
         if r.delta is not None else None, "p": r.p,
         "significant": r.state == "slower", "among_best": r.as_good,
         "test": r.test, "why": r.reason,
         "cost_pct": None if r.state in ("same", "tie") or r.delta is None
         else round(100 * r.delta, 2)}
    if r.state in ("same", "tie", "faster"):
        rec = "keep"
    elif r.state == "slower":
        saves = 100 * (c.median - w.median) / c.median
        rec = "switch to %s (saves %.1f%%)" % (dec.winner, saves)
        if unordered(cand.function, dec.winner):
            rec += "; but %s has no SFENCE: its stores are not ordered, " \
                   "and the time leaves their completion out" % dec.winner
    elif r.test == "epochs":
        rec = "undecided: %s" % r.reason
    elif r.state == "untested":
        rec = "undecided: aggregated figures, no test"
    elif r.reps_needed is None:
        rec = "undecided: no rank difference at these reps"
    else:
        rec = "undecided: run with reps>=%d" % r.reps_needed
    return f, rec


def pick_entries(tabs, function):
    return [(k, e) for k in R.KERNELS for e in tabs.entries(k)
            if any(p.measured == function for p in tabs.picks
                   if p.kernel == k and p.entry == e)]


def own_routine(dec, cand, row):
    """In a log of the module, the running kernel's own routine for the
    entry (kernel_ENTRY), judged against the winner like the pick."""
    own = OWN_PREFIX + row["entry"]
    if row["kernel"] != "linux" or own not in dec.cells:
        return
    f, rec = judge(dec, own, cand)
    row["own"] = dict(f, variant=own, recommendation=rec)


def decision_picks(tabs, dec, cand, facts, versions, own=None):
    out = []
    for k, e in pick_entries(tabs, cand.function):
        for pk in R.picks(tabs, k, e, facts, versions.get(k),
                          own if k == "linux" else None):
            row = {"kernel": k, "version": pk.version, "entry": e}
            if pk.rule is None:
                row.update({"status": "unknown", "rule": None,
                            "routine": None, "variant": None,
                            "needs": pk.unknown.needs, "cost_pct": None,
                            "p": None, "significant": None,
                            "among_best": None})
                alts = []
                for assume, r in pk.alternatives:
                    a = {"assuming": assume, "routine": r.routine,
                         "variant": r.variant, "source": "%s:%d" % (
                             os.path.relpath(r.source, ROOT), r.line)}
                    if r.needs_variant:
                        a["recommendation"] = "not measured: needs variant %s" \
                            % r.needs_variant
                    else:
                        fa, reca = judge(dec, r.variant, cand)
                        a.update(fa)
                        a["recommendation"] = reca
                    alts.append(a)
                row["alternatives"] = alts
                row["recommendation"] = "unknown: needs %s" % ", ".join(
                    pk.unknown.needs)
                out.append(row)
                continue
            r = pk.rule
            row.update({"rule": "%s -> %s" % (
                " ".join(a.text for a in r.condition) or "*", r.routine),
                "routine": r.routine, "source": "%s:%d" % (
                    os.path.relpath(r.source, ROOT), r.line),
                "cite": r.cite})
            if r.needs_variant:
                row.update({"status": "needs-variant", "variant": None,
                            "needs_variant": r.needs_variant,
                            "cost_pct": None, "p": None,
                            "significant": None, "among_best": None})
                row["recommendation"] = "not measured: needs variant %s" % \
                    r.needs_variant
            else:
                row["variant"] = r.variant
                f, rec = judge(dec, r.variant, cand)
                row.update(f)
                row["recommendation"] = rec
            own_routine(dec, cand, row)
            out.append(row)
    return out


def running(m, tabs, versions):
    """(versions, own flags, JSON) for a log of the module: the running
    Linux is the one version asked about unless --linux names another,
    and for it its own flags replace the synthetic rows."""
    rk = R.running_kernel(m, tabs)
    if rk is None:
        return versions, None, None
    version, flags = rk
    if version is not None and "linux" not in versions:
        versions = dict(versions, linux=version)
    used = version is not None and versions.get("linux") == version
    return versions, flags if used else None, {
        "release": m.facts["module"]["release"],
        "version": R.vtext(version) if version is not None else None,
        "flags": flags, "flags_used": used}


def machine_verdict(m, alpha, versions, tabs=None, functions=FUNCTIONS):
    tabs = tabs or R.tables()
    facts, src = R.machine_facts(m)
    versions, own, rk = running(m, tabs, versions)
    decisions = []
    for fn in functions:
        for cand in candidates(m, fn):
            dec = D.Decision(cand.cells, alpha, cand.tie)
            w = dec.cells[dec.winner]
            d = {"function": fn, "pass": cand.label, "winner": dec.winner,
                 "best": dec.best, "decidable": dec.decidable,
                 "why": dec.why(), "reps_needed": dec.reps_needed,
                 "n": w.n, "winner_median": w.median, "unit": "ticks",
                 "measure": cand.what,
                 "relations": {v: rel_json(dec.relations[v])
                               for v in dec.ranked if v != dec.winner},
                 "log_names": {v: o for v, o in cand.names.items() if v != o},
                 "picks": decision_picks(tabs, dec, cand, facts, versions,
                                         own)}
            d["with_use"] = nextuse.view_json(m, cand, dec.winner, d["picks"],
                                              alpha, judge, rel_json)
            d["paired"] = paired.view_json(cand, dec.winner, d["picks"],
                                           alpha, judge, rel_json)
            decisions.append(d)
    return {"machine": m.name, "source": m.source, "format": m.format,
            "caveat": caveat(m), "runs_on": runs_on(m),
            "features": facts, "fact_sources": src,
            "running_kernel": rk,
            # The log's own decisions (docs/log-format.md, "The answer").
            "answers": [a.to_json() for a in m.answers],
            "kernel_view": {k: [{"version": e, "flags": v} for e, v in rows]
                            for k, rows in kernel_view(tabs, facts, versions,
                                                       own).items()},
            "decisions": decisions}


def runs_on(m):
    """What ran the log: its hot load line's "cpu", "emulator" or "tcg";
    "tcg" from the hypervisor line of a log without one; else None."""
    h = m.facts.get("hot_load") or {}
    if h.get("runs_on"):
        return h["runs_on"]
    if (m.facts.get("hypervisor") or "").strip().startswith("TCG"):
        return "tcg"
    return None


def caveat(m):
    """Why the figures may not be a CPU's, where the log itself shows it."""
    hv = (m.facts.get("hypervisor") or "").strip()
    if hv.startswith("TCG"):
        return ("hypervisor %s: the figures measure QEMU's TCG translator, "
                "not a CPU" % hv)
    h = m.facts.get("hot_load") or {}
    if h.get("runs_on") == "emulator":
        return ("hot load %.2f ns, where a CPU's takes a few: the figures "
                "measure an instruction emulator, not a CPU" % h["ns"])
    return None


# -- text -------------------------------------------------------------------

def cpu_text(v):
    f = v["features"]
    if "vendor" in f:
        s = "%s family 0x%x model 0x%x stepping %d" % (
            f["vendor"], f["family"], f["model"], f["stepping"])
    else:
        s = "vendor, family and model unknown (the log has no cpu line)"
    bits = " ".join("%s=%s" % (k, f[k]) for k in
                    ("erms", "fsrm", "fsrs", "fzrm", "clzero", "clflush",
                     "avx512f", "fast_string") if k in f)
    if not any(src == "features line" for src in v["fact_sources"].values()):
        s += "; the log has no features line: picks that read a feature " \
             "bit it lacks are unknown"
    return s + ("; " + bits if bits else "")


def pick_text(p):
    head = "%s %s %s" % (p["kernel"], p["version"], p["entry"])
    if p["status"] == "unknown":
        s = "%s: unknown, needs %s" % (head, ", ".join(p["needs"]))
        for a in p.get("alternatives", []):
            s += "\n      if %s: %s = %s: %s" % (
                a["assuming"], a["routine"], a.get("variant"),
                a["recommendation"] if a.get("status") != "measured" else
                "%s -> %s" % (cost_text(a), a["recommendation"]))
        return s
    if p["status"] == "needs-variant":
        return "%s: %s: needs variant %s (none runs it yet)" % (
            head, p["routine"], p["needs_variant"])
    if p["status"] == "not-measured":
        return "%s: %s = %s: %s" % (head, p["routine"], p["variant"],
                                   p["recommendation"])
    s = "%s: %s = %s: %s -> %s" % (head, p["routine"], p["variant"],
                                  cost_text(p), p["recommendation"])
    if p.get("own"):
        o = p["own"]
        s += "\n      the running kernel's own %s(), %s: %s -> %s" % (
            p["entry"], o["variant"], cost_text(o) if o["status"] == "measured"
            else "not measured", o["recommendation"])
    return s


def cost_text(p):
    if p.get("cost_pct") is None:
        d = p.get("delta_pct")
        return "cost none (%s)" % ("equal medians" if not d else
                                   "%+.1f%%, %s" % (d, p["why"]))
    s = "cost %+.1f%%" % p["cost_pct"]
    if p.get("p") is not None:
        s += " p=%.2g" % p["p"]
    if not p.get("significant"):
        s += " not significant (%s)" % p["why"]
    return s


FOOTER = ("cost: the pick's median against the winner's; none when "
          "it is as good as the winner (within noise, or not "
          "separated at these reps). Rules: rules/selection.rules, "
          "rules/synthetic.rules; see docs/report.md.")


def text(verdicts, footer=True):
    out = []
    for v in verdicts:
        out.append("== %s" % v["machine"])
        if v.get("caveat"):
            out.append("note: " + v["caveat"])
        out.append("cpu: " + cpu_text(v))
        rk = v.get("running_kernel")
        if rk:
            out.append("ran in: linux %s (pagebench.ko); %s" % (
                rk["release"], "its own flags replace the synthetic rules' "
                "for %s" % rk["version"] if rk["flags_used"] else
                "its own flags are not used: %s" % (
                    "no rule covers it" if rk["version"] is None else
                    "--linux asks about another version")))
        for k, rows in v["kernel_view"].items():
            out.append("%s view: " % k + "; ".join(
                "%s %s" % (e["version"], " ".join(
                    "%s=%s" % kv for kv in sorted(e["flags"].items()))
                    or "(reads no flag)")
                for e in rows))
        last = None
        for d in v["decisions"]:
            if d["function"] != last:
                out.append("")
                out.append("%s (%s)" % (d["function"], d["measure"]))
                last = d["function"]
            peers = [b for b in d["best"] if b != d["winner"]]
            out.append("  %s: winner %s (median %s ticks, n=%d)%s" % (
                d["pass"], d["winner"], fmt_num(d["winner_median"]), d["n"],
                "; as good: " + ", ".join(
                    "%s (%s)" % (b, d["relations"][b]["why"]) for b in peers)
                if peers else ""))
            out.append("    %s: %s" % (
                "decided" if d["decidable"] else "undecided", d["why"]) + (
                "" if d["decidable"] or d["reps_needed"] is None else
                "; run with reps>=%d" % d["reps_needed"]))
            for p in d["picks"]:
                out.append("    " + pick_text(p))
            if d.get("with_use"):
                out += nextuse.text_lines(d["with_use"], fmt_num, cost_text)
            if d.get("paired"):
                out += paired.text_lines(d["paired"], cost_text)
        out.append("")
    if footer:
        out.append(FOOTER)
    return "\n".join(out) + "\n"


def fmt_num(x):
    if abs(x) >= 100:
        return "%d" % round(x)
    return "%.2f" % x


def to_json(verdicts, fleet_rows):
    return json.dumps({"format": "pagebench-report-verdict/1",
                       "machines": verdicts, "fleet": fleet_rows},
                      indent=1, sort_keys=False) + "\n"
