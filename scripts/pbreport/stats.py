"""Statistics for pagebench-report: order statistics and the Mann-Whitney U test.

Everything here works on plain lists of numbers and knows nothing of logs.

Conventions (docs/report.md repeats them):
- median: the middle value, or the mean of the two middle values.
- quantile(q): linear interpolation between order statistics at
  h = (n - 1) * q (Hyndman & Fan type 7, R's and NumPy's default).
  IQR = quantile(0.75) - quantile(0.25); 0 for a single sample.
- mann_whitney(x, y): U is U_x, the number of pairs (x_i, y_j) with
  x_i > y_j, ties counting one half (U_x + U_y = n_x * n_y). The p-value is
  two-sided. With n_x + n_y <= EXACT_LIMIT it is exact: the permutation
  distribution of the rank sum, conditional on the observed ties (mid-ranks),
  counted by dynamic programming; without ties this is the classic exact
  Mann-Whitney distribution. Above EXACT_LIMIT it is the normal
  approximation with tie correction and continuity correction.
"""
import math
from functools import lru_cache

EXACT_LIMIT = 50


def median(xs):
    s = sorted(xs)
    n = len(s)
    if n == 0:
        raise ValueError("median of no values")
    m = n // 2
    if n % 2:
        return s[m]
    return (s[m - 1] + s[m]) / 2


def quantile(xs, q):
    """Type 7 quantile of xs at q in [0, 1]."""
    s = sorted(xs)
    n = len(s)
    if n == 0:
        raise ValueError("quantile of no values")
    h = (n - 1) * q
    lo = int(math.floor(h))
    hi = min(lo + 1, n - 1)
    return s[lo] + (h - lo) * (s[hi] - s[lo])


def iqr(xs):
    return quantile(xs, 0.75) - quantile(xs, 0.25)


class Spread:
    """Order statistics of one group of samples."""

    __slots__ = ("n", "min", "q1", "median", "q3", "max", "values")

    def __init__(self, values):
        vs = list(values)
        self.values = vs
        self.n = len(vs)
        self.min = min(vs)
        self.max = max(vs)
        self.q1 = quantile(vs, 0.25)
        self.median = median(vs)
        self.q3 = quantile(vs, 0.75)

    @property
    def iqr(self):
        return self.q3 - self.q1


def midranks(pooled):
    """Ranks (1-based, ties get the mean of their positions) of pooled, in
    the order of pooled."""
    order = sorted(range(len(pooled)), key=lambda i: pooled[i])
    ranks = [0.0] * len(pooled)
    i = 0
    n = len(order)
    while i < n:
        j = i
        while j + 1 < n and pooled[order[j + 1]] == pooled[order[i]]:
            j += 1
        r = (i + j) / 2 + 1
        for k in range(i, j + 1):
            ranks[order[k]] = r
        i = j + 1
    return ranks


def u_statistic(x, y):
    """U_x: pairs with x_i > y_j, plus one half per tied pair."""
    u = 0.0
    for a in x:
        for b in y:
            if a > b:
                u += 1
            elif a == b:
                u += 0.5
    return u


@lru_cache(maxsize=512)
def _ranksum_counts(n1, groups):
    """Distribution of twice the rank sum of n1 items drawn from the pooled
    sample whose ties are given by groups: a tuple of (2 * midrank, size).
    Returns {2 * rank sum: number of ways}."""
    # dist[k] maps a doubled rank sum to the number of ways of choosing k
    # items from the groups seen so far.
    dist = [dict() for _ in range(n1 + 1)]
    dist[0][0] = 1
    remaining = sum(g for _, g in groups)
    for r2, g in groups:
        remaining -= g
        new = [dict() for _ in range(n1 + 1)]
        for k in range(n1 + 1):
            dk = dist[k]
            if not dk:
                continue
            for j in range(0, min(g, n1 - k) + 1):
                kk = k + j
                if kk + remaining < n1:
                    continue    # cannot reach n1 items any more
                ways = math.comb(g, j)
                add = j * r2
                nd = new[kk]
                for s, c in dk.items():
                    nd[s + add] = nd.get(s + add, 0) + c * ways
        dist = new
    return dist[n1]


class MWResult:
    __slots__ = ("u", "p", "method", "n1", "n2")

    def __init__(self, u, p, method, n1, n2):
        self.u, self.p, self.method, self.n1, self.n2 = u, p, method, n1, n2

    def __repr__(self):
        return "MWResult(u=%g, p=%.6g, method=%s, n1=%d, n2=%d)" % (
            self.u, self.p, self.method, self.n1, self.n2)


def mann_whitney(x, y, exact_limit=None):
    """Two-sided Mann-Whitney U test of x against y. None when a side has no
    samples."""
    if exact_limit is None:
        exact_limit = EXACT_LIMIT
    x = list(x)
    y = list(y)
    n1, n2 = len(x), len(y)
    if n1 == 0 or n2 == 0:
        return None
    pooled = x + y
    ranks = midranks(pooled)
    r1 = sum(ranks[:n1])
    u = r1 - n1 * (n1 + 1) / 2
    N = n1 + n2
    ties = {}
    for r in ranks:
        ties[r] = ties.get(r, 0) + 1
    has_ties = any(c > 1 for c in ties.values())
    if N <= exact_limit:
        groups = tuple(sorted((int(round(2 * r)), c) for r, c in ties.items()))
        counts = _ranksum_counts(n1, groups)
        total = math.comb(N, n1)
        mean2 = n1 * (N + 1)            # twice the mean rank sum
        obs = abs(int(round(2 * r1)) - mean2)
        extreme = sum(c for s, c in counts.items() if abs(s - mean2) >= obs)
        p = min(1.0, extreme / total)
        return MWResult(u, p, "exact-ties" if has_ties else "exact", n1, n2)
    mu = n1 * n2 / 2
    tie_term = sum(c ** 3 - c for c in ties.values()) / (N * (N - 1))
    var = n1 * n2 / 12 * ((N + 1) - tie_term)
    if var <= 0:
        return MWResult(u, 1.0, "normal", n1, n2)
    z = max(0.0, abs(u - mu) - 0.5) / math.sqrt(var)
    p = min(1.0, math.erfc(z / math.sqrt(2)))
    return MWResult(u, p, "normal", n1, n2)


def min_p(n1, n2):
    """The smallest two-sided p-value the exact test can give for samples of
    n1 and n2 values (no ties, complete separation)."""
    if n1 <= 0 or n2 <= 0:
        return 1.0
    return min(1.0, 2 / math.comb(n1 + n2, n1))
