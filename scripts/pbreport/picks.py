"""The answer lines grouped by kernel pick, for the reports that list them
(summary, winners, --format commit, --explain): a column per function
and pick, merged where picks of one function run the same variant and
agree in every row, the rows in the run's order, and their words. The
matrix itself is drawn once, by the C engine (harness/render/matrix.c,
through engine.py); nothing here draws it or decides."""
from dataclasses import dataclass
from typing import List, Optional

from . import runinfo
from .answer import NOT_A_CPU

# The tables of the matrix and the functions each holds.
SUITE_FNS = (("clear", ("clear_page", "clear_pages")),
             ("copy", ("copy_page",)), ("memset", ("memset",)),
             ("memcpy", ("memcpy",)), ("scrub", ("scrub",)))
PASS_ORDER = ("l1", "l1f", "l2", "l2f", "l3", "l3f", "mem", "hot", "cold",
              "tput", "lat")

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


def functions(answers):
    """The functions the answers name, in the matrix's order."""
    have = {a.fn for a in answers}
    known = [fn for _, fns in SUITE_FNS for fn in fns]
    return [fn for fn in known if fn in have] + sorted(have - set(known))


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


def hundredths(x):
    """x (a per cent from a four-decimal ratio) in exact hundredths."""
    return int(round(x * 100))


def fixed(h, digits):
    """Hundredths h with digits 0 to 2, rounded half away from zero from
    the exact figure, as the engine's matrix prints them."""
    q = (abs(h) + (50, 5, 0)[digits]) // (100, 10, 1)[digits]
    s = str(q) if digits == 0 else "%d.%0*d" % (q // 10 ** digits, digits,
                                                q % 10 ** digits)
    return "-" + s if h < 0 else s


def saving_text(s, compact=False, ascii=False):
    """"−50% (47–53)": a saving and its 95% interval, in per cent; ascii:
    "-50% (47-53)"."""
    h = [hundredths(x) for x in (s.median, s.lo, s.hi)]
    digits = 0 if compact or min(abs(x) for x in h) >= 950 else 1
    minus, dash = ("-", "-") if ascii else ("−", "–")
    return "%s%s%% (%s%s%s)" % (minus, fixed(h[0], digits), fixed(h[1], digits),
                                dash, fixed(h[2], digits))


def why_text(why, runs_on):
    if why == "not-a-cpu":
        what = runinfo.RUNS_ON_TEXT.get(runs_on, "not a CPU's run")
        return "%s, not a CPU: no recommendation" % what \
            if runs_on in NOT_A_CPU else \
            "%s (runs_on=%s): no recommendation" % (what, runs_on or "?")
    return WHY_TEXT.get(why, "no recommendation: %s" % why)


def assuming_text(assuming):
    if assuming == "fast_string=1":
        return ("assuming fast strings on (fast_string=1, the default): "
                "the run could not read the MSR")
    return "assuming %s: the run could not read it" % assuming
