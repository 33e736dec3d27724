"""The comparisons the report shows (summary's strings leaders, diff,
claims), each made by the C engine: one figure's time over another's,
epoch by epoch, its median and 95% interval, as the ratio lines and the
answer take it (pagebench-decide --compare, tools/decide_compare.h;
docs/report.md, "Comparisons"). Here the figures are gathered, each
epoch's median as decided.py hands them over (a log without epoch lines:
each rep is its epoch), and the engine's lines read back; nothing is
computed but the unit a ratio is shown in.

A comparison is made in a Batch: every one is added, the batch run once
(one pagebench-decide), then each read."""
import statistics

from . import engine

CENTI = 100


def centi(x):
    """A figure in whole hundredths of a tick; one below 0 (a strings
    figure net of its overhead) as 0, as the answer takes it
    (harness/decide/answer_strings.c)."""
    return max(0, int(round(x * CENTI)))


def epoch_medians(pairs):
    """Each epoch's median of (epoch, figure) pairs, in hundredths, in
    epoch order."""
    by = {}
    for e, x in pairs:
        by.setdefault(e, []).append(x)
    return [centi(statistics.median(by[e])) for e in sorted(by)]


def sample_epochs(samples, what="ticks"):
    """(epoch, figure) of value lines: the epoch, or without epoch lines
    the rep, each rep being its epoch; samples without the figure left
    out (a line without probes)."""
    return [(s.epoch if s.epoch is not None else s.iter, getattr(s, what))
            for s in samples if getattr(s, what) is not None]


class Series:
    """One figure as the engine takes it: each epoch's median and the
    figure's quantum (the timer's step over the calls of a sample, at
    least 1), hundredths of a tick."""
    __slots__ = ("med", "quantum")

    def __init__(self, med, quantum):
        self.med, self.quantum = list(med), max(1, int(round(quantum)))


class Versus:
    """other's time over base's, epoch by epoch (of two Cells, which give
    the series and the unit, and are not kept: a report keeps many of
    these): median, lo and hi of the ratio in the cells' unit (lo and hi
    None without an interval: fewer epochs than one needs), over epochs;
    why says why there is no ratio (median None) or no interval, else
    None. figures: base's and other's (median, lo, hi) over their epochs,
    as the engine makes them, in the cells' unit."""
    __slots__ = ("scales", "median", "lo", "hi", "epochs", "why", "figures")

    def __init__(self, base, other):
        self.scales = (base.scale, other.scale)
        self.median = self.lo = self.hi = self.epochs = self.figures = None
        self.why = "not compared yet"

    @property
    def has_interval(self):
        return self.lo is not None

    @property
    def delta(self):
        """other against base: the ratio's median - 1, or None."""
        return None if self.median is None else self.median - 1

    def below(self, x):
        """Whether the ratio is surely below x: its interval lies wholly under it."""
        return self.has_interval and self.hi < x

    def above(self, x):
        return self.has_interval and self.lo > x

    @property
    def faster(self):
        """"other" or "base" where the interval lies wholly on one side of
        1, else None (within noise, or no interval)."""
        return "other" if self.below(1) else "base" if self.above(1) else None

    def within(self, tie):
        """Whether the interval lies within 1 - tie to 1 + tie."""
        return self.has_interval and self.lo >= 1 - tie and self.hi <= 1 + tie


def no_series(c):
    """Why a cell has no series to compare, or None."""
    if c.series is not None:
        return None
    return "aggregated figures, no epochs" if c.aggregated else "no epochs"


class Batch:
    def __init__(self):
        self.sets = []          # ([Series], [(num, den, Versus)])

    def versus(self, base, others):
        """[Versus] of each of others over base (Cells), made in run()."""
        out = [Versus(base, c) for c in others]
        why = no_series(base)
        pairs, series = [], [base.series]
        for v, c in zip(out, others):
            v.why = why or no_series(c)
            if v.why is not None and base.median and c.median is not None:
                # Without epochs no interval can be made; the change of
                # the two figures shown is still the one asked for.
                v.median = c.median / base.median
            if v.why is None:
                series.append(c.series)
                pairs.append((len(series) - 1, 0, v))
        if pairs:
            self.sets.append((series, pairs))
        return out

    def run(self):
        """Every comparison added so far, made by one run of the engine;
        where it cannot run, each says why."""
        sets, self.sets = self.sets, []
        if sets:
            _make(sets)


def _make(sets):
    """The comparisons of sets, by one run of the engine. Where it refuses
    a figure (one out of its range), each half is made again apart, down
    to the set it is in, whose comparisons say why: the others are made."""
    try:
        got = engine.compare([([(s.quantum, s.med) for s in series],
                               [(n, d) for n, d, _ in pairs])
                              for series, pairs in sets])
    except engine.EngineError as err:
        if len(sets) > 1 and engine.available():
            _make(sets[:len(sets) // 2])
            _make(sets[len(sets) // 2:])
            return
        for _, pairs in sets:
            for _, _, v in pairs:
                v.why = str(err).splitlines()[-1][:200]
        return
    for (_, pairs), (figs, ratios) in zip(sets, got):
        for (n, d, v), r in zip(pairs, ratios):
            v.figures = (_figure(figs[d], v.scales[0]), _figure(figs[n], v.scales[1]))
            if r is None:
                v.why = "no ratio: a figure of 0 (one below 0 counts as 0), or no epoch in common"
                continue
            # The engine's ratio is of ticks; the cells' unit may scale
            # each side apart (ns, per page, to a best variant).
            f = v.scales[1] / v.scales[0]
            v.epochs, v.median = r[0], r[1] * f
            v.lo = None if r[2] is None else r[2] * f
            v.hi = None if r[3] is None else r[3] * f
            v.why = None if r[2] is not None else \
                "no interval: fewer epochs than one needs"


def _figure(f, scale):
    """(median, lo, hi) of an engine's figure line in a cell's unit."""
    _, med, lo, hi = f
    return tuple(None if x is None else x / CENTI * scale for x in (med, lo, hi))
