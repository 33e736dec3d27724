"""What Linux and Xen select on a CPU: the tables in rules/ and their
evaluation on the facts of a log.

rules/synthetic.rules gives each kernel's view of the CPU (REP_GOOD, ERMS
masked by MISC_ENABLE.FAST_STRING, XEN_REP_MOVSB, ...) from the facts a log
carries; rules/selection.rules gives, per entry point, the routine its
alternatives patch in and the pagebench variant that measures it. The
grammar is docs/report.md, "Selection rules"; the C side generates its
table from the same files. A condition that needs a fact the log lacks is
unknown, and so is every pick that depends on it: nothing is guessed.
"""
import os
import re

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__))))
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


def vless(a, b):
    """Compares versions as release numbers: (6, 4) < (6, 4, 1)."""
    n = max(len(a), len(b))
    return a + (0,) * (n - len(a)) < b + (0,) * (n - len(b))


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

    def contains(self, v):
        return (self.lo is None or not vless(v, self.lo)) and \
            (self.hi is None or vless(v, self.hi))

    def bounds(self):
        return [b for b in (self.lo, self.hi) if b is not None]


def vtext(v):
    return ".".join(str(x) for x in v)


def era_text(lo, hi):
    if lo is None and hi is None:
        return "*"
    if lo is None:
        return "<" + vtext(hi)
    if hi is None:
        return ">=" + vtext(lo)
    if bump(lo) == hi:
        return vtext(lo)
    return ">=%s <%s" % (vtext(lo), vtext(hi))


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


class Unknown:
    """A truth value that needs facts the log lacks."""

    def __init__(self, needs):
        self.needs = sorted(set(needs))

    def __repr__(self):
        return "Unknown(%s)" % ",".join(self.needs)


def eval_atom(atom, lookup):
    """True, False or Unknown."""
    got = lookup(atom.name)
    if isinstance(got, Unknown):
        return got
    if atom.op is None:
        return (not got) if atom.neg else bool(got)
    want = atom.value
    if isinstance(want, int) != isinstance(got, int):
        return False if atom.op == "=" else atom.op == "!="
    return {"=": got == want, "!=": got != want, ">=": got >= want,
            "<=": got <= want, "<": got < want, ">": got > want}[atom.op]


def eval_condition(atoms, lookup):
    """A conjunction: False if any atom is False, else Unknown if any is."""
    needs = []
    for a in atoms:
        r = eval_atom(a, lookup)
        if r is False:
            return False
        if isinstance(r, Unknown):
            needs += r.needs
    return Unknown(needs) if needs else True


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

    def covers(self, kernel, version):
        return any(p.kernel == kernel and p.versions.contains(version)
                   for p in self.picks)

    def facts_used(self):
        """Lower-case fact names that some condition reads."""
        names = []
        for r in self.flags + self.picks:
            for a in r.condition:
                if not a.flag and a.name not in names:
                    names.append(a.name)
        return names


_TABLES = None


def tables():
    global _TABLES
    if _TABLES is None:
        _TABLES = Tables()
    return _TABLES


# -- facts of a machine -----------------------------------------------------

# Feature bits that the Xen header of a 2021 log carries.
XEN_HEADER_BITS = ("erms", "fsrm", "fzrm", "fsrs", "fsrcs")


def cpuid1_eax(family, model, stepping):
    """CPUID.1 EAX from the display family and model (Linux's K8 test
    reads it raw)."""
    if family >= 0xf:
        base, ext_f = 0xf, family - 0xf
    else:
        base, ext_f = family, 0
    ext_m = model >> 4 if family in (0x6, 0xf) or family > 0xf else 0
    low_m = model & 0xf
    return (ext_f << 20) | (ext_m << 16) | (base << 8) | (low_m << 4) | \
        (stepping & 0xf)


def machine_facts(m):
    """{name: value} of what the log says about the CPU, and where each
    came from ({name: source}). A feature bit the log does not carry is
    absent, not 0."""
    f, src = {}, {}
    cpu = m.facts.get("cpu")
    if cpu:
        for k in ("vendor", "family", "model", "stepping"):
            f[k] = cpu[k]
            src[k] = "cpu line"
        f["vfm"] = (cpu["family"] << 8) | cpu["model"]
        f["cpuid1_eax"] = cpuid1_eax(cpu["family"], cpu["model"],
                                     cpu["stepping"])
        src["vfm"] = src["cpuid1_eax"] = "cpu line"
    feats = m.facts.get("features")
    if feats:
        for k, v in feats.items():
            f[k] = v
            src[k] = "features line"
    x = m.facts.get("xen")
    if x:
        for k in XEN_HEADER_BITS:
            if k not in f:
                f[k] = x[k]
                src[k] = "Xen header"
    # A variant that ran proves its instruction: Jan's 2021 code ran
    # CLZERO, AVX and AVX-512 only where the CPU has them.
    ran = set()
    for p in m.passes.values():
        ran.update(s.variant for s in p.samples)
    for bit, variants in (("clzero", ("clzero", "clzero_sf")),
                          ("avx", ("avx",)), ("avx512f", ("avx512",))):
        if bit not in f and ran.intersection(variants):
            f[bit] = 1
            src[bit] = "a %s variant ran" % bit
    return f, src


def running_kernel(m, tabs):
    """A log of pagebench.ko (the linux-module lines) names the kernel it
    ran in and that kernel's own view of the CPU: (version, {FLAG: 0 or
    1}), the version None where no rule covers it; None for other logs.
    A bit the kernel has no X86_FEATURE_ for ("unknown") is left out."""
    mod = m.facts.get("module")
    if not mod or "release" not in mod:
        return None
    flags = {k.upper(): int(v) for k, v in mod.get("kernel_features", {}).items()
             if v in ("0", "1")}
    num = re.match(r"\d+(?:\.\d+)*", mod["release"])
    try:
        version = check_version(tabs, "linux", num.group(0)) if num else None
    except UnknownVersion:
        version = None
    return version, flags


class Evaluator:
    """Evaluates flags and picks of one kernel version on one machine.
    own: flags the kernel itself reported (running_kernel()), which
    replace the synthetic rows' answer."""

    def __init__(self, tabs, kernel, version, facts, own=None):
        self.t, self.kernel, self.version = tabs, kernel, version
        self.facts = facts
        self.own = own or {}
        self.memo = {}

    def lookup(self, name):
        if name.isupper():
            return self.flag(name)
        if name in self.facts:
            return self.facts[name]
        return Unknown([name])

    def flag(self, name):
        if name in self.own:
            return self.own[name]
        if name in self.memo:
            return self.memo[name]
        self.memo[name] = Unknown([name])    # a loop in the table
        res = None
        for r in self.t.flags:
            if r.kernel != self.kernel or r.flag != name or \
                    not r.versions.contains(self.version):
                continue
            ok = eval_condition(r.condition, self.lookup)
            if ok is True:
                res = r.value
                break
            if isinstance(ok, Unknown):
                res = ok
                break
        if res is None:
            res = Unknown(["a rule for %s on this vendor" % name])
        self.memo[name] = res
        return res

    def pick(self, entry):
        """(PickRule or None, Unknown or None): the first row that holds,
        or what the first undecidable row needs."""
        for r in self.t.picks:
            if r.kernel != self.kernel or r.entry != entry or \
                    not r.versions.contains(self.version):
                continue
            ok = eval_condition(r.condition, self.lookup)
            if ok is True:
                return r, None
            if isinstance(ok, Unknown):
                return None, ok
        return None, None


BOOL_FACTS = ("fast_string",)


def picks(tabs, kernel, entry, facts, version=None, own=None):
    """[Pick] for every era of the kernel (or for one version) where the
    entry has rules; adjacent eras with the same outcome are merged. own:
    as for Evaluator, with version given."""
    if version is not None:
        eras = [(version, bump(version))]
        label = [vtext(version)]
    else:
        bs = tabs.bounds(kernel)
        edges = [None] + bs + [None]
        eras = list(zip(edges[:-1], edges[1:]))
        label = None
    out = []
    for lo, hi in eras:
        probe = lo if lo is not None else _before(hi) if hi else (0,)
        ev = Evaluator(tabs, kernel, probe, facts, own)
        rule, unknown = ev.pick(entry)
        if rule is None and unknown is None:
            continue
        alts = []
        if unknown is not None and set(unknown.needs) <= set(BOOL_FACTS):
            for n in unknown.needs:
                for v in (1, 0):
                    ev2 = Evaluator(tabs, kernel, probe, dict(facts, **{n: v}), own)
                    r2, u2 = ev2.pick(entry)
                    if r2 is not None:
                        alts.append(("%s=%d" % (n, v), r2))
        if alts and len(set(id(r) for _, r in alts)) == 1:
            # Every value of the missing fact leads to the same routine.
            rule, unknown, alts = alts[0][1], None, []
        p = Pick(kernel, entry, rule, unknown, alts, lo, hi)
        if out and out[-1].same(p) and version is None:
            out[-1].hi = hi
        else:
            out.append(p)
    if label:
        for p in out:
            p.version_text = label[0]
    return out


def _padded(v):
    return v + (0,) * (4 - len(v))


def _before(v):
    """A version just below v: (7, 0) -> (6, 9999)."""
    for i in range(len(v) - 1, -1, -1):
        if v[i] > 0:
            return v[:i] + (v[i] - 1,) + (9999,) * (len(v) - i - 1)
    return (0,)


class Pick:
    """What one kernel era selects for one entry point on one machine."""

    def __init__(self, kernel, entry, rule, unknown, alternatives, lo, hi):
        self.kernel, self.entry, self.rule = kernel, entry, rule
        self.unknown, self.alternatives = unknown, alternatives
        self.lo, self.hi = lo, hi
        self.version_text = None

    @property
    def version(self):
        if self.version_text:
            return self.version_text
        r = self.rule
        if r is not None and (r.versions.lo, r.versions.hi) == (self.lo,
                                                                self.hi):
            return r.versions.text
        return era_text(self.lo, self.hi)

    @property
    def variant(self):
        if self.rule is None or self.rule.needs_variant:
            return None
        return self.rule.variant

    @property
    def measured(self):
        if self.rule is not None:
            return self.rule.measured
        return None

    def same(self, other):
        key = lambda p: (p.rule and (p.rule.routine, p.rule.variant),
                         p.unknown and tuple(p.unknown.needs),
                         tuple((a, r.variant) for a, r in p.alternatives))
        return key(self) == key(other)


def check_version(tabs, kernel, text):
    """Parses --linux/--xen VERSION and checks that the tables cover it."""
    v = parse_version(text)
    if not tabs.covers(kernel, v):
        have = sorted(set(p.versions.text for p in tabs.picks
                          if p.kernel == kernel))
        raise UnknownVersion("no %s rule covers version %s (the table has "
                             "%s)" % (kernel, text, ", ".join(have)))
    return v
