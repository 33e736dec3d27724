"""suite=strings: memset and memcpy over sizes (issue 12).

Per block (op, mode, alignment) of a machine: the leader at each size (a
description; the answer lines decide), the sizes where the leader changes
(crossovers), from which size each variant is
the fastest or within noise of it, and the zero-length block's cost of a
REP with rcx=0 against a branch around it. Also the rows of diff, winners
and export, and the HTML charts. Every figure is ticks per call as the log
gives them; every comparison the engine's ratio of two variants' figures,
rep by rep (each rep is its epoch), and its 95% interval (versus.py), as
for the passes. docs/report.md describes it.
"""
import html
import math

from . import analysis as A
from . import versus
from .textfmt import change_text, pct, sig_text, table

PATTERNS = ("zero", "alt", "random")
PATTERN_TEXT = {"zero": "every call n=0 (branch predicted)",
                "alt": "0 and n alternating",
                "random": "0 and n shuffled (branch mispredicted)"}


def restrict(machines, names):
    """Keeps only the strings figures of the named variants (--strings-variants),
    e.g. the routines a kernel can use without vector registers."""
    for m in machines:
        for b in blocks(m):
            b.figures = {k: f for k, f in b.figures.items() if k[0] in names}
            b.variants = [v for v in b.variants if v in names]
            b.memo.clear()


def blocks(m):
    """The machine's blocks with figures, in log order ([] without any)."""
    return m.strings.ordered_blocks() if m.strings is not None else []


def size_blocks(m):
    return [b for b in blocks(m) if not b.zero]


def zero_blocks(m):
    return [b for b in blocks(m) if b.zero]


def failed(m, op, variant):
    """Whether a verify or fault line names this variant of this op."""
    return any(s == op and p.startswith("strings") and v == variant
               for s, p, v in m.verify_failed)


def raw_cell(m, b, variant, key):
    """Cell in ticks per call, or None."""
    f = b.figures.get((variant, key))
    if f is None or not f.centi:
        return None
    vs = f.values
    c = A.Cell.of(vs, failed(m, b.op, variant), lambda: series(m, b, vs))
    c.quantum = resolution(m, b)
    return c


def series(m, b, reps):
    """versus.Series of figures of block b, one a rep: each rep is its
    epoch; the quantum, the block's resolution (a tick where the log does
    not say)."""
    return versus.Series([versus.centi(x) for x in reps],
                         (resolution(m, b) or 1) * versus.CENTI)


def resolution(m, b):
    """Ticks per call a block's figures resolve: the TSC's step over the
    calls of a batch (None when the log does not say)."""
    run = m.strings
    calls = b.zero_calls if b.zero else (run.plan["calls"] if run.plan else None)
    if not run.tsc or not calls:
        return None
    return run.tsc["step"] / calls


def cell(m, b, variant, key, unit):
    """Cell in unit (ticks, ns, or ratio to the best variant at the same
    size of the same block), or None."""
    c = raw_cell(m, b, variant, key)
    if c is None or unit == A.TICKS:
        return c
    if unit == A.NS:
        f = A.ns_per_tick(m)
        return c.scaled(f) if f else None
    if unit == A.RATIO:
        base = best_median(m, b, key)
        return c.scaled(1.0 / base) if base and base > 0 else None
    raise ValueError(unit)


def best_median(m, b, key):
    """The lowest median at one size (or pattern) of a block, or None;
    worked out once, as every cell's ratio needs it."""
    memo = ("best", key)
    if memo not in b.memo:
        best = [x.median for x in (raw_cell(m, b, v, key) for v in b.variants)
                if x is not None]
        b.memo[memo] = min(best) if best else None
    return b.memo[memo]


def sizes(b):
    return sorted(k for k in b.keys if isinstance(k, int))


# A lead moves only to a variant faster by more than this share (--tie).
# Runs differ by more than their own reps show: between two back-to-back
# runs (results/epyc-linux-cpu-strings-2026-11-30.log and
# tests/fixtures/real/epyc-linux-cpu-strings-2026-11-30-run2.log)
# the reps called 3098 of 4182 differences significant, while one
# variant's median at one size moved by 1.4 % (median), 3.1 % (third
# quartile), 10 % (ninth decile) between the runs (docs/method.md).
DEFAULT_TIE = 0.05


class SizeWinner:
    """The fastest variant of a block at one size (lowest median), the
    runner-up, and the engine's ratio of the runner-up to it, as diff
    describes two cells: the leaders by size of the summary (memset and
    memcpy answers, where a log has them, are the decisions)."""

    def __init__(self, m, b, n, tie, cmps):
        self.n, self.tie = n, tie
        # {variant: Versus of it over the leader} (compared())
        self.against = cmps[(b.key, n)]
        self.rank = ranked(m, b, n)
        self.variant, self.cell = self.rank[0] if self.rank else (None, None)
        self.runner_up, self.runner_cell = self.rank[1] if len(self.rank) > 1 \
            else (None, None)
        self.cmp = self.margin = None
        if self.runner_cell is not None:
            self.cmp = self.against[self.runner_up]
            self.margin = self.cmp.delta

    @property
    def apart(self):
        """Whether the runner-up is surely slower than the leader."""
        return self.cmp is not None and self.cmp.above(1)

    def tied(self, variant):
        """Whether variant is as good as the winner here: the winner
        itself, or not surely slower by more than tie (the interval of its
        ratio to the winner reaches 1 + tie or below)."""
        if variant == self.variant:
            return True
        cmp = self.against.get(variant)
        return cmp is not None and not cmp.above(1 + self.tie)


def ranked(m, b, n):
    """[(variant, cell)] of a size, by median, those without one left out."""
    cells = [(v, raw_cell(m, b, v, n)) for v in b.variants]
    return sorted(((v, c) for v, c in cells if c is not None),
                  key=lambda vc: vc[1].median)


def compared(m):
    """Every comparison the strings part shows of machine m, made by one
    run of the engine: {(block key, size): {variant: Versus of it over the
    leader}, (block key, rep, pattern): (rep's median - br's, Versus of
    rep over br)} for each zero-length pair (zero_pairs()). Made for a
    machine's part and let go after it: a large log's would fill memory."""
    out = {}
    batch = versus.Batch()
    for b in blocks(m):
        if b.zero:
            for rep, br in zero_pairs(b):
                for p in PATTERNS:
                    a, c = raw_cell(m, b, br, p), raw_cell(m, b, rep, p)
                    if a is not None and c is not None:
                        out[(b.key, rep, p)] = (c.median - a.median,
                                                batch.versus(a, [c])[0])
        else:
            for n in sizes(b):
                r = ranked(m, b, n)
                vs = batch.versus(r[0][1], [c for _, c in r[1:]]) if r else []
                out[(b.key, n)] = dict(zip([v for v, _ in r[1:]], vs))
    batch.run()
    return out


def winners(m, b, tie=DEFAULT_TIE, cmps=None):
    """[SizeWinner] by size, ascending; cmps: compared(m), made here if not given."""
    cmps = compared(m) if cmps is None else cmps
    return [SizeWinner(m, b, n, tie, cmps) for n in sizes(b)]


def without_interval(ws):
    """Why no comparison of the block has an interval (too few reps, no
    engine), or None where one has: the block then names no winner."""
    cmps = [w.cmp for w in ws if w.cmp is not None]
    if not cmps or any(c.has_interval for c in cmps):
        return None
    return cmps[0].why


def segments(ws):
    """[(first size, last size, variant)]: who leads where. The winner at
    the smallest size leads until, at some size, it is neither within the
    tie nor statistically tied with that size's winner (SizeWinner.tied),
    which then leads; so noise between near-equal variants moves no
    boundary."""
    out = []
    for w in ws:
        if w.variant is None:
            continue
        if out and w.tied(out[-1][2]):
            out[-1] = (out[-1][0], w.n, out[-1][2])
        else:
            out.append((w.n, w.n, w.variant))
    return out


def crossovers(ws):
    """[(size, from variant, to variant)]: where the lead changes."""
    segs = segments(ws)
    return [(segs[i][0], segs[i - 1][2], segs[i][2])
            for i in range(1, len(segs))]


def fastest_from(ws):
    """(variant, size): the leader at the largest size, and the size from
    which it leads; None without sizes."""
    segs = segments(ws)
    if not segs:
        return None
    return segs[-1][2], segs[-1][0]


def tied_from(m, b, ws):
    """{variant: size}: for each variant as good as the winner at the
    largest size, the smallest size from which that holds at every size."""
    out = {}
    for v in b.variants:
        first = None
        for w in reversed(ws):
            if w.variant is None or not w.tied(v):
                break
            first = w.n
        if first is not None:
            out[v] = first
    return out


def zero_pairs(b):
    """[(rep variant, branching variant)]: X and X_br both in the block."""
    names = set(b.variants)
    return [(v, v + "_br") for v in b.variants if v + "_br" in names]


def zero_comparison(m, b, rep, br, pattern, cmps=None):
    """REP with rcx=0 (rep) against the branch around it (br) at one
    pattern: (difference of medians rep - br in ticks per zero-length call,
    Versus of rep over br) or None; cmps: compared(m), made here if not
    given."""
    return (compared(m) if cmps is None else cmps).get((b.key, rep, pattern))


# -- text ------------------------------------------------------------------

def fig(v):
    """A ticks-per-call figure: two decimals, as the log prints them."""
    return "-" if v is None else "%.2f" % v


def size_text(n):
    return "%d byte%s" % (n, "" if n == 1 else "s")


def summary(m, tie=DEFAULT_TIE):
    """The strings part of one machine's summary."""
    run = m.strings
    out = []
    if run is None or not run.has_data:
        return ""
    cmps = compared(m)
    head = "-- strings  [ticks per call: median over %s reps" % (
        m.reps if m.reps else "the")
    if run.plan:
        head += "; %d calls per timed batch, less the empty routine's batch" \
            % run.plan["calls"]
    head += "]"
    out.append(head)
    if run.tsc:
        calls = run.plan["calls"] if run.plan else None
        t = "TSC: step %d ticks, narrowest LFENCE;RDTSC pair %d ticks" % (
            run.tsc["step"], run.tsc["region"])
        if calls:
            t += "; a batch resolves a call to about %.2f ticks" % (
                run.tsc["step"] / calls)
        out.append(t)
    for b in size_blocks(m):
        out.append("")
        ov = b.overhead.get(run.plan["calls"] if run.plan else None) or \
            (next(iter(b.overhead.values())) if b.overhead else None)
        title = "-- strings %s %s" % (b.op, b.label)
        if ov:
            title += "  [overhead %d ticks per batch (median %d, %d batches)]" \
                % (ov["min"], ov["median"], ov["n"])
        out.append(title)
        ws = winners(m, b, tie, cmps)
        rows = [["n"] + list(b.variants) + ["leader", "margin", "95% interval"]]
        for w in ws:
            row = [str(w.n)]
            for v in b.variants:
                c = raw_cell(m, b, v, w.n)
                row.append(fig(c.median if c else None) +
                           ("!" if c and c.failed else ""))
            mark = "" if w.cmp is None or w.apart else "~"
            row += [(w.variant or "-") + mark, pct(w.margin),
                    change_text(w.cmp)]
            rows.append(row)
        out.append(table(rows, right=set(range(0, len(b.variants) + 1)) |
                         {len(b.variants) + 2, len(b.variants) + 3}))
        segs = segments(ws)
        why = without_interval(ws)
        if why:
            out.append("leader: none (%s): no variant leads at any size" % why)
            segs = []
        if segs:
            out.append("leader: " + "; ".join(
                "%s %s" % (v, ("at %d" % lo) if lo == hi else
                           "%d-%d" % (lo, hi)) for lo, hi, v in segs) +
                " bytes (a leader keeps the lead until another variant is "
                "surely more than %g%% faster)" % (100 * tie))
        xs = crossovers(ws) if segs else []
        if xs:
            out.append("crossovers: " + ", ".join(
                "%s -> %s at %d" % (a, c, n) for n, a, c in xs))
        ff = fastest_from(ws) if segs else None
        if ff:
            out.append("%s is fastest from %s" % (ff[0], size_text(ff[1])))
        tf = tied_from(m, b, ws) if segs else {}
        if tf:
            out.append("as fast as the leader (not surely more than %g%% "
                       "slower) up to the largest size: %s" % (
                           100 * tie, ", ".join(
                               "%s from %d" % (v, n) for v, n in
                               sorted(tf.items(), key=lambda x: x[1]))))
        if any(w.cmp is not None and not w.apart for w in ws):
            out.append("~: the runner-up is not surely slower: the 95% "
                       "interval of its time over the leader's, rep by rep, "
                       "reaches 1")
    for b in zero_blocks(m):
        out.append("")
        title = "-- strings %s zero length  [ticks per zero-length call; " \
                "batches of %s calls, half of them %s bytes in alt/random]" % (
                    b.op, b.zero_calls, b.zero_n)
        out.append(title)
        rows = [["variant"] + ["%s median" % p for p in PATTERNS] +
                ["%s min" % p for p in PATTERNS]]
        for v in b.variants:
            cs = [raw_cell(m, b, v, p) for p in PATTERNS]
            rows.append([v] + [fig(c.median if c else None) for c in cs] +
                        [fig(c.min if c else None) for c in cs])
        out.append(table(rows, right=set(range(1, 7))))
        for rep, br in zero_pairs(b):
            for p in PATTERNS:
                z = zero_comparison(m, b, rep, br, p, cmps)
                if z is None:
                    continue
                d, cmp = z
                out.append("zero length, %s: %s (REP, rcx=0) %s %s (branch) "
                           "by %.2f ticks per call; %s" % (
                               p, rep, "costs more than" if d > 0 else
                               "costs less than" if d < 0 else "costs as much as",
                               br, abs(d), sig_text(cmp)))
        out.append("patterns: " + "; ".join("%s: %s" % (p, PATTERN_TEXT[p])
                                            for p in PATTERNS))
    return "\n".join(out)


# The size classes of the claims' memset/memcpy cases, in bytes.
SIZE_CLASSES = ((0, 0), (1, 15), (16, 127), (128, 1023), (1024, 4096))


class ClassCells:
    """One mode and size class of a machine's op: a cell per variant whose
    samples are the per-rep sums over the class's sizes and alignments
    (the time of one call at each)."""

    def __init__(self, label, cells, span):
        self.label, self.cells, self.span = label, cells, span
        self.tie = DEFAULT_TIE


def class_cells(m, op, keep=None):
    """[ClassCells] per mode and size class, for the variants with every
    figure of the class; keep(block) narrows the blocks."""
    out = []
    blocks = [b for b in size_blocks(m) if b.op == op and
              (keep is None or keep(b))]
    for mode in dict.fromkeys(b.mode for b in blocks):
        mb = [b for b in blocks if b.mode == mode]
        for lo, hi in SIZE_CLASSES:
            keys = [(b, n) for b in mb for n in sizes(b) if lo <= n <= hi]
            if not keys:
                continue
            cells = {}
            for v in dict.fromkeys(v for b in mb for v in b.variants):
                figs = [b.figures.get((v, n)) for b, n in keys]
                if any(f is None or not f.centi for f in figs) or \
                        failed(m, op, v):
                    continue
                vals = [f.values for f in figs]
                reps = min(len(vs) for vs in vals)
                sums = [sum(vs[r] for vs in vals) for r in range(reps)]
                # The engine's sums are of figures taken at 0 or more, as
                # the answer's (harness/decide/answer_strings.c).
                cells[v] = A.Cell.of(sums, series=versus.Series(
                    [sum(versus.centi(vs[r]) for vs in vals) for r in range(reps)],
                    (resolution(m, mb[0]) or 1) * versus.CENTI))
            if cells:
                what = "n=%d" % lo if lo == hi else "n=%d-%d" % (lo, hi)
                out.append(ClassCells("%s %s" % (mode, what), cells,
                                      (lo, hi)))
    return out


def diff(machines, batch, unit, how, cell_text):
    """(title, head, rows) of the strings rows of diff, a row's vs cells
    the Versus of each machine against the first, added to batch (to be
    run, then written), or None when fewer than two machines have strings
    figures."""
    have = [m for m in machines if blocks(m)]
    if len(have) < 2:
        return None
    base = have[0]
    head = ["op", "block", "n", "variant", base.name]
    for m in have[1:]:
        head += [m.name, "vs " + base.name]
    keys = []
    for m in have:
        for b in blocks(m):
            if b.key not in keys:
                keys.append(b.key)
    rows = []
    for key in keys:
        bs = [m.strings.blocks.get(key) for m in have]
        ref = next(b for b in bs if b is not None)
        ks, vs = [], []
        for b in bs:
            if b is None:
                continue
            for k in b.keys:
                if k not in ks:
                    ks.append(k)
            for v in b.variants:
                if v not in vs:
                    vs.append(v)
        if not ref.zero:
            ks.sort()
        for k in ks:
            for v in vs:
                cells = [cell(m, b, v, k, unit) if b is not None else None
                         for m, b in zip(have, bs)]
                if all(c is None for c in cells):
                    continue
                row = [key[0], ref.label, str(k), v,
                       cell_text(cells[0], unit, how)]
                cmps = iter(batch.versus(cells[0], [c for c in cells[1:] if c is not None])
                            if cells[0] is not None else [])
                for c in cells[1:]:
                    row += [cell_text(c, unit, how),
                            next(cmps) if c is not None and cells[0] is not None else None]
                rows.append(row)
    title = "strings: per call (%s)" % (
        unit.label if unit != A.RATIO else
        "ratio to the best variant of the same machine, block and size")
    return title, head, rows


# -- export ----------------------------------------------------------------

def export_rows(m):
    """One row per rep figure, in the columns of export.CSV_COLUMNS."""
    khz = m.tsc_khz
    for b in blocks(m):
        for f in sorted(b.figures.values(), key=lambda f: f.line):
            size = b.zero_n if b.zero else f.key
            pas = "strings " + (("zero pattern=%s" % f.key) if b.zero
                                else b.label)
            for i, t in enumerate(f.values):
                yield {"machine": m.name, "source": m.source, "suite": b.op,
                       "pass": pas, "variant": f.variant, "kind": "strings",
                       "iter": i + 1, "pre": None, "ticks": t, "post": None,
                       "n": None, "min": None, "median": None, "max": None,
                       "bytes": size, "tsc_khz": khz,
                       "ns": (t * 1e6 / khz) if khz else None,
                       "line": f.line}


def machine_json(m):
    run = m.strings
    if run is None:
        return None
    return {"plan": run.plan, "tsc": run.tsc, "blocks": [
        {"op": b.op, "mode": b.mode, "dst": b.dst, "src": b.src,
         "label": b.label, "zero_calls": b.zero_calls, "zero_n": b.zero_n,
         "overhead": {str(k): v for k, v in b.overhead.items()},
         "figures": [{"variant": f.variant, "key": f.key, "min": f.min,
                      "median": f.median, "values": list(f.values), "line": f.line}
                     for f in sorted(b.figures.values(), key=lambda f: f.line)]}
        for b in blocks(m)]}


def benchfmt_lines(m):
    khz = m.tsc_khz
    out = []
    for b in blocks(m):
        op = b.op.capitalize()
        for f in sorted(b.figures.values(), key=lambda f: f.line):
            if b.zero:
                name = "Benchmark%s/zero/pattern=%s/variant=%s" % (
                    op, f.key, f.variant)
                calls, size = b.zero_calls, None
            else:
                name = "Benchmark%s/mode=%s/dst=%d%s/n=%d/variant=%s" % (
                    op, b.mode, b.dst,
                    "/src=%d" % b.src if b.src is not None else "", f.key,
                    f.variant)
                calls = m.strings.plan["calls"] if m.strings.plan else 1
                size = f.key
            for t in f.values:
                line = "%s %d %.2f ticks/op" % (name, calls or 1, t)
                if khz:
                    ns = t * 1e6 / khz
                    line += " %.3f ns/op" % ns
                    if size and ns > 0:
                        line += " %.4g B/s" % (size / ns * 1e9)
                out.append(line)
    return out


# -- HTML ------------------------------------------------------------------

def e(s):
    return html.escape(str(s), quote=True)


CHART_W, CHART_H = 560, 300
LEFT, RIGHT, TOP, BOTTOM = 64, 16, 14, 46


def _log_ticks(lo, hi):
    """Tick values 1, 2, 5 x 10^k inside [lo, hi] (both > 0)."""
    out = []
    k = math.floor(math.log10(lo))
    while 10 ** k <= hi * 1.0001:
        for mult in (1, 2, 5):
            v = mult * 10 ** k
            if lo * 0.9999 <= v <= hi * 1.0001:
                out.append(v)
        k += 1
    if len(out) > 8:
        out = [v for v in out if str(v).lstrip("0.").startswith("1")]
    return out


def chart(m, b, colors):
    """An SVG line chart: ticks per call (median, log scale) against size
    (log scale; 0 one octave left of the smallest other size), one line per
    variant, a point per size with its figures as a tooltip. None without
    figures."""
    ns = sizes(b)
    if not ns:
        return None
    positive = [n for n in ns if n > 0]
    zero_x = (math.log2(min(positive)) - 1) if positive else 0.0

    def xval(n):
        return math.log2(n) if n > 0 else zero_x

    series = []
    meds = []
    for v in b.variants:
        pts = []
        for n in ns:
            c = raw_cell(m, b, v, n)
            if c is not None:
                pts.append((n, c))
                meds.append(c.median)
        if pts:
            series.append((v, pts))
    pos = [x for x in meds if x > 0]
    if not pos:
        return None
    y_hi = max(pos) * 1.15
    y_lo = min(pos) / 1.3
    floor = y_lo
    x_lo, x_hi = xval(ns[0]), xval(ns[-1])
    if x_hi <= x_lo:
        x_lo, x_hi = x_lo - 1, x_hi + 1
    pw, ph = CHART_W - LEFT - RIGHT, CHART_H - TOP - BOTTOM

    def X(n):
        return LEFT + (xval(n) - x_lo) / (x_hi - x_lo) * pw

    def Y(v):
        v = max(v, floor)
        return TOP + ph - (math.log10(v) - math.log10(y_lo)) / \
            (math.log10(y_hi) - math.log10(y_lo)) * ph

    out = ['<svg xmlns="http://www.w3.org/2000/svg" class="lines" width="%d" '
           'height="%d" viewBox="0 0 %d %d" role="img" aria-label="%s">' % (
               CHART_W, CHART_H, CHART_W, CHART_H,
               e("%s %s" % (b.op, b.label)))]
    for t in _log_ticks(y_lo, y_hi):
        yy = Y(t)
        out.append('<line x1="%d" x2="%d" y1="%.1f" y2="%.1f" stroke="#ddd"/>'
                   % (LEFT, CHART_W - RIGHT, yy, yy))
        out.append('<text x="%d" y="%.1f" text-anchor="end">%s</text>' % (
            LEFT - 4, yy + 4, e("%g" % t)))
    # Sizes 2^k - 1 and 2^k lie a hair apart: label 0 and the powers of
    # two, or every size when those are too few.
    labels = [n for n in ns if n == 0 or n & (n - 1) == 0]
    if len(labels) < 2:
        labels = ns
    for n in ns:
        xx = X(n)
        out.append('<line x1="%.1f" x2="%.1f" y1="%d" y2="%d" stroke="#eee"/>'
                   % (xx, xx, TOP, TOP + ph))
    for n in labels:
        xx = X(n)
        out.append('<text x="%.1f" y="%d" text-anchor="end" '
                   'transform="rotate(-45 %.1f %d)">%d</text>' % (
                       xx + 3, TOP + ph + 12, xx + 3, TOP + ph + 12, n))
    out.append('<text transform="translate(12 %d) rotate(-90)" '
               'text-anchor="middle">ticks per call (log)</text>' % (
                   TOP + ph // 2))
    out.append('<text x="%d" y="%d" text-anchor="middle">bytes (log; 0 at '
               'the left)</text>' % (LEFT + pw // 2, CHART_H - 4))
    for v, pts in series:
        col = colors[v]
        out.append('<g class="series" data-variant="%s">' % e(v))
        out.append('<polyline fill="none" stroke="%s" stroke-width="1.5" '
                   'points="%s"/>' % (col, " ".join(
                       "%.1f,%.1f" % (X(n), Y(c.median)) for n, c in pts)))
        for n, c in pts:
            below = c.median < floor
            tip = "%s, %d bytes: median %.2f, min %.2f, max %.2f ticks per " \
                  "call, n=%d" % (v, n, c.median, c.min, c.max, c.n)
            if c.failed:
                tip += ", FAILED"
            out.append('<circle class="pt" cx="%.1f" cy="%.1f" r="2.5" '
                       'fill="%s" stroke="%s"><title>%s</title></circle>' % (
                           X(n), Y(c.median), "white" if below else col, col,
                           e(tip)))
        out.append('</g>')
    out.append('<line x1="%d" x2="%d" y1="%d" y2="%d" stroke="#444"/>' % (
        LEFT, CHART_W - RIGHT, TOP + ph, TOP + ph))
    out.append('</svg>')
    return "".join(out)


def html_section(machines, palette, tie=DEFAULT_TIE):
    """The "Short strings" section of the HTML report, or "" without any
    strings figures."""
    have = [m for m in machines if blocks(m)]
    if not have:
        return ""
    out = ['<section id="strings"><h2>Short strings (suite=strings)</h2>',
           '<p class="note">Ticks per call of memset and memcpy against size, '
           'both on log scales (size 0 one octave left of the smallest other '
           'size); each line a variant, each point the median over the reps '
           '(hover for min and max); a hollow point lies below the bottom of '
           'the chart. A chart per machine, op, mode and alignment: tput '
           'independent calls, lat each call waiting for the previous one\'s '
           'bytes; dst (and src) bytes past a 64-byte boundary.</p>']
    for m in have:
        cmps = compared(m)
        variants = []
        for b in blocks(m):
            for v in b.variants:
                if (b.op, v) not in variants:
                    variants.append((b.op, v))
        for b in size_blocks(m):
            colors = {}
            own = [v for op, v in variants if op == b.op]
            for i, v in enumerate(own):
                colors[v] = palette[i % len(palette)]
            svg = chart(m, b, colors)
            if svg is None:
                continue
            ws = winners(m, b, tie, cmps)
            xs = crossovers(ws)
            ff = fastest_from(ws)
            out.append('<figure class="strings-chart" data-machine="%s" '
                       'data-op="%s" data-block="%s"><figcaption>%s: %s %s'
                       '</figcaption>' % (e(m.name), e(b.op), e(b.label),
                                          e(m.name), e(b.op), e(b.label)))
            out.append('<p class="legend">%s</p>' % " &nbsp; ".join(
                '<span class="key"><svg width="14" height="4" '
                'aria-hidden="true"><rect width="14" height="4" fill="%s"/>'
                '</svg> %s</span>' % (colors[v], e(v)) for v in b.variants))
            out.append(svg)
            text = []
            if xs:
                text.append("crossovers: " + ", ".join(
                    "%s to %s at %s" % (a, c, size_text(n)) for n, a, c in xs))
            if ff:
                text.append("%s is fastest from %s" % (ff[0], size_text(ff[1])))
            if text:
                out.append('<p class="note crossover">%s</p>' % e("; ".join(text)))
            out.append('</figure>')
        for b in zero_blocks(m):
            out.append('<table class="strings-zero" data-machine="%s" '
                       'data-op="%s"><caption>%s: %s, ticks per zero-length '
                       'call (median; min)</caption><tr><th>variant</th>%s'
                       '</tr>' % (e(m.name), e(b.op), e(m.name), e(b.op),
                                  "".join("<th>%s</th>" % e(p) for p in PATTERNS)))
            for v in b.variants:
                cells = []
                for p in PATTERNS:
                    c = raw_cell(m, b, v, p)
                    cells.append('<td class="num">%s</td>' % (
                        "-" if c is None else e("%.2f; %.2f" % (c.median, c.min))))
                out.append("<tr><td>%s</td>%s</tr>" % (e(v), "".join(cells)))
            out.append("</table>")
            notes = []
            for rep, br in zero_pairs(b):
                for p in PATTERNS:
                    z = zero_comparison(m, b, rep, br, p, cmps)
                    if z is not None:
                        notes.append("%s, %s: %s - %s = %+.2f ticks (%s)" % (
                            b.op, p, rep, br, z[0], sig_text(z[1])))
            if notes:
                out.append('<p class="note">REP with rcx=0 against a branch: '
                           '%s</p>' % e("; ".join(notes)))
    out.append('</section>')
    return "\n".join(out)
