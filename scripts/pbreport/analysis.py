"""Numbers derived from parsed machines: per-variant statistics in a unit,
rankings, winners and comparisons. No output formatting here."""
from . import stats
from .parse import pass_bytes, pass_order

METRICS = ("time", "pre", "post", "use")
DEFAULT_ALPHA = 0.05
# Figures closer than this many timer steps (per call: the step over the
# batch) are below the timer's resolution: no winner is named from them.
FEW_STEPS = 3


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
    cells have no quartiles (q1 = q3 = None).

    Where the log has a stat line for it (docs/log-format.md, "Epochs and
    stat lines"), median is the stat line's, lo and hi its 95% interval
    (None without one), epochs and batch as it says, and quantum the
    figure's resolution (the timer's step over the batch) when the log
    gives the step; min, max and the quartiles stay those of the value
    lines."""

    __slots__ = ("n", "min", "q1", "median", "q3", "max", "values",
                 "failed", "lo", "hi", "epochs", "batch", "quantum")

    def __init__(self, n, mn, q1, med, q3, mx, values, failed=False):
        self.n, self.min, self.q1, self.median = n, mn, q1, med
        self.q3, self.max, self.values, self.failed = q3, mx, values, failed
        self.lo = self.hi = self.epochs = self.batch = self.quantum = None

    @property
    def has_interval(self):
        return self.lo is not None and self.hi is not None

    @property
    def half(self):
        """Half the interval's width, or None."""
        return (self.hi - self.lo) / 2 if self.has_interval else None

    def overlaps(self, other):
        return (self.has_interval and other.has_interval and
                self.lo <= other.hi and other.lo <= self.hi)

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
        c = Cell(self.n, sc(self.min), sc(self.q1), sc(self.median),
                 sc(self.q3), sc(self.max),
                 None if self.values is None else [v * f for v in self.values],
                 self.failed)
        c.lo, c.hi, c.quantum = sc(self.lo), sc(self.hi), sc(self.quantum)
        c.epochs, c.batch = self.epochs, self.batch
        return c


def timer_step(m):
    """The TSC's step in ticks, from the tsc step line (or suite=strings'),
    or None."""
    t = m.facts.get("tsc_step")
    if t:
        return t["step"]
    if m.strings is not None and m.strings.tsc:
        return m.strings.tsc["step"]
    return None


def _with_stat(c, st, m, failed):
    """c (None: none from lines) with the figure of stat line st."""
    if c is None:
        c = Cell(st.reps, st.median, None, st.median, None, st.median, None,
                 failed)
    c.median = st.median
    c.lo, c.hi = st.lo, st.hi
    c.epochs, c.batch = st.epochs, st.batch
    step = timer_step(m)
    c.quantum = step / st.batch if step else None
    return c


def raw_cell(m, p, variant, metric="time"):
    """Cell in ticks, or None when the pass has no such variant/metric."""
    failed = (p.suite, p.name, variant) in m.verify_failed
    st = p.stat(variant, "use" if metric == "use" else "time") \
        if metric in ("time", "use") else None
    if variant in p.aggregates:
        if metric != "time":
            return None
        a = p.aggregates[variant]
        c = Cell(a.n, a.min, None, a.median, None, a.max, None, failed)
        return _with_stat(c, st, m, failed) if st else c
    if metric == "use":
        vs = p.use_ticks(variant)
    else:
        # suite=scrub's samples have no probes: no pre and post.
        vs = p.column(variant, {"time": "ticks", "pre": "pre", "post": "post"}[metric])
    c = None
    if vs:
        sp = stats.Spread(vs)
        c = Cell(sp.n, sp.min, sp.q1, sp.median, sp.q3, sp.max, vs, failed)
    return _with_stat(c, st, m, failed) if st else c


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
        # The unit scales its base unit's cell (perbyte.PerPage): this
        # module does not know the pass sizes' rules.
        return unit.scale(cell(m, p, variant, metric, unit.base), m, p)
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
    """other against base: delta = other.median / base.median - 1.

    When both have intervals (stat lines), the test respects the epochs:
    the difference of the medians is significant when it exceeds
    threshold, the root mean square of the two half-widths (each is t
    times the standard deviation of the difference of two runs' medians,
    docs/report.md); p is then None. Otherwise p is from the Mann-Whitney
    U test when both have samples."""

    def __init__(self, base, other, alpha):
        self.base, self.other, self.alpha = base, other, alpha
        self.delta = (other.median / base.median - 1) if base.median else None
        self.test = None
        self.threshold = None
        if base.has_interval and other.has_interval:
            self.threshold = ((base.half ** 2 + other.half ** 2) / 2) ** 0.5
        elif base.values is not None and other.values is not None:
            self.test = stats.mann_whitney(base.values, other.values)

    @property
    def by_epochs(self):
        return self.threshold is not None

    @property
    def p(self):
        return self.test.p if self.test else None

    @property
    def significant(self):
        """True/False, or None when no test could be made."""
        if self.by_epochs:
            return abs(self.other.median - self.base.median) > self.threshold
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

    @property
    def below_resolution(self):
        """Whether the medians are within FEW_STEPS of the coarser
        figure's quantum; False when no quantum is known."""
        qs = [q for q in (self.base.quantum, self.other.quantum) if q]
        if not qs:
            return False
        return abs(self.other.median - self.base.median) < FEW_STEPS * max(qs)


def why_undecided(tied, cmp):
    """Why the data cannot tell cmp.base's variant from cmp.other's (None
    when they can): suite=strings' leaders by size, described as diff
    describes two cells ("tie", "below the timer's resolution", "intervals
    overlap", "no test", "n too small", "not significant")."""
    if tied:
        return "tie"
    if cmp.below_resolution:
        return "below the timer's resolution"
    # Within a run, as good as the winner is an interval that overlaps its.
    if cmp.by_epochs:
        return "intervals overlap" if cmp.base.overlaps(cmp.other) else None
    if cmp.test is None:
        return "no test"
    if not cmp.can_reach:
        return "n too small"
    return None if cmp.significant else "not significant"


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
