"""A self-contained HTML report: inline CSS and SVG, no scripts, nothing
loaded from anywhere (a Content-Security-Policy says so to the browser)."""
import html
import math

from . import analysis as A
from . import facts as F
from . import htmlverdict
from . import scrub
from . import strings as S
from . import textout as T
from .parse import pass_bytes, pass_label

PALETTE = ["#0072B2", "#E69F00", "#009E73", "#D55E00", "#CC79A7",
           "#56B4E9", "#8C6D31", "#000000", "#999999", "#F0E442"]

CSS = """
body{font:14px/1.4 system-ui,sans-serif;margin:1.5em;color:#222;max-width:80em}
h1{font-size:1.5em}h2{font-size:1.25em;margin-top:1.6em}
table{border-collapse:collapse;margin:.5em 0}
th,td{border:1px solid #ccc;padding:.2em .5em;text-align:left;vertical-align:top}
td.num{text-align:right;font-variant-numeric:tabular-nums}
th{background:#f2f2f2}
figure.chart{margin:1em 0 2em 0}
figcaption{font-weight:bold;margin-bottom:.3em}
.note{color:#555;font-size:.9em}
.sig{font-weight:bold}
.warn{color:#a40}
svg text{font:11px system-ui,sans-serif}
"""


def e(s):
    return html.escape(str(s), quote=True)


def nice_ticks(top, count=5):
    """Round axis steps from 0 to at least top."""
    if top <= 0:
        return [0, 1]
    raw = top / count
    mag = 10 ** math.floor(math.log10(raw))
    for mult in (1, 2, 2.5, 5, 10):
        step = mult * mag
        if step >= raw:
            break
    n = int(math.ceil(top / step - 1e-9))
    return [i * step for i in range(n + 1)]


def whiskers(c):
    """(low end, high end, whether to draw the quartile box) of a bar: the
    stat line's 95% interval where the cell has one, since its median is
    over the epochs (of batches, where it says batch=) and the value lines'
    min, max and quartiles are of single calls, another measure that need
    not even hold that median; else min to max, with the box."""
    if c.has_interval:
        return c.lo, c.hi, False
    return c.min, c.max, True


def chart(key, machines, unit_for, colors, relative):
    """One grouped bar chart (SVG) for a pass: a group per variant, a bar
    per machine, its height the median, a whisker for min-max and a box
    for the quartiles; where the median is a stat line's, the whisker is
    its 95% interval and there is no box (whiskers()). Returns (svg text,
    unit label, note)."""
    variants = A.variants_of(machines, key)
    present = [m for m in machines if key in m.passes and
               m.passes[key].has_data]
    unit = unit_for(present)
    winners = {}
    for m in present:
        r = A.ranking(m, m.passes[key])
        if r:
            winners[m.name] = r[0][1]
    series = []
    for m in present:
        p = m.passes[key]
        series.append((m, {v: A.cell(m, p, v, "time", unit)
                           for v in variants}))
    medians = [c.median for _, cs in series for c in cs.values() if c]
    maxes = [whiskers(c)[1] for _, cs in series for c in cs.values() if c]
    if not medians:
        return None, unit, ""
    # Keep the bars readable when an outlier whisker is huge: clip whiskers
    # at 2.5x the tallest median and mark the clipped ones.
    top = min(max(maxes), 2.5 * max(medians))
    ticks = nice_ticks(top)
    top = ticks[-1] or 1
    nb = len(series)
    bw = 12 if nb > 3 else 16
    group_w = nb * bw + 14
    left, right, ptop, plot_h, bottom = 70, 20, 16, 240, 64
    width = left + right + max(1, len(variants)) * group_w
    height = ptop + plot_h + bottom
    y = (lambda v: ptop + plot_h - (min(v, top) / top) * plot_h)
    out = ['<svg xmlns="http://www.w3.org/2000/svg" class="bars" '
           'width="%d" height="%d" viewBox="0 0 %d %d" role="img" '
           'aria-label="%s">' % (width, height, width, height,
                                 e(pass_label(*key)))]
    for t in ticks:
        yy = y(t)
        out.append('<line x1="%d" x2="%d" y1="%.1f" y2="%.1f" '
                   'stroke="#ddd"/>' % (left, width - right, yy, yy))
        out.append('<text x="%d" y="%.1f" text-anchor="end">%s</text>' % (
            left - 4, yy + 4, e(T.num(t, unit) if unit != A.RATIO
                                else "%.2f" % t)))
    out.append('<text transform="translate(14 %d) rotate(-90)" '
               'text-anchor="middle">%s</text>' % (
                   ptop + plot_h // 2, e(axis_label(unit, key))))
    for gi, v in enumerate(variants):
        gx = left + gi * group_w + 7
        for si, (m, cs) in enumerate(series):
            c = cs.get(v)
            if c is None:
                continue
            x = gx + si * bw
            col = colors[m.name]
            lo, hi, box = whiskers(c)
            if c.has_interval:
                tip = "%s, %s: median %s %s over %s epochs, 95%% interval %s-%s" % (
                    m.name, v, T.num(c.median, unit), unit.label, c.epochs,
                    T.num(lo, unit), T.num(hi, unit))
            else:
                tip = "%s, %s: median %s %s, n=%d, min %s, max %s" % (
                    m.name, v, T.num(c.median, unit), unit.label, c.n,
                    T.num(c.min, unit), T.num(c.max, unit))
            if box and c.iqr is not None:
                tip += ", IQR %s" % T.num(c.iqr, unit)
            if c.failed:
                tip += ", FAILED verification"
            out.append('<g class="bar" data-machine="%s" data-variant="%s">'
                       '<title>%s</title>' % (e(m.name), e(v), e(tip)))
            out.append('<rect x="%.1f" y="%.1f" width="%d" height="%.1f" '
                       'fill="%s"%s/>' % (
                           x, y(c.median), bw - 2,
                           max(0.5, ptop + plot_h - y(c.median)), col,
                           ' stroke="#d00" stroke-width="2"' if c.failed
                           else ""))
            cx = x + (bw - 2) / 2
            out.append('<line x1="%.1f" x2="%.1f" y1="%.1f" y2="%.1f" '
                       'stroke="#222"/>' % (cx, cx, y(lo), y(hi)))
            for end in (lo, hi):
                out.append('<line x1="%.1f" x2="%.1f" y1="%.1f" y2="%.1f" '
                           'stroke="#222"/>' % (cx - 3, cx + 3, y(end),
                                                y(end)))
            if box and c.q1 is not None:
                out.append('<rect x="%.1f" y="%.1f" width="4" height="%.1f" '
                           'fill="none" stroke="#222"/>' % (
                               cx - 2, y(c.q3), max(0.5, y(c.q1) - y(c.q3))))
            if winners.get(m.name) == v:
                out.append('<text class="best" x="%.1f" y="%.1f" '
                           'text-anchor="middle" fill="%s">&#9733;</text>' % (
                               cx, min(y(hi), y(c.median)) - 4, col))
            if hi > top:
                out.append('<path d="M%.1f %.1f l4 6 h-8 z" fill="#d00"/>' % (
                    cx, ptop - 2))
            out.append('</g>')
        out.append('<text transform="translate(%.1f %d) rotate(-40)" '
                   'text-anchor="end">%s</text>' % (
                       gx + nb * bw / 2, ptop + plot_h + 14, e(v)))
    out.append('<line x1="%d" x2="%d" y1="%d" y2="%d" stroke="#444"/>' % (
        left, width - right, ptop + plot_h, ptop + plot_h))
    out.append('</svg>')
    note = ""
    if unit == A.TICKS and len(present) > 1:
        note = "TSC ticks: their rate differs between machines."
    return "".join(out), unit, note


def axis_label(unit, key):
    if unit == A.RATIO:
        return "time / best variant"
    what = "per 4 KiB copy" if key[1] in ("hot", "cold") else "per pass call"
    return "%s %s" % (unit.label, what)


def legend(machines, colors):
    parts = []
    for m in machines:
        parts.append('<span class="key"><svg width="12" height="12" '
                     'aria-hidden="true"><rect width="12" height="12" '
                     'fill="%s"/></svg> %s</span>' % (colors[m.name],
                                                      e(m.name)))
    return '<p class="legend">%s</p>' % " &nbsp; ".join(parts)


def facts_table(machines):
    labels = []
    per = []
    for m in machines:
        d = dict(F.facts(m))
        per.append(d)
        for k, _ in F.facts(m):
            if k not in labels:
                labels.append(k)
    labels.sort(key=lambda k: F.ORDER.index(k) if k in F.ORDER else 99)
    out = ['<table id="facts"><tr><th></th>%s</tr>' % "".join(
        "<th>%s</th>" % e(m.name) for m in machines)]
    for k in labels:
        out.append("<tr><th>%s</th>%s</tr>" % (e(k), "".join(
            "<td>%s</td>" % e(d.get(k, "-")) for d in per)))
    out.append("</table>")
    fails = [(m, l, t) for m in machines for l, t in m.failures]
    if fails:
        out.append('<p class="warn">Failures:</p><ul class="failures">')
        for m, l, t in fails:
            out.append("<li>%s, line %d: %s</li>" % (e(m.name), l, e(t)))
        out.append("</ul>")
    return "\n".join(out)


def winners_table(machines):
    """The winners command's rows: the answers, by verdict-screen column."""
    out = ['<table id="winners"><tr>%s</tr>' % "".join(
        "<th>%s</th>" % e(h) for h in T.WINNER_HEAD)]
    for m in machines:
        for a, cells in T.winner_rows(m):
            out.append('<tr class="winner %s">%s</tr>' % (
                e(a.action), "".join("<td>%s</td>" % e(x) for x in cells)))
    out.append("</table>")
    out.append('<p class="note">The answers\' decisions, as '
               '<code>pagebench-report winners</code> prints them: ns per 4 '
               'KiB page and GB/s (memset, memcpy: ns per call).</p>')
    return "\n".join(out)


def report(machines, relative=False, diags=(), title=None,
           tie=S.DEFAULT_TIE):
    colors = {m.name: PALETTE[i % len(PALETTE)]
              for i, m in enumerate(machines)}

    def unit_for(ms):
        return A.choose_unit(ms, "auto", relative)[0]

    title = title or "pagebench report"
    out = ['<!DOCTYPE html>', '<html lang="en"><head><meta charset="utf-8">',
           '<meta http-equiv="Content-Security-Policy" content="'
           "default-src 'none'; style-src 'unsafe-inline'; img-src data:\">",
           '<meta name="viewport" content="width=device-width">',
           '<title>%s</title><style>%s%s</style></head><body>' % (
               e(title), CSS, htmlverdict.CSS),
           '<h1>%s</h1>' % e(title),
           '<p class="note">%d machine%s: %s. Bars: median time of one call '
           'of the variant; whisker: min to max, box: quartiles, or for a '
           'log in epochs the stat line\'s 95%% interval and no box; a red '
           'triangle marks a whisker cut at the top of the chart; a star marks each '
           'machine\'s fastest variant (lowest median).</p>' % (
               len(machines), "" if len(machines) == 1 else "s",
               e(", ".join(m.name for m in machines))),
           htmlverdict.sections(machines),
           '<section id="machines"><h2>Machines</h2>', facts_table(machines),
           '</section>',
           '<section id="winners-section"><h2>Winners</h2>',
           winners_table(machines), '</section>',
           '<section id="passes"><h2>Passes</h2>']
    for key in A.pass_keys(machines):
        svg, unit, note = chart(key, machines, unit_for, colors, relative)
        if svg is None:
            continue
        present = [m for m in machines if key in m.passes]
        sizes = sorted(set(F.describe_bytes(pass_bytes(m, *key))
                           for m in present))
        cid = "chart-%s-%s" % (key[0], key[1].lower().replace(" ", "-")
                               .replace("/", ""))
        out.append('<figure class="chart" id="%s" data-suite="%s" '
                   'data-pass="%s"><figcaption>%s: %s <span class="note">'
                   '(%s per call; unit: %s)</span></figcaption>' % (
                       e(cid), e(key[0]), e(key[1]), e(key[0]),
                       e(pass_label(*key)), e(", ".join(sizes)),
                       e(unit.label)))
        out.append(legend(present, colors))
        out.append(svg)
        if note:
            out.append('<p class="note warn">%s</p>' % e(note))
        out.append('</figure>')
    out.append('</section>')
    curves = [(m, scrub.svg(m, PALETTE)) for m in machines]
    if any(c for _, c in curves):
        out.append('<section id="scrub"><h2>Scrub: every CPU at once</h2>'
                   '<p class="note">Median throughput of the reps against the '
                   'number of CPUs clearing one region together, a line per '
                   'variant.</p>')
        for m, c in curves:
            if c:
                out.append('<figure class="scaling" data-machine="%s">'
                           '<figcaption>%s</figcaption>%s</figure>'
                           % (e(m.name), e(m.name), c))
        out.append('</section>')
    out.append(S.html_section(machines, PALETTE, tie))
    if diags:
        out.append('<section id="skipped"><h2>Skipped input</h2><ul>')
        for d in diags:
            out.append("<li>%s</li>" % e(str(d)))
        out.append("</ul></section>")
    out.append('</body></html>')
    return "\n".join(out) + "\n"
