"""suite=scrub: bandwidth against the number of CPUs clearing at once.

Each CPU count is also a pass of the "scrub" suite (its steps' wall times
as samples), so summary tables, winners, diff and export treat it as any
pass. This module adds the view across counts: per variant, the GB/s at
each count, where it stops scaling, and the scaling curve for the HTML
report."""
import html
import statistics

# A count "stops scaling" when the next count adds less than this.
SCALING_GAIN = 0.10


def points(m, node="local"):
    """{variant: [(cpus, median throughput)]} in count order; throughput in
    GB/s (10^9 bytes/s) when the TSC rate is known, else bytes per tick."""
    by = {}
    for s in m.scrub:
        if s["node"] != node or not s["wall"]:
            continue
        v = s["bytes"] / s["wall"]
        if m.tsc_khz:
            v = v * m.tsc_khz * 1e3 / 1e9
        by.setdefault(s["variant"], {}).setdefault(s["cpus"], []).append(v)
    return {v: sorted((c, statistics.median(xs)) for c, xs in counts.items())
            for v, counts in by.items()}


def unit(m):
    return "GB/s" if m.tsc_khz else "bytes/tick"


def saturation(pts):
    """The count from which more CPUs add less than SCALING_GAIN, or None
    when the largest count still gains that much."""
    for (c, v), (_, nxt) in zip(pts, pts[1:]):
        if nxt < v * (1 + SCALING_GAIN):
            return c
    return None


def winner_at(by, cpus):
    best = None
    for v, pts in by.items():
        for c, x in pts:
            if c == cpus and (best is None or x > best[1]):
                best = (v, x)
    return best


def summary_lines(m):
    """The scaling table of one machine, or [] without scrub steps."""
    by = points(m)
    if not by:
        return []
    counts = sorted({c for pts in by.values() for c, _ in pts})
    u = unit(m)
    head = ["variant"] + ["%d cpu%s" % (c, "" if c == 1 else "s") for c in counts] \
        + ["stops scaling at"]
    rows = [head]
    for v, pts in sorted(by.items(), key=lambda kv: -kv[1][-1][1]):
        at = dict(pts)
        sat = saturation(pts)
        rows.append([v] + ["%.2f" % at[c] if c in at else "-" for c in counts]
                    + ["%d cpu%s" % (sat, "" if sat == 1 else "s") if sat
                       else "still scaling at %d" % pts[-1][0]])
    widths = [max(len(r[i]) for r in rows) for i in range(len(head))]
    out = ["", "-- scrub: %s by CPUs clearing at once (median of the reps; region %d MiB)"
           % (u, m.scrub[0]["bytes"] // (1 << 20))]
    for r in rows:
        out.append("  ".join(c.rjust(w) if i else c.ljust(w)
                             for i, (c, w) in enumerate(zip(r, widths))))
    first, last = winner_at(by, counts[0]), winner_at(by, counts[-1])
    out.append("fastest at %d cpu%s: %s (%.2f %s); at %d: %s (%.2f %s)%s" % (
        counts[0], "" if counts[0] == 1 else "s", first[0], first[1], u,
        counts[-1], last[0], last[1], u,
        "" if first[0] == last[0] else "; the winner changes with more CPUs"))
    remote = points(m, "remote")
    for v, pts in sorted(remote.items()):
        local = dict(by.get(v, []))
        c, x = pts[-1]
        if c in local:
            out.append("remote node, %d cpus: %s %.2f %s (local %.2f, %+.1f%%)" % (
                c, v, x, u, local[c], 100 * (x / local[c] - 1)))
    return out


def svg(m, colors):
    """The scaling curve of one machine: throughput against CPUs, a line
    per variant. None without scrub steps."""
    by = points(m)
    if not by:
        return None
    counts = sorted({c for pts in by.values() for c, _ in pts})
    top = max(x for pts in by.values() for _, x in pts) or 1
    left, right, ptop, plot_h, bottom, step = 70, 160, 16, 240, 40, 90
    width = left + right + max(1, len(counts) - 1) * step
    height = ptop + plot_h + bottom
    xpos = {c: left + i * step for i, c in enumerate(counts)}

    def y(v):
        return ptop + plot_h - v / top * plot_h

    e = html.escape
    out = ['<svg xmlns="http://www.w3.org/2000/svg" class="scaling" width="%d" '
           'height="%d" viewBox="0 0 %d %d" role="img" aria-label="%s">'
           % (width, height, width, height, e("scrub scaling, " + m.name))]
    for i in range(6):
        v = top * i / 5
        out.append('<line x1="%d" x2="%d" y1="%.1f" y2="%.1f" stroke="#ddd"/>'
                   % (left, left + (len(counts) - 1) * step, y(v), y(v)))
        out.append('<text x="%d" y="%.1f" text-anchor="end">%.1f</text>'
                   % (left - 4, y(v) + 4, v))
    for c in counts:
        out.append('<text x="%d" y="%d" text-anchor="middle">%d</text>'
                   % (xpos[c], ptop + plot_h + 16, c))
    out.append('<text x="%d" y="%d" text-anchor="middle">CPUs clearing at once</text>'
               % (left + (len(counts) - 1) * step // 2, ptop + plot_h + 34))
    out.append('<text transform="translate(14 %d) rotate(-90)" '
               'text-anchor="middle">%s</text>' % (ptop + plot_h // 2, e(unit(m))))
    for i, (v, pts) in enumerate(sorted(by.items())):
        col = colors[i % len(colors)]
        path = " ".join("%s%.1f %.1f" % ("M" if k == 0 else "L", xpos[c], y(x))
                        for k, (c, x) in enumerate(pts))
        out.append('<g class="curve" data-variant="%s"><title>%s: %s</title>'
                   '<path d="%s" fill="none" stroke="%s" stroke-width="2"/>'
                   % (e(v), e(v), e(", ".join("%d cpus %.2f %s" % (c, x, unit(m))
                                               for c, x in pts)), path, col))
        for c, x in pts:
            out.append('<circle cx="%.1f" cy="%.1f" r="3" fill="%s"/>'
                       % (xpos[c], y(x), col))
        out.append('</g>')
        lx, ly = left + (len(counts) - 1) * step + 12, ptop + 12 + 14 * i
        out.append('<text x="%d" y="%d" fill="%s">%s</text>' % (lx, ly, col, e(v)))
    out.append('</svg>')
    return "".join(out)
