"""The answer lines, as a typed model: one decision per function, pass and
kernel pick, made once by the C engine (harness/) and printed by the run
(docs/log-format.md, "The answer"). The report reads them; nothing here
decides, projects or computes an interval. What is derived is arithmetic
of presentation: a saving is 1 - ratio, GB/s is 4096 bytes over ns."""
from dataclasses import dataclass
from typing import Optional

# Bytes of the page the ns figures of the page functions and scrub are per.
PAGE = 4096
# The functions whose ns figures are per call (summed over the sizes and
# alignments of a size class), not per 4 KiB page.
PER_CALL = ("memset", "memcpy")
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
    fn: str                     # clear_page, clear_pages, copy_page, memset, memcpy, scrub
    pass_id: str                # l1 ... mem, hot, cold; tput, lat; cpus1 ...
    kernel: str                 # linux or xen
    versions: str               # ">=5.4", "4.15-4.20", "running 6.18.44"
    entry: str                  # clear_page, clear_page_hot, copy_page ...
    pick: Optional[str]         # the pick's variant; None for "-"
    assuming: Optional[str]     # "fast_string=1", or None
    action: str                 # keep, switch, undecided, none
    routine: Optional[str]      # the switch target, challenger; None: "-"
    ratio: Optional[Interval]   # routine's time over the pick's
    epochs: Optional[int]
    pick_ns: Optional[float]    # ns per 4 KiB page, or per call (unit)
    routine_ns: Optional[float]
    worth_pct: float            # the minimum worth acting on, in %
    need_epochs: Optional[int]  # undecided: the epochs that would decide
    why: Optional[str]          # none: why there is no recommendation
    line: int = 0               # where the log says it
    # A routine that needs vector registers: what kernel_fpu_begin/end
    # added to routine_ns (fpu=N.Nns), or fpu_unmeasured (fpu=?).
    fpu_ns: Optional[float] = None
    fpu_unmeasured: bool = False
    sizes: Optional[tuple] = None   # memset, memcpy: the size class (lo, hi), bytes

    @classmethod
    def from_groups(cls, g, line=0):
        """From the groups of the answer expression of grammar.py."""
        def num(x, kind=float):
            return None if x is None else kind(x)
        (fn, pass_id, lo, hi, kernel, versions, entry, pick, assuming, action,
         routine, med, rlo, rhi, epochs, pick_ns, routine_ns, fpu, worth, need,
         why) = g[:21]
        ratio = None
        if med is not None:
            ratio = Interval(float(med), float(rlo), float(rhi))
        return cls(fn=fn, pass_id=pass_id, kernel=kernel, versions=versions,
                   entry=entry, pick=None if pick == "-" else pick,
                   assuming=assuming, action=action,
                   routine=None if routine == "-" else routine, ratio=ratio,
                   epochs=num(epochs, int), pick_ns=num(pick_ns),
                   routine_ns=num(routine_ns), worth_pct=float(worth),
                   need_epochs=num(need, int), why=why, line=line,
                   sizes=None if lo is None else (int(lo), int(hi)),
                   fpu_ns=num(fpu[:-2]) if fpu and fpu != "?" else None,
                   fpu_unmeasured=fpu == "?")

    @property
    def unit(self):
        """What pick_ns and routine_ns are per: "call" for memset and
        memcpy (summed over the class's sizes and alignments), else "page"."""
        return "call" if self.fn in PER_CALL else "page"

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
        return gbps(self.pick_ns) if self.unit == "page" else None

    @property
    def routine_gbps(self):
        return gbps(self.routine_ns) if self.unit == "page" else None

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
        return {"fn": self.fn, "pass": self.pass_id,
                "sizes": list(self.sizes) if self.sizes else None,
                "unit": "ns/" + self.unit, "kernel": self.kernel,
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
