"""verdict --format commit: what a maintainer pastes into a commit message
(docs/report.md, "verdict --format commit"): per CPU group, the CPU, how
each run was measured and the command that makes it again, then per
kernel pick and pass the decision with its figures in ns per 4 KiB page
and GB/s. A group of several runs gets the one choice that is worst-case
best over them, read off their answer lines: the same switch everywhere
(saving at least its smallest lower bound), keep everywhere, or else
undecided, and why. ASCII, at most 76 columns."""
import textwrap

from . import matrix
from . import runinfo
from .answer import NOT_A_CPU, ZERO_NS
from .grammar import PASS_HEADERS

WIDTH = 76


def group_key(m):
    """Runs of one CPU model (and name) form a group; a run that is no
    CPU's is never in a CPU's group."""
    c = m.facts.get("cpu") or {}
    not_cpu = runinfo.runs_on(m) in NOT_A_CPU or any(
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


def wrap(text, indent="", sub="  "):
    return textwrap.wrap(text, WIDTH, initial_indent=indent,
                         subsequent_indent=indent + sub,
                         break_on_hyphens=False)


def ns_text(a, name, ns, gbps):
    """"avx512 254.6 ns/page (16.09 GB/s)"; memset/memcpy: ns/call."""
    if not ns:
        return "%s %s" % (name, ZERO_NS)
    if a.per_call:
        return "%s %.1f ns/call" % (name, ns)
    return "%s %.1f ns/page (%.2f GB/s)" % (name, ns, gbps)


def saves_text(a):
    s = a.saving_pct
    return "%.1f%% (95%% %.1f to %.1f%%)" % (s.median, s.lo, s.hi)


def measured(m):
    _, host = runinfo.host(m)
    return "%s: pagebench %s, %s, %s; %s%s" % (
        m.name, m.facts.get("version", "?"), host, runinfo.runs_on_text(m),
        runinfo.plan_text(m), "; INCOMPLETE: %s" % m.incomplete if m.incomplete else "")


def pass_name(row):
    pid, sizes = row
    if sizes:
        return "%s, sizes %d-%d bytes" % ((pid,) + sizes)
    return "%s (%s)" % (PASS_HEADERS.get(pid, pid), pid)


def who_text(col):
    parts = []
    for w in col.who:
        s = w.text(col.fn)
        parts.append(s + (" assuming %s" % w.assuming if w.assuming else ""))
    return ", ".join(parts)


def one(a, runs_on):
    """The lines of one answer: the decision, then its figures."""
    if a.action == "none":
        return [matrix.why_text(a.why, runs_on)]
    head = {"switch": "switch to %s%s, saves " % (
                a.routine, " (or %s, within noise)" % a.alike if a.alike else ""),
            "keep": "keep %s; nearest %s saves " % (a.pick, a.routine or "-"),
            "undecided": "undecided: %s saves " % a.routine}[a.action]
    if a.ratio is None:
        return [head.rstrip(" saves;")]
    out = [head + saves_text(a) + ", %d epochs" % a.epochs +
           ("; %d would decide" % a.need_epochs if a.need_epochs else "")]
    if a.drift:
        out.append("the ratio drifted during the run, %.2f then %.2f: it "
                   "depends on the machine's state; measure again" % a.drift)
    if a.pick_ns is not None:
        out.append("%s -> %s%s" % (
            ns_text(a, a.pick, a.pick_ns, a.pick_gbps),
            ns_text(a, a.routine, a.routine_ns, a.routine_gbps),
            fpu_text(a)))
    return out


def fpu_text(a):
    if a.fpu is None:
        return ""
    if a.fpu == "?":
        return "; needs kernel_fpu_begin/end, its cost not measured here"
    return "; with kernel_fpu_begin/end, %s a call" % a.fpu


def machine_block(m):
    out = wrap("CPU: " + runinfo.cpu_text(m))
    out += wrap("Measured on " + measured(m))
    cmd = runinfo.command(m)
    out += wrap("Reproduce: " + (cmd or "the log does not say how it was "
                                 "made"))
    worth = sorted({a.worth_pct for a in m.answers})
    out.append("Worth acting on: %s of the pick's time" % ", ".join(
        "%g%%" % w for w in worth))
    for fn in functions([m]):
        for col in matrix.columns(m.answers, fn):
            out.append("")
            out += wrap("%s, pick %s: %s" % (fn, col.label, who_text(col)))
            for pid in sorted(col.answers, key=matrix.row_order):
                lines = one(col.answers[pid], runinfo.runs_on(m))
                out += wrap("%s: %s" % (pass_name(pid), lines[0]), "  ",
                            "    ")
                for l in lines[1:]:
                    out += wrap(l, "    ", "  ")
    return out


def functions(ms):
    """The functions the runs' answers name, in the screen's order."""
    have = {a.fn for m in ms for a in m.answers}
    known = [fn for _, fns in matrix.SUITE_FNS for fn in fns]
    return [fn for fn in known if fn in have] + sorted(have - set(known))


def choice(answers, names):
    """The group's choice for one pick and pass, from its runs' answers
    ({name: Answer or None}): (lines, action, routine), routine the one
    every run switches to, else None."""
    missing = [n for n in names if answers.get(n) is None]
    if missing:
        return ["undecided: no answer on %s" % ", ".join(missing)], \
            "undecided", None
    got = [answers[n] for n in names]
    if any(a.action == "none" for a in got):
        return ["no recommendation: %s" % "; ".join(
            "%s %s" % (n, answers[n].why) for n in names
            if answers[n].action == "none")], "none", None
    acts = {(a.action, a.routine if a.action == "switch" else None)
            for a in got}
    if acts == {("keep", None)}:
        return ["keep %s on every run" % got[0].pick], "keep", None
    if acts == {("undecided", None)}:
        return ["undecided on every run"], "undecided", None
    # Of runs that all switch, the one whose saving's lower bound is least.
    worst = min(names, key=lambda n: answers[n].saving_pct.lo) \
        if all(a.action == "switch" for a in got) else None
    if len(acts) == 1:
        a = answers[worst]
        out = ["switch to %s on every run; the worst, %s, saves %s" % (
            a.routine, worst, saves_text(a))]
        if a.pick_ns is not None:
            out.append("%s -> %s%s" % (
                ns_text(a, a.pick, a.pick_ns, a.pick_gbps),
                ns_text(a, a.routine, a.routine_ns, a.routine_gbps),
                fpu_text(a)))
        return out, "switch", a.routine
    if worst is not None:
        # Every run says the pick costs worth; which routine is quicker
        # by worth moved with the machine's state from run to run.
        on = {}
        for n in names:
            on.setdefault(answers[n].routine, []).append(n)
        return ["switch from %s on every run, the routine the runs differ on: "
                "%s; the worst, %s (%s), saves %s" % (
                    got[0].pick, "; ".join("%s on %s" % (r, ", ".join(ns))
                                          for r, ns in on.items()),
                    worst, answers[worst].routine, saves_text(answers[worst]))], \
            "switch", None
    return ["undecided: the runs differ: %s" % ", ".join(
        "%s %s" % (n, answers[n].action + (
            " to " + answers[n].routine if answers[n].action == "switch"
            else "")) for n in names)], "undecided", None


def group_block(ms):
    m0 = ms[0]
    names = [m.name for m in ms]
    out = wrap("CPU group of %d runs: %s" % (len(ms), runinfo.cpu_text(m0)))
    for m in ms:
        out += wrap("Measured on " + measured(m))
        out += wrap("Reproduce %s: %s" % (m.name, runinfo.command(m) or
                                          "the log does not say"), "  ")
    out.append("Worth acting on: %s of the pick's time" % ", ".join(
        "%g%%" % w for w in sorted({a.worth_pct for m in ms
                                    for a in m.answers})))
    for fn in functions(ms):
        # Every run's picks, matched by kernel, versions and entry (a
        # running kernel by "running": its release may differ per run);
        # picks with the same variant and the same choices are said once.
        keys = []
        for m in ms:
            for a in m.answers:
                if a.fn == fn and key(a) not in keys:
                    keys.append(key(a))
        said = []
        for k in keys:
            per = {m.name: {a.row: a for a in m.answers if key(a) == k}
                   for m in ms}
            passes = sorted({p for d in per.values() for p in d},
                            key=matrix.row_order)
            picks = "/".join(sorted({a.pick or "-" for d in per.values()
                                     for a in d.values()}))
            body = [(p, choice({n: per[n].get(p) for n in names}, names)[0])
                    for p in passes]
            for s in said:
                if s[1] == picks and s[2] == body:
                    s[0].append(k)
                    break
            else:
                said.append(([k], picks, body))
        for ks, picks, body in said:
            out.append("")
            out += wrap("%s, pick %s: %s" % (fn, picks, ", ".join(
                " ".join(x for x in (k[1], k[2], k[3][len(fn) + 1:],
                                     assuming(ms, k)) if x)
                for k in ks)))
            for p, lines in body:
                out += wrap("%s: %s" % (pass_name(p), lines[0]), "  ",
                            "    ")
                for l in lines[1:]:
                    out += wrap(l, "    ", "  ")
    return out


def assuming(ms, k):
    got = sorted({a.assuming for m in ms for a in m.answers
                  if key(a) == k and a.assuming})
    return "assuming " + ", ".join(got) if got else ""


def key(a):
    v = "running" if a.running else a.versions
    return (a.fn, a.kernel, v, a.entry)


def text(machines):
    out = []
    for ms in groups(machines):
        with_answers = [m for m in ms if m.answers]
        for m in ms:
            if not m.answers:
                out += wrap(matrix.no_answers_line(m))
        if not with_answers:
            continue
        if out:
            out.append("")
        if len(with_answers) == 1:
            out += machine_block(with_answers[0])
        else:
            out += group_block(with_answers)
    return "\n".join(out) + "\n"
