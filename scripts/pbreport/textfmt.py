"""Numbers and tables as the text reports write them: shared by textout.py
(summary, diff, winners) and strings.py (suite=strings's part of them),
below both, so that neither has to import the other."""
from . import analysis as A


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


def interval_text(c, unit=A.TICKS):
    """"[lo, hi]" of a cell with an interval."""
    return "[%s, %s]" % (num(c.lo, unit), num(c.hi, unit))


def sig_text(cmp, alpha):
    """Words about the significance of a comparison."""
    if cmp is None:
        return ""
    if cmp.by_epochs:
        s = "95%% intervals %s and %s %s (%d+%d epochs)" % (
            interval_text(cmp.base), interval_text(cmp.other),
            "overlap" if cmp.base.overlaps(cmp.other) else "apart",
            cmp.base.epochs, cmp.other.epochs)
    elif cmp.test is None:
        s = "no test: the copy-hot/copy-cold figures come aggregated"
    else:
        n = "n=%d+%d" % (cmp.base.n, cmp.other.n)
        if cmp.significant:
            s = "significant (p=%s < %g, %s)" % (pval(cmp.p), alpha, n)
        else:
            s = "not significant (p=%s >= %g, %s)" % (pval(cmp.p), alpha, n)
            if not cmp.can_reach:
                s += "; with these n the smallest possible p is %s" % \
                    pval(cmp.min_p)
    if cmp.below_resolution:
        s += "; the medians are within %d timer steps of %s ticks per call: " \
             "below the timer's resolution" % (
                 A.FEW_STEPS, num(max(q for q in (cmp.base.quantum,
                                                  cmp.other.quantum) if q)))
    return s
