"""The sections the HTML report opens with: the answer of each machine
(its bottom lines, and the matrix the C engine draws from its answer
lines, the same text as verdict's) and the claims (docs/report.md,
"html"); nothing here decides, draws a cell or parses text."""
import html

from . import bottomtext, decided, engine, runinfo, verdictpage
from . import claims as C
from .answer import ZERO_NS

CSS = """
table.verdict td,table.claims td{font-size:.92em}
td.holds{background:#e6f4ea}td.refuted{background:#fde8e4}
td.undecided,td.no-data,td.unknown{background:#f4f4f4}
pre.answer{font-size:.85em;overflow-x:auto}
li.keep{color:#1e6b32}li.switch{color:#0b4f8a}li.trade-off,li.undecided{color:#7a5b00}
details summary{cursor:default}
"""


def e(s):
    return html.escape(str(s), quote=True)


def answer_section(machines):
    """Each machine with answer lines: its header, its bottom lines, the
    engine's matrix; "" when no log has them."""
    shown = [m for m in machines if m.answers]
    if not shown:
        return ""
    out = ['<section id="answer"><h2>Answer</h2>',
           '<p class="note">Per machine, the one decision of the C engine per '
           'function and kernel pick over all passes (its bottom lines), then '
           'per pass (the matrix, as the engine draws it: the log\'s answer '
           'lines, or pagebench-decide\'s for a log without them): keep the '
           'pick, or switch to a routine, saving a share of its ns per 4 KiB '
           'page (memset, memcpy: per call; 95% interval), or undecided. The '
           'same as <code>pagebench-report verdict</code>.</p>']
    for m in shown:
        out.append('<section class="answer-machine" data-machine="%s">'
                   '<h3>%s</h3>' % (e(m.name), e(m.name)))
        out.append('<p class="note">%s</p>' % "<br>".join(
            e(l) for l in verdictpage.header(m, m.answers)[1:]))
        flags = bottomtext.kernel_flags(m)
        items = ['<li class="%s" data-fn="%s" data-kernel="%s" data-action="%s">%s</li>' % (
            e(bs[0].action), e(bs[0].fn), e(bs[0].kernel), e(bs[0].action),
            e("%s: %s" % (bottomtext.kernel_text(bs, flags),
                          bottomtext.statement(bs[0], runinfo.runs_on(m)))))
            for bs in bottomtext.grouped(m.bottoms)]
        if items:
            out.append('<ul class="bottom">%s</ul>' % "".join(items))
        out.append('<pre class="answer">%s</pre>' % e(
            "\n".join(engine.matrix(m.answers, m.bottoms, 1000))))
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
        e(decided.no_answers_line(m)) for m in left)


def sections(machines):
    """The answers and the claims, as HTML; raises claims.ClaimsError when
    the claims table does not parse."""
    res = C.evaluate(C.load_claims(), machines)
    return answer_section(machines) + "\n" + no_answers(machines) + "\n" + \
        claims_section(res)
