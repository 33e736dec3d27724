"""Answers for logs that carry none (logs from before the answer lines,
Jan Beulich's 2021 file), made by the run's own engine: the report hands
each machine's per-epoch figures to pagebench-decide (engine.py finds it;
tools/pagebench-decide.c gives the form) and reads back the answer and
bottom lines it prints, exactly as it reads a log's. A log whose answer
lines are from before the bottom lines (and the vector price), and which
has its figures, is decided again the same way: its own lines named
vector routines without their price. Nothing here decides; it gathers
figures: each epoch's median of a variant's value lines (a log without
epoch lines: each rep, which runs every variant once, is its epoch)."""
import re
import statistics
import subprocess
import threading

import cmdline  # noqa: E402  (scripts/cmdline.py)

from . import bottom
from . import cpufacts, engine, grammar, runinfo
from .answer import Answer, NOT_A_CPU
from .parse import PASS_IDS, pass_bytes

# The head of pagebench-decide's refusal (exit status cmdline.USAGE),
# whose line number is of its input, not of the log.
REFUSAL_RE = re.compile(r"^pagebench-decide: line \d+: ")

CENTI = 100
PASS_ID_OF = {name: pid for pid, name in PASS_IDS.items()}
# What cpufacts.machine_facts() gives beside feature bits.
NOT_FEATURES = ("vendor", "family", "model", "stepping", "fast_string")


DecideError = engine.EngineError


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
    running = _running_line(m)
    if running:
        out.append(running)
    # No worth_bp: pagebench-decide takes worth='s default, as a run does.
    out.append("run not_a_cpu=%d tsc_khz=%d" % (not_a_cpu, m.tsc_khz or 0))
    price = _price_line(m)
    if price:
        out.append(price)
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


def _running_line(m):
    """The running Linux as the log's linux release and kernel_flags lines
    say it (pagebench-linux), for its own picks; None where they do not."""
    linux = m.facts.get("linux") or {}
    rel = re.match(r"release=(\S+) ", linux.get("release") or "")
    flags = re.match(r"kernel_flags from=\S+((?: [A-Z_]+=[01])+)", linux.get("kernel_flags") or "")
    if not rel or not flags:
        return None
    on = [w.split("=")[0].lower() for w in flags.group(1).split() if w.endswith("=1")]
    return "running release=%s flags=%s" % (rel.group(1), ",".join(on) or "-")


def _price_line(m):
    """The vector price as the engine takes it: the vector_price line's
    figures; for a module log from before that line, its fpu lines (a
    task's begin + end + restore and the kthread's pair, medians in
    hundredths of a tick, and the window of its irqs line); None where
    the log has neither (no vector routine is then named)."""
    vp = m.facts.get("vector_price")
    if vp and "ticks" in vp:
        return "price ticks=%d lo=%d hi=%d held=%d window_bytes=%d" % (
            vp["ticks"], vp["lo"], vp["hi"], vp["held"], vp["window"])
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
            if f.centi and isinstance(n, int):
                failed = any(su == b.op and pa.startswith("strings") and va == v
                             for su, pa, va in m.verify_failed)
                out.append("figure op=%s mode=%s n=%d variant=%s failed=%d all=%s" % (
                    b.op, b.mode, n, v, failed,
                    ",".join(map(str, f.centi))))
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
    figures made as they are written to it and its lines read as they
    come, so that memory holds neither all the figures nor all the lines
    (docs/report.md, "Limits"): (exit status, stderr, {key: ([Answer],
    [BottomLine])})."""
    proc = subprocess.Popen([engine.TOOL], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
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
    bottom_rx = {k: grammar.compiled(k) for k in bottom.KINDS}
    got, cur, bad = {}, None, None
    for n, line in enumerate(proc.stdout, 1):
        line = line.rstrip("\n")
        if line.startswith("machine "):
            key = line[len("machine "):]
            cur = got.setdefault(key, ([], [])) if key in machines else None
            if cur is None:
                bad = bad or (n, line)
            continue
        body = line.split(") ", 1)[-1]
        kind = body.split(" ", 1)[0]
        if cur is not None and kind in bottom_rx and bottom_rx[kind].match(body):
            bottom.Collector(cur[1]).add(kind, bottom_rx[kind].match(body).groups(), 0,
                                         body)
            continue
        g = rx.match(body)
        if cur is None or not g:
            bad = bad or (n, line)
            continue
        cur[0].append(Answer.from_groups(g.groups(), 0, body))
    err = proc.stderr.read()
    writer.join()
    status = proc.wait()
    if bad and not status:
        raise DecideError("pagebench-decide printed an unexpected line %d: %r"
                          % (bad[0], bad[1][:80]))
    return status, err, got


def fill(machines):
    """Give every machine without answer and bottom lines the engine's
    answers, where its figures allow; each machine's answers_from says
    which it has ("log", "pagebench-decide", None), and redecided whether
    the engine's replace answer lines of the log's own. A machine whose
    figures the engine refuses (out of its ranges: tools/pagebench-decide.c)
    gets none, and decide_refused says why; the others keep theirs."""
    pending = {}
    for i, m in enumerate(machines):
        m.answers_from = "log" if m.answers else None
        m.redecided = False
        # A log cut inside its bottom lines: the whole ones only.
        m.bottoms = [b for b in m.bottoms if b.whole]
        if m.answers and m.bottoms:
            continue
        pending[str(i)] = m
    if not pending or not engine.available():
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
    for key, (answers, bottoms) in got.items():
        m = pending[key]
        if answers:
            m.redecided = bool(m.answers)
            m.answers, m.bottoms = answers, bottoms
            m.answers_from = "pagebench-decide"


def no_answers_line(m):
    """The one line for a log without answer lines: no decision is made
    here, so none is shown."""
    if getattr(m, "decide_refused", None):
        why = "pagebench-decide refused its figures: %s" % m.decide_refused
    elif not engine.available():
        why = ("pagebench-decide, which decides such logs, is not built "
               "(make)")
    elif m.strings or m.scrub:
        why = ("its memset, memcpy or scrub figures have no answer yet "
               "(pagebench-decide decides clear_page, clear_pages and "
               "copy_page); summary gives the figures")
    else:
        why = "it has no clear or copy pass pagebench-decide could decide"
    return "%s: no answer lines, and %s" % (m.name, why)
