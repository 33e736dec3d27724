"""The sections the HTML report opens with: the answer matrix of each
machine (its answer lines, or pagebench-decide's for a log without them)
and the claims (docs/report.md, "html"). The matrix is drawn from
matrix.py's model, cell by cell, as verdict's text is; nothing here
decides or parses text."""
import html

from . import claims as C
from . import matrix as MX
from .answer import ZERO_NS

CSS = """
table.verdict td,table.claims td{font-size:.92em}
td.holds,td.keep{background:#e6f4ea}td.refuted,td.switch{background:#fde8e4}
td.undecided,td.no-data,td.unknown{background:#f4f4f4}
table.answer td.switch{background:#dcebfa}td.undecided{background:#fff4d6}
table.answer td.none{background:#eee;color:#666}
table.answer td,table.answer th{font-size:.9em;white-space:nowrap}
table.answer{table-layout:auto;max-width:100%}
details summary{cursor:default}
"""


def e(s):
    return html.escape(str(s), quote=True)


def figure(a, name, ns, gbps):
    if not ns:
        return "%s %s" % (name, ZERO_NS)
    if a.per_call:
        return "%s %.1f ns/call" % (name, ns)
    return "%s %.1f ns/page (%.2f GB/s)" % (name, ns, gbps)


def answer_table(screen, t):
    """One Table of the model as HTML: a head row of functions, one of
    picks (their kernels in the title), a row per pass."""
    out = ['<table class="answer" data-suite="%s"><tr><th rowspan="2">pass'
           '</th>' % e(t.suite)]
    fns = []
    for c in t.columns:
        if fns and fns[-1][0] == c.fn:
            fns[-1][1] += 1
        else:
            fns.append([c.fn, 1])
    out.append("".join('<th colspan="%d">%s</th>' % (n, e(fn))
                       for fn, n in fns) + "</tr><tr>")
    out.append("".join('<th class="pick" title="%s">%s</th>' % (
        e(MX.who_text(screen, c)), e(c.label)) for c in t.columns) + "</tr>")
    for p in t.passes:
        row = ['<tr data-pass="%s"%s><th>%s</th>' % (
            e(p[0]), ' data-sizes="%d-%d"' % p[1] if p[1] else "",
            e(MX.row_text(p)))]
        for i, c in enumerate(t.columns):
            cell = t.cells[(p, i)]
            a = cell.answer
            tip = ""
            if a is not None and a.pick_ns is not None:
                # No interval (fewer than 3 epochs): the figures, no epochs.
                tip = "%s, %s%s" % (
                    figure(a, a.pick, a.pick_ns, a.pick_gbps),
                    figure(a, a.routine, a.routine_ns, a.routine_gbps),
                    "" if a.epochs is None else ", %d epochs" % a.epochs)
            row.append('<td class="%s" data-fn="%s" data-pick="%s" '
                       'data-action="%s" title="%s">%s</td>' % (
                           e(cell.action or "blank"), e(c.fn), e(c.label),
                           e(cell.action), e(tip), e(cell.text())))
        out.append("".join(row) + "</tr>")
    out.append("</table>")
    return "".join(out)


def answer_section(machines):
    """The answer matrix of every machine with answer lines; "" when no
    log has them."""
    screens = [s for s in (MX.build(m) for m in machines) if s]
    if not screens:
        return ""
    out = ['<section id="answer"><h2>Answer</h2>',
           '<p class="note">Per machine, function, pass and kernel pick, '
           'the one decision of the C engine (the log\'s answer lines, or '
           'build/bin/pagebench-decide\'s for a log without them): keep '
           'the pick, or switch to a routine, saving a share of its ns per '
           '4 KiB page (memset, memcpy: per call; 95% interval), or '
           'undecided. The same as <code>pagebench-report verdict</code>; '
           'a cell\'s title gives its ns per page and GB/s.</p>']
    for sc in screens:
        out.append('<section class="answer-machine" data-machine="%s">'
                   '<h3>%s</h3>' % (e(sc.machine), e(sc.machine)))
        out.append('<p class="note">%s</p>' % "<br>".join(
            "%s: %s" % (e(k), e(v)) for k, v in sc.header))
        for t in sc.tables:
            out.append(answer_table(sc, t))
            out.append('<p class="note">picks: %s</p>' % e("; ".join(
                MX.who_text(sc, c) for c in t.columns)))
        if sc.notes:
            out.append('<ol class="note">%s</ol>' % "".join(
                "<li>%s</li>" % e(n) for n in sc.notes))
        out.append("</section>")
    out.append("</section>")
    return "\n".join(out)


def claims_section(results):
    machines = [r["machine"] for r in results[0]["results"]] if results \
        else []
    out = ['<section id="claims"><h2>Claims</h2>',
           '<p class="note">The claims of the 2021 thread and of the kernels\' '
           'commit messages, tested on each machine (the same as '
           '<code>pagebench-report claims</code>); a verdict opens to its '
           'evidence.</p>',
           '<table class="claims"><tr><th>claim</th><th>who, where</th>'
           '<th>quote</th>%s</tr>' % "".join(
               "<th>%s</th>" % e(m) for m in machines)]
    for c in results:
        cells = []
        for r in c["results"]:
            ev = "".join("<li>%s</li>" % e(C.evidence_text(x))
                         for x in r["evidence"])
            cells.append('<td class="%s" data-machine="%s"><details>'
                         '<summary>%s</summary>%s%s</details></td>' % (
                             e(r["verdict"]), e(r["machine"]),
                             e(r["verdict"]),
                             "<p>%s</p>" % e(r["why"]) if r["why"] else "",
                             "<ul>%s</ul>" % ev if ev else ""))
        out.append('<tr class="claim" data-id="%s"><td>%s</td><td>%s, %s; '
                   '%s</td><td>%s <span class="note">[%s]</span><br>'
                   '<span class="note">%s</span></td>%s</tr>' % (
                       e(c["id"]), e(c["id"]), e(c["who"]), e(c["date"]),
                       e(c["where"]), e(c["quote"]), e(c["quote-status"]),
                       e(c["proposition"]), "".join(cells)))
    out.append("</table></section>")
    return "\n".join(out)


def no_answers(machines):
    """The line of each machine no answer could be made for."""
    left = [m for m in machines if not m.answers]
    if not left:
        return ""
    return '<p class="note" id="no-answers">%s</p>' % "<br>".join(
        e(MX.no_answers_line(m)) for m in left)


def sections(machines, alpha):
    """The answers and the claims, as HTML; raises claims.ClaimsError when
    the claims table does not parse."""
    res = C.evaluate(C.load_claims(), machines, alpha)
    return answer_section(machines) + "\n" + no_answers(machines) + "\n" + \
        claims_section(res)
