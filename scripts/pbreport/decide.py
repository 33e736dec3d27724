"""Which variants are as good as the winner, and whether the data can say.

A decision is made over candidate cells (analysis.Cell, one per variant)
of one machine and one pass: the winner is the lowest median; every other
candidate is compared with it. The rules (docs/report.md, "verdict"):

- within noise: its median is no further above the winner's than the
  noise, the larger of the winner's IQR and tie x the winner's median
  (tie is strings.DEFAULT_TIE for suite=strings, whose runs differ by more
  than their reps show, and 0 for the page passes): as good as, decided.
- significantly slower (Mann-Whitney U, analysis.Comparison, p < alpha):
  not as good, decided.
- cells from stat lines (figures over epochs) skip the two rules above:
  95% intervals apart, and more than the timer's resolution, is slower;
  overlapping or within the resolution, not separated; without an
  interval on both sides, no test. The pooled reps' spread and ranks
  would ignore the variance between epochs.
- otherwise not separated: as good as at these reps, undecided. The reps
  that could separate it are projected from the observed overlap
  (reps_needed).

Aggregated cells (copy-hot/copy-cold) have no samples and no test.
"""
import math

from . import analysis as A
from . import stats

# The rank test's overlap is measured as theta = P(candidate > winner).
NO_DIFFERENCE = 0.5
MAX_PROJECTED_REPS = 10000


class Relation:
    """One candidate against a reference (the winner): how it stands."""

    __slots__ = ("state", "delta", "p", "test", "reason", "reps_needed",
                 "cmp")

    def __init__(self, state, delta, p, test, reason, reps_needed=None,
                 cmp=None):
        self.state = state          # "same", "tie", "slower", "faster",
        #                             "undecided", "untested"
        self.delta, self.p, self.test = delta, p, test
        self.reason, self.reps_needed, self.cmp = reason, reps_needed, cmp

    @property
    def as_good(self):
        return self.state in ("same", "tie", "undecided", "untested",
                              "faster")

    @property
    def decided(self):
        return self.state in ("same", "tie", "slower", "faster")


def noise(ref, tie):
    """How far above ref's median a median may lie and still be noise."""
    iqr = ref.iqr if ref.iqr is not None else 0.0
    return max(iqr, tie * abs(ref.median))


def reps_needed(theta, alpha, start=2):
    """The smallest n (reps of each side) at which a two-sided exact (or,
    past stats.EXACT_LIMIT, normal) rank test of two samples overlapping
    as much as observed (P(x > y) = theta) would give p < alpha; None
    when theta is one half (no difference seen) or the projection passes
    MAX_PROJECTED_REPS."""
    d = abs(theta - NO_DIFFERENCE)
    if d == 0:
        return None
    n = start
    while n <= MAX_PROJECTED_REPS:
        u = NO_DIFFERENCE * n * n + d * n * n     # U at that overlap
        if _p_for_u(n, u) < alpha:
            return n
        n += 1 if n < 64 else max(1, n // 16)
    return None


def _p_for_u(n, u):
    """Two-sided p of U (no ties) for n against n."""
    if 2 * n <= stats.EXACT_LIMIT:
        # U at least this far from its mean, counted exactly: the rank
        # sum of the first sample is U + n(n+1)/2.
        groups = tuple((2 * r, 1) for r in range(1, 2 * n + 1))
        counts = stats._ranksum_counts(n, groups)
        total = math.comb(2 * n, n)
        mean2 = n * (2 * n + 1)
        obs = abs(2 * (math.floor(u) + n * (n + 1) / 2) - mean2)
        return min(1.0, sum(c for s, c in counts.items()
                            if abs(s - mean2) >= obs) / total)
    mu = n * n / 2
    var = n * n * (2 * n + 1) / 12
    z = max(0.0, abs(u - mu) - 0.5) / math.sqrt(var)
    return min(1.0, math.erfc(z / math.sqrt(2)))


def min_reps_to_reach(alpha):
    """The smallest n for which n against n can ever reach p < alpha."""
    n = 2
    while stats.min_p(n, n) >= alpha:
        n += 1
    return n


def relate(ref, cell, alpha, tie):
    """cell against ref (the faster or the reference): a Relation."""
    delta = cell.median / ref.median - 1 if ref.median else None
    if cell.median == ref.median:
        return Relation("same", 0.0, None, "equal medians",
                        "equal medians")
    cmp = A.Comparison(ref, cell, alpha)
    if ref.epochs is not None or cell.epochs is not None:
        # Stat lines: the 95% intervals decide, as in the pass tables;
        # the pooled reps' spread and ranks ignore the epochs.
        epochs = "%s+%s epochs" % tuple("?" if c.epochs is None else c.epochs
                                        for c in (ref, cell))
        if not cmp.by_epochs:
            return Relation("untested", delta, None, "epochs",
                            "no 95%% interval to compare (%s)" % epochs,
                            cmp=cmp)
        if cmp.below_resolution:
            return Relation("undecided", delta, None, "epochs",
                            "below the timer's resolution (%s)" % epochs,
                            cmp=cmp)
        if ref.overlaps(cell):
            return Relation("undecided", delta, None, "epochs",
                            "95%% intervals overlap (%s)" % epochs, cmp=cmp)
        state = "slower" if cell.median > ref.median else "faster"
        return Relation(state, delta, None, "epochs",
                        "95%% intervals apart (%s)" % epochs, cmp=cmp)
    nz = noise(ref, tie)
    if cell.median > ref.median and cell.median - ref.median <= nz:
        what = "the winner's IQR" if ref.iqr and ref.iqr >= tie * abs(
            ref.median) else "the %g%% tie" % (100 * tie)
        return Relation("tie", delta, None, "within noise",
                        "within noise (%s)" % what)
    if cmp.test is None:
        return Relation("untested", delta, None, "no test",
                        "aggregated figures: no significance test",
                        cmp=cmp)
    p = cmp.p
    if p < alpha:
        state = "slower" if cell.median > ref.median else "faster"
        return Relation(state, delta, p, "mann-whitney",
                        "mann-whitney p=%.3g" % p, cmp=cmp)
    theta = stats.u_statistic(cell.values, ref.values) / (
        len(cell.values) * len(ref.values))
    need = reps_needed(theta, alpha)
    n = min(cmp.base.n, cmp.other.n)
    if not cmp.can_reach:
        floor = min_reps_to_reach(alpha)
        need = max(need or floor, floor)
        why = ("n=%d+%d: the smallest possible p is %.3g, not below %g" % (
            cmp.base.n, cmp.other.n, cmp.min_p, alpha))
    else:
        why = "not separated: mann-whitney p=%.3g at n=%d+%d" % (
            p, cmp.base.n, cmp.other.n)
    if need is not None and need <= n:
        need = n + 1       # ties in the data cost the exact test power
    return Relation("undecided", delta, p, "mann-whitney", why, need, cmp)


class Decision:
    """The candidates of one machine and pass, the winner and its peers."""

    def __init__(self, cells, alpha, tie):
        self.alpha, self.tie = alpha, tie
        self.cells = dict(cells)
        ranked = sorted(self.cells.items(), key=lambda vc: vc[1].median)
        self.ranked = [v for v, _ in ranked]
        self.winner = self.ranked[0] if ranked else None
        self.relations = {}
        if self.winner is None:
            return
        w = self.cells[self.winner]
        for v in self.ranked:
            self.relations[v] = Relation("same", 0.0, None, "winner",
                                         "the winner") if v == self.winner \
                else relate(w, self.cells[v], alpha, tie)

    @property
    def best(self):
        return [v for v in self.ranked if self.relations[v].as_good]

    @property
    def open_peers(self):
        """Variants as good as the winner only because nothing separated
        them."""
        return [v for v in self.ranked
                if self.relations[v].state in ("undecided", "untested")]

    @property
    def decidable(self):
        return self.winner is not None and not self.open_peers

    @property
    def reps_needed(self):
        """Reps that could settle every open peer (None if no projection
        can, e.g. aggregated figures)."""
        needs = [self.relations[v].reps_needed for v in self.open_peers]
        if not needs or any(n is None for n in needs):
            return None
        return max(needs)

    def why(self):
        if self.winner is None:
            return "no candidate has figures"
        w = self.cells[self.winner]
        parts = []
        if self.decidable:
            others = [v for v in self.best if v != self.winner]
            if others:
                parts.append("%s within noise of %s" % (
                    ", ".join(others), self.winner))
            slower = [v for v in self.ranked if v not in self.best]
            if slower:
                parts.append("every other candidate significantly slower "
                             "(%s)" % ("95% intervals apart" if w.has_interval
                                       else "mann-whitney, alpha=%g" % self.alpha))
            if not parts:
                parts.append("the only candidate")
            return "; ".join(parts)
        untested = [v for v in self.open_peers
                    if self.relations[v].state == "untested"]
        if untested:
            return ("aggregated figures (n, min, median, max only): %s not "
                    "testable against %s" % (", ".join(untested), self.winner))
        rel = self.relations[self.open_peers[0]]
        return "%s: %s" % (", ".join(self.open_peers), rel.reason) + (
            "" if w.values is None else "")

    def against(self, variant):
        """Relation of a variant (e.g. a kernel's pick) to the winner, or
        None when the pass has no figures for it."""
        return self.relations.get(variant)
