"""verdict's one screen per machine (docs/report.md, "verdict"): at most 40
lines of at most 100 columns. A header (the CPU, how it ran, the plan and
worth, the vector price), then the bottom lines first, one sentence per
function and pick (bottomtext.py), then the matrix the C engine draws
from the same lines (engine.py, harness/render/matrix.c) in the lines
left: it shortens itself (compact cells, fewer blocks) and never cuts
its footnotes. Nothing here decides or draws a cell."""
import textwrap

from . import bottomtext, decided, engine, runinfo

WIDTH, HEIGHT = 100, 40
# The matrix's least room: its legend, one block of a full run's passes
# with the bottom row and picks, and two footnotes.
MATRIX_MIN = 18


# A line's room is its bytes, as the engine's matrix counts it
# (harness/render/matrix.c, room_of()): "≥" is one column on a terminal
# but three to a C locale's wc -L or a mail reader, and the page fits
# either way. textwrap counts characters, so each character beyond ASCII
# carries a NUL per extra byte while it wraps.
def wrap(label, text):
    padded = "".join(c + "\0" * (len(c.encode()) - 1) for c in text)
    return [l.replace("\0", "") for l in
            textwrap.wrap(padded, WIDTH, initial_indent="%s: " % label if label else "",
                          subsequent_indent="  ", break_on_hyphens=False)]


def only(m, kernel=None, functions=None):
    """The machine's answer and bottom lines of kernel and functions (None: all)."""
    def keep(x):
        return (kernel is None or x.kernel == kernel) and \
            (not functions or x.fn in functions)
    return [a for a in m.answers if keep(a)], [b for b in m.bottoms if keep(b)]


def header(m, answers):
    _, host = runinfo.host(m)
    worth = sorted({a.worth_pct for a in answers})
    out = ["== %s" % m.name]
    # A run cut short: said first, on standard output, whatever -q says.
    if m.incomplete:
        out += wrap("incomplete", m.incomplete)
    out += wrap("cpu", runinfo.cpu_text(m))
    out += wrap("ran", "%s; %s" % (host, runinfo.runs_on_text(m)))
    out += wrap("plan", "pagebench %s, %s; worth acting on: %s" % (
        m.facts.get("version", "?"), runinfo.plan_text(m, passes=False),
        ", ".join("%g%%" % w for w in worth)))
    if m.answers_from == "pagebench-decide":
        out += wrap("answers", "made by pagebench-decide, the run's own engine, from the "
                    "log's figures (%s)" % ("its answer lines are from before the bottom "
                                            "lines and the vector price" if m.redecided
                                            else "it has no answer lines"))
    price = bottomtext.vector_price_text(m)
    out += wrap("vector price", price or "not in this log: a vector routine is shown "
                "before it (*), never as the answer")
    return out


def screen(m, kernel=None, functions=None):
    """The lines of machine m's screen."""
    if not m.answers:
        return wrap("", "== %s: %s" % (m.name, decided.no_answers_line(m)[len(m.name) + 2:])) + \
            (wrap("incomplete", m.incomplete) if m.incomplete else [])
    answers, bottoms = only(m, kernel, functions)
    head = header(m, answers or m.answers)
    if not answers:
        return head + ["no answer line of %s" % " ".join(
            x for x in (kernel, ", ".join(functions or ())) if x)]
    said = [l for s in bottomtext.lines(bottoms, bottomtext.kernel_flags(m),
                                        runinfo.runs_on(m))
            for l in wrap("", s)]
    # The matrix as tall as it would be alone; the bottom lines take the
    # rest, down to MATRIX_MIN lines left for it (it shortens itself).
    alone = engine.matrix(answers, bottoms, HEIGHT - len(head) - 1)
    room = HEIGHT - len(head) - 1 - min(len(alone), MATRIX_MIN)
    if len(said) > room:
        said = said[:room - 1] + ["... %d more lines of bottom lines: --explain" %
                                  (len(said) - room + 1)]
    rows = HEIGHT - len(head) - len(said) - 1
    return head + said + [""] + (alone if len(alone) <= rows else
                                 engine.matrix(answers, bottoms, rows))


def text(machines, kernel=None, functions=None):
    out = ["\n".join(screen(m, kernel, functions)) + "\n" for m in machines]
    text = "\n".join(out)
    if len([m for m in machines if m.answers]) > 1:
        text += ("\nfleet: --format commit gives the one choice per group "
                 "of CPUs\n")
    return text
