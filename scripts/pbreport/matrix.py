"""The answer of one machine on one screen: a header, then per table a
matrix of pass (and, for memset/memcpy, size class) x kernel pick, each cell the answer line's decision, then
the caveats once, as numbered footnotes (docs/report.md, "verdict").

The model (Screen, Table, Column, Cell) is built from the answer lines
alone; text() and htmlverdict draw it. This layout is the reference:
harness/answer_matrix.c draws the same text from the engine's records
(the kernel's screen page, pagebench-linux's terminal), and
tests/test_linux_log.py holds them equal. Nothing here decides: a cell says
what its answer line says. Picks of one function that run the same
variant get one column when their answers agree in every pass (a cost
depends on the variant and the pass, as the screen page has it); where
they do not agree they keep columns of their own."""
import os
import textwrap
from dataclasses import dataclass, field
from typing import List, Optional

from . import decided, runinfo
from .answer import NOT_A_CPU

WIDTH, HEIGHT = 100, 40
# The tables of the screen and the functions each draws; a function the
# answer lines name and this does not know gets a table of its own.
SUITE_FNS = (("clear", ("clear_page", "clear_pages")),
             ("copy", ("copy_page",)), ("memset", ("memset",)),
             ("memcpy", ("memcpy",)), ("scrub", ("scrub",)))
PASS_ORDER = ("l1", "l1f", "l2", "l2f", "l3", "l3f", "mem", "hot", "cold",
              "tput", "lat")
FPU_NOTE = ("*: needs kernel_fpu_begin/end, whose cost is not measured "
            "here nor in the figure (fpu=?)")
# A decision whose ratio drifted during the run (drift=), at the cell's end.
DRIFT_MARK = "~"
DRIFT_NOTE = ("%s: its ratio drifted during the run (drift=): a rerun may "
              "decide otherwise" % DRIFT_MARK)
SUPER = "¹²³⁴⁵⁶⁷⁸⁹"

WHY_TEXT = {
    "pick-not-measured": "the pick's variant did not run in this pass, or "
                         "failed its check: no recommendation",
    "no-pick-variant": "no pagebench variant runs the pick's routine: no "
                       "recommendation",
    "unknown-pick": "the rules need a fact this run does not have: no "
                    "recommendation",
    "no-interval": "fewer than 3 epochs, so no interval (suite=xen, or "
                   "reps<3): no recommendation",
}


@dataclass
class Who:
    """A kernel pick one column stands for."""
    kernel: str
    versions: str
    entry: str
    assuming: Optional[str]

    def text(self, fn):
        e = self.entry[len(fn) + 1:] if self.entry.startswith(fn + "_") \
            else "" if self.entry == fn else self.entry
        return " ".join(x for x in (self.kernel, self.versions, e) if x)


@dataclass
class Column:
    fn: str
    pick: Optional[str]
    who: List[Who]
    answers: dict               # row (pass id, sizes) -> Answer (the first of its picks)

    @property
    def label(self):
        return self.pick or "-"


@dataclass
class Cell:
    action: str                 # keep, switch, undecided, none, or ""
    answer: object = None       # the Answer, None where no line judges it
    note: Optional[int] = None  # its footnote

    def text(self, compact=False):
        """"keep", "→ avx512 −50% (47–53)", "undecided³", "n/a¹", or "-"
        where no answer line judges the pick in the pass, "~" after a
        decision whose ratio drifted; compact: no blank after the arrow,
        whole per cents."""
        a = self.answer
        if a is None:
            return "-"
        star = "*" if a.fpu_unmeasured else ""
        drift = DRIFT_MARK if a.drift else ""
        if self.action == "switch":
            return "→%s%s%s %s%s" % ("" if compact else " ", a.routine, star,
                                     saving_text(a.saving_pct, compact), drift)
        if self.action == "keep":
            return "keep" + drift
        if self.action == "undecided":
            return "undecided" + mark(self.note) + star + drift
        s = "n/a" + mark(self.note)
        if a.ratio is not None and a.routine and not compact:
            s += " %s ×%s" % (a.routine, fixed(
                (int(round(a.ratio.median * 10000)) + 50) // 100, 2))
        return s


@dataclass
class Table:
    suite: str
    columns: List[Column]
    passes: List[tuple]         # rows: (pass id, sizes or None)
    cells: dict                 # (row, column index) -> Cell


@dataclass
class Screen:
    machine: str
    header: List[tuple]         # (label, text)
    tables: List[Table]
    notes: List[str]            # footnote texts, numbered from 1
    who_notes: dict = field(default_factory=dict)   # assuming -> note number

    def note(self, text):
        """The number of footnote text, added the first time."""
        if text not in self.notes:
            self.notes.append(text)
        return self.notes.index(text) + 1


def mark(n):
    return "".join(SUPER[int(d) - 1] if d != "0" else "⁰" for d in str(n))


def hundredths(x):
    """x (a per cent from a four-decimal ratio, or a ratio to two
    decimals' use) in exact hundredths."""
    return int(round(x * 100))


def fixed(h, digits):
    """Hundredths h with digits 0 to 2, rounded half away from zero from
    the exact figure, not from a float's binary neighbour, so that the
    C renderer (harness/answer_matrix.c) says the same digits."""
    q = (abs(h) + (50, 5, 0)[digits]) // (100, 10, 1)[digits]
    s = str(q) if digits == 0 else "%d.%0*d" % (q // 10 ** digits, digits,
                                                q % 10 ** digits)
    return "-" + s if h < 0 else s


def saving_text(s, compact=False):
    """"−50% (47–53)": a saving and its 95% interval, in per cent."""
    h = [hundredths(x) for x in (s.median, s.lo, s.hi)]
    digits = 0 if compact or min(abs(x) for x in h) >= 950 else 1
    return "−%s%% (%s–%s)" % tuple(fixed(x, digits) for x in h)


def cell_of(screen, a, runs_on):
    if a is None:
        return Cell("")
    if a.action in ("switch", "keep"):
        return Cell(a.action, a)
    if a.action == "undecided":
        return Cell(a.action, a, screen.note(UNDECIDED))
    return Cell("none", a, screen.note(why_text(a.why, runs_on)))


UNDECIDED = ("undecided: the 95% interval spans the worth (--json "
             "need_epochs: the epochs to decide)")


def why_text(why, runs_on):
    if why == "not-a-cpu":
        what = runinfo.RUNS_ON_TEXT.get(runs_on, "not a CPU's run")
        return "%s, not a CPU: no recommendation" % what \
            if runs_on in NOT_A_CPU else \
            "%s (runs_on=%s): no recommendation" % (what, runs_on or "?")
    return WHY_TEXT.get(why, "no recommendation: %s" % why)


def columns(answers, fn):
    """The columns of one function: one per (kernel, versions, entry),
    then merged where they pick the same variant and agree."""
    cols = []
    by = {}
    for a in answers:
        if a.fn != fn:
            continue
        key = a.column
        if key not in by:
            by[key] = Column(fn, a.pick, [Who(a.kernel, a.versions, a.entry,
                                              a.assuming)], {})
            cols.append(by[key])
        by[key].answers.setdefault(a.row, a)
    merged = []
    for c in cols:
        for m in merged:
            if m.pick == c.pick and agree(m, c):
                m.who += c.who
                for p, a in c.answers.items():
                    m.answers.setdefault(p, a)
                break
        else:
            merged.append(c)
    return merged


def agree(a, b):
    common = set(a.answers) & set(b.answers)
    return all(a.answers[p].verdict() == b.answers[p].verdict()
               for p in common)


def build(m):
    """The Screen of machine m, or None when its log has no answer lines."""
    if not m.answers:
        return None
    runs_on = runinfo.runs_on(m)
    screen = Screen(m.name, [], [], [])
    _, host = runinfo.host(m)
    shown = []
    for a in m.answers:
        era = "%s %s" % (a.kernel, a.versions)
        if era not in shown:
            shown.append(era)
    worth = sorted({a.worth_pct for a in m.answers})
    screen.header = [
        ("cpu", runinfo.cpu_text(m)),
        ("ran", "%s; %s" % (host, runinfo.runs_on_text(m))),
        ("plan", "pagebench %s, %s; worth acting on: %s" % (
            m.facts.get("version", "?"), runinfo.plan_text(m, passes=False),
            ", ".join("%g%%" % w for w in worth))),
        ("kernels", kernels_text(shown)),
    ]
    if m.incomplete:
        # Said here, on stdout, whatever -q hides: the figures are partial.
        screen.header.insert(0, ("incomplete", m.incomplete))
    if m.answers_from == "pagebench-decide":
        screen.header.append(("answers", "made by build/bin/pagebench-decide, the run's own "
                              "engine, from the log's value lines (it has no answer lines)"))
    known = {fn for _, fns in SUITE_FNS for fn in fns}
    others = tuple((fn, (fn,)) for fn in dict.fromkeys(
        a.fn for a in m.answers) if fn not in known)
    for suite, fns in SUITE_FNS + others:
        cols = [c for fn in fns for c in columns(m.answers, fn)]
        if not cols:
            continue
        passes = sorted({p for c in cols for p in c.answers}, key=row_order)
        t = Table(suite, cols, passes, {})
        for p in passes:
            for i, c in enumerate(cols):
                t.cells[(p, i)] = cell_of(screen, c.answers.get(p), runs_on)
        screen.tables.append(t)
    if any(a.fpu_unmeasured for a in m.answers if a.action != "none"):
        screen.note(FPU_NOTE)
    if any(a.drift for a in m.answers if a.action != "none"):
        screen.note(DRIFT_NOTE)
    for c in (c for t in screen.tables for c in t.columns):
        for w in c.who:
            if w.assuming and w.assuming not in screen.who_notes:
                screen.who_notes[w.assuming] = screen.note(
                    assuming_text(w.assuming))
    return screen


def row_order(row):
    """Rows in the run's order: the page passes, then modes by size class
    (numerically), then the rest (scrub's cpus1, cpus2 ... by number)."""
    pid, sizes = row
    lo = sizes[0] if sizes else -1
    digits = "".join(ch for ch in pid if ch.isdigit())
    return (PASS_ORDER.index(pid) if pid in PASS_ORDER else 99,
            pid.rstrip("0123456789"), int(digits) if digits else 0, pid, lo)


def row_text(row):
    """"l1f", "tput 16-127"."""
    pid, sizes = row
    return pid + (" %d-%d" % sizes if sizes else "")


def assuming_text(assuming):
    if assuming == "fast_string=1":
        return ("assuming fast strings on (fast_string=1, the default): "
                "the run could not read the MSR")
    return "assuming %s: the run could not read it" % assuming


def kernels_text(eras):
    """"linux running 6.18.44, >=5.4, >=7.0; xen 4.15-4.20, >=4.21"."""
    by = {}
    for e in eras:
        k, v = e.split(" ", 1)
        by.setdefault(k, []).append(v)
    return "; ".join("%s %s" % (k, ", ".join(vs)) for k, vs in by.items())


# -- text -------------------------------------------------------------------

def who_text(screen, c):
    parts = []
    for w in c.who:
        s = w.text(c.fn)
        if w.assuming:
            s += mark(screen.who_notes[w.assuming])
        parts.append(s)
    return "%s: %s" % (c.label, ", ".join(parts))


def table_lines(t, cols, compact=False):
    """The lines of table t over the column indexes cols."""
    head1, head2 = ["pass"], [""]
    last_fn = None
    for i in cols:
        c = t.columns[i]
        head1.append(c.fn if c.fn != last_fn else "")
        head2.append(c.label)
        last_fn = c.fn
    rows = [head1, head2]
    for p in t.passes:
        rows.append([row_text(p)] + [t.cells[(p, i)].text(compact)
                                     for i in cols])
    widths = [max(len(r[j]) for r in rows) for j in range(len(head1))]
    out = []
    for r in rows:
        s = ""
        for j, x in enumerate(r):
            s = s.ljust(sum(widths[:j]) + 2 * j) + x if j else x
        out.append(s.rstrip())
    return out


def chunks(t, compact):
    """Column indexes per block, so that no line is wider than WIDTH: the
    functions apart first, then as many columns as fit."""
    def fits(cols):
        return max(len(l) for l in table_lines(t, cols, compact)) <= WIDTH
    every = list(range(len(t.columns)))
    if fits(every):
        return [every]
    out = []
    for fn in dict.fromkeys(c.fn for c in t.columns):
        cur = []
        for i in (i for i in every if t.columns[i].fn == fn):
            if cur and not fits(cur + [i]):
                out.append(cur)
                cur = []
            cur.append(i)
        out.append(cur)
    return out


def wrap(label, text):
    return textwrap.wrap(text, WIDTH, initial_indent="%s: " % label,
                         subsequent_indent="  ", break_on_hyphens=False)


LEGEND = ("cells: keep, or → routine −saving of ns per 4 KiB page (95% "
          "interval); - not judged; f: flushed")
PER_CALL_LEGEND = ("; memset, memcpy: of ns per call over the size class, "
                   "rows mode and size class in bytes")
PER_CALL_ONLY = ("cells: keep, or → routine −saving of ns per call over the "
                 "size class (95% interval); rows: mode, size class in bytes")


NO_ADVICE = ("n/a, then the routine the run would name and its time over "
             "the pick's (×r); - not judged; f: flushed")


def render(screen, compact, blanks):
    out = ["== %s" % screen.machine]
    for label, s in screen.header:
        out += wrap(label, s)
    advice = any(c.action in ("keep", "switch", "undecided")
                 for t in screen.tables for c in t.cells.values())
    legend = LEGEND[len("cells: "):] if advice else NO_ADVICE
    kinds = {a.per_call for t in screen.tables for c in t.columns
             for a in c.answers.values()}
    if kinds == {True} and advice:
        legend = PER_CALL_ONLY[len("cells: "):]
    elif True in kinds:
        legend += PER_CALL_LEGEND
    out += wrap("cells", legend)
    blocks = [(t, cols) for t in screen.tables for cols in chunks(t, compact)]
    picks = [wrap("picks", "; ".join(who_text(screen, t.columns[i])
                                     for i in cols)) for t, cols in blocks]
    for n, (t, cols) in enumerate(blocks):
        if blanks:
            out.append("")
        out += table_lines(t, cols, compact)
        # Tables one after another with the same picks (memset, memcpy)
        # name them once, under the last.
        if n + 1 == len(blocks) or picks[n + 1] != picks[n]:
            out += picks[n]
    if screen.notes and blanks:
        out.append("")
    for i, n in enumerate(screen.notes, 1):
        out += textwrap.wrap(n, WIDTH, initial_indent=mark(i) + " ",
                             subsequent_indent="  ")
    return out


def text(screen):
    """At most HEIGHT lines of at most WIDTH columns: compact cells and no
    blank lines where the full ones do not fit; a last line says what is
    cut where even they do not."""
    for compact, blanks in ((False, True), (True, True), (True, False)):
        out = render(screen, compact, blanks)
        if len(out) <= HEIGHT:
            return "\n".join(out) + "\n"
    cut = len(out) - HEIGHT + 1
    return "\n".join(out[:HEIGHT - 1] + [
        "... %d more lines: pagebench-report verdict --json" % cut]) + "\n"


def no_answers_line(m):
    """The one line for a log without answer lines: no decision is made
    here, so none is shown."""
    if not os.access(decided.TOOL, os.X_OK):
        why = ("build/bin/pagebench-decide, which decides such logs, is not "
               "built (make)")
    elif m.decide_refused:
        why = "pagebench-decide refused its figures: %s" % m.decide_refused
    elif m.strings or m.scrub:
        why = ("its memset, memcpy or scrub figures have no answer yet "
               "(build/bin/pagebench-decide decides clear_page, clear_pages "
               "and copy_page); summary gives the figures")
    else:
        why = "it has no clear or copy pass pagebench-decide could decide"
    return "%s: no answer lines, and %s" % (m.name, why)
