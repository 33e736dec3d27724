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


def interval_text(c, unit=A.TICKS):
    """"[lo, hi]" of a cell with an interval."""
    return "[%s, %s]" % (num(c.lo, unit), num(c.hi, unit))


def change_text(v):
    """"[+1.20%, +5.00%]": the 95% interval of a comparison's change (its
    ratio - 1, versus.Versus), or "-" without one."""
    if v is None or not v.has_interval:
        return "-"
    return "[%s, %s]" % (pct(v.lo - 1), pct(v.hi - 1))


def sig_text(v):
    """Words about a comparison (versus.Versus): the engine's ratio, its
    interval and where 1 lies."""
    if v is None:
        return ""
    if v.median is None:
        return "no comparison: %s" % v.why
    if not v.has_interval:
        return "ratio %.4f (%s)" % (v.median, v.why)
    return "ratio %.4f [%.4f, %.4f] over %d epochs: %s" % (
        v.median, v.lo, v.hi, v.epochs,
        "below 1" if v.below(1) else "above 1" if v.above(1) else
        "it holds 1, within noise")
