"""The answer lines, as a typed model: one decision per function, pass
(and size class) and kernel pick, made once by the C engine (harness/) and printed by the run
(docs/log-format.md, "The answer"). The report reads them; nothing here
decides, projects or computes an interval. What is derived is arithmetic
of presentation: a saving is 1 - ratio, GB/s is 4096 bytes over ns
(page functions only: memset/memcpy figures are ns per call)."""
from dataclasses import dataclass, field
from typing import Optional

# Bytes of the page every ns figure of an answer line is per.
PAGE = 4096
ACTIONS = ("keep", "switch", "undecided", "none")
# What runs_on says of a run that is no CPU (the hot load line); an answer
# of such a run is action=none why=not-a-cpu.
NOT_A_CPU = ("tcg", "emulator")


@dataclass(frozen=True)
class Interval:
    """A median and its 95% interval."""
    median: float
    lo: float
    hi: float

    def to_json(self, digits=4):
        return {"median": round(self.median, digits),
                "lo": round(self.lo, digits), "hi": round(self.hi, digits)}


# The groups of the answer expression (docs/log-format.md), in order.
FIELDS = ("fn", "pass", "sizes_lo", "sizes_hi", "kernel", "versions",
          "entry", "pick", "assuming", "action", "routine", "ratio", "lo",
          "hi", "epochs", "pick_ns", "routine_ns", "fpu", "price", "worth",
          "need", "why", "alike", "drift_first", "drift_last", "unpriced",
          "unpriced_ratio")
# The expressions it had before: without price= and unpriced=; without
# those and drift=; without them and alike=; without those and fpu=;
# without those, sizes= and fpu= (answer-v2); a log is read with
# whichever the grammar names.
FORMS = {len(FIELDS): FIELDS}
_PRICE = ("price", "unpriced", "unpriced_ratio")
_DRIFT = _PRICE + ("drift_first", "drift_last")
for _gone in (_PRICE, _DRIFT, _DRIFT + ("alike",), _DRIFT + ("alike", "fpu"),
              _DRIFT + ("alike", "sizes_lo", "sizes_hi", "fpu")):
    _f = tuple(f for f in FIELDS if f not in _gone)
    FORMS[len(_f)] = _f
# The functions whose ns figures are per call (summed over the size
# class's sizes and alignments); the others' are per 4 KiB page.
PER_CALL = ("memset", "memcpy")


@dataclass(frozen=True)
class Answer:
    fn: str                     # clear_page, clear_pages, copy_page, memset, memcpy, scrub
    pass_id: str                # l1 ... mem, hot, cold; tput/lat; cpus1 ...
    kernel: str                 # linux or xen
    versions: str               # ">=5.4", "4.15-4.20", "running 6.18.44"
    entry: str                  # clear_page, clear_page_hot, copy_page ...
    pick: Optional[str]         # the pick's variant; None for "-"
    assuming: Optional[str]     # "fast_string=1", or None
    action: str                 # keep, switch, undecided, none
    routine: Optional[str]      # the switch target, challenger; None: "-"
    ratio: Optional[Interval]   # routine's time over the pick's
    epochs: Optional[int]
    pick_ns: Optional[float]    # ns per 4 KiB page, or per call (PER_CALL)
    routine_ns: Optional[float]
    worth_pct: float            # the minimum worth acting on, in %
    need_epochs: Optional[int]  # undecided: the epochs that would decide
    why: Optional[str]          # none: why there is no recommendation
    line: int = 0               # where the log says it
    sizes: Optional[tuple] = None   # memset, memcpy: the size class (lo, hi), bytes
    fpu: Optional[str] = None   # "N.Nns" measured, "?" not, None: no vector
    alike: Optional[str] = None  # switch: the quickest, within noise of routine
    drift: Optional[tuple] = None  # the ratio's (first, last) halves, where it moved
    price_ns: Optional[float] = None  # the vector price in routine_ns (price=)
    unpriced: Optional[tuple] = None  # (routine, ratio): a vector routine left out, unpriced
    # The line after its tag, as the engine reads it back (engine.py).
    text: str = field(default="", compare=False, repr=False)

    @classmethod
    def from_groups(cls, groups, line=0, text=""):
        """From the groups of the answer expression of grammar.py (with
        or without the sizes= and fpu= groups)."""
        names = FORMS.get(len(groups))
        if names is None:
            raise ValueError("the answer expression has %d groups, not %d"
                             % (len(groups), len(FIELDS)))
        g = dict(zip(names, groups))

        def num(x, kind=float):
            return None if x is None else kind(x)
        ratio = None
        if g["ratio"] is not None:
            ratio = Interval(float(g["ratio"]), float(g["lo"]), float(g["hi"]))
        return cls(fn=g["fn"], pass_id=g["pass"], kernel=g["kernel"],
                   versions=g["versions"], entry=g["entry"],
                   pick=None if g["pick"] == "-" else g["pick"],
                   assuming=g["assuming"], action=g["action"],
                   routine=None if g["routine"] == "-" else g["routine"],
                   ratio=ratio, epochs=num(g["epochs"], int),
                   pick_ns=num(g["pick_ns"]), routine_ns=num(g["routine_ns"]),
                   worth_pct=float(g["worth"]),
                   need_epochs=num(g["need"], int), why=g["why"], line=line,
                   sizes=None if g.get("sizes_lo") is None else
                   (int(g["sizes_lo"]), int(g["sizes_hi"])), fpu=g.get("fpu"),
                   alike=g.get("alike"),
                   drift=None if g.get("drift_first") is None else
                   (float(g["drift_first"]), float(g["drift_last"])),
                   price_ns=num(g.get("price")),
                   unpriced=None if g.get("unpriced") is None else
                   (g["unpriced"], float(g["unpriced_ratio"])), text=text)

    # -- what a reader sees; arithmetic only ------------------------------
    @property
    def saving_pct(self):
        """The routine's saving over the pick, in %: 1 - ratio, its lo
        from the ratio's hi and its hi from the ratio's lo."""
        r = self.ratio
        if r is None:
            return None
        return Interval(100 * (1 - r.median), 100 * (1 - r.hi),
                        100 * (1 - r.lo))

    @property
    def per_call(self):
        """Whether pick_ns and routine_ns are per call, not per page."""
        return self.fn in PER_CALL

    @property
    def unit(self):
        return "ns/call" if self.per_call else "ns/page"

    @property
    def pick_gbps(self):
        return None if self.per_call else gbps(self.pick_ns)

    @property
    def routine_gbps(self):
        return None if self.per_call else gbps(self.routine_ns)

    @property
    def row(self):
        """The matrix row: the pass, and for memset/memcpy its size class."""
        return (self.pass_id, self.sizes)

    @property
    def fpu_ns(self):
        """What kernel_fpu_begin/end added to routine_ns (fpu=N.Nns), or None."""
        return float(self.fpu[:-2]) if self.fpu and self.fpu != "?" else None

    @property
    def fpu_unmeasured(self):
        """The routine needs kernel_fpu_begin/end and its cost is not in
        its figure (fpu=?)."""
        return self.fpu == "?"

    @property
    def running(self):
        """The running kernel's own pick (versions="running R")."""
        return self.versions.startswith("running ")

    @property
    def column(self):
        """What picks: the kernel, its versions and entry point."""
        return (self.fn, self.kernel, self.versions, self.entry)

    @property
    def recommends(self):
        """Whether the answer is advice: not a run that is no CPU's."""
        return self.action != "none"

    def verdict(self):
        """What it says, ignoring where it is said: two answers of one
        pass that agree on this are the same decision."""
        return (self.action, self.routine, self.ratio, self.why,
                self.need_epochs, self.fpu)

    def to_json(self):
        s = self.saving_pct
        return {"fn": self.fn, "pass": self.pass_id,
                "sizes": list(self.sizes) if self.sizes else None,
                "kernel": self.kernel,
                "versions": self.versions, "entry": self.entry,
                "pick": self.pick, "assuming": self.assuming,
                "action": self.action, "routine": self.routine,
                "alike": self.alike,
                "drift": list(self.drift) if self.drift else None,
                "ratio": self.ratio.to_json() if self.ratio else None,
                "saving_pct": s.to_json(2) if s else None,
                "epochs": self.epochs, "pick_ns": self.pick_ns,
                "routine_ns": self.routine_ns, "unit": self.unit,
                "fpu": self.fpu, "fpu_ns": self.fpu_ns,
                "fpu_unmeasured": self.fpu_unmeasured,
                "pick_gbps": rnd(self.pick_gbps, 3),
                "routine_gbps": rnd(self.routine_gbps, 3),
                "worth_pct": self.worth_pct,
                "need_epochs": self.need_epochs, "why": self.why,
                "line": self.line}


def gbps(ns):
    """GB/s (10^9 bytes a second) of one 4 KiB page in ns."""
    return None if not ns else PAGE / ns


# What a figure of 0 ns (a log's own answer line, or a TSC rate so high
# that the engine's ns round to 0) is shown as: no call takes no time.
ZERO_NS = "0.0 ns: not a measurement"


def rnd(x, digits):
    return None if x is None else round(x, digits)
