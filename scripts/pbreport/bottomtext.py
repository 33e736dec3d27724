"""The bottom lines in words, where a maintainer looks first (verdict,
--explain, --format commit): the kernel and its own routine, the flags
that select it, and the one decision over all passes ("Linux 6.18.44 runs
clear_page_erms (ERMS=1 in /proc/cpuinfo): keep"); and the vector price
the log measured. Every word is a field of a bottom, bottom_pass or
vector_price line (docs/log-format.md); what is added is arithmetic of
presentation: a saving is 1 - ratio, a cost ratio - 1, and where a
routine saves in several passes, the median of its ratios there (of two,
the lesser saving) with the least and greatest saving, as the matrix's
bottom row says it (harness/render/matrix.c)."""
import re

from . import picks

KERNEL_NAME = {"linux": "Linux", "xen": "Xen"}
# The running kernel's flags line: "kernel_flags from=/proc/cpuinfo ERMS=1 ... not_shown=FSRS".
FLAGS_RE = re.compile(r"kernel_flags from=(\S+)((?: [A-Z_]+=[01])+)(?: not_shown=([A-Z_,]+))?$")
WHERE = {"user": "in user space", "ring0": "in ring 0", "module": "in the kernel module"}


def kernel_flags(m):
    """The running kernel's flags (the linux kernel_flags line): (where
    read, {flag: 0|1}, {flags it never shows}), or None."""
    text = (m.facts.get("linux") or {}).get("kernel_flags")
    g = FLAGS_RE.match(text or "")
    if not g:
        return None
    values = {k: int(v) for k, v in (w.split("=") for w in g.group(2).split())}
    return g.group(1), values, set((g.group(3) or "").split(",")) - {""}


def flags_text(b, flags):
    """What selects the routine: for the running kernel, the flag's value
    and where it was read ("ERMS=1 in /proc/cpuinfo"; a flag the file
    never shows comes from the rules); for an era, the rule's condition."""
    sel = b.selected_by
    if not sel:
        return ""
    if sel == "*":
        return "the default"
    if not b.running or not flags:
        return sel
    where, values, hidden = flags
    if sel in hidden:
        return "%s from the rules: %s never shows it" % (sel, where)
    if sel in values:
        if where == "boot_cpu_has":
            return "%s=%d by boot_cpu_has" % (sel, values[sel])
        return "%s=%d in %s" % (sel, values[sel], where)
    return sel


def versions_text(b):
    return b.versions[len("running "):] if b.running else b.versions


def names_fn(routine, fn):
    """Whether the kernel's routine names the function it serves."""
    return routine.startswith(fn) and (len(routine) == len(fn) or
                                       routine[len(fn)] in "_:( ")


def kernel_text(bs, flags):
    """"Linux 6.18.44 runs clear_page_erms (ERMS=1 in /proc/cpuinfo)": the
    picks bs (one routine) and what selects it (the first's words)."""
    b = bs[0]
    routine = b.kernel_routine or ("its pick %s" % b.pick if b.pick else
                                   "a routine the rules cannot name here")
    who = "%s %s" % (KERNEL_NAME.get(b.kernel, b.kernel),
                     ", ".join(versions_text(x) for x in bs))
    if b.entry != b.fn and not b.entry.startswith(b.fn + "_"):
        who += " " + b.entry
    elif not names_fn(routine, b.fn):
        who += " " + b.fn
    sel = flags_text(b, flags)
    return "%s %s %s%s" % (who, "run" if len(bs) > 1 else "runs", routine,
                           " (%s)" % sel if sel else "")


def pct(x, digits):
    return picks.fixed(int(round(x * 100)), digits)


def range_text(med, lo, hi, ascii=False):
    """"16% (11–22)": whole per cents from 9.5 on, else one decimal."""
    digits = 0 if min(abs(med), abs(lo), abs(hi)) >= 9.5 else 1
    return "%s%% (%s%s%s)" % (pct(med, digits), pct(lo, digits), "-" if ascii else "–",
                              pct(hi, digits))


def saving(b):
    """Where the routine saves: (median, least, greatest) saving in %, or
    None; mix=: its one figure."""
    if b.mix_ratio is not None:
        r = b.mix_ratio
        return 100 * (1 - r.median), 100 * (1 - r.hi), 100 * (1 - r.lo)
    cells = [c for c in b.cells if c.verdict == "saves" and c.ratio]
    if not cells:
        return None
    ratios = sorted(c.ratio.median for c in cells)
    return (100 * (1 - ratios[len(ratios) // 2]), 100 * (1 - max(c.ratio.hi for c in cells)),
            100 * (1 - min(c.ratio.lo for c in cells)))


def cost(b):
    """Where it costs: (median, least, greatest) cost in %, or None."""
    cells = [c for c in b.cells if c.verdict == "costs" and c.ratio]
    if not cells:
        return None
    ratios = sorted(c.ratio.median for c in cells)
    return (100 * (ratios[(len(ratios) - 1) // 2] - 1), 100 * (min(c.ratio.lo for c in cells) - 1),
            100 * (max(c.ratio.hi for c in cells) - 1))


def where(b, verdict):
    return [c.pass_id for c in b.cells if c.verdict == verdict] or \
        (getattr(b, verdict, None) or [])


def statement(b, runs_on=None, ascii=False):
    """The decision in words: keep; switch to Y, saves Z% (a–b) at ...;
    trade-off: Y saves ... at ...; costs ... at ...; undecided: ... open
    (>=N epochs would decide); or no recommendation, and why."""
    ge = ">=" if ascii else "≥"
    alike = " (or %s, alike)" % ", ".join(b.alike) if b.alike else ""
    if b.action == "none":
        return "no recommendation: " + picks.why_text(b.why, runs_on)
    if b.action == "keep":
        text = "keep"
    elif b.action == "switch":
        s = saving(b)
        text = "switch to %s%s" % (b.routine, alike)
        if s:
            text += ", saves %s %s" % (range_text(*s, ascii=ascii),
                                       "over mix %s" % b.mix if b.mix else
                                       "at " + ", ".join(where(b, "saves")))
        rest = [c.pass_id for c in b.cells if c.verdict not in ("saves",)]
        even = all(c.verdict == "even" for c in b.cells if c.pass_id in rest)
        if rest and even and not b.mix:
            text += "; costs nothing elsewhere"
        elif where(b, "open"):
            text += "; open at " + ", ".join(where(b, "open"))
    elif b.action == "trade-off":
        s, c = saving(b), cost(b)
        text = "trade-off: %s%s saves %s at %s" % (
            b.routine, alike, range_text(*s, ascii=ascii) if s else "the worth",
            ", ".join(where(b, "saves")))
        text += "; costs %s at %s" % (range_text(*c, ascii=ascii) if c else "the worth",
                                      ", ".join(where(b, "costs")))
    else:
        opened = [c for c in b.cells if c.verdict == "open"]
        if b.differ:
            text = "undecided: the runs differ: " + b.differ
        elif opened:
            needs = [c.need_epochs for c in opened if c.need_epochs is not None]
            many = len(needs) > 3 and min(needs) != max(needs)
            text = "undecided: %s open (%s epochs would decide)" % (
                ", ".join(c.pass_id for c in opened),
                "%s%d to %s%d" % (ge, min(needs), ge, max(needs)) if many else
                ", ".join("%s%d" % (ge, n) for n in needs))
        elif b.open:
            text = "undecided: %s open" % ", ".join(b.open)
        else:
            text = "undecided"
        if b.routine:
            text += "; in doubt: %s%s" % (b.routine, alike)
    if b.unpriced:
        routine, pass_id, ratio = b.unpriced
        text += "; %s saves %s at %s before the price of vector registers" % (
            routine, "%s%%" % pct(100 * (1 - ratio), 0), pass_id)
    return text


def grouped(bottoms):
    """The bottom lines said alike, together: [[BottomLine]], one list per
    function, kernel, routine, condition and decision, in log order."""
    out = {}
    for b in bottoms:
        key = (b.fn, b.kernel, b.entry, b.kernel_routine, b.selected_by, b.pick,
               statement(b))
        out.setdefault(key, []).append(b)
    return list(out.values())


def lines(bottoms, flags, runs_on=None, ascii=False):
    """One sentence per group of bottom lines said alike; the picks with
    no advice for one reason (a run that is no CPU's), one sentence."""
    out, nones = [], {}
    for bs in grouped(bottoms):
        if bs[0].action == "none":
            nones.setdefault(bs[0].why, []).extend(bs)
        else:
            out.append("%s: %s" % (kernel_text(bs, flags), statement(bs[0], runs_on, ascii)))
    for why, bs in nones.items():
        out.append("%s: %s" % (kernel_text(bs, flags) if len(bs) == 1 else
                               "%d kernel picks of %s" % (len(bs), ", ".join(
                                   dict.fromkeys(b.fn for b in bs))),
                               statement(bs[0], runs_on, ascii)))
    return out


def vector_price_text(m, ascii=False):
    """"XSAVEC+XRSTOR of xcr0=0xe7 in user space: 160 ns (160–161)", from
    the vector_price line; None where the log has none."""
    vp = m.facts.get("vector_price")
    if not vp:
        return None
    if "why" in vp:
        return "not measured (%s)" % vp["why"]
    how = vp["how"].upper() if vp["how"].startswith(("xsave", "fxsave")) else vp["how"]
    head = "%s%s %s" % (how, " of xcr0=0x%s" % vp["xcr0"] if vp.get("xcr0") else "",
                        WHERE.get(vp["where"], "in " + vp["where"]))
    dash = "-" if ascii else "–"
    if vp.get("ns") is not None:
        return "%s: %.0f ns (%.0f%s%.0f)" % (head, vp["ns"], vp["lo_ns"], dash, vp["hi_ns"])
    return "%s: %d ticks (%d%s%d)" % (head, vp["ticks"], vp["lo"], dash, vp["hi"])
