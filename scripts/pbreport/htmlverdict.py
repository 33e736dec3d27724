"""The sections the HTML report opens with: the answer matrix of each
machine whose log has answer lines, the verdict of each machine, the
fleet table, and the claims (docs/report.md, "html"). The matrix is drawn
from matrix.py's model, cell by cell; the figures and words of the rest
are those of the verdict and claims subcommands, whose text functions
make each line here."""
import html

from . import claims as C
from . import fleet as F
from . import matrix as MX
from . import paired as PV
from . import verdict as V

CSS = """
table.verdict td,table.claims td{font-size:.92em}
td.holds,td.keep{background:#e6f4ea}td.refuted,td.switch{background:#fde8e4}
td.undecided,td.no-data,td.unknown{background:#f4f4f4}
table.answer td.switch{background:#dcebfa}td.undecided{background:#fff4d6}
table.answer td.none{background:#eee;color:#666}
table.answer td,table.answer th{font-size:.9em;white-space:nowrap}
table.answer{table-layout:auto;max-width:100%}
details summary{cursor:default}
pre.fleet{font-size:.85em;white-space:pre-wrap}
"""


def e(s):
    return html.escape(str(s), quote=True)


def lines(text):
    return "<br>".join(e(l.strip()) for l in text.split("\n"))


def pick_class(p):
    rec = p.get("recommendation") or ""
    for word in ("keep", "switch", "undecided"):
        if rec.startswith(word):
            return word
    return "unknown"


def machine_table(v):
    out = ['<section class="verdict-machine" data-machine="%s"><h3>%s</h3>'
           % (e(v["machine"]), e(v["machine"]))]
    if v.get("caveat"):
        out.append('<p class="warn">note: %s</p>' % e(v["caveat"]))
    out.append('<p class="note">cpu: %s</p>' % e(V.cpu_text(v)))
    out.append('<table class="verdict"><tr><th>function</th><th>pass</th>'
               '<th>winner</th><th>as good as it</th><th>decided</th>'
               '<th>pick</th><th>cost, recommendation</th></tr>')
    for d in v["decisions"]:
        peers = [b for b in d["best"] if b != d["winner"]]
        decided = "yes" if d["decidable"] else "no: " + d["why"] + (
            "; run with reps>=%d" % d["reps_needed"]
            if d["reps_needed"] is not None else "")
        picks = d["picks"] or [None]
        for i, p in enumerate(picks):
            row = ['<tr class="decision" data-function="%s" data-pass="%s">'
                   % (e(d["function"]), e(d["pass"]))]
            if i == 0:
                span = ' rowspan="%d"' % len(picks)
                row.append('<td%s>%s</td><td%s>%s</td><td%s class="winner">'
                           '%s</td><td%s>%s</td><td%s>%s</td>' % (
                               span, e(d["function"]), span, e(d["pass"]),
                               span, e(d["winner"]), span,
                               e(", ".join(peers) or "-"), span, e(decided)))
            if p is None:
                row.append('<td>-</td><td>no kernel entry measured here</td>')
            else:
                head, _, rest = V.pick_text(p).partition(": ")
                row.append('<td class="pick">%s</td><td class="%s">%s</td>'
                           % (e(head), pick_class(p), lines(rest)))
            out.append("".join(row) + "</tr>")
    out.append("</table>")
    out.append(paired_table(v))
    out.append("</section>")
    return "\n".join(out)


def paired_table(v):
    """The decisions again on the ratio lines (docs/report.md, "Paired
    against the reference"), as the verdict's text says them; empty for
    logs without ratio lines."""
    rows = [d for d in v["decisions"] if d.get("paired")]
    if not rows:
        return ""
    out = ['<table class="verdict paired"><tr><th>function</th><th>pass</th>'
           '<th>paired winner</th><th>against the reference, and the '
           'picks</th></tr>']
    for d in rows:
        u = d["paired"]
        text = PV.text_lines(u, V.cost_text)
        out.append('<tr class="paired" data-function="%s" data-pass="%s">'
                   '<td>%s</td><td>%s</td><td class="paired-winner">%s</td>'
                   '<td>%s</td></tr>' % (
                       e(d["function"]), e(d["pass"]), e(d["function"]),
                       e(d["pass"]), e(u["winner"]), lines("\n".join(text[1:]))))
    out.append("</table>")
    return "\n".join(out)


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
        row = ['<tr data-pass="%s"><th>%s</th>' % (e(p), e(p))]
        for i, c in enumerate(t.columns):
            cell = t.cells[(p, i)]
            a = cell.answer
            tip = ""
            if a is not None and a.pick_ns is not None:
                # No interval (fewer than 3 epochs): the figures, no epochs.
                tip = "%s %.1f ns/page (%.2f GB/s), %s %.1f ns/page " \
                      "(%.2f GB/s)%s" % (
                          a.pick, a.pick_ns, a.pick_gbps, a.routine,
                          a.routine_ns, a.routine_gbps,
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
           'the log\'s own decision (its answer lines): keep the pick, or '
           'switch to a routine, saving a share of its ns per 4 KiB page '
           '(95%% interval), or undecided. The same as <code>'
           'pagebench-report verdict</code>; a cell\'s title gives its ns '
           'per page and GB/s.</p>']
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


def verdict_section(verdicts, fleet_rows):
    out = ['<section id="verdict"><h2>Verdict</h2>',
           '<p class="note">Per machine, function and pass: the winner, the '
           'variants as good as it, whether the reps decide, and what each '
           'Linux and Xen version picks on this CPU (rules/) and what that '
           'costs: the pick\'s median against the winner\'s; then, for logs '
           'with ratio lines, the same decided on each variant\'s time over '
           'the reference\'s, epoch by epoch. The same as '
           '<code>pagebench-report verdict</code>.</p>']
    out.extend(machine_table(v) for v in verdicts)
    if fleet_rows:
        out.append('<h3 id="fleet">Fleet</h3><pre class="fleet">%s</pre>'
                   % e(F.text(fleet_rows)))
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


def sections(machines, alpha):
    """The verdict (with the fleet table for more than one machine) and
    the claims, as HTML; raises rules.RulesError or claims.ClaimsError
    when a table does not parse."""
    verdicts = [V.machine_verdict(m, alpha, {}) for m in machines]
    rows = F.fleet(verdicts) if len(verdicts) > 1 else []
    res = C.evaluate(C.load_claims(), machines, alpha)
    return answer_section(machines) + "\n" + verdict_section(verdicts, rows) \
        + "\n" + claims_section(res)
