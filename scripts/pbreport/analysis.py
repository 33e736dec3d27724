"""Numbers derived from parsed machines: per-variant statistics in a unit,
rankings, winners and comparisons. No output formatting here."""
from . import stats
from .parse import pass_bytes, pass_order

METRICS = ("time", "pre", "post")
DEFAULT_ALPHA = 0.05


class Unit:
    """How tick counts are shown: "ticks", "ns" (needs the TSC frequency) or
    "ratio" (to the best variant of the same machine and pass)."""

    def __init__(self, name):
        self.name = name

    @property
    def label(self):
        return {"ticks": "ticks", "ns": "ns", "ratio": "x best"}[self.name]

    def __eq__(self, other):
        return isinstance(other, Unit) and other.name == self.name

    def __repr__(self):
        return "Unit(%s)" % self.name


TICKS, NS, RATIO = Unit("ticks"), Unit("ns"), Unit("ratio")


class Cell:
    """Order statistics of one (machine, pass, variant, metric) in a unit.

    values is the list of samples, or None for copy-hot/copy-cold figures,
    which the kernel prints already aggregated (n, min, median, max): those
    cells have no quartiles (q1 = q3 = None)."""

    __slots__ = ("n", "min", "q1", "median", "q3", "max", "values",
                 "failed")

    def __init__(self, n, mn, q1, med, q3, mx, values, failed=False):
        self.n, self.min, self.q1, self.median = n, mn, q1, med
        self.q3, self.max, self.values, self.failed = q3, mx, values, failed

    @property
    def aggregated(self):
        return self.values is None

    @property
    def iqr(self):
        if self.q1 is None:
            return None
        return self.q3 - self.q1

    def scaled(self, f):
        sc = (lambda v: None if v is None else v * f)
        return Cell(self.n, sc(self.min), sc(self.q1), sc(self.median),
                    sc(self.q3), sc(self.max),
                    None if self.values is None else [v * f for v in self.values],
                    self.failed)


def raw_cell(m, p, variant, metric="time"):
    """Cell in ticks, or None when the pass has no such variant/metric."""
    failed = (p.suite, p.name, variant) in m.verify_failed
    if variant in p.aggregates:
        if metric != "time":
            return None
        a = p.aggregates[variant]
        return Cell(a.n, a.min, None, a.median, None, a.max, None, failed)
    attr = {"time": "ticks", "pre": "pre", "post": "post"}[metric]
    # suite=scrub's samples have no probes: pre and post are None.
    vs = [getattr(s, attr) for s in p.by_variant.get(variant, ())
          if getattr(s, attr) is not None]
    if not vs:
        return None
    sp = stats.Spread(vs)
    return Cell(sp.n, sp.min, sp.q1, sp.median, sp.q3, sp.max, vs, failed)


def ns_per_tick(m):
    khz = m.tsc_khz
    return 1e6 / khz if khz else None


def ranking(m, p):
    """[(rank, variant, time cell in ticks)] by median time; equal medians
    share a rank (1, 1, 3). Worked out once per pass: a ratio to the best
    variant needs it for every cell."""
    if "ranking" not in p.memo:
        p.memo["ranking"] = _ranking(m, p)
    return list(p.memo["ranking"])


def _ranking(m, p):
    cells = []
    for v in p.variants:
        c = raw_cell(m, p, v)
        if c is not None:
            cells.append((v, c))
    cells.sort(key=lambda vc: vc[1].median)
    out = []
    for i, (v, c) in enumerate(cells):
        if i and c.median == cells[i - 1][1].median:
            rank = out[-1][0]
        else:
            rank = i + 1
        out.append((rank, v, c))
    return out


def best_median(m, p, metric="time"):
    """Median (ticks) of metric of the variant with the lowest median time."""
    r = ranking(m, p)
    if not r:
        return None
    c = raw_cell(m, p, r[0][1], metric)
    return c.median if c else None


def cell(m, p, variant, metric, unit):
    """Cell in unit, or None (no data, or the unit cannot be had)."""
    if getattr(unit, "per_page", False):
        from . import perbyte
        return perbyte.scaled(cell(m, p, variant, metric, unit.base), m, p)
    c = raw_cell(m, p, variant, metric)
    if c is None:
        return None
    if unit == TICKS:
        return c
    if unit == NS:
        f = ns_per_tick(m)
        return c.scaled(f) if f else None
    if unit == RATIO:
        base = best_median(m, p, metric)
        return c.scaled(1.0 / base) if base else None
    raise ValueError(unit)


def throughput(m, p, ticks):
    """(bytes per tick, GB/s or None) for one call taking ticks; None when
    the size of the pass is unknown."""
    b = pass_bytes(m, p.suite, p.name)
    if b is None or not ticks:
        return None
    bpt = b / ticks
    f = ns_per_tick(m)
    return bpt, (b / (ticks * f) if f else None)


class Comparison:
    """other against base: delta = other.median / base.median - 1; p from
    the Mann-Whitney U test when both have samples."""

    def __init__(self, base, other, alpha):
        self.base, self.other, self.alpha = base, other, alpha
        self.delta = (other.median / base.median - 1) if base.median else None
        self.test = None
        if base.values is not None and other.values is not None:
            self.test = stats.mann_whitney(base.values, other.values)

    @property
    def p(self):
        return self.test.p if self.test else None

    @property
    def significant(self):
        """True/False, or None when no test could be made."""
        if self.test is None:
            return None
        return self.test.p < self.alpha

    @property
    def min_p(self):
        if self.test is None:
            return None
        return stats.min_p(self.base.n, self.other.n)

    @property
    def can_reach(self):
        """Whether these sample sizes could ever give p < alpha."""
        mp = self.min_p
        return mp is None or mp < self.alpha


class Winner:
    def __init__(self, m, p, alpha):
        self.machine, self.pass_ = m, p
        r = ranking(m, p)
        self.rank = r
        self.variant = r[0][1] if r else None
        self.cell = r[0][2] if r else None
        self.runner_up = r[1][1] if len(r) > 1 else None
        self.runner_cell = r[1][2] if len(r) > 1 else None
        self.cmp = None
        self.margin = None
        if self.runner_cell is not None:
            # base: the winner; the runner-up is margin slower.
            self.cmp = Comparison(self.cell, self.runner_cell, alpha)
            self.margin = self.cmp.delta


def pass_keys(machines):
    """Every (suite, pass name) with data in any machine, in run order."""
    keys = set()
    for m in machines:
        for p in m.ordered_passes():
            keys.add(p.key)
    return sorted(keys, key=pass_order)


def variants_of(machines, key):
    """Variants of a pass over all machines, in order of first appearance."""
    out = {}
    for m in machines:
        p = m.passes.get(key)
        if p is None:
            continue
        for v in p.variants:
            out.setdefault(v, None)
    return list(out)


def choose_unit(machines, want="auto", relative=False):
    """(Unit, warning or None) for comparing machines."""
    if relative:
        return RATIO, None
    if want == "ticks":
        return TICKS, None
    unknown = [m.name for m in machines if not m.tsc_khz]
    if not unknown:
        return NS, None
    if len(machines) == 1 and want == "auto":
        return TICKS, None
    return TICKS, ("TSC frequency unknown for %s; comparing in TSC ticks, "
                   "whose rate differs between machines (--relative "
                   "compares without it)" % ", ".join(unknown))
