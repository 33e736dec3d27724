"""verdict --explain: the vector price and where it came from, every
bottom line with its passes, then the answer lines in full, pass by pass,
with the figures the log prints for each variant of the pass (its stat
lines).
Every word of a decision is a field of an answer line (docs/log-format.md,
"The answer"); what is added is arithmetic of presentation: a saving is
1 - ratio, ns is ticks over the TSC rate, GB/s is 4096 bytes over ns."""
from . import bottomtext, decided, picks
from . import runinfo
from .answer import PAGE, ZERO_NS
from .parse import PASS_IDS, pass_bytes, pass_label

SUITE_OF = {"clear_page": "clear", "clear_pages": "clear",
            "copy_page": "copy"}


def who(a):
    """"linux >=5.4 <7.0 clear_page (assuming fast_string=1)"."""
    s = "%s %s %s" % (a.kernel, a.versions, a.entry)
    return s + (" (assuming %s)" % a.assuming if a.assuming else "")


def figure(a, name, ns):
    if ns is None:
        return "%s -" % name
    if not ns:
        return "%s %s" % (name, ZERO_NS)
    if a.per_call:
        return "%s %.1f ns/call" % (name, ns)
    return "%s %.1f ns/page %.2f GB/s" % (name, ns, PAGE / ns)


def decision(a):
    """Every field of one answer line, in words."""
    head = {"switch": "switch to %s" % a.routine + (
                " (or %s, quicker within noise)" % a.alike if a.alike else ""),
            "keep": "keep" + (" (nearest: %s)" % a.routine if a.routine
                              else " (no challenger)"),
            "undecided": "undecided (in doubt: %s)" % a.routine,
            "none": "no recommendation (%s)" % a.why}[a.action]
    parts = ["pick %s: %s" % (a.pick or "-", head)]
    if a.ratio is not None:
        r, s = a.ratio, a.saving_pct
        parts.append("ratio %.4f (95%% %.4f-%.4f), saves %.1f%% (%.1f to "
                     "%.1f%%), %d epochs" % (r.median, r.lo, r.hi, s.median,
                                             s.lo, s.hi, a.epochs))
    if a.pick_ns is not None:
        parts.append("%s -> %s" % (figure(a, a.pick or "-", a.pick_ns),
                                   figure(a, a.routine or "-", a.routine_ns)))
    if a.fpu == "?":
        parts.append("fpu=?: needs kernel_fpu_begin/end, cost not measured "
                     "here, not in the figure")
    elif a.fpu is not None:
        parts.append("fpu=%s: kernel_fpu_begin/end, in the figure" % a.fpu)
    if a.drift:
        parts.append("drifted during the run: %.4f over its first half of "
                     "epochs, %.4f over its last; a rerun may find either"
                     % a.drift)
    parts.append("worth %.1f%%" % a.worth_pct)
    if a.need_epochs is not None:
        parts.append("need epochs>=%d" % a.need_epochs)
    if a.action == "none" and a.why:
        parts.append("why: %s" % a.why)
    return "; ".join(parts)


def stat_rows(m, suite, pid):
    """The stat lines of one pass: variant, epochs, median and 95%
    interval in ticks per call, ns per 4 KiB page and GB/s where the TSC
    rate and the pass size are known, and what stopped it."""
    name = PASS_IDS.get(pid)
    p = m.passes.get((suite, name)) if name else None
    if p is None or not p.stats:
        return []
    b = pass_bytes(m, suite, name)
    pages = b / PAGE if b else None
    out = []
    for (v, metric), st in p.stats.items():
        if metric != "time":
            continue
        iv = "%.2f-%.2f" % (st.lo, st.hi) if st.has_interval else "none"
        s = "    stat %-12s epochs=%d median=%.2f ticks (95%% %s)" % (
            v, st.epochs, st.median, iv)
        if m.tsc_khz and pages:
            ns = st.median * 1e6 / m.tsc_khz / pages
            s += " = %.1f ns/page %.2f GB/s" % (ns, PAGE / ns if ns else 0)
        out.append(s + " stop=%s" % st.stop)
    return out


def cell_text(c, routine, pick):
    """One pass of a bottom line: its verdict, ratio and saving, epochs,
    ns of the pick and the routine (and the price in it), need."""
    if c.ratio is None:
        return "    %s: %s" % (c.pass_id, c.verdict)
    r, s = c.ratio, c.saving_pct
    out = "    %s: %s, ratio %.4f (95%% %.4f-%.4f), saves %.1f%% (%.1f to %.1f%%), %d " \
        "epochs" % (c.pass_id, c.verdict, r.median, r.lo, r.hi, s.median, s.lo, s.hi,
                    c.epochs or 0)
    if c.pick_ns is not None:
        out += "; %s %.1f ns -> %s %.1f ns" % (pick or "-", c.pick_ns, routine, c.routine_ns)
    if c.price_ns is not None:
        out += " (the vector price %.1f ns of it)" % c.price_ns
    if c.need_epochs is not None:
        out += "; need epochs>=%d" % c.need_epochs
    return out


def bottom_rows(m):
    """Every bottom line in words, then its passes."""
    if not m.bottoms:
        return []
    out = ["", "-- bottom lines (all passes together; worth %s)" % ", ".join(
        "%g%%" % w for w in sorted({b.worth_pct for b in m.bottoms}))]
    flags = bottomtext.kernel_flags(m)
    for b in m.bottoms:
        out.append("  %s: %s" % (bottomtext.kernel_text([b], flags),
                                        bottomtext.statement(b, runinfo.runs_on(m))))
        out += [cell_text(c, b.routine, b.pick) for c in b.cells]
        if b.sets:
            out.append("    safe: %s; surely saves somewhere: %s" % (
                ", ".join(b.safe_set) or "-", ", ".join(b.saves_set) or "-"))
    return out


def machine(m):
    out = ["== %s" % m.name, "cpu: " + runinfo.cpu_text(m),
           "ran: %s; %s" % (runinfo.host(m)[1], runinfo.runs_on_text(m)),
           "plan: " + runinfo.plan_text(m)]
    if m.incomplete:
        out.insert(1, "incomplete: " + m.incomplete)
    if not m.answers:
        return out + [decided.no_answers_line(m)]
    if m.answers_from == "pagebench-decide":
        out.append("answers: made by pagebench-decide from the log's figures (%s)" % (
            "its answer lines are from before the bottom lines and the vector price"
            if getattr(m, "redecided", False) else "the log has no answer lines"))
    out.append("vector price: " + (bottomtext.vector_price_text(m) or
                                   "none in this log: vector routines are shown before "
                                   "it (unpriced=), never as the answer"))
    out += bottom_rows(m)
    rows = {}
    for a in m.answers:
        rows.setdefault((SUITE_OF.get(a.fn, a.fn),) + a.row, []).append(a)
    for key in sorted(rows, key=lambda k: (k[0], picks.row_order(k[1:]))):
        suite, pid, sizes = key
        name = PASS_IDS.get(pid)
        label = pass_label(suite, name) if name and suite in ("clear", "copy") \
            else "%s %s" % (suite, picks.row_text((pid, sizes)))
        out.append("")
        out.append("-- %s (pass=%s)" % (label, pid))
        for a in rows[key]:
            out.append("  %s %s: %s" % (a.fn, who(a), decision(a)))
        out += stat_rows(m, suite, pid)
    return out


def text(machines):
    return "\n\n".join("\n".join(machine(m)) for m in machines) + "\n"
