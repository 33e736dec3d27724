"""Plain-text reports: summary, diff and winners tables. The winner of a
page pass is its answer lines' (picks.columns: a column per kernel pick,
merged where picks of one variant agree), never decided here."""
import re

from . import analysis as A
from . import facts as F
from . import picks
from . import scrub
from . import strings as S
from .answer import PAGE, ZERO_NS
from . import engine, versus
from .parse import PASS_IDS, pass_bytes, pass_label
# The cell and number formats every text report shares (textfmt.py).
from .textfmt import change_text, interval_text, num, pct, sig_text, table  # noqa: F401


# -- summary ---------------------------------------------------------------

def summary(machines, tie=S.DEFAULT_TIE):
    return "\n".join(summary_parts(machines, tie))


def summary_parts(machines, tie=S.DEFAULT_TIE):
    """summary's text a machine at a time, to be joined by newlines, so
    that a large log's whole report is never held at once."""
    for m in machines:
        out = []
        out.append("== %s" % m.name)
        w = max(len(k) for k, _ in F.facts(m))
        for k, v in F.facts(m):
            out.append("%s  %s" % ((k + ":").ljust(w + 1), v))
        for line, text in m.failures:
            out.append("FAILURE  line %d: %s" % (line, text))
        out.extend(variant_lines(m))
        for p in m.ordered_passes():
            out.append("")
            out.append(pass_table(m, p))
        out.extend(scrub.summary_lines(m))
        strings = S.summary(m, tie)
        if strings:
            out += ["", strings] + strings_answer_lines(m)
        out.append("")
        m.forget_derived()
        yield "\n".join(out)


def variant_lines(m):
    """What each variant does, as the log's `variant` lines say."""
    vs = m.facts.get("variant")
    if not vs:
        return []
    rows = [["table", "variant", "shape", "store", "needs", "what"]]
    rows += [[v["op"], v["name"], v["shape"], v["store"], v["needs"],
              v["what"]] for v in vs]
    return ["", "-- variants", table(rows)]


def pass_head(m, p):
    b = pass_bytes(m, p.suite, p.name)
    if p.name in ("hot", "cold"):
        what = "ticks per 4 KiB page copy, n/min/median/max as the log gives them"
    elif b is None:
        what = "bytes per call unknown (cache size not in the log)"
    else:
        what = "%s per call (%d pages)" % (F.describe_bytes(b), b // 4096)
    return "-- %s  [%s]" % (pass_label(p.suite, p.name), what)


def pass_table(m, p):
    # ns per 4 KiB page, the one unit people read (ticks stay per call).
    b = pass_bytes(m, p.suite, p.name)
    f = A.ns_per_tick(m) * PAGE / b if A.ns_per_tick(m) and b else None
    rank = A.ranking(m, p)
    stat = any(c.epochs is not None for _, _, c in rank)
    ref = p.ratio_ref
    out = [pass_head(m, p)]
    if p.aggregates and not p.samples:
        head = ["rank", "variant", "n", "min", "median", "max"]
        if stat:
            head += ["epochs", "batch", "time", "95% interval"]
        if ref:
            head += ["x " + ref]
        head += ["B/tick"]
        if f:
            head += ["time ns/page" if stat else "median ns/page", "GB/s"]
        rows = [head]
        for r, v, c in rank:
            a = p.aggregates.get(v)
            tp = A.throughput(m, p, c.median)
            row = [str(r), v + ("!" if c.failed else "")]
            row += [str(a.n), num(a.min), num(a.median), num(a.max)] if a \
                else ["-"] * 4
            if stat:
                row += stat_cells(c)
            if ref:
                row += [ratio_text(p, v, ref)]
            row += ["%.3f" % tp[0] if tp else "unknown"]
            if f:
                row += [num(c.median * f, A.NS),
                        "%.2f" % tp[1] if tp and tp[1] else "unknown"]
            rows.append(row)
        out.append(table(rows, right=set(range(2, len(head))) | {0}))
    else:
        use = any(A.raw_cell(m, p, v, "use") for _, v, _ in rank)
        head = ["rank", "variant", "n"]
        if stat:
            head += ["epochs", "batch"]
        head += ["pre", "time"]
        if stat:
            head += ["95% interval"]
        if ref:
            head += ["x " + ref]
        head += ["post"] + (["use"] if use else []) + ["min-max", "IQR", "B/tick"]
        if f:
            head += ["pre ns/page", "time ns/page", "post ns/page"] + \
                (["use ns/page"] if use else []) + ["GB/s"]
        rows = [head]
        for r, v, c in rank:
            pre = A.raw_cell(m, p, v, "pre")
            post = A.raw_cell(m, p, v, "post")
            u = A.raw_cell(m, p, v, "use") if use else None
            tp = A.throughput(m, p, c.median)
            row = [str(r), v + ("!" if c.failed else ""), str(c.n)]
            if stat:
                row += stat_cells(c)[:2]
            row += [num(pre.median if pre else None), num(c.median)]
            if stat:
                row += [stat_cells(c)[3]]
            if ref:
                row += [ratio_text(p, v, ref)]
            row += [num(post.median if post else None)]
            if use:
                row += [num(u.median if u else None)]
            row += ["%s-%s" % (num(c.min), num(c.max)),
                    num(c.iqr) if c.iqr is not None else "-",
                    "%.3f" % tp[0] if tp else "unknown"]
            if f:
                row += [num(pre.median * f if pre else None, A.NS),
                        num(c.median * f, A.NS),
                        num(post.median * f if post else None, A.NS)]
                if use:
                    row += [num(u.median * f if u else None, A.NS)]
                row += ["%.2f" % tp[1] if tp and tp[1] else "unknown"]
            rows.append(row)
        out.append(table(rows, right=set(range(2, len(head))) | {0}))
        if use:
            out.append("use: reading the destination back right after the "
                       "call, in the probe's order (ticks, once an epoch): "
                       "what the next user of the page pays")
    out += answer_lines(m, p)
    if stat:
        out.append(stat_legend(m, p))
    if ref:
        out.append("x %s: the variant's time over %s's, epoch by epoch (ratio "
                   "lines), and where a rerun's ratio falls 95%% of the time; "
                   "what the whole machine did to both cancels in it" % (ref, ref))
    if any(c.failed for _, _, c in rank):
        out.append("! this variant failed verification in this pass")
    return "\n".join(out)


def ratio_text(p, v, ref):
    """A variant's ratio to the reference, with its interval."""
    if v == ref:
        return "1"
    r = p.ratios.get((v, ref))
    if r is None:
        return "-"
    if not r.has_interval:
        return "%.4f" % r.median
    return "%.4f [%.4f, %.4f]" % (r.median, r.lo, r.hi)


def stat_cells(c):
    """epochs, batch, time and 95% interval of a cell from a stat line."""
    if c.epochs is None:
        return ["-", "-", "-", "-"]
    return [str(c.epochs), str(c.batch), num(c.median),
            interval_text(c) if c.has_interval else "none"]


def stat_legend(m, p):
    stops = sorted({st.stop for st in p.stats.values()})
    return ("time: the median of the epochs' medians (stat lines), ticks per "
            "call; 95%% interval: where a rerun's median falls 95%% of the "
            "time; batch: calls per timed sample; stopped by: %s" %
            ", ".join(stops))


PASS_ID_OF = {name: pid for pid, name in PASS_IDS.items()}
SUITE_FNS = dict(picks.SUITE_FNS)


def pass_columns(m, suite, pid):
    """[(Column, Answer)]: the answers of one pass, by matrix column."""
    out = []
    for fn in SUITE_FNS.get(suite, ()):
        for c in picks.columns(m.answers, fn):
            a = c.answers.get((pid, None))
            if a is not None:
                out.append((c, a))
    return out


def judged(m, c, row):
    """The picks of column c that an answer line judges in row: a merged
    column may hold a cold entry that the hot passes do not judge."""
    keys = {(a.kernel, a.versions, a.entry) for a in m.answers
            if a.fn == c.fn and a.row == row}
    return ", ".join(w.text(c.fn) for w in c.who
                     if (w.kernel, w.versions, w.entry) in keys)


def figure_text(a, name, ns, gbps):
    if ns is None:
        return name
    if not ns:
        return "%s %s" % (name, ZERO_NS)
    if a.per_call:
        return "%s %.1f ns/call" % (name, ns)
    return "%s %.1f ns/page %.2f GB/s" % (name, ns, gbps)


def decision_text(a):
    """"switch to avx512_t −20.5% (9.0–31.9)", "keep stosb", ..."""
    if a.action == "switch":
        return "switch to %s %s" % (a.routine, picks.saving_text(a.saving_pct))
    if a.action == "keep":
        return "keep %s" % (a.pick or "-")
    if a.action == "undecided":
        return "undecided (%s in doubt, epochs>=%s would decide)" % (
            a.routine, a.need_epochs)
    return "no recommendation (%s)" % a.why


def scrub_step_id(name):
    """The answer lines' pass= of a scrub step: "cpus=4 remote" is cpus4_remote."""
    mt = re.match(r"cpus=(\d+)( remote)?$", name)
    return mt and "cpus%s%s" % (mt.group(1), "_remote" if mt.group(2) else "")


def strings_answer_lines(m):
    """memset and memcpy: each mode and size class's answers, one line per
    column of the verdict screen; the leaders above only describe."""
    out = []
    for fn in ("memset", "memcpy"):
        for c in picks.columns(m.answers, fn):
            for row in sorted(c.answers, key=picks.row_order):
                a = c.answers[row]
                s = "answer %s %s %d-%d, %s: %s" % (
                    fn, row[0], row[1][0], row[1][1], judged(m, c, row),
                    decision_text(a))
                if a.pick_ns is not None:
                    s += "; %s -> %s" % (
                        figure_text(a, a.pick or "-", a.pick_ns, a.pick_gbps),
                        figure_text(a, a.routine or "-", a.routine_ns,
                                    a.routine_gbps))
                out.append(s + ("*" if a.fpu_unmeasured or a.unpriced else ""))
    if not out:
        return ["answer: none for memset or memcpy (%s)" % (
            "the log has no answer lines and pagebench-decide made none"
            if not m.answers else "no answer line names them")]
    return out


def answer_lines(m, p):
    """The pass's answers, one line per column of the verdict screen:
    its picks, the decision, the pick's and the routine's figures."""
    pid = PASS_ID_OF.get(p.name)
    if p.suite == "scrub":
        pid = scrub_step_id(p.name)
    cols = pass_columns(m, p.suite, pid) if pid else []
    if not cols:
        return ["answer: none for this pass (%s)" % (
            "the log has no answer lines and pagebench-decide made none"
            if not m.answers else "no answer line names it")]
    out = []
    for c, a in cols:
        s = "answer %s, %s: %s" % (c.fn, judged(m, c, (pid, None)),
                                   decision_text(a))
        if a.pick_ns is not None:
            s += "; %s -> %s" % (
                figure_text(a, a.pick or "-", a.pick_ns, a.pick_gbps),
                figure_text(a, a.routine or "-", a.routine_ns, a.routine_gbps))
        out.append(s + ("*" if a.fpu_unmeasured or a.unpriced else ""))
    return out


# -- diff ------------------------------------------------------------------

def spread_pct(c, how):
    """The +- part of a cell, relative to the median: half its 95%
    interval where it has one, else half its IQR or range."""
    if not c.median:
        return None
    if c.has_interval:
        return c.half / abs(c.median)
    if c.min is None or c.max is None:
        return None
    if how == "range" or c.iqr is None:
        half = (c.max - c.min) / 2
    else:
        half = c.iqr / 2
    return half / abs(c.median)


def cell_text(c, unit, how):
    if c is None:
        return "-"
    s = spread_pct(c, how)
    t = num(c.median, unit)
    if s is not None:
        t += (" ±%.1f%%" if s < 0.1 else " ±%.0f%%") % (100 * s)
    if c.values is None:
        t += " (agg)"
    if c.failed:
        t += " !"
    return t


def delta_text(v):
    """A vs cell: the change (the engine's ratio of the two, epoch by
    epoch, - 1), a marker, and the change's 95% interval and the epochs;
    " " where the interval lies on one side of 1, "~" where it holds 1,
    "?" where there is none, and why."""
    if v is None:
        return "-"
    if v.median is None or not v.has_interval:
        return "%8s ? (%s)" % (pct(v.delta), v.why)
    return "%8s %s %s (epochs %d)" % (pct(v.delta), " " if v.faster else "~",
                                      change_text(v), v.epochs)


class DiffResult:
    def __init__(self):
        self.text = ""
        self.warnings = []


def written(rows):
    """rows with each vs cell (a versus.Versus, or None) in words."""
    return [[delta_text(x) if not isinstance(x, str) else x for x in r] for r in rows]


def diff(machines, metrics, unit, how="iqr"):
    res = DiffResult()
    tables = []
    base = machines[0]
    batch = versus.Batch()
    for metric in metrics:
        rows = []
        head = ["suite", "pass", "variant", base.name]
        for m in machines[1:]:
            head += [m.name, "vs " + base.name]
        for key in A.pass_keys(machines):
            if metric != "time" and key[1] in ("hot", "cold"):
                continue
            for v in A.variants_of(machines, key):
                cells = []
                for m in machines:
                    p = m.passes.get(key)
                    cells.append(A.cell(m, p, v, metric, unit) if p else None)
                if all(c is None for c in cells):
                    continue
                row = [key[0], pass_label(*key), v, cell_text(cells[0], unit, how)]
                cmps = iter(batch.versus(cells[0], [c for c in cells[1:] if c is not None])
                            if cells[0] is not None else [])
                for c in cells[1:]:
                    row += [cell_text(c, unit, how),
                            next(cmps) if c is not None and cells[0] is not None else None]
                rows.append(row)
        if len(rows) == 0:
            continue
        title = "%s (%s)" % ({"time": "variant time", "pre": "pre probe",
                              "post": "post probe",
                              "use": "use probe"}[metric],
                             unit.label if unit != A.RATIO else
                             "ratio to the best variant of the same machine "
                             "and pass")
        tables.append((title, head, rows, {3} | set(range(4, len(head), 2))))
    # Strings figures are per call whatever the pass sizes.
    strings = S.diff(machines, batch, getattr(unit, "base", unit), how, cell_text)
    if strings:
        title, head, rows = strings
        tables.append((title, head, rows, {4} | set(range(5, len(head), 2))))
    batch.run()
    if not engine.available():
        res.warnings.append("%s is not built (make): no comparisons" % engine.TOOL)
    out = []
    for title, head, rows, right in tables:
        out += [title, table([head] + written(rows), right=right), ""]
    out.append("cells: median ±%s relative to the median, or ±half its 95%% "
               "interval where a stat line gives one; (agg): "
               "copy-hot/copy-cold figures as the log gives them, ± half "
               "their range; !: failed verification. vs: the change against "
               "%s, the engine's ratio of the two, epoch by epoch (a log "
               "without epochs: rep by rep), - 1, with its 95%% interval "
               "(pagebench-decide --compare); ~ = the interval holds 0, "
               "within noise; ? = no interval, and why" % (
                   "half the IQR" if how == "iqr" else "half the range",
                   base.name))
    res.text = "\n".join(out)
    return res


# -- winners ---------------------------------------------------------------

def ns_cell(a, ns):
    return "-" if ns is None else "%.1f" % ns


def gbps_cell(a, ns):
    return "-" if ns is None or a.per_call or not ns else "%.2f" % (PAGE / ns)


WINNER_HEAD = ["fn", "pass", "machine", "picks", "pick", "decision", "routine",
               "saving", "pick ns", "GB/s", "routine ns", "GB/s", "unit"]


def winner_rows(m):
    """[(answer, cells)]: one per function, pass and verdict-screen column of
    a machine, the answer's decision and its pick's and routine's figures
    (the rows of winners, and of the HTML page's winners table)."""
    out = []
    for _, fns in picks.SUITE_FNS:
        for fn in fns:
            cols = picks.columns(m.answers, fn)
            for row in sorted({r for c in cols for r in c.answers},
                              key=picks.row_order):
                for c in cols:
                    a = c.answers.get(row)
                    if a is None:
                        continue
                    s = a.saving_pct
                    out.append((a, [
                        fn, picks.row_text(row), m.name, judged(m, c, row),
                        a.pick or "-",
                        a.action if a.action != "none" else
                        "none: " + (a.why or "?"),
                        (a.routine or "-") + ("*" if a.fpu_unmeasured or a.unpriced else ""),
                        "%.1f%%" % s.median if s and a.action == "switch"
                        else "-",
                        ns_cell(a, a.pick_ns), gbps_cell(a, a.pick_ns),
                        ns_cell(a, a.routine_ns), gbps_cell(a, a.routine_ns),
                        a.unit]))
    return out


def winners(machines):
    """One row per machine, function, pass and verdict-screen column: the
    answer's decision and the figures of its pick and routine."""
    rows = [WINNER_HEAD]
    without = []
    for m in machines:
        if not m.answers:
            without.append(m.name)
            continue
        rows += [cells for _, cells in winner_rows(m)]
    out = table(rows, right={7, 8, 9, 10, 11}) if len(rows) > 1 else \
        "no answers"
    legend = ("the answer lines' decisions (the log's, or pagebench-decide's "
              "for a log without them), one row per column of the verdict "
              "screen: decision keep, switch (saving: 1 - the routine's time "
              "over the pick's, median of the epochs), undecided, or none and "
              "why; ns per 4 KiB page and GB/s (4096 bytes over ns), "
              "memset/memcpy ns per call; *: a vector routine saves more before "
              "the price of vector registers, which the log does not carry "
              "(older logs: fpu=?, needs kernel_fpu_begin/end, its "
              "cost not measured)")
    if without:
        legend += "\nno answers: %s (see verdict)" % ", ".join(without)
    return out + "\n\n" + legend
