"""The bottom lines, as a typed model: one decision per function and kernel
pick over all the passes that judge it, made once by the C engine
(harness/decide/bottom.c) and printed as a "bottom" line, a "bottom_pass" line
per pass and a "bottom_sets" line (docs/log-format.md, "The bottom
line"). Nothing here decides; what is derived is arithmetic of
presentation (a saving is 1 - ratio)."""
from dataclasses import dataclass, field
from typing import List, Optional

from .answer import Interval

ACTIONS = ("keep", "switch", "trade-off", "undecided", "none")
BOTTOM = ("fn", "kernel", "versions", "entry", "pick", "assuming",
          "kernel_routine", "selected_by", "action", "routine", "alike",
          "worth", "why", "passes", "saves", "costs", "open", "mix",
          "mix_ratio", "mix_lo", "mix_hi", "unpriced", "unpriced_pass",
          "unpriced_ratio", "runs", "differ")
PASS = ("fn", "kernel", "versions", "entry", "pass", "routine", "verdict",
        "ratio", "lo", "hi", "epochs", "pick_ns", "routine_ns", "price", "need")
SETS = ("fn", "kernel", "versions", "entry", "safe", "saves")


def _names(text):
    """A comma-separated list of the lines, "-" or None: empty."""
    return [] if text in (None, "-") else text.split(",")


def _num(x, kind=float):
    return None if x is None else kind(x)


@dataclass
class BottomPass:
    pass_id: str
    verdict: str                    # saves, costs, even, open, missing
    ratio: Optional[Interval]       # the routine's time over the pick's, price in
    epochs: Optional[int]
    pick_ns: Optional[float]
    routine_ns: Optional[float]
    price_ns: Optional[float]       # the vector price in routine_ns
    need_epochs: Optional[int]      # open: the epochs projected to close it

    @property
    def saving_pct(self):
        r = self.ratio
        if r is None:
            return None
        return Interval(100 * (1 - r.median), 100 * (1 - r.hi), 100 * (1 - r.lo))

    def to_json(self):
        """The saving of 1 - ratio, in %, and its 95% interval's ends."""
        s = self.saving_pct
        return {"pass": self.pass_id,
                "saving_pct": round(s.median, 2) if s else None,
                "lo": round(s.lo, 2) if s else None,
                "hi": round(s.hi, 2) if s else None}


@dataclass
class BottomLine:
    fn: str
    kernel: str
    versions: str
    entry: str
    pick: Optional[str]
    assuming: Optional[str]
    kernel_routine: Optional[str]   # what that kernel runs: "clear_page_erms"
    selected_by: Optional[str]      # the rule's condition: "ERMS"
    action: str                     # keep, switch, trade-off, undecided, none
    routine: Optional[str]
    alike: List[str]
    worth_pct: float
    why: Optional[str]
    passes: List[str]
    saves: List[str]                # passes where routine saves the worth
    costs: List[str]                # passes where it costs the worth
    open: List[str]                 # passes the run could not decide
    mix: Optional[str] = None       # "l2f:1,mem:1"
    mix_ratio: Optional[Interval] = None
    unpriced: Optional[tuple] = None  # (routine, pass, ratio): no price in the log
    runs: Optional[int] = None      # pagebench-decide --combine: the runs combined
    differ: Optional[str] = None    # and where they disagree, what each said
    line: int = 0
    cells: List[BottomPass] = field(default_factory=list)
    safe_set: List[str] = field(default_factory=list)
    saves_set: List[str] = field(default_factory=list)
    sets: bool = False              # its bottom_sets line was read
    lines: List[str] = field(default_factory=list)  # its lines' text, without the tag

    @classmethod
    def from_groups(cls, groups, line=0):
        g = dict(zip(BOTTOM, groups))
        mix = None
        if g["mix"] is not None:
            mix = Interval(float(g["mix_ratio"]), float(g["mix_lo"]), float(g["mix_hi"]))
        return cls(fn=g["fn"], kernel=g["kernel"], versions=g["versions"],
                   entry=g["entry"], pick=None if g["pick"] == "-" else g["pick"],
                   assuming=g["assuming"], kernel_routine=g["kernel_routine"],
                   selected_by=g["selected_by"], action=g["action"],
                   routine=None if g["routine"] == "-" else g["routine"],
                   alike=_names(g["alike"]), worth_pct=float(g["worth"]),
                   why=g["why"], passes=_names(g["passes"]),
                   saves=_names(g["saves"]), costs=_names(g["costs"]),
                   open=_names(g["open"]), mix=g["mix"], mix_ratio=mix,
                   unpriced=None if g["unpriced"] is None else
                   (g["unpriced"], g["unpriced_pass"], float(g["unpriced_ratio"])),
                   runs=_num(g["runs"], int), differ=g["differ"], line=line)

    @property
    def key(self):
        """What it answers: the function and the kernel's pick."""
        return (self.fn, self.kernel, self.versions, self.entry)

    @property
    def running(self):
        return self.versions.startswith("running ")

    def add_pass(self, groups):
        g = dict(zip(PASS, groups))
        ratio = None
        if g["ratio"] is not None:
            ratio = Interval(float(g["ratio"]), float(g["lo"]), float(g["hi"]))
        self.cells.append(BottomPass(
            pass_id=g["pass"], verdict=g["verdict"], ratio=ratio,
            epochs=_num(g["epochs"], int), pick_ns=_num(g["pick_ns"]),
            routine_ns=_num(g["routine_ns"]), price_ns=_num(g["price"]),
            need_epochs=_num(g["need"], int)))

    def add_sets(self, groups):
        g = dict(zip(SETS, groups))
        self.safe_set, self.saves_set = _names(g["safe"]), _names(g["saves"])
        self.sets = True

    @property
    def whole(self):
        """Whether every line it needs was read: a bottom_pass line per pass
        (where it names a routine), then its bottom_sets line (but none)."""
        return ((self.routine is None or len(self.cells) == len(self.passes)) and
                (self.action == "none" or self.sets))

    @property
    def vector_price_ns(self):
        """The vector price a page (or call) of the named routine, or None."""
        prices = [c.price_ns for c in self.cells if c.price_ns is not None]
        return max(prices) if prices else None

    def to_json(self):
        """verdict --json's bottom_lines[] (docs/report.md): the key, the
        pick, the decision, and the named routine's saving pass by pass."""
        return {"fn": self.fn, "kernel": self.kernel, "versions": self.versions,
                "entry": self.entry, "pick": self.pick, "action": self.action,
                "routine": self.routine, "alike": self.alike,
                "vector_price_ns": self.vector_price_ns,
                "passes": [c.to_json() for c in self.cells]}


@dataclass
class FleetLine:
    """One kernel pick of an era across CPU groups (pagebench-decide
    --combine): switch, keep, trade-off or undecided, and each group's."""
    fn: str
    kernel: str
    versions: str
    entry: str
    action: str
    routine: Optional[str]
    also: List[str]
    groups: int
    by: List[tuple]                 # (group, action, routine or None)

    @classmethod
    def from_groups(cls, g):
        by = []
        for part in g[8].split(","):
            name, action, routine = part.split(":")
            by.append((name, action, None if routine == "-" else routine))
        return cls(fn=g[0], kernel=g[1], versions=g[2], entry=g[3], action=g[4],
                   routine=None if g[5] == "-" else g[5], also=_names(g[6]),
                   groups=int(g[7]), by=by)

    @property
    def key(self):
        return (self.fn, self.kernel, self.versions, self.entry)


class Collector:
    """Builds BottomLines from a stream of bottom, bottom_pass and
    bottom_sets lines (their grammar groups), in log order."""

    def __init__(self, out):
        self.out = out

    def _last(self, groups, kind):
        key = tuple(groups[:4])
        if not self.out or self.out[-1].key != key:
            raise ValueError("a %s line without its bottom line" % kind)
        return self.out[-1]

    def add(self, kind, groups, line=0, text=""):
        """text: the line after its tag, kept for the engine to read back."""
        if kind == "bottom":
            self.out.append(BottomLine.from_groups(groups, line))
            b = self.out[-1]
        elif kind == "bottom_pass":
            b = self._last(groups, kind)
            b.add_pass(groups)
        elif kind == "bottom_sets":
            b = self._last(groups, kind)
            b.add_sets(groups)
        else:
            raise KeyError(kind)
        b.lines.append(text)


KINDS = ("bottom", "bottom_pass", "bottom_sets")
