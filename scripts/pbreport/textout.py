"""Plain-text reports: summary, diff and winners tables."""
from . import analysis as A
from . import facts as F
from . import scrub
from . import strings as S
from .parse import pass_bytes, pass_label


def table(rows, right=None, indent=""):
    """rows: lists of strings, the first the header. right: set of column
    indexes to right-align (numbers)."""
    right = right or set()
    widths = [0] * max(len(r) for r in rows)
    for r in rows:
        for i, c in enumerate(r):
            widths[i] = max(widths[i], len(c))
    out = []
    for r in rows:
        cells = []
        for i, c in enumerate(r):
            cells.append(c.rjust(widths[i]) if i in right else
                         c.ljust(widths[i]))
        out.append((indent + "  ".join(cells)).rstrip())
    return "\n".join(out)


def num(v, unit=A.TICKS):
    """A number for a table: whole ticks, 4 significant digits in ns."""
    if v is None:
        return "-"
    if unit == A.RATIO:
        return "%.3f" % v
    if unit == A.TICKS and float(v).is_integer():
        return "%d" % v
    a = abs(v)
    if a >= 1000:
        return "%.0f" % v
    if a >= 100:
        return "%.1f" % v
    if a >= 10:
        return "%.2f" % v
    return "%.3f" % v


def pct(v):
    return "-" if v is None else "%+.2f%%" % (100 * v)


def pval(p):
    if p is None:
        return "-"
    if p < 0.001:
        return "%.1e" % p
    return "%.3f" % p


def sig_text(cmp, alpha):
    """Words about the significance of a comparison."""
    if cmp is None:
        return ""
    if cmp.test is None:
        return "no test: the copy-hot/copy-cold figures come aggregated"
    n = "n=%d+%d" % (cmp.base.n, cmp.other.n)
    if cmp.significant:
        return "significant (p=%s < %g, %s)" % (pval(cmp.p), alpha, n)
    s = "not significant (p=%s >= %g, %s)" % (pval(cmp.p), alpha, n)
    if not cmp.can_reach:
        s += "; with these n the smallest possible p is %s" % pval(cmp.min_p)
    return s


# -- summary ---------------------------------------------------------------

def summary(machines, alpha, tie=S.DEFAULT_TIE):
    out = []
    for m in machines:
        out.append("== %s" % m.name)
        w = max(len(k) for k, _ in F.facts(m))
        for k, v in F.facts(m):
            out.append("%s  %s" % ((k + ":").ljust(w + 1), v))
        for line, text in m.failures:
            out.append("FAILURE  line %d: %s" % (line, text))
        out.extend(variant_lines(m))
        for p in m.ordered_passes():
            out.append("")
            out.append(pass_table(m, p, alpha))
        out.extend(scrub.summary_lines(m))
        strings = S.summary(m, alpha, tie)
        if strings:
            out += ["", strings]
        out.append("")
    return "\n".join(out)


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


def pass_table(m, p, alpha):
    f = A.ns_per_tick(m)
    rank = A.ranking(m, p)
    out = [pass_head(m, p)]
    if p.aggregates and not p.samples:
        head = ["rank", "variant", "n", "min", "median", "max", "B/tick"]
        if f:
            head += ["median ns", "GB/s"]
        rows = [head]
        for r, v, c in rank:
            tp = A.throughput(m, p, c.median)
            row = [str(r), v + ("!" if c.failed else ""), str(c.n), num(c.min),
                   num(c.median), num(c.max),
                   "%.3f" % tp[0] if tp else "unknown"]
            if f:
                row += [num(c.median * f, A.NS),
                        "%.2f" % tp[1] if tp and tp[1] else "unknown"]
            rows.append(row)
        out.append(table(rows, right=set(range(2, len(head))) | {0}))
    else:
        head = ["rank", "variant", "n", "pre", "time", "post", "min-max",
                "IQR", "B/tick"]
        if f:
            head += ["pre ns", "time ns", "post ns", "GB/s"]
        rows = [head]
        for r, v, c in rank:
            pre = A.raw_cell(m, p, v, "pre")
            post = A.raw_cell(m, p, v, "post")
            tp = A.throughput(m, p, c.median)
            row = [str(r), v + ("!" if c.failed else ""), str(c.n),
                   num(pre.median if pre else None), num(c.median),
                   num(post.median if post else None),
                   "%s-%s" % (num(c.min), num(c.max)),
                   num(c.iqr) if c.iqr is not None else "-",
                   "%.3f" % tp[0] if tp else "unknown"]
            if f:
                row += [num(pre.median * f if pre else None, A.NS),
                        num(c.median * f, A.NS),
                        num(post.median * f if post else None, A.NS),
                        "%.2f" % tp[1] if tp and tp[1] else "unknown"]
            rows.append(row)
        out.append(table(rows, right=set(range(2, len(head))) | {0}))
    out.append(winner_line(A.Winner(m, p, alpha), alpha))
    if any(c.failed for _, _, c in rank):
        out.append("! this variant failed verification in this pass")
    return "\n".join(out)


def winner_line(w, alpha):
    if w.variant is None:
        return "winner: none"
    if w.runner_up is None:
        return "winner: %s (the only variant)" % w.variant
    if w.margin is None:
        return "winner: %s; runner-up %s (margin unknown: median 0); %s" % (
            w.variant, w.runner_up, sig_text(w.cmp, alpha))
    return "winner: %s; runner-up %s is %.2f%% slower; %s" % (
        w.variant, w.runner_up, 100 * w.margin, sig_text(w.cmp, alpha))


# -- diff ------------------------------------------------------------------

def spread_pct(c, how):
    """The +- part of a cell, relative to the median."""
    if not c.median:
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


def delta_text(cmp):
    if cmp is None:
        return "-"
    if cmp.delta is None:
        return "?"
    if cmp.test is None:
        return "%8s ? (aggregated: no test)" % pct(cmp.delta)
    n = "n=%d+%d" % (cmp.base.n, cmp.other.n)
    return "%8s %s (p=%s %s)" % (pct(cmp.delta),
                                 " " if cmp.significant else "~",
                                 pval(cmp.p), n)


class DiffResult:
    def __init__(self):
        self.text = ""
        self.warnings = []
        self.comparisons = []      # (metric, key, variant, machine, Comparison)


def diff(machines, alpha, metrics, unit, how="iqr"):
    res = DiffResult()
    out = []
    base = machines[0]
    small = {}
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
                for m, c in zip(machines[1:], cells[1:]):
                    cmp = None
                    if c is not None and cells[0] is not None:
                        cmp = A.Comparison(cells[0], c, alpha)
                        res.comparisons.append((metric, key, v, m.name, cmp))
                        if cmp.test is not None and not cmp.can_reach:
                            nn = (cmp.base.n, cmp.other.n)
                            small[nn] = small.get(nn, 0) + 1
                    row += [cell_text(c, unit, how), delta_text(cmp)]
                rows.append(row)
        if len(rows) == 0:
            continue
        title = "%s (%s)" % ({"time": "variant time", "pre": "pre probe",
                              "post": "post probe"}[metric],
                             unit.label if unit != A.RATIO else
                             "ratio to the best variant of the same machine "
                             "and pass")
        out.append(title)
        right = {3} | set(range(4, len(head), 2))
        out.append(table([head] + rows, right=right))
        out.append("")
    # Strings figures are per call whatever the pass sizes.
    text, comps, more = S.diff(machines, alpha, getattr(unit, "base", unit),
                               how, cell_text,
                               delta_text, table)
    if text:
        out += [text, ""]
        res.comparisons += [("strings", key, v, name, cmp)
                            for key, _, v, name, cmp in comps]
        for nn, count in more.items():
            small[nn] = small.get(nn, 0) + count
    for (n1, n2), count in sorted(small.items()):
        from .stats import min_p
        res.warnings.append(
            "n=%d vs %d samples: the smallest possible two-sided p is %s, "
            "not below alpha=%g; %d difference%s here can never be "
            "significant (run with more reps)" % (
                n1, n2, pval(min_p(n1, n2)), alpha, count,
                "" if count == 1 else "s"))
    legend = ("cells: median ±%s relative to the median; (agg): "
              "copy-hot/copy-cold figures as the log gives them, ± half "
              "their range; !: failed "
              "verification. vs: change of the median against %s, "
              "Mann-Whitney U two-sided p; ~ = not significant at "
              "alpha=%g; ? = aggregated, no test" % (
                  "half the IQR" if how == "iqr" else "half the range",
                  base.name, alpha))
    out.append(legend)
    res.text = "\n".join(out)
    return res


# -- winners ---------------------------------------------------------------

def winners_rows(machines, alpha, unit_for):
    """[(key, machine, Winner, unit)] for every pass and machine with data."""
    rows = []
    for key in A.pass_keys(machines):
        for m in machines:
            p = m.passes.get(key)
            if p is None or not p.has_data:
                continue
            rows.append((key, m, A.Winner(m, p, alpha), unit_for(m)))
    return rows


def sig_mark(w):
    if w.cmp is None:
        return "-"
    if w.cmp.test is None:
        return "n/a"
    if w.cmp.significant:
        return "yes"
    return "~" if w.cmp.can_reach else "~ (n too small)"


def winners(machines, alpha, unit_for):
    rows = [["suite", "pass", "machine", "winner", "median", "unit",
             "runner-up", "margin", "p", "significant"]]
    for key, m, w, unit in winners_rows(machines, alpha, unit_for):
        med = w.cell.median
        if unit == A.NS:
            med = med * A.ns_per_tick(m)
        rows.append([key[0], pass_label(*key), m.name, w.variant or "-",
                     num(med, unit), unit.label, w.runner_up or "-",
                     pct(w.margin), pval(w.cmp.p if w.cmp else None),
                     sig_mark(w)])
    for op, what, m, w in S.winners_rows(machines, alpha):
        unit = unit_for(m)
        med = w.cell.median * (A.ns_per_tick(m) if unit == A.NS else 1)
        rows.append([op, what, m.name, w.variant or "-", num(med, unit),
                     unit.label + "/call", w.runner_up or "-", pct(w.margin),
                     pval(w.cmp.p if w.cmp else None), sig_mark(w)])
    legend = ("margin: how much slower the runner-up's median is; "
              "significant: Mann-Whitney U of winner against runner-up, "
              "two-sided, alpha=%g" % alpha)
    return table(rows, right={4, 7, 8}) + "\n\n" + legend
