"""The rules files, read: rules/synthetic.rules (each kernel's view of a
CPU) and rules/selection.rules (per entry point, the routine its
alternatives patch in and the pagebench variant that measures it), their
rows, conditions and eras of versions, for scripts/rules2c, which writes
them as the C tables harness/decide/rules.c evaluates (the one evaluator;
docs/report.md, "Selection rules" has the grammar). Nothing here
evaluates a condition or picks a routine.
"""
import os
import re

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
RULES_DIR = os.path.join(ROOT, "rules")
SYNTHETIC = os.path.join(RULES_DIR, "synthetic.rules")
SELECTION = os.path.join(RULES_DIR, "selection.rules")

KERNELS = ("linux", "xen")
NEEDS_PREFIX = "needs "


class RulesError(Exception):
    pass


class UnknownVersion(Exception):
    pass


# -- versions ---------------------------------------------------------------

VERSION_RE = re.compile(r"^\d+(\.\d+)*$")


def parse_version(text):
    """"6.15" -> (6, 15); raises UnknownVersion on anything else."""
    t = text.strip()
    if t.startswith("v"):
        t = t[1:]
    if not VERSION_RE.match(t):
        raise UnknownVersion("not a version number: %r" % text)
    return tuple(int(x) for x in t.split("."))


def bump(v):
    """The first version after every v.x: (4, 20) -> (4, 21)."""
    return v[:-1] + (v[-1] + 1,)


class Range:
    """A half-open range of versions [lo, hi); None is unbounded."""

    def __init__(self, text):
        self.text = t = text.strip()
        if t == "*":
            self.lo = self.hi = None
        elif t.startswith(">=") and " <" in t:
            a, b = t[2:].split(" <", 1)
            self.lo, self.hi = parse_version(a), parse_version(b)
        elif t.startswith(">="):
            self.lo, self.hi = parse_version(t[2:]), None
        elif t.startswith("<"):
            self.lo, self.hi = None, parse_version(t[1:])
        elif "-" in t:
            a, b = t.split("-", 1)
            self.lo, self.hi = parse_version(a), bump(parse_version(b))
        else:
            v = parse_version(t)
            self.lo, self.hi = v, bump(v)

    def bounds(self):
        return [b for b in (self.lo, self.hi) if b is not None]


def vtext(v):
    return ".".join(str(x) for x in v)


# -- conditions -------------------------------------------------------------

ATOM_RE = re.compile(r"^(!?)([A-Za-z_][A-Za-z0-9_]*)(?:(>=|<=|!=|=|<|>)(\S+))?$")


class Atom:
    def __init__(self, text):
        m = ATOM_RE.match(text)
        if not m:
            raise RulesError("bad condition atom %r" % text)
        self.neg, self.name, self.op, value = m.groups()
        self.text = text
        if self.op is not None and self.neg:
            raise RulesError("%r: ! with a comparison" % text)
        self.value = None
        if value is not None:
            self.value = int(value, 0) if re.match(
                r"^(0x[0-9a-fA-F]+|\d+)$", value) else value

    @property
    def flag(self):
        """Kernel flags are upper case (rules/synthetic.rules)."""
        return self.name.isupper()


def parse_condition(text):
    t = text.strip()
    if t == "*":
        return []
    return [Atom(a) for a in t.split()]


# -- the tables -------------------------------------------------------------

class Row:
    def __init__(self, cells, source, line):
        self.source, self.line = source, line
        self.cells = cells


class FlagRule(Row):
    """kernel | versions | FLAG | condition | value | file | citation"""
    COLUMNS = 7

    def __init__(self, cells, source, line):
        super().__init__(cells, source, line)
        self.kernel, ver, self.flag, cond, value, self.file, self.cite = cells
        self.versions = Range(ver)
        self.condition = parse_condition(cond)
        if value not in ("0", "1"):
            raise RulesError("value must be 0 or 1, not %r" % value)
        self.value = int(value)


class PickRule(Row):
    """kernel | versions | entry | measured as | condition | routine |
    variant | file | citation"""
    COLUMNS = 9

    def __init__(self, cells, source, line):
        super().__init__(cells, source, line)
        (self.kernel, ver, self.entry, self.measured, cond, self.routine,
         self.variant, self.file, self.cite) = cells
        self.versions = Range(ver)
        self.condition_text = cond
        self.condition = parse_condition(cond)

    @property
    def needs_variant(self):
        """The variant a routine needs when pagebench has none, else None."""
        if self.variant.startswith(NEEDS_PREFIX):
            return self.variant[len(NEEDS_PREFIX):]
        return None


def read_table(path, cls):
    rows = []
    try:
        with open(path, encoding="utf-8") as fh:
            lines = fh.read().splitlines()
    except OSError as e:
        raise RulesError("cannot read %s: %s" % (path, e.strerror or e))
    for i, line in enumerate(lines, 1):
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        cells = [c.strip() for c in line.split(" | ")]
        if len(cells) != cls.COLUMNS:
            raise RulesError("%s:%d: %d cells, want %d" % (
                path, i, len(cells), cls.COLUMNS))
        try:
            r = cls(cells, path, i)
        except (RulesError, UnknownVersion) as e:
            raise RulesError("%s:%d: %s" % (path, i, e))
        if r.kernel not in KERNELS:
            raise RulesError("%s:%d: unknown kernel %r" % (path, i, r.kernel))
        rows.append(r)
    return rows


class Tables:
    def __init__(self, synthetic=SYNTHETIC, selection=SELECTION):
        self.flags = read_table(synthetic, FlagRule)
        self.picks = read_table(selection, PickRule)
        for p in self.picks:
            for a in p.condition:
                if a.flag and not any(f.flag == a.name and f.kernel == p.kernel
                                      for f in self.flags):
                    raise RulesError("%s:%d: %s has no row in %s" % (
                        p.source, p.line, a.name, synthetic))

    def entries(self, kernel):
        """Entry points of a kernel in table order."""
        out = []
        for p in self.picks:
            if p.kernel == kernel and p.entry not in out:
                out.append(p.entry)
        return out

    def bounds(self, kernel):
        """Every version where some rule of the kernel starts or stops."""
        bs = {}
        for r in self.flags + self.picks:
            if r.kernel == kernel:
                for b in r.versions.bounds():
                    bs.setdefault(_padded(b), b)
        return [bs[k] for k in sorted(bs)]



_TABLES = None


def tables():
    global _TABLES
    if _TABLES is None:
        _TABLES = Tables()
    return _TABLES


def _padded(v):
    return v + (0,) * (4 - len(v))
