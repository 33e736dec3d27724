"""The verdict's third view of a page pass: paired against the reference.

A candidate's figure there is its ratio line (docs/log-format.md, "Ratio
lines"): its time over the table's reference variant (REP STOSB for
clears, REP MOVSQ for copies), epoch by epoch, and the 95% interval of a
rerun's ratio. Both times of an epoch come from the same reps, so what
moved the whole machine between epochs or runs (docs/method.md,
"Ratios") is not in it. The reference's own figure is exactly 1, without
spread: against it, a candidate is apart when its ratio's interval
leaves out 1, which is the paired test the times' intervals cannot make.
Two candidates other than the reference are compared by their ratio
intervals, as stat cells are (decide.py): apart is slower, overlapping is
not separated. A ratio's interval already has the timer's step as its
floor, so no quantum rule applies.
"""
from . import analysis as A
from . import decide as D
from . import nextuse


def ratio_cell(r, epochs):
    """A Cell on the ratio scale: a ratio line's figure, or the reference's
    own (r None), 1 exactly over the same epochs."""
    med, lo, hi = (1.0, 1.0, 1.0) if r is None else (r.median, r.lo, r.hi)
    c = A.Cell(epochs, med, None, med, None, med, None)
    c.lo, c.hi, c.epochs = lo, hi, epochs
    return c


def view_json(cand, call_winner, picks, alpha, judge, rel_json):
    """decisions[].paired (docs/report.md, "verdict"), or None when the
    pass has no ratio lines, or its reference is not a candidate."""
    p = getattr(cand, "pass_obj", None)     # None: no page pass
    if p is None or not p.ratios:
        return None
    ref = p.ratio_ref
    st = p.stat(ref) if ref else None
    if ref not in cand.cells or st is None:
        return None
    cells, figures, missing = {}, {}, []
    for v in cand.cells:
        r = None if v == ref else p.ratios.get((v, ref))
        if v != ref and (r is None or not r.has_interval):
            missing.append(v)
            continue
        cells[v] = ratio_cell(r, st.epochs)
        figures[v] = {"ratio": cells[v].median, "lo": cells[v].lo,
                      "hi": cells[v].hi}
    view = D.Decision(cells, alpha, cand.tie)
    return {"reference": ref, "winner": view.winner, "best": view.best,
            "decidable": view.decidable, "why": view.why(),
            "call_winner": call_winner,
            "winner_changes": view.winner != call_winner,
            "figures": figures,
            "relations": {v: rel_json(view.relations[v])
                          for v in view.ranked if v != view.winner},
            "without_ratio": missing,
            "picks": nextuse.pick_rows(view, cand, picks, judge)}


def text_lines(u, cost_text):
    """The text block under a decision's picks (and its use view)."""
    f = u["figures"][u["winner"]]
    peers = [b for b in u["best"] if b != u["winner"]]
    out = ["    paired against %s (each variant's time over %s's, epoch by "
           "epoch: what moved the whole machine cancels):" % (
               u["reference"], u["reference"]),
           "      winner %s (%.4f of %s, 95%% %.4f-%.4f)%s" % (
               u["winner"], f["ratio"], u["reference"], f["lo"], f["hi"],
               "; as good: " + ", ".join("%s (%s)" % (
                   b, u["relations"][b]["why"]) for b in peers)
               if peers else ""),
           "      %s: %s" % ("decided" if u["decidable"] else "undecided",
                           u["why"])]
    if u["winner_changes"]:
        out.append("      lowest ratio %s, not the times' winner %s" % (
            u["winner"], u["call_winner"]))
    if u["without_ratio"]:
        out.append("      no ratio interval: " + ", ".join(u["without_ratio"]))
    return out + nextuse.pick_lines(u["picks"], cost_text)
