"""verdict --format commit: what a maintainer pastes into a commit message
(docs/report.md, "verdict"). Per CPU group at most 25 lines of at most 72
columns, ASCII: the CPU; per function, the kernel, its routine and the
flags that select it, the bottom line, and a small table of the named
routine pass by pass (ns a page of the pick and of the routine, the
saving and its 95% interval); the vector price where the routine pays
it; how it was measured; the command that reproduces it. Several runs of
one CPU give their combined bottom line, several CPUs a block each and
then the fleet's line per pick (pagebench-decide --combine,
harness/decide/combine.c). Every figure is a bottom line's."""
import re
import textwrap

from . import bottomtext, decided, engine, picks, runinfo
from .answer import NOT_A_CPU, ZERO_NS

WIDTH, HEIGHT = 72, 25


def wrap(text, indent="", sub="  "):
    return textwrap.wrap(text, WIDTH, initial_indent=indent,
                         subsequent_indent=indent + sub, break_on_hyphens=False)


def group_key(m):
    """Runs of one CPU model (and name) form a group; a run that is no
    CPU's is never in a CPU's group."""
    c = m.facts.get("cpu") or {}
    not_cpu = runinfo.runs_on(m) in NOT_A_CPU or any(
        b.why == "not-a-cpu" for b in m.bottoms) or any(
        a.why == "not-a-cpu" for a in m.answers)
    if not c:
        # A log that names no CPU (Jan's 2021 file): only its own run is
        # known to be that CPU.
        return (None, m.source, m.name, not_cpu)
    return (c.get("vendor"), c.get("family"), c.get("model"),
            m.facts.get("brand"), not_cpu)


def groups(machines):
    out = {}
    for m in machines:
        out.setdefault(group_key(m), []).append(m)
    return list(out.values())


def group_name(ms, taken):
    """A name for pagebench-decide --combine: "amd-1a-2", "intel-6-cf", "tcg"."""
    m = ms[0]
    c = m.facts.get("cpu") or {}
    vendor = {"AuthenticAMD": "amd", "GenuineIntel": "intel"}.get(c.get("vendor"), "cpu")
    name = "%s-%x-%x" % (vendor, c["family"], c["model"]) if c else "cpu"
    if group_key(m)[-1]:
        name = runinfo.runs_on(m) or "not-a-cpu"
    name = re.sub(r"[^A-Za-z0-9_.+-]", "-", name)[:32]
    base, n = name, 2
    while name in taken:
        name, n = "%s.%d" % (base, n), n + 1
    taken.add(name)
    return name


def chosen(bottoms, kernel, functions):
    """Per function, the picks a patch is about: kernel's (else the
    running kernel's, else Linux's), its running pick where there is one,
    else the picks of its newest era (every entry of it)."""
    out = []
    for fn in picks.functions(bottoms):
        if functions and fn not in functions:
            continue
        of = [b for b in bottoms if b.fn == fn]
        k = kernel or next((b.kernel for b in of if b.running),
                           "linux" if any(b.kernel == "linux" for b in of) else None)
        of = [b for b in of if b.kernel == k]
        if not of:
            continue
        running = [b for b in of if b.running]
        newest = running[0].versions if running else of[-1].versions
        out += [b for b in of if b.versions == newest]
    return out


def measured(ms):
    """How the runs were measured: host, runs_on, version, budget."""
    m = ms[0]
    _, host = runinfo.host(m)
    runs = "%d runs, the first " % len(ms) if len(ms) > 1 else ""
    cut = ["%s: %s" % (x.name, x.incomplete) for x in ms if x.incomplete]
    return wrap("Measured: %s%s; %s; pagebench %s, %s%s" % (
        runs, host, runinfo.runs_on_text(m), m.facts.get("version", "?"),
        runinfo.plan_text(m), "; INCOMPLETE: " + "; ".join(cut) if cut else ""))


def cell_row(pass_id, c):
    """One pass of the named routine: ns of the pick and the routine, the
    saving (1 - ratio) and its 95% interval."""
    if c is None or c.ratio is None:
        return "  %-5s %9s %9s  %s" % (pass_id, "-", "-", "not measured")
    s = c.saving_pct
    # A figure of 0 ns is no measurement (a TSC rate the engine cannot use): "0?".
    ns = ("%9s %9s" % tuple("%.1f" % x if x else "0?" for x in (c.pick_ns, c.routine_ns))) \
        if c.pick_ns is not None else "%9s %9s" % ("-", "-")
    return "  %-5s %s  %5.1f%% [%.1f, %.1f] %s" % (pass_id, ns, s.median, s.lo, s.hi,
                                                  c.verdict)


def table(b):
    """The named routine pass by pass; [] where none is named."""
    if not b.routine or not b.cells:
        return []
    head = "  %-5s %9s %9s  saving [95%%]" % ("pass", (b.pick or "-")[:9], b.routine[:9])
    return [head] + [cell_row(c.pass_id, c) for c in b.cells]


def pick_lines(bs, flags, runs_on):
    """The kernel and its routine, the bottom line, and its table."""
    b = bs[0]
    runs = ", %d runs" % b.runs if b.runs and b.runs > 1 else ""
    out = wrap("%s%s:" % (bottomtext.kernel_text(bs, flags), runs))
    out += wrap(bottomtext.statement(b, runs_on, ascii=True), "  ")
    return out, table(b)


def block(ms, bottoms, kernel, functions, name=None):
    """One CPU group's lines: at most HEIGHT of at most WIDTH columns;
    name: the group's, where a fleet line names it."""
    m = ms[0]
    flags = bottomtext.kernel_flags(m)
    head = wrap("CPU%s: %s" % (" (%s)" % name if name else "", runinfo.cpu_text(m)))
    tail = measured(ms)
    cmd = runinfo.command(m)
    tail += wrap("Reproduce: " + (cmd or "the log does not say how it was made"))
    if not bottoms:
        return head + wrap("No bottom lines: %s" % (
            decided.no_answers_line(m) if not m.answers else
            "the log's answer lines are from before them and it has no figures to "
            "decide again; verdict shows its answers")) + tail
    picked = bottomtext.grouped(chosen(bottoms, kernel, functions))
    if not picked:
        return head + ["No bottom line of %s" % " ".join(
            x for x in (kernel, ", ".join(functions or ())) if x)] + tail
    price = [b for bs in picked for b in bs if b.vector_price_ns is not None]
    if price:
        tail = wrap("Vector price (in the routine's ns): " +
                    (bottomtext.vector_price_text(m, ascii=True) or "measured")) + tail
    parts = [pick_lines(bs, flags, runinfo.runs_on(m)) for bs in picked]
    room = HEIGHT - len(head) - len(tail)
    # The tables go first, the last function's first, then whole functions.
    shown = [list(p) for p in parts]
    for p in reversed(shown):
        if sum(len(x) + len(t) for x, t in shown) <= room:
            break
        p[1] = []
    left = []
    while shown and sum(len(x) + len(t) for x, t in shown) + (1 if left else 0) > room:
        left.insert(0, picked[len(shown) - 1][0].fn)
        shown.pop()
    body = [l for x, t in shown for l in x + t]
    if left:
        body += wrap("... and %d more: --function %s" % (
            len(left), " --function ".join(dict.fromkeys(left))))
    return head + body + tail


def fleet_lines(fleet, kernel, functions):
    out = []
    for f in fleet:
        if (kernel and f.kernel != kernel) or (functions and f.fn not in functions):
            continue
        who = "%s %s %s" % (bottomtext.KERNEL_NAME.get(f.kernel, f.kernel), f.versions,
                            f.entry)
        if f.action == "switch":
            what = "switch to %s%s" % (f.routine, " (or %s)" % ", ".join(f.also)
                                       if f.also else "")
        else:
            what = "%s: %s" % (f.action, "; ".join(
                "%s %s%s" % (g, a, " " + r if r and a != "keep" else "")
                for g, a, r in f.by))
        out += wrap("%s: %s" % (who, what))
    return out


def text(machines, kernel=None, functions=None):
    out, named, taken = [], [], set()
    for ms in groups(machines):
        name = group_name(ms, taken)
        runs = [[b for b in m.bottoms if (not kernel or b.kernel == kernel) and
                 (not functions or b.fn in functions)] for m in ms]
        named.append((name, ms, runs))
    with_lines = [(name, ms, runs) for name, ms, runs in named if any(runs)]
    combined, fleet = {}, []
    if with_lines and (len(with_lines) > 1 or len(with_lines[0][1]) > 1):
        combined, fleet = engine.combine([(name, [r for r in runs if r])
                                          for name, _, runs in with_lines])
    for name, ms, runs in named:
        bottoms = combined.get(name) if name in combined else \
            next((r for r in runs if r), [])
        if out:
            out.append("")
        out += block([m for m, r in zip(ms, runs) if r] or ms, bottoms, kernel, functions,
                     name if fleet else None)
    fl = fleet_lines(fleet, kernel, functions)
    if fl:
        out += ["", "Fleet of %d CPU groups:" % len(with_lines)] + fl
    return "\n".join(out) + "\n"
