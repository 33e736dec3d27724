"""Answers for logs that carry none (logs from before the answer lines,
Jan Beulich's 2021 file), made by the run's own engine: the report hands
each machine's per-epoch figures to build/bin/pagebench-decide
(tools/pagebench-decide.c gives the form) and reads back the answer lines
it prints, exactly as it reads a log's. Nothing here decides; it gathers
figures: each epoch's median of a variant's value lines (a log without
epoch lines: each rep, which runs every variant once, is its epoch)."""
import os
import re
import statistics
import subprocess
import threading

import cmdline  # noqa: E402  (scripts/cmdline.py)

from . import cpufacts, grammar, runinfo
from .answer import Answer, NOT_A_CPU
from .parse import PASS_IDS, pass_bytes

TOOL = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__)))), "build", "bin", "pagebench-decide")
CENTI = 100
PASS_ID_OF = {name: pid for pid, name in PASS_IDS.items()}
# The head of pagebench-decide's refusal (exit status cmdline.USAGE),
# whose line number is of its input, not of the log.
REFUSAL_RE = re.compile(r"^pagebench-decide: line \d+: ")
# What cpufacts.machine_facts() gives beside feature bits.
NOT_FEATURES = ("vendor", "family", "model", "stepping", "fast_string")


class DecideError(Exception):
    pass


def _epoch_medians(samples):
    """Each epoch's median of the samples, in hundredths of a tick, in
    epoch order; samples without an epoch are each their rep's."""
    by = {}
    for s in samples:
        by.setdefault(s.epoch if s.epoch is not None else s.iter, []).append(s.ticks)
    return [int(round(statistics.median(by[e]) * CENTI)) for e in sorted(by)]


def figures(m, key):
    """The pagebench-decide input of machine m, named key, or None where nothing in
    it can be decided (no cpu facts for the rules, no timed passes)."""
    f, _ = cpufacts.machine_facts(m)
    # Every feature bit the log proves (features line, Xen header, a
    # variant that ran); the rest stay unknown to the rules.
    feats = " ".join("%s=%d" % (k, 1 if v else 0) for k, v in sorted(f.items())
                     if k not in NOT_FEATURES and isinstance(v, int))
    not_a_cpu = runinfo.runs_on(m) in NOT_A_CPU
    step = (m.facts.get("tsc_step") or {}).get("step") or 1
    out = ["machine %s" % key,
           "cpu vendor=%s family=%d model=%d stepping=%d" % (
               f["vendor"], f["family"], f["model"], f["stepping"])
           if "vendor" in f else "cpu vendor=?"]
    if feats:
        out.append("features " + feats)
    if "fast_string" in f:
        out.append("fast_string %d" % f["fast_string"])
    # No worth_bp: pagebench-decide takes worth='s default, as a run does.
    out.append("run not_a_cpu=%d tsc_khz=%d" % (not_a_cpu, m.tsc_khz or 0))
    fpu = _fpu_line(m)
    if fpu:
        out.append(fpu)
    passes = 0
    for (suite, name), p in m.passes.items():
        pid = PASS_ID_OF.get(name)
        b = pass_bytes(m, suite, name)
        if suite not in ("clear", "copy") or pid is None or not b or not p.samples:
            continue
        out.append("pass op=%s pass=%s bytes=%d" % (suite, pid, b))
        for v in p.variants:
            med = _epoch_medians(p.samples_of(v))
            if med:
                failed = (suite, name, v) in m.verify_failed
                out.append("series variant=%s failed=%d quantum=%d med=%s" % (
                    v, failed, step * CENTI, ",".join(map(str, med))))
        passes += 1
    more = _strings_lines(m) + _scrub_lines(m)
    out += more
    return "\n".join(out + ["end"]) + "\n" if passes or more else None


def _fpu_line(m):
    """The module's kernel_fpu_begin/end cost as the engine takes it
    (struct answer_fpu, module/run.c): a task's begin + end + restore
    and the kthread's pair, medians in hundredths of a tick, and the
    window of its irqs line; None where the log has not both fpu lines."""
    mod = m.facts.get("module") or {}
    task, kthread = (mod.get("fpu") or {}).get("task"), (mod.get("fpu") or {}).get("kthread")
    if not task or not kthread or task["restore_median"] is None:
        return None
    return "fpu entry_centi=%d held_centi=%d window_bytes=%d" % (
        (task["begin_end_median"] + task["restore_median"]) * CENTI,
        kthread["begin_end_median"] * CENTI, mod.get("window_bytes") or 0)


def _strings_lines(m):
    """suite=strings: each block's figures per size, as the log gives
    them (hundredths of a tick); the engine makes the size classes."""
    run = m.strings
    if run is None or not run.has_data:
        return []
    out = []
    if run.tsc and run.plan and run.plan.get("calls"):
        out.append("strings quantum=%d" % (run.tsc["step"] * CENTI // run.plan["calls"]))
    for b in run.ordered_blocks():
        if b.zero:
            continue
        for (v, n), f in b.figures.items():
            if f.values and isinstance(n, int):
                failed = any(su == b.op and pa.startswith("strings") and va == v
                             for su, pa, va in m.verify_failed)
                out.append("figure op=%s mode=%s n=%d variant=%s failed=%d all=%s" % (
                    b.op, b.mode, n, v, failed,
                    ",".join(str(int(round(x * CENTI))) for x in f.values)))
    return out


def _scrub_lines(m):
    """suite=scrub: per step, each variant's wall times in rep order."""
    steps = {}
    for s in m.scrub:
        key = (s["cpus"], s["node"])
        steps.setdefault(key, {"bytes": s["bytes"], "v": {}})["v"].setdefault(
            s["variant"], []).append((s["rep"], s["wall"]))
    out = []
    for (cpus, node), st in steps.items():
        out.append("scrub step=cpus%d%s bytes=%d" % (
            cpus, "" if node == "local" else "_" + node, st["bytes"]))
        for v, walls in st["v"].items():
            failed = ("scrub", "cpus=%d" % cpus, v) in m.verify_failed
            out.append("series variant=%s failed=%d quantum=%d med=%s" % (
                v, failed, CENTI, ",".join(str(w * CENTI) for _, w in sorted(walls))))
    return out


def _decide(machines):
    """pagebench-decide on the figures of machines {key: m}, each machine's
    figures made as they are written to it and its answers read as they
    come, so that memory holds neither all the figures nor all the lines
    (docs/report.md, "Limits"): (exit status, stderr, {key: [Answer]})."""
    proc = subprocess.Popen([TOOL], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)

    def feed():
        try:
            for key, m in machines.items():
                text = figures(m, key)
                if text:
                    proc.stdin.write(text)
            proc.stdin.close()
        except (BrokenPipeError, OSError):
            pass        # it stopped reading: its status says why

    writer = threading.Thread(target=feed, daemon=True)
    writer.start()
    rx = grammar.compiled("answer")
    got, cur, bad = {}, None, None
    for n, line in enumerate(proc.stdout, 1):
        line = line.rstrip("\n")
        if line.startswith("machine "):
            cur = line[len("machine "):]
            if cur not in machines:
                bad = bad or (n, line)
            continue
        g = rx.match(line.split(") ", 1)[-1])
        if cur is None or not g:
            bad = bad or (n, line)
            continue
        got.setdefault(cur, []).append(Answer.from_groups(g.groups()))
    err = proc.stderr.read()
    writer.join()
    status = proc.wait()
    if bad and not status:
        raise DecideError("pagebench-decide printed an unexpected line %d: %r"
                          % (bad[0], bad[1][:80]))
    return status, err, got


def fill(machines):
    """Give every machine without answer lines the engine's answers, where
    its figures allow; each machine's answers_from says which it has. A
    machine whose figures the engine refuses (out of its ranges:
    tools/pagebench-decide.c) gets none, and decide_refused says why; the
    others keep theirs."""
    pending = {}
    for i, m in enumerate(machines):
        m.answers_from = "log" if m.answers else None
        if not m.answers:
            pending[str(i)] = m
    if not pending or not os.access(TOOL, os.X_OK):
        return
    status, err, got = _decide(pending)
    if status == cmdline.USAGE:
        # Which machine it was: each alone, so that the rest are decided.
        got = {}
        for key, m in pending.items():
            status, err, one = _decide({key: m})
            if status == cmdline.USAGE:
                why = err.strip().splitlines()
                m.decide_refused = REFUSAL_RE.sub("", why[-1]) if why else "refused"
                continue
            if status:
                break
            got.update(one)
    if status and status != cmdline.USAGE:
        raise DecideError(err.strip() or "pagebench-decide: exit %d" % status)
    for key, answers in got.items():
        pending[key].answers.extend(answers)
        pending[key].answers_from = "pagebench-decide"
