"""Numbers derived from parsed machines: per-variant figures in a unit,
rankings and the series the engine compares (versus.py). No output
formatting here, and no statistic beyond the order statistics a table
shows: every comparison is the engine's."""
import statistics
from array import array

from . import versus
from .parse import pass_bytes, pass_order

METRICS = ("time", "pre", "post", "use")


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
    lines.

    series: what the engine compares (versus.Series, in hundredths of a
    tick, made when first asked for), None for aggregated figures; scale:
    the cell's unit over ticks."""

    __slots__ = ("n", "min", "q1", "median", "q3", "max", "values",
                 "failed", "lo", "hi", "epochs", "batch", "quantum", "scale",
                 "_series")

    def __init__(self, n, mn, q1, med, q3, mx, values, failed=False, series=None):
        self.n, self.min, self.q1, self.median = n, mn, q1, med
        self.q3, self.max, self.values, self.failed = q3, mx, values, failed
        self.lo = self.hi = self.epochs = self.batch = self.quantum = None
        self.scale = 1.0
        self._series = series

    @classmethod
    def of(cls, values, failed=False, series=None):
        """The cell of samples: the median (of two middle values their
        mean) and the quartiles of type 7 (linear between order
        statistics, R's and NumPy's default)."""
        # The caller's sequence itself, not a copy: a log's columns are
        # arrays, and a list of float objects would be four times their size.
        vs = values if isinstance(values, (list, tuple, array)) else list(values)
        q1, q3 = (statistics.quantiles(vs, n=4, method="inclusive")[::2]
                  if len(vs) > 1 else (vs[0], vs[0]))
        return cls(len(vs), min(vs), q1, statistics.median(vs), q3, max(vs),
                   vs, failed, series)

    @property
    def series(self):
        """versus.Series, or None; series= may be a function making it."""
        if callable(self._series):
            self._series = self._series()
        return self._series

    @property
    def has_interval(self):
        return self.lo is not None and self.hi is not None

    @property
    def half(self):
        """Half the interval's width, or None."""
        return (self.hi - self.lo) / 2 if self.has_interval else None

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
                 self.failed, self._series)
        c.lo, c.hi, c.quantum = sc(self.lo), sc(self.hi), sc(self.quantum)
        c.epochs, c.batch, c.scale = self.epochs, self.batch, self.scale * f
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


def series(m, p, variant, metric="time"):
    """versus.Series of a (pass, variant, metric): each epoch's median of
    its value lines (a log without epoch lines: each rep's), or of its use
    lines, once an epoch; quantum the timer's step (a value line times
    one call), a tick where the log does not say. None without figures."""
    if metric == "use":
        pairs = [(u.epoch if u.epoch is not None else i, u.ticks)
                 for i, u in enumerate(u for u in p.uses if u.variant == variant)]
    else:
        pairs = versus.sample_epochs(p.samples_of(variant),
                                     {"time": "ticks"}.get(metric, metric))
    if not pairs:
        return None
    return versus.Series(versus.epoch_medians(pairs),
                         (timer_step(m) or 1) * versus.CENTI)


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
        c = Cell.of(vs, failed, lambda: series(m, p, variant, metric))
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
