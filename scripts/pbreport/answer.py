"""The answer lines, as a typed model: one decision per function, pass and
kernel pick, made once by the C engine (harness/) and printed by the run
(docs/log-format.md, "The answer"). The report reads them; nothing here
decides, projects or computes an interval. What is derived is arithmetic
of presentation: a saving is 1 - ratio, GB/s is 4096 bytes over ns."""
from dataclasses import dataclass
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


@dataclass(frozen=True)
class Answer:
    fn: str                     # clear_page, clear_pages, copy_page
    pass_id: str                # l1 ... mem, hot, cold (the log's ids)
    kernel: str                 # linux or xen
    versions: str               # ">=5.4", "4.15-4.20", "running 6.18.44"
    entry: str                  # clear_page, clear_page_hot, copy_page ...
    pick: Optional[str]         # the pick's variant; None for "-"
    assuming: Optional[str]     # "fast_string=1", or None
    action: str                 # keep, switch, undecided, none
    routine: Optional[str]      # the switch target, challenger; None: "-"
    ratio: Optional[Interval]   # routine's time over the pick's
    epochs: Optional[int]
    pick_ns: Optional[float]    # ns per 4 KiB page
    routine_ns: Optional[float]
    worth_pct: float            # the minimum worth acting on, in %
    need_epochs: Optional[int]  # undecided: the epochs that would decide
    why: Optional[str]          # none: why there is no recommendation
    line: int = 0               # where the log says it
    # A routine that needs vector registers: what kernel_fpu_begin/end
    # added to routine_ns (fpu=N.Nns), or fpu_unmeasured (fpu=?).
    fpu_ns: Optional[float] = None
    fpu_unmeasured: bool = False

    @classmethod
    def from_groups(cls, g, line=0):
        """From the groups of the answer expression of grammar.py."""
        def num(x, kind=float):
            return None if x is None else kind(x)
        ratio = None
        if g[9] is not None:
            ratio = Interval(float(g[9]), float(g[10]), float(g[11]))
        return cls(fn=g[0], pass_id=g[1], kernel=g[2], versions=g[3],
                   entry=g[4], pick=None if g[5] == "-" else g[5],
                   assuming=g[6], action=g[7],
                   routine=None if g[8] == "-" else g[8], ratio=ratio,
                   epochs=num(g[12], int), pick_ns=num(g[13]),
                   routine_ns=num(g[14]), worth_pct=float(g[16]),
                   need_epochs=num(g[17], int), why=g[18], line=line,
                   fpu_ns=num(g[15][:-2]) if g[15] and g[15] != "?" else None,
                   fpu_unmeasured=g[15] == "?")

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
    def pick_gbps(self):
        return gbps(self.pick_ns)

    @property
    def routine_gbps(self):
        return gbps(self.routine_ns)

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
                self.need_epochs)

    def to_json(self):
        s = self.saving_pct
        return {"fn": self.fn, "pass": self.pass_id, "kernel": self.kernel,
                "versions": self.versions, "entry": self.entry,
                "pick": self.pick, "assuming": self.assuming,
                "action": self.action, "routine": self.routine,
                "ratio": self.ratio.to_json() if self.ratio else None,
                "saving_pct": s.to_json(2) if s else None,
                "epochs": self.epochs, "pick_ns": self.pick_ns,
                "routine_ns": self.routine_ns,
                "pick_gbps": rnd(self.pick_gbps, 3),
                "routine_gbps": rnd(self.routine_gbps, 3),
                "worth_pct": self.worth_pct,
                "need_epochs": self.need_epochs, "why": self.why,
                "fpu_ns": self.fpu_ns, "fpu_unmeasured": self.fpu_unmeasured,
                "line": self.line}


def gbps(ns):
    """GB/s (10^9 bytes a second) of one 4 KiB page in ns."""
    return None if not ns else PAGE / ns


def rnd(x, digits):
    return None if x is None else round(x, digits)
