"""The verdict's second view of a page pass: counting the next user's read.

A candidate's figure there is its call's time plus its use probe's, the
two stat medians (docs/log-format.md, "Epochs and stat lines"): what
clearing or copying the page costs once the code that touches it next
has read it back. The sum's 95% interval is centred on it, its
half-width the root sum of squares of the two half-widths: the use probe
is a rep of its own, after the timed ones, so its error is independent of
the call's, and the spread of a sum of independent estimates adds in
squares (adding the half-widths would assume they always err together).
Its quantum is the two quanta added, each part being rounded on its own.
The view is decided as the call alone is (decide.py, stat cells):
intervals apart is slower, overlapping or within the timer's resolution
is not separated (docs/report.md, "verdict").
"""
from . import analysis as A
from . import decide as D


def sum_cell(call, use):
    """The Cell of call + use, or None when either is not a stat line's
    figure (a use probe needs one; logs before epochs have none)."""
    if call is None or use is None or call.epochs is None or \
            use.epochs is None:
        return None
    med = call.median + use.median
    c = A.Cell(min(call.n, use.n), med, None, med, None, med, None,
               call.failed or use.failed)
    if call.has_interval and use.has_interval:
        half = (call.half ** 2 + use.half ** 2) ** 0.5
        c.lo, c.hi = med - half, med + half
    c.epochs = min(call.epochs, use.epochs)
    c.batch = call.batch
    if call.quantum is not None and use.quantum is not None:
        c.quantum = call.quantum + use.quantum
    return c


def change_text(call_winner, view):
    """What counting the next user's read does to the call's winner."""
    w = view.winner
    if w == call_winner:
        return "same winner as the call alone"
    r = view.relations.get(call_winner)
    if r is None:
        return ("winner %s; the call's winner %s has no use figures" % (
            w, call_winner))
    if r.as_good:
        return ("lowest sum %s, not the call's winner %s, but the two are "
                "not separated (%s)" % (w, call_winner, r.reason))
    return ("the winner changes: %s wins the call alone but loses once the "
            "next user's read is counted, %+.1f%% against %s (%s)" % (
                call_winner, 100 * r.delta, w, r.reason))


def pick_rows(view, cand, picks, judge):
    """Each kernel pick's cost in the view: one row per pick, per assumed
    MSR value of an unknown pick, and per running kernel's own routine."""
    out = []

    def row(p, variant, of=None, **extra):
        """of: the dict whose status and recommendation stand when there
        is no variant to judge (the pick, or its alternative)."""
        r = {"kernel": p["kernel"], "version": p["version"],
             "entry": p["entry"], "variant": variant}
        r.update(extra)
        if variant is None:
            of = of or p
            r.update({"status": of.get("status", p["status"]),
                      "cost_pct": None,
                      "recommendation": of["recommendation"]})
        else:
            f, rec = judge(view, variant, cand)
            r.update(f)
            r["recommendation"] = rec
        out.append(r)

    for p in picks:
        if p["status"] == "unknown":
            for a in p.get("alternatives", []):
                row(p, a.get("variant") if "status" in a else None, a,
                    assuming=a["assuming"])
            if not p.get("alternatives"):
                row(p, None)
            continue
        row(p, p.get("variant"))
        if p.get("own"):
            row(p, p["own"]["variant"], own=True)
    return out


def view_json(m, cand, call_winner, picks, alpha, judge, rel_json):
    """decisions[].with_use (docs/report.md, "verdict"), or None when no
    candidate of the pass has a use figure over epochs."""
    p = getattr(cand, "pass_obj", None)     # None: no page pass
    if p is None:
        return None
    cells, figures, missing = {}, {}, []
    for v, call in cand.cells.items():
        use = A.raw_cell(m, p, v, "use")
        c = sum_cell(call, use)
        if c is None:
            missing.append(v)
            continue
        cells[v] = c
        figures[v] = {"call": call.median, "use": use.median,
                      "sum": round(c.median, 2),
                      "half": None if c.half is None else round(c.half, 2)}
    if not cells:
        return None
    view = D.Decision(cells, alpha, cand.tie)
    return {"winner": view.winner, "best": view.best,
            "decidable": view.decidable, "why": view.why(),
            "call_winner": call_winner,
            "winner_changes": view.winner != call_winner,
            "change": change_text(call_winner, view),
            "figures": figures,
            "relations": {v: rel_json(view.relations[v])
                          for v in view.ranked if v != view.winner},
            "without_use": missing,
            "picks": pick_rows(view, cand, picks, judge)}


def text_lines(u, fmt_num, cost_text):
    """The text block under a decision's picks."""
    f = u["figures"][u["winner"]]
    peers = [b for b in u["best"] if b != u["winner"]]
    out = ["    counting the next user's read (call + use medians; interval "
           "half-widths in root sum of squares):",
           "      winner %s (%s + %s = %s ticks%s)%s" % (
               u["winner"], fmt_num(f["call"]), fmt_num(f["use"]),
               fmt_num(f["sum"]), "" if f["half"] is None else
               " ±%s" % fmt_num(f["half"]),
               "; as good: " + ", ".join("%s (%s)" % (
                   b, u["relations"][b]["why"]) for b in peers)
               if peers else ""),
           "      %s: %s" % ("decided" if u["decidable"] else "undecided",
                           u["why"]),
           "      " + u["change"]]
    if u["without_use"]:
        out.append("      no use figures: " + ", ".join(u["without_use"]))
    return out + pick_lines(u["picks"], cost_text)


def pick_lines(picks, cost_text):
    """A view's pick rows (pick_rows()), a line each."""
    out = []
    for p in picks:
        head = "%s %s %s%s%s" % (
            p["kernel"], p["version"], p["entry"],
            " assuming %s" % p["assuming"] if p.get("assuming") else "",
            " (its own routine)" if p.get("own") else "")
        if p.get("status") == "measured":
            out.append("      %s: %s: %s -> %s" % (
                head, p["variant"], cost_text(p), p["recommendation"]))
        else:
            out.append("      %s: %s" % (head, p["recommendation"]))
    return out
