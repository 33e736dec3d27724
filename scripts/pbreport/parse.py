"""Reading serial logs: bytes in, machines out.

A log is split into machines (one per run), each with its header facts,
its passes and their samples. Everything that is not understood is skipped
and reported as a Diag (file, line range, reason); nothing raises on bad
input. The line grammar is docs/log-format.md; docs/report.md describes how
files are split into machines.
"""
import bisect
import codecs
import errno
import io
import os
import re
import sys
from array import array

from . import aliases, grammar
from . import bottom
from .answer import Answer

# Canonical pass names, in the order the kernel runs them: the headers of
# docs/log-format.md, with copy-hot and copy-cold named "hot" and "cold".
def pass_names(pass_table):
    return tuple(h[len("copy-"):] if h.startswith("copy-") else h
                 for _, h in pass_table)


PASSES = pass_names(grammar.PASS_TABLE)
PASS_IDS = dict(zip((i for i, _ in grammar.PASS_TABLE), PASSES))


def parse_cpu_counts(text):
    """A disturbance line's cpus= ("1:0,0:2,..."): ([(cpu, disturbed windows)],
    whether the line had no room for every CPU); ([], False) when absent."""
    if text is None:
        return [], False
    cut = text.endswith(",...")
    if cut:
        text = text[:-len(",...")]
    return [tuple(int(x) for x in c.split(":")) for c in text.split(",")], cut


SUITES = ("clear", "copy", "scrub")

TAG_RE = re.compile(r"\(([A-Za-z0-9_]{1,15})\) ")
# Xen's console may put a timestamp after its tag: "(XEN) [    1.234] ".
TIMESTAMP_RE = re.compile(r"\[[0-9 .:T+-]{1,40}\] ")
ANSI_RE = re.compile(r"\x1b(?:\[[0-9;?<=>!]*[ -/]*[@-~]"      # CSI
                     r"|\][^\x07\x1b]*(?:\x07|\x1b\\)?"         # OSC
                     r"|[()*+][0-9A-Za-z]"                       # charset
                     r"|[@-Z\\^_=>78])")                         # others
ATTACH_RE = re.compile(r"^\s*\[-- (.*) --\]\s*$")
ATTACH_NAME_RE = re.compile(r"^Attachment #\d+: (.+)$")
BAD_CHARS_RE = re.compile(r"[\x00-\x08\x0b-\x1f\x7f\ufffd]")

# The documented expressions, with two allowances for logs written by
# people: any blanks before "pre=" and upper-case hex in value lines.
# Numbers are bounded (a TSC is 64 bits) so that no input can overflow a
# float later: hex at most 16 digits, decimal at most 19.
def _reader_regex(kind, rx):
    if kind == "value":
        rx = rx.replace(" pre=", r"\s*pre=", 1).replace("[0-9a-f]", "[0-9a-fA-F]")
    rx = rx.replace(r"\d+", r"\d{1,19}").replace("[0-9a-fA-F]+", "[0-9a-fA-F]{1,16}")
    return re.compile(rx.replace("[0-9a-f]+", "[0-9a-f]{1,16}"), re.ASCII)


LINE_TYPES = [(k, _reader_regex(k, rx)) for k, rx in grammar.LINE_TYPES]

# Text before a line's tag is noise (firmware output, a garbled serial
# line); the line is looked for after each of its first MAX_TAG_TRIES tags.
# Trying every tag of a line made of tags took time quadratic in its length.
MAX_TAG_TRIES = 8

# Limits, so that no input can take unbounded time or memory. pagebench
# prints no line longer than OUT_LINE_MAX (512 bytes, lib/out.h); a
# longer line is cut to MAX_LINE bytes, which also bounds the time an
# expression that backtracks can take on it. An input stops after
# MAX_INPUT bytes (the kernel's saved log is at most 1 MiB). Both are
# reported as "cut"; the command line can change them.
MAX_LINE = 4096
MAX_INPUT = 256 << 20
READ_CHUNK = 1 << 20
# Skips and warnings listed per input; the rest are counted.
MAX_DIAGS = 1000

# Lines whose numbers could be silently shortened by a cut.
SAFE_UNTERMINATED = ("done", "complete")



def _float_or_none(x):
    return None if x is None else float(x)


class Diag:
    """Lines skipped (kind "skip", count lines first..last) or a warning
    (kind "warn") about line first of a file."""

    __slots__ = ("source", "first", "last", "reason", "count", "kind")

    def __init__(self, source, first, last, reason, count=1, kind="skip"):
        self.source, self.first, self.last = source, first, last
        self.reason, self.count, self.kind = reason, count, kind

    def __str__(self):
        where = "%s:%d" % (self.source, self.first)
        if self.first == 0:
            where = self.source
        if self.kind != "skip":
            return "%s: %s: %s" % (where, self.kind, self.reason)
        if self.last != self.first:
            where += "-%d" % self.last
        if self.count > 1:
            return "%s: skipped %d lines: %s" % (where, self.count, self.reason)
        return "%s: skipped: %s" % (where, self.reason)


class Sample:
    """A value line (or a scrub step): epoch is the epoch it belongs to, or
    None in a log without epoch lines."""
    __slots__ = ("variant", "iter", "pre", "ticks", "post", "line", "epoch")

    def __init__(self, variant, it, pre, ticks, post, line, epoch=None):
        self.variant, self.iter = variant, it
        self.pre, self.ticks, self.post, self.line = pre, ticks, post, line
        self.epoch = epoch


# A sample's pre or post where its line has none (suite=scrub's steps):
# columns are arrays of numbers, which hold no None.
NO_PROBE = (1 << 64) - 1


def put(col, x):
    """col (an array) with x appended: the same array, or where x does not
    fit its type a copy in 64 bits. Columns start at 32 bits, which hold
    nearly every figure and line number of a log in half the memory."""
    try:
        col.append(x)
        return col
    except OverflowError:
        wide = array("q" if x < 0 or col.typecode in "iq" else "Q", col)
        wide.append(x)
        return wide


class SampleView:
    """Samples of a pass (all, or one variant's: rows, their indices) as a
    read-only sequence of Sample objects, each made when it is asked for:
    the pass keeps its samples as columns of numbers, not an object each
    (a value line costs some 30 bytes, not 300: docs/report.md, "Limits")."""
    __slots__ = ("p", "rows")

    def __init__(self, p, rows=None):
        self.p, self.rows = p, rows

    def __len__(self):
        return len(self.p._ticks) if self.rows is None else len(self.rows)

    def __bool__(self):
        return len(self) > 0

    def __getitem__(self, i):
        if isinstance(i, slice):
            return [self[j] for j in range(*i.indices(len(self)))]
        n = len(self)
        if i < 0:
            i += n
        if not 0 <= i < n:
            raise IndexError(i)
        return self.p._sample(i if self.rows is None else self.rows[i])

    def __iter__(self):
        p = self.p
        for k in range(len(self)) if self.rows is None else self.rows:
            yield p._sample(k)

    def __eq__(self, other):
        try:
            return list(self) == list(other)
        except TypeError:
            return NotImplemented

    def __repr__(self):
        return "SampleView(%d samples)" % len(self)


class Use:
    """A use line: the use probe of one variant in one epoch, in ticks."""
    __slots__ = ("variant", "epoch", "ticks", "line")

    def __init__(self, variant, epoch, ticks, line):
        self.variant, self.epoch, self.ticks, self.line = variant, epoch, ticks, line


class Stat:
    """A stat line: a (pass, variant) figure over its epochs, in ticks per
    call; lo and hi are None where the line has no interval ("?")."""
    __slots__ = ("variant", "metric", "reps", "epochs", "batch", "median",
                 "lo", "hi", "unit", "stop", "line")

    def __init__(self, variant, metric, reps, epochs, batch, median, lo, hi,
                 unit, stop, line):
        self.variant, self.metric, self.reps = variant, metric, reps
        self.epochs, self.batch, self.median = epochs, batch, median
        self.lo, self.hi, self.unit, self.stop, self.line = lo, hi, unit, stop, line

    @property
    def has_interval(self):
        return self.lo is not None and self.hi is not None


class Ratio:
    """A ratio line: a variant's time over the reference variant's, epoch
    by epoch; lo and hi are None where the line has no interval ("?")."""
    __slots__ = ("variant", "ref", "epochs", "median", "lo", "hi", "line")

    def __init__(self, variant, ref, epochs, median, lo, hi, line):
        self.variant, self.ref, self.epochs = variant, ref, epochs
        self.median, self.lo, self.hi, self.line = median, lo, hi, line

    @property
    def has_interval(self):
        return self.lo is not None and self.hi is not None


class Aggregate:
    """A copy-hot/copy-cold line: n, min, median, max as the kernel gave them."""
    __slots__ = ("variant", "n", "min", "median", "max", "line")

    def __init__(self, variant, n, mn, med, mx, line):
        self.variant, self.n, self.min = variant, n, mn
        self.median, self.max, self.line = med, mx, line


class StrFigures:
    """A strings value or zero line: one variant at one size (or zero-length
    pattern), ticks per call: min and median as printed, and every rep's
    figure in rep order: centi, in whole hundredths as the line prints
    them (4 bytes each where they fit: a large log holds some 100,000 of
    these lines), and values, the same as floats."""
    __slots__ = ("variant", "key", "min", "median", "centi", "line")

    def __init__(self, variant, key, mn, med, centi, line):
        self.variant, self.key, self.min = variant, key, mn
        self.median, self.centi, self.line = med, centi, line

    @property
    def values(self):
        """Every rep's figure in ticks, as float(text) would read it (a
        whole number of hundredths over 100 is the float nearest the
        printed decimal)."""
        return array("d", (c / 100 for c in self.centi))


def hundredths(text):
    """An array of the comma-separated figures of text, each printed with
    two decimals ("17.67,-0.05"), in whole hundredths: "i", or "q" where
    one does not fit in 32 bits."""
    got = [int(x.replace(".", "", 1)) for x in text.split(",")]
    try:
        return array("i", got)
    except OverflowError:
        return array("q", got)


class StrBlock:
    """A block of suite=strings: one op, mode and alignment over the sizes
    (figures keyed by size), or an op's zero-length block (keyed by
    pattern: zero, alt, random)."""

    def __init__(self, op, mode, dst, src, line, zero_calls=None, zero_n=None):
        self.op, self.mode, self.dst, self.src = op, mode, dst, src
        self.line = line
        self.zero_calls, self.zero_n = zero_calls, zero_n
        self.overhead = {}          # calls -> {"min", "median", "n"}
        self.figures = {}           # (variant, size or pattern) -> StrFigures
        self.variants = []          # in order of first appearance
        self.keys = []              # sizes or patterns, in order of appearance
        # What the two lists hold, for a test that does not scan them
        # (strings.restrict only shortens variants, after the last add).
        self._listed = set()
        self.memo = {}              # figures derived from the block, by name

    @property
    def zero(self):
        return self.mode == "zero"

    @property
    def key(self):
        return (self.op, self.mode, self.dst, self.src)

    @property
    def label(self):
        """"tput dst=1", "lat dst=0 src=7", "zero"."""
        if self.zero:
            return "zero"
        s = "%s dst=%d" % (self.mode, self.dst)
        return s + (" src=%d" % self.src if self.src is not None else "")

    def add(self, f):
        self.figures[(f.variant, f.key)] = f
        if ("v", f.variant) not in self._listed:
            self._listed.add(("v", f.variant))
            self.variants.append(f.variant)
        if ("k", f.key) not in self._listed:
            self._listed.add(("k", f.key))
            self.keys.append(f.key)


class StringsRun:
    """What a run of suite=strings printed."""

    def __init__(self):
        self.plan = None            # the strings_plan line
        self.tsc = None             # the strings_tsc line
        self.blocks = {}            # StrBlock.key -> StrBlock, in log order

    @property
    def has_data(self):
        return any(b.figures for b in self.blocks.values())

    def ordered_blocks(self):
        return [b for b in self.blocks.values() if b.figures]


class Pass:
    def __init__(self, suite, name, line):
        self.suite = suite          # "clear" or "copy"
        self.name = name            # one of PASSES
        self.line = line
        # The samples, in log order, a column each (SampleView shows them):
        self._names = []            # the samples' variants, by number
        self._number = {}           # variant -> its number in _names
        # Each sample's variant (its number), figures, line and epoch
        # (-1: none), put() there: they widen when a figure needs it.
        self._vi = array("I")
        self._pre, self._ticks, self._post = array("I"), array("I"), array("I")
        self._line = array("I")
        self._epoch = array("i")
        self._rows = {}             # variant -> array of its samples' indices
        self.bytes = None           # bytes a call covers, when the log says per sample
        self.aggregates = {}        # variant -> Aggregate
        self.variants = []          # in order of first appearance
        self.memo = {}              # figures derived from the pass, by name
        self.iters = {}             # variant -> samples so far
        self.epoch = None           # the epoch the next lines belong to
        # The use lines, in log order, a column each (uses shows them).
        self._use_names, self._use_vi = [], array("I")
        self._use_epoch, self._use_ticks, self._use_line = array("i"), array("I"), array("I")
        self.stats = {}             # (variant, "time" or "use") -> Stat
        self.ratios = {}            # (variant, ref) -> Ratio

    @property
    def key(self):
        return (self.suite, self.name)

    @property
    def label(self):
        return pass_label(self.suite, self.name)

    def add_variant(self, v):
        if v not in self.iters and v not in self.aggregates:
            self.variants.append(v)

    def add_sample(self, s):
        """Keeps Sample s as its variant's next iteration."""
        self.add(s.variant, s.pre, s.ticks, s.post, s.line, s.epoch)

    def add(self, variant, pre, ticks, post, line, epoch=None):
        """Keeps a sample as its variant's next iteration (pre and post
        None where the line has none)."""
        rows = self._rows.get(variant)
        if rows is None:
            self.add_variant(variant)
            rows = self._rows[variant] = array("I")
            self._number[variant] = len(self._names)
            self._names.append(variant)
        self.iters[variant] = len(rows) + 1
        rows.append(len(self._ticks))
        self._vi.append(self._number[variant])
        self._pre = put(self._pre, NO_PROBE if pre is None else pre)
        self._ticks = put(self._ticks, ticks)
        self._post = put(self._post, NO_PROBE if post is None else post)
        self._line = put(self._line, line)
        self._epoch = put(self._epoch, -1 if epoch is None else epoch)

    def _sample(self, k):
        v = self._names[self._vi[k]]
        pre, post, epoch = self._pre[k], self._post[k], self._epoch[k]
        return Sample(v, bisect.bisect_left(self._rows[v], k) + 1,
                      None if pre == NO_PROBE else pre, self._ticks[k],
                      None if post == NO_PROBE else post, self._line[k],
                      None if epoch < 0 else epoch)

    @property
    def samples(self):
        return SampleView(self)

    @property
    def by_variant(self):
        """variant -> its samples, in log order."""
        return {v: SampleView(self, rows) for v, rows in self._rows.items()}

    def samples_of(self, variant):
        rows = self._rows.get(variant)
        return list(SampleView(self, rows)) if rows is not None else []

    def add_use(self, variant, epoch, ticks, line):
        if variant not in self._use_names:
            self._use_names.append(variant)
        self._use_vi.append(self._use_names.index(variant))
        self._use_epoch = put(self._use_epoch, -1 if epoch is None else epoch)
        self._use_ticks = put(self._use_ticks, ticks)
        self._use_line = put(self._use_line, line)

    @property
    def uses(self):
        """The use lines as Use objects, in log order."""
        return [Use(self._use_names[i], None if e < 0 else e, t, n) for i, e, t, n in
                zip(self._use_vi, self._use_epoch, self._use_ticks, self._use_line)]

    def use_ticks(self, variant):
        """The ticks of variant's use lines, in log order."""
        names = self._use_names
        return [t for j, t in zip(self._use_vi, self._use_ticks) if names[j] == variant]

    def column(self, variant, what):
        """One figure ("ticks", "pre" or "post") of each sample of variant,
        in log order, those the lines do not give left out: an array, 8
        bytes a figure, as the pass keeps them."""
        rows = self._rows.get(variant, ())
        col = {"ticks": self._ticks, "pre": self._pre, "post": self._post}[what]
        return array("Q", (col[k] for k in rows if col[k] != NO_PROBE))

    def rename_variants(self, name):
        """Every sample's variant v called name(v) from now on."""
        self._use_names = [name(v) for v in self._use_names]
        names = [name(v) for v in self._names]
        merged = list(dict.fromkeys(names))
        number = {v: i for i, v in enumerate(merged)}
        if len(merged) != len(names):
            # Two names become one: their samples merge, in log order.
            self._vi = array("I", (number[names[i]] for i in self._vi))
            self._rows = {v: array("I") for v in merged}
            for k, i in enumerate(self._vi):
                self._rows[merged[i]].append(k)
        else:
            self._rows = {name(v): rows for v, rows in self._rows.items()}
        self._names, self._number = merged, number

    @property
    def has_data(self):
        return bool(self.samples or self.aggregates or self.stats)

    def stat(self, variant, metric="time"):
        return self.stats.get((variant, metric))

    @property
    def ratio_ref(self):
        """The variant its ratio lines divide by, or None without them."""
        refs = {ref for _, ref in self.ratios}
        return refs.pop() if len(refs) == 1 else None


def pass_label(suite, name):
    """The pass as the log names it: "L1 w/o flush", "copy MEM", "copy-hot";
    suite=scrub's CPU counts as "scrub cpus=2" (and "scrub cpus=4 remote")."""
    if name in ("hot", "cold"):
        return "copy-" + name
    if suite == "scrub":
        return "scrub " + name
    return ("copy " if suite == "copy" else "") + name


def scrub_pass_name(cpus, node):
    """suite=scrub's steps of one CPU count (and place) read as one pass."""
    return "cpus=%d" % cpus + (" remote" if node == "remote" else "")


def _scrub_order(name):
    m = re.match(r"cpus=(\d+)( remote)?$", name)
    return (int(m.group(1)), bool(m.group(2))) if m else (99999, True)



def canon_pass(text):
    """A pass as a verify line may name it ("L1 w/o flush", "copy MEM",
    "l1f", "copy-hot") -> its name in PASSES; unknown text is kept."""
    t = text.strip()
    for prefix in ("copy-", "copy "):
        if t.startswith(prefix):
            t = t[len(prefix):]
    if t in PASSES:
        return t
    return PASS_IDS.get(t.lower(), t)


def pass_order(key):
    suite, name = key
    if suite == "scrub":
        return (SUITES.index(suite), _scrub_order(name))
    return (SUITES.index(suite) if suite in SUITES else 9,
            (PASSES.index(name) if name in PASSES else 99, False))


class Machine:
    """One run of pagebench (or of Jan's 2021 Xen code) on one machine."""

    def __init__(self, name, name_from, source, line):
        self.name = name
        self.name_from = name_from      # "title", "attachment" or "file"
        self.source = source
        self.first_line = self.last_line = line
        self.tag = None
        self.facts = {}
        self.passes = {}                # (suite, name) -> Pass
        self.failures = []              # (line, text)
        self.verify_failed = set()      # (suite, pass name, variant)
        self.skipped_variants = []      # (variant, suite, reason)
        self.skipped_passes = []        # (label, reason)
        self.disturbances = []          # pagebench-linux, one per pass
        self.cycles = []                # "cycles" lines: per pass and variant
        self.scrub = []                 # suite=scrub's steps, as dicts
        self.done = None                # failures count from "done:"
        self.interrupted = None         # (by, percent): "done: interrupted by ..."
        self.complete = None            # "halting" / "rebooting"
        self.kinds = set()              # line kinds seen
        self.cur_pass = None
        self.strings = None             # StringsRun, suite=strings only
        self.renamed = []               # (table, old, new): an old log's names
        self.cur_block = None           # the StrBlock lines go to
        self.answers = []               # answer.Answer, in log order
        self.answers_from = None        # "log", or "pagebench-decide" (decided.py)
        self.bottoms = []               # bottom.BottomLine, in log order
        self.decide_refused = None      # why pagebench-decide refused its figures

    # -- facts -----------------------------------------------------------
    @property
    def format(self):
        return "pagebench" if "version" in self.facts else "xen-2021"

    def cache_k(self, level):
        """Size in KiB of l1d/l2/l3; None when the log does not say."""
        c = self.facts.get("cache")
        if c is not None:
            return c[level]
        x = self.facts.get("xen")
        if x is not None and level in x:
            return x[level]
        return None

    @property
    def tsc_khz(self):
        t = self.facts.get("tsc")
        if t and t.get("khz"):
            return t["khz"]
        return None

    @property
    def reps(self):
        p = self.facts.get("plan")
        return p["reps"] if p else None

    @property
    def truncated(self):
        return self.done is None

    @property
    def incomplete(self):
        """Why the run's figures are not all it meant to measure, or None:
        its done: line says it was cut short, or a pagebench log has none
        (Jan's 2021 format has no done: line to miss)."""
        if self.interrupted:
            return "interrupted by %s at %d%% of the run" % self.interrupted
        if self.done is None and self.format == "pagebench":
            return "no \"done:\" line (cut off or reset)"
        return None

    @property
    def has_data(self):
        return any(p.has_data for p in self.passes.values()) or \
            (self.strings is not None and self.strings.has_data)

    def strings_run(self):
        if self.strings is None:
            self.strings = StringsRun()
        return self.strings

    def forget_derived(self):
        """Drops the figures worked out from the samples and kept for
        reuse (each pass's and strings block's memo): a report that is
        done with a machine frees them before the next one, and they are
        worked out again if asked for."""
        for p in self.passes.values():
            p.memo.clear()
        if self.strings is not None:
            for b in self.strings.blocks.values():
                b.memo.clear()

    def ordered_passes(self):
        return [self.passes[k] for k in sorted(self.passes, key=pass_order)
                if self.passes[k].has_data]

    def get_pass(self, suite, name, line):
        key = (suite, name)
        p = self.passes.get(key)
        if p is None:
            p = self.passes[key] = Pass(suite, name, line)
        return p


def pass_bytes(m, suite, name):
    """Bytes one variant call covers in this pass, or None when unknown.

    A log with "sizes" lines says so itself. For logs without them (Jan's
    2021 logs, pagebench before those lines) the 2021 rule applies: clear
    nr/2 pages, copy nr/4 pages, where nr is the cache size in 4 KiB pages
    (MEM: 2 x L3, or 2 x L2 without an L3); copy-hot/cold copy one page."""
    p = m.passes.get((suite, name))
    if p is not None and p.bytes is not None:
        return p.bytes
    sizes = m.facts.get("sizes")
    if sizes is not None:
        ids = [i for i, n in PASS_IDS.items() if n == name]
        got = sizes.get(ids[0]) if ids else None
        b = got.get(suite) if got else None
        return b or None
    if name in ("hot", "cold"):
        return 4096
    if name.startswith("L1"):
        size, mult = m.cache_k("l1d"), 1
    elif name.startswith("L2"):
        size, mult = m.cache_k("l2"), 1
    elif name.startswith("L3"):
        size, mult = m.cache_k("l3"), 1
    elif name == "MEM":
        l3 = m.cache_k("l3")
        if l3 is None:
            return None
        size, mult = (l3, 2) if l3 else (m.cache_k("l2"), 2)
    else:
        return None
    if not size:
        return None
    nr = size * mult // 4
    pages = nr // 2 if suite == "clear" else nr // 4
    return pages * 4096 if pages else None


# ---------------------------------------------------------------------------

def _classify_at(text, pos):
    """(kind, match) for text from pos (just after a tag), or None. The
    expressions match at pos in place: slicing the rest off for each tag
    would copy a long line once per tag on it."""
    ts = TIMESTAMP_RE.match(text, pos)
    for start in (pos, ts.end()) if ts else (pos,):
        for kind, rx in LINE_TYPES:
            m = rx.match(text, start)
            if m:
                return kind, m
    return None


def _title_of(text):
    """A collection title ("Aorus (Skylake):") or None."""
    t = text.strip()
    if not t.endswith(":") or len(t) > 100 or len(t) < 2:
        return None
    if BAD_CHARS_RE.search(t) or "\x1b" in text:
        return None
    if not re.search(r"[A-Za-z0-9]", t):
        return None
    return t[:-1].strip()


class Lines:
    """The lines of a binary file, read in chunks: iterating gives (raw,
    size, terminated, sep) per line, raw its first max_line bytes (without
    the line end), size its whole length, sep the line end in use. At most
    max_input bytes are read; then longer says whether the input went on,
    and stop_line is the line where reading stopped.

    LF or CRLF ends lines; a capture with CR alone (no LF in the first
    chunk that ends a line) uses CR. A CR inside an LF line (or an LF
    inside a CR line) starts a new line of the same number, as a
    console's redraw does (Reader.record)."""

    def __init__(self, fh, max_line=MAX_LINE, max_input=MAX_INPUT):
        self.fh, self.max_line, self.max_input = fh, max_line, max_input
        self.longer = False
        self.stop_line = 0

    def __iter__(self):
        fh, max_line = self.fh, self.max_line
        sep = None
        parts, kept, length = [], 0, 0
        count = total = 0
        while True:
            want = min(READ_CHUNK, self.max_input - total)
            buf = fh.read(want) if want > 0 else b""
            if not buf:
                self.longer = want <= 0 and bool(fh.read(1))
                break
            total += len(buf)
            if sep is None:
                if b"\n" in buf:
                    sep = b"\n"
                elif b"\r" in buf:
                    sep = b"\r"
            start = 0
            while sep is not None:
                end = buf.find(sep, start)
                if end < 0:
                    break
                if not parts and end - start <= max_line:
                    raw, size = buf[start:end], end - start
                else:
                    if kept < max_line:
                        parts.append(buf[start:min(end, start + max_line - kept)])
                    raw, size = b"".join(parts), length + end - start
                count += 1
                yield raw, size, True, sep
                parts, kept, length = [], 0, 0
                start = end + 1
            if start < len(buf):
                if kept < max_line:
                    piece = buf[start:start + max_line - kept]
                    parts.append(piece)
                    kept += len(piece)
                length += len(buf) - start
        if length:
            count += 1
            yield b"".join(parts), length, False, sep
        self.stop_line = count if length else count + 1


class Reader:
    """Splits one input into machines: read() a binary file to its end, or
    feed() it all the bytes at once."""

    def __init__(self, source, default_name, max_line=MAX_LINE,
                 max_input=MAX_INPUT):
        self.source = source
        self.default_name = default_name
        self.max_line, self.max_input = max_line, max_input
        self.machines = []
        self.diags = []
        self.unlisted = {}          # Diag kind -> how many were not listed
        self.lineno = 0             # lines taken so far
        self.cur = None
        self.pending_title = None
        self.pending_attach = None
        self.section_name = None
        self.section_from = None
        self.last_skip = None       # the skip a new one may extend

    # -- diagnostics, merged into ranges when consecutive ----------------
    def listed(self, d):
        """Keeps d, unless MAX_DIAGS are kept already: then counts it."""
        if len(self.diags) >= MAX_DIAGS:
            self.unlisted[d.kind] = self.unlisted.get(d.kind, 0) + d.count
            return False
        self.diags.append(d)
        return True

    def skip(self, line, reason):
        d = self.last_skip
        if d is not None and d.reason == reason and d.last <= line:
            if d.last != line:
                d.count += 1
            d.last = line
            return
        d = Diag(self.source, line, line, reason)
        self.last_skip = d if self.listed(d) else None

    def warn(self, line, text):
        self.listed(Diag(self.source, line, line, text, kind="warning"))

    def cut(self, line, text):
        self.listed(Diag(self.source, line, line, text, kind="cut"))

    # -- lines -----------------------------------------------------------
    def feed(self, data):
        if isinstance(data, str):
            data = data.encode("utf-8", "replace")
        self.read(io.BytesIO(data))

    def read(self, fh):
        """Reads fh (binary) to its end, or to max_input bytes."""
        lines = Lines(fh, self.max_line, self.max_input)
        for rec in lines:
            self.take(*rec)
        self.end(lines)

    def take(self, raw, size, terminated, sep):
        """The next line of the input, as Lines gives it."""
        self.lineno += 1
        self.record(raw, size, self.lineno, terminated, sep)

    def end(self, lines=None):
        """The input is over: lines (a Lines, when the input was one) says
        whether it was cut."""
        if lines is not None and lines.longer:
            self.cut(lines.stop_line, "the input is longer than %d bytes "
                     "(--max-input); the rest is not read" % self.max_input)
        self.finish(self.lineno)

    def record(self, raw, size, lineno, terminated, sep):
        """One line of the input, as read (without its line end)."""
        if size > self.max_line:
            self.cut(lineno, "a line of %d bytes%s; read its first %d "
                     "(--max-line)" % (size, "" if terminated else
                                       " or more", self.max_line))
            # A cut may split a UTF-8 sequence: leave its start out.
            text = codecs.getincrementaldecoder("utf-8")("replace").decode(raw)
            terminated = False
        else:
            if sep != b"\r" and raw.endswith(b"\r"):
                terminated = True   # CRLF: only the LF is missing
            text = raw.decode("utf-8", "replace")
        if sep == b"\r":
            subs = text.split("\n")
        else:
            subs = text.rstrip("\r").split("\r")
        for j, sub in enumerate(subs):
            self.line(sub, lineno, terminated or j < len(subs) - 1)

    def line(self, raw, lineno, terminated):
        text = ANSI_RE.sub("", raw)
        if not text.strip(" \t\x00"):
            return
        if ATTACH_RE.match(text):
            m = ATTACH_NAME_RE.match(ATTACH_RE.match(text).group(1))
            if m:
                self.pending_attach = m.group(1).strip()
            return
        found = None
        tagged_at_start = False
        tags = 0
        body = text.rstrip(" \t")
        for m in TAG_RE.finditer(text):
            tags += 1
            if tags == 1:
                tagged_at_start = not text[:m.start()].strip(" \t\x00")
            if tags > MAX_TAG_TRIES or m.end() > len(body):
                continue            # only counted, for the message
            c = _classify_at(body, m.end())
            if c:
                found = (m, c)
                break
        if found is None:
            if tagged_at_start:
                if BAD_CHARS_RE.search(text):
                    self.skip(lineno, "binary garbage in a tagged line")
                elif not terminated:
                    self.skip(lineno, "cut off (no line end)")
                elif tags > MAX_TAG_TRIES:
                    self.skip(lineno, "tagged line of unknown form (tried "
                              "the first %d of its %d tags)"
                              % (MAX_TAG_TRIES, tags))
                else:
                    self.skip(lineno, "tagged line of unknown form")
                return
            title = _title_of(text)
            if title is not None:
                self.pending_title = title
                self.last_skip = None
                return
            if BAD_CHARS_RE.search(text):
                self.skip(lineno, "binary garbage")
            else:
                self.skip(lineno, "not a pagebench line (no tag)")
            return
        m, (kind, lm) = found
        if not terminated and kind not in SAFE_UNTERMINATED:
            self.skip(lineno, "cut off (no line end); values may be incomplete")
            return
        self.last_skip = None
        prefix = text[:m.start()]
        if prefix.strip(" \t\x00"):
            self.warn(lineno, "ignored %d characters of noise before the tag"
                      % len(prefix))
        self.tagged(kind, lm, m.group(1), lineno)

    def new_machine(self, lineno):
        if self.pending_title is not None:
            name, frm = self.pending_title, "title"
        elif self.pending_attach is not None:
            name, frm = self.pending_attach, "attachment"
        elif self.section_name is not None:
            name, frm = self.section_name, self.section_from
        else:
            name, frm = self.default_name, "file"
        self.pending_title = self.pending_attach = None
        self.section_name, self.section_from = name, frm
        self.close()
        self.cur = Machine(name, frm, self.source, lineno)
        self.machines.append(self.cur)

    def needs_new(self, kind):
        cur = self.cur
        if cur is None:
            return True
        if self.pending_title is not None or self.pending_attach is not None:
            return True
        if cur.done is not None:
            return kind not in ("log", "complete")
        if cur.complete is not None:
            return True
        if kind == "xen":
            return bool(cur.kinds)
        if kind == "version":
            return bool(cur.kinds - {"xen", "option_error"})
        return False

    def tagged(self, kind, m, tag, lineno):
        if self.needs_new(kind):
            self.new_machine(lineno)
        cur = self.cur
        cur.kinds.add(kind)
        cur.last_line = lineno
        if cur.tag is None:
            cur.tag = tag
        g = m.groups()
        f = cur.facts
        if kind == "value":
            p = cur.cur_pass
            if p is None:
                self.skip(lineno, "value line outside a pass")
                return
            variant = g[1]
            if variant in ("pre", "post"):
                self.skip(lineno, "value line without a variant")
                return
            p.add(variant, int(g[0], 16), int(g[2], 16), int(g[3], 16), lineno, p.epoch)
        elif kind == "epoch":
            # It names its pass: the passes take turns, an epoch at a time.
            name = PASS_IDS.get(g[1])
            if name is None or g[0] not in ("clear", "copy"):
                self.skip(lineno, "epoch line of an unknown pass")
            else:
                p = cur.get_pass(g[0], name, lineno)
                p.epoch = int(g[2])
                cur.cur_pass = p if name not in ("hot", "cold") else None
        elif kind == "use":
            p = cur.cur_pass
            if p is None:
                self.skip(lineno, "use line outside a pass")
            else:
                p.add_use(g[0], p.epoch, int(g[1], 16), lineno)
        elif kind == "stat":
            self.stat_line(g, lineno)
        elif kind == "ratio":
            self.ratio_line(g, lineno)
        elif kind == "answer":
            cur.answers.append(Answer.from_groups(g, lineno, m.group(0)))
        elif kind in bottom.KINDS:
            try:
                bottom.Collector(cur.bottoms).add(kind, g, lineno, m.group(0))
            except ValueError as e:
                self.skip(lineno, str(e))
        elif kind == "pass":
            suite = "copy" if g[0] else "clear"
            cur.cur_pass = cur.get_pass(suite, g[1], lineno)
            cur.cur_block = None
        elif kind == "agg":
            p = cur.get_pass("copy", g[0][len("copy-"):], lineno)
            n, mn, med, mx = (int(x) for x in g[2:])
            p.add_variant(g[1])
            p.aggregates[g[1]] = Aggregate(g[1], n, mn, med, mx, lineno)
            cur.cur_pass = None
        elif kind.startswith("strings_"):
            self.strings_line(kind, m, g, lineno)
        elif kind == "xen":
            f["xen"] = dict(zip(("erms", "fsrm", "fzrm", "fsrs", "fsrcs"),
                                (int(x) for x in g[:5])))
            f["xen"]["l1d"] = int(g[5])
            f["xen"]["l2"] = int(g[6])
        elif kind == "version":
            f["version"] = g[0]
        elif kind == "cpu":
            f["cpu"] = {"vendor": g[0], "family": int(g[1], 16),
                        "model": int(g[2], 16), "stepping": int(g[3])}
        elif kind == "brand":
            f["brand"] = g[0].strip()
        elif kind == "ucode":
            f["ucode"] = ("0x" + g[0]) if g[0] else g[1]
        elif kind == "cache":
            f["cache"] = {"l1d": int(g[0]), "l2": int(g[1]), "l3": int(g[2]),
                          "line": int(g[3]), "source": g[4]}
        elif kind == "features":
            f["features"] = dict((k, int(v)) for k, v in
                                 (w.split("=") for w in g[0].split()))
        elif kind == "hypervisor":
            f["hypervisor"] = g[0].strip()
        elif kind == "tsc":
            f["tsc"] = ({"khz": int(g[0]), "source": g[1]} if g[0]
                        else {"khz": None, "source": g[2]})
        elif kind == "hot_load":
            f["hot_load"] = ({"source": g[4]} if g[4] else
                             {"loads": int(g[0]), "ticks": int(g[1]),
                              "ns": None if g[2] == "?" else float(g[2]),
                              "runs_on": None if g[3] == "?" else g[3]})
        elif kind == "tsc_check":
            f.setdefault("tsc_checks", []).append(
                {"source": g[0], "khz": int(g[1]), "diff_ppm": int(g[2])})
        elif kind == "tsc_absent":
            f.setdefault("tsc_absent", {})[g[0]] = g[1]
        elif kind == "acpi":
            f["acpi"] = ({"rsdp": int(g[0], 16), "revision": int(g[1]),
                          "root": g[2], "tables": g[3].split(",") if g[3] else []}
                         if g[0] else {"none": g[4]})
        elif kind == "memory":
            f["memory_mb"] = int(g[0]) if g[0] else None
        elif kind == "cmdline":
            f["cmdline"] = g[0] or ""
        elif kind == "screen":
            f["screen"] = m.group(0)[len("screen: "):]
        elif kind == "boot":
            f["boot"] = m.group(0)[len("boot: "):]
        elif kind == "log":
            f["log"] = m.group(0)[len("log "):]
        elif kind == "selftest_map" and g[0] == "FAILED":
            cur.failures.append((lineno, m.group(0)))
        elif kind == "cpus":
            f["cpus"] = {"online": int(g[0]), "of": int(g[1]),
                         "apic": g[2], "mode": g[3]}
        elif kind == "cpus_out":
            f.setdefault("cpus_left_out", []).append((g[0], g[1]))
        elif kind == "numa":
            f.setdefault("numa", []).append(
                {"node": int(g[0]), "domain": int(g[1]), "apic": g[2]})
        elif kind == "watchdog_state":
            f["watchdog"] = ({"deadline_s": int(g[0]), "watcher_apic": int(g[1])}
                             if g[0] else {"off": g[2]})
        elif kind == "selftest_smp":
            if g[0] == "FAILED":
                cur.failures.append((lineno, m.group(0)))
            else:
                f["selftest_smp"] = {"cpus": int(g[1]), "within": int(g[2]),
                                     "late": int(g[3])}
        elif kind == "watchdog":
            cur.failures.append((lineno, m.group(0)))
            cur.cur_pass = None
        elif kind == "plan":
            f["plan"] = {"suite": g[0],
                         "reps": None if g[1] == "auto" else int(g[1]),
                         "passes": g[2],
                         "precision": float(g[3]) if g[3] else None,
                         "budget_ms": int(g[4]) if g[4] else None,
                         "time_ms": int(g[5]) if g[5] else None}
        elif kind == "tsc_step":
            f["tsc_step"] = {"step": int(g[0]), "region": int(g[1]),
                             "reads": int(g[2])}
        elif kind == "flush":
            f["flush"] = g[0]
        elif kind == "variants":
            f.setdefault("variants", {})[g[0]] = (g[1] or "").split()
        elif kind == "variant":
            f.setdefault("variant", []).append(dict(zip(
                ("name", "op", "shape", "store", "needs", "what"), g)))
        elif kind == "skipped_variant":
            cur.skipped_variants.append((g[0], g[1], g[2]))
        elif kind == "skipped_pass":
            cur.skipped_passes.append((g[0], g[1]))
        elif kind == "verify":
            cur.failures.append((lineno, m.group(0)))
            cur.verify_failed.add((g[0], canon_pass(g[1]), g[2]))
        elif kind == "option_error":
            cur.failures.append((lineno, m.group(0)))
        elif kind == "exception":
            cur.failures.append((lineno, m.group(0)))
            cur.cur_pass = cur.cur_block = None
        elif kind == "fault":
            cur.failures.append((lineno, m.group(0)))
            cur.verify_failed.add((g[0], canon_pass(g[1]), g[2]))
        elif kind == "scrub":
            p = cur.get_pass("scrub", scrub_pass_name(int(g[1]), g[2]), lineno)
            # The step's time is the wall time; it has no probes.
            p.add(g[0], None, int(g[5]), None, lineno)
            p.bytes = int(g[4])
            cur.scrub.append({"variant": g[0], "cpus": int(g[1]), "node": g[2],
                              "rep": int(g[3]), "bytes": int(g[4]),
                              "wall": int(g[5]), "slowest": int(g[6]),
                              "fastest": int(g[7]), "late": int(g[8])})
            cur.cur_pass = None
        elif kind == "scrub_plan":
            f["scrub"] = {"counts": [int(x) for x in g[0].split(",")],
                          "nodes": int(g[1]), "region": int(g[2])}
        elif kind == "sizes_scrub":
            f["scrub_bytes"] = int(g[0])
        elif kind == "skipped_scrub":
            cur.skipped_passes.append(("scrub", g[0]))
        elif kind == "sizes":
            f.setdefault("sizes", {})[g[0]] = {
                "fill": int(g[1]), "clear": int(g[2]), "copy": int(g[3]),
                "placements": int(g[4]) if g[4] else 1}
        elif kind == "disturbance":
            d = {"suite": g[0], "pass": PASS_IDS.get(g[1], g[1]),
                 "nivcsw": int(g[2]), "nvcsw": int(g[3]),
                 "irqs": None if g[4] == "unknown" else int(g[4]),
                 "top": g[5] or ""}
            # Logs before issue 16 end at top=; None there, not 0.
            d["samples"], d["retimed"], d["kept"] = (
                (None,) * 3 if g[6] is None else (int(x) for x in g[6:9]))
            d["cpus"], d["cpus_cut"] = parse_cpu_counts(g[9])
            cur.disturbances.append(d)
        elif kind == "cycles":
            cur.cycles.append({
                "suite": g[0], "pass": PASS_IDS.get(g[1], g[1]),
                "variant": g[2], "samples": int(g[3]), "ticks": int(g[4]),
                "ref": int(g[5]), "cycles": int(g[6]),
                "ratio": None if g[7] == "?" else float(g[7]),
                "mhz": None if g[8] == "?" else int(g[8])})
        elif kind == "cycles_source":
            f["cycles"] = {"source": g[0], "ref": g[1]}
        elif kind == "cycles_none":
            f["cycles"] = {"none": g[0]}
        elif kind.startswith("linux_"):
            f.setdefault("linux", {})[kind[len("linux_"):]] = \
                m.group(0)[len("linux "):]
        elif kind == "module_release":
            f.setdefault("module", {})["release"] = g[0]
        elif kind == "module_features":
            f.setdefault("module", {})["kernel_features"] = dict(
                kv.split("=") for kv in g[0].split())
        elif kind == "vector_price":
            if g[6] is not None:
                f["vector_price"] = {"how": g[0], "where": g[1], "xcr0": g[2],
                                     "mask": g[3], "ticks": int(g[6]),
                                     "lo": int(g[7]), "hi": int(g[8]),
                                     "held": int(g[9] or 0),
                                     "window": int(g[10] or 0),
                                     "ns": _float_or_none(g[11]),
                                     "lo_ns": _float_or_none(g[12]),
                                     "hi_ns": _float_or_none(g[13])}
            else:
                f["vector_price"] = {"how": g[0], "where": g[1], "why": g[14]}
        elif kind == "module_fpu":
            f.setdefault("module", {}).setdefault("fpu", {})[g[0]] = {
                "begin_end_median": int(g[5]),
                "restore_median": None if g[7] is None else int(g[7])}
        elif kind == "module_irqs":
            f.setdefault("module", {})["window_bytes"] = int(g[0])
        elif kind == "module_refused":
            cur.failures.append((lineno, m.group(0)))
        elif kind == "runtime":
            f["runtime"] = {"ms": int(g[0]), "ticks": int(g[1], 16)}
        elif kind == "done":
            cur.done = int(g[2])
            cur.interrupted = (g[0], int(g[1])) if g[0] else None
            cur.cur_pass = cur.cur_block = None
        elif kind == "complete":
            cur.complete = g[0]

    def stat_line(self, g, lineno):
        """A stat line: it names its pass by suite and id, after the pass's
        lines (docs/log-format.md, "Epochs and stat lines")."""
        cur = self.cur
        suite, pid, variant, metric = g[0], g[1], g[2], g[3] or "time"
        name = PASS_IDS.get(pid)
        if name is None or suite not in ("clear", "copy"):
            self.skip(lineno, "stat line of an unknown pass")
            return

        def fig(x):
            return None if x == "?" else float(x)
        p = cur.get_pass(suite, name, lineno)
        # Names and words interned: a large log repeats them thousands of times.
        variant, metric = sys.intern(variant), sys.intern(metric)
        p.stats[(variant, metric)] = Stat(
            variant, metric, int(g[4]), int(g[5]), int(g[6]), float(g[7]),
            fig(g[8]), fig(g[9]), sys.intern(g[10]), sys.intern(g[11]), lineno)
        p.add_variant(variant)

    def ratio_line(self, g, lineno):
        """A ratio line: it names its pass as a stat line does, after it
        (docs/log-format.md, "Ratio lines")."""
        name = PASS_IDS.get(g[1])
        if name is None or g[0] not in ("clear", "copy"):
            self.skip(lineno, "ratio line of an unknown pass")
            return

        def fig(x):
            return None if x == "?" else float(x)
        p = self.cur.get_pass(g[0], name, lineno)
        v, ref = sys.intern(g[2]), sys.intern(g[3])
        p.ratios[(v, ref)] = Ratio(v, ref, int(g[4]), float(g[5]),
                                   fig(g[6]), fig(g[7]), lineno)

    def strings_line(self, kind, m, g, lineno):
        """A line of suite=strings (docs/log-format.md, "The strings suite")."""
        cur = self.cur
        run = cur.strings_run()
        cur.cur_pass = None
        if kind == "strings_plan":
            run.plan = {"sizes": [int(x) for x in g[0].split(",")],
                        "calls": int(g[1]),
                        "align": [int(x) for x in g[2].split(",")],
                        "modes": g[3].split(","), "zero_calls": int(g[4]),
                        "zero_n": int(g[5])}
        elif kind == "strings_tsc":
            run.tsc = {"step": int(g[0]), "region": int(g[1]),
                       "reads": int(g[2])}
        elif kind in ("strings_block", "strings_zero_block"):
            if kind == "strings_block":
                b = StrBlock(g[0], g[1], int(g[2]),
                             None if g[3] is None else int(g[3]), lineno)
            else:
                b = StrBlock(g[0], "zero", None, None, lineno,
                             int(g[1]), int(g[2]))
            cur.cur_block = run.blocks.setdefault(b.key, b)
        elif cur.cur_block is None:
            self.skip(lineno, "strings line outside a block")
        elif kind == "strings_overhead":
            cur.cur_block.overhead[int(g[0])] = {
                "min": int(g[1]), "median": int(g[2]), "n": int(g[3])}
        elif (kind == "strings_zero") != cur.cur_block.zero:
            self.skip(lineno, "strings %s line in a %s block" % (
                "zero" if kind == "strings_zero" else "size",
                "zero" if cur.cur_block.zero else "size"))
        else:
            key = g[1] if kind == "strings_zero" else int(g[1])
            cur.cur_block.add(StrFigures(
                sys.intern(g[0]), key, float(g[2]), float(g[3]),
                hundredths(g[4]), lineno))

    def close(self):
        cur = self.cur
        if cur is None:
            return
        renames, clash = aliases.plan(cur)
        if clash:
            self.warn(cur.first_line, "%s: %s" % (cur.name, clash))
        aliases.apply(cur, renames)
        if not cur.has_data:
            return
        if cur.done is None and cur.format == "pagebench":
            self.warn(cur.last_line, "%s: the run has no \"done:\" line; "
                      "the log ends early (cut off or reset?)" % cur.name)
        reps = cur.reps
        if reps and cur.strings is not None:
            for b in cur.strings.ordered_blocks():
                for f in b.figures.values():
                    if len(f.centi) != reps:
                        self.warn(f.line, "%s: strings %s %s: %s %s has %d of "
                                  "%d figures" % (cur.name, b.op, b.label,
                                                  f.variant, f.key,
                                                  len(f.centi), reps))
        for p in cur.ordered_passes():
            for v in p.variants:
                n = p.iters.get(v, 0)
                st = p.stat(v)
                # A stat line counts its pass's reps, reps=auto or not.
                want = st.reps if st is not None and p.samples else reps
                if want and p.samples and n != want and v not in p.aggregates:
                    self.warn(p.line, "%s: %s: %s has %d of %d samples"
                              % (cur.name, p.label, v, n, want))

    def finish(self, nlines):
        self.close()
        self.cur = None
        self.diags.sort(key=lambda d: d.first)
        # Cuts are said even with -q: their count is a cut of its own.
        for kinds, shown in ((("skip", "warning"), "warning"),
                             (("cut",), "cut")):
            counts = [(k, self.unlisted[k]) for k in kinds
                      if k in self.unlisted]
            if counts:
                self.diags.append(Diag(
                    self.source, nlines, nlines, "not listed: %s (only the "
                    "first %d reports of an input are)" % (", ".join(
                        "%d more %s" % (n, {"skip": "skipped lines",
                                            "warning": "warnings",
                                            "cut": "cut lines"}[k])
                        for k, n in counts), MAX_DIAGS), kind=shown))


def read_bytes(data, source="<input>", default_name=None, **limits):
    """Parse one input. Returns (machines, diags)."""
    if default_name is None:
        default_name = os.path.basename(source) or source
    r = Reader(source, default_name, **limits)
    r.feed(data)
    return r.machines, r.diags


def dedupe_names(machines):
    """Gives every machine a distinct name: a file name shared by machines
    of different files becomes the path; remaining clashes get " #2"..."""
    by_name = {}
    for m in machines:
        by_name.setdefault(m.name, []).append(m)
    for name, ms in by_name.items():
        if len(ms) > 1 and len(set(m.source for m in ms)) > 1:
            for m in ms:
                if m.name_from == "file":
                    m.name = m.source
    seen = {}
    for m in machines:
        n = seen.get(m.name, 0) + 1
        seen[m.name] = n
        if n > 1:
            base = m.name
            while "%s #%d" % (base, n) in seen:
                n += 1
            m.name = "%s #%d" % (base, n)
            seen[m.name] = 1
            seen[base] = n


def load(paths, **limits):
    """Reads every path ("-" is stdin). Returns (machines, diags), the
    machines with distinct names, in input order. limits: max_line,
    max_input (bytes)."""
    machines, diags = [], []
    for path in paths:
        ms, ds = read_path(path, **limits)
        machines.extend(ms)
        diags.extend(ds)
    dedupe_names(machines)
    return machines, diags


def read_path(path, **limits):
    """Parse a file, or stdin for "-". Returns (machines, diags)."""
    def plain(fh, source, name):
        r = Reader(source, name, **limits)
        r.read(fh)
        return r.machines, r.diags
    return read_input(path, plain)


def read_input(path, read):
    """read(binary file, source, default machine name) -> (machines,
    diags) on the file path, or on stdin for "-". A file that cannot be
    read, or stops with a read error, gives only a Diag of kind "error"."""
    if path == "-":
        source, name = "<stdin>", "stdin"
    else:
        source, name = path, os.path.basename(path)
    try:
        if path == "-":
            if sys.stdin is None:           # started with <&-
                raise OSError(errno.EBADF, "stdin is closed")
            return read(sys.stdin.buffer, source, name)
        with open(path, "rb") as fh:
            return read(fh, source, name)
    except OSError as e:
        return [], [Diag(source, 0, 0, "cannot read: %s" % (e.strerror or e),
                         kind="error")]
