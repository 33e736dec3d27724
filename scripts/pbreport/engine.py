"""The C engine where the report needs it: pagebench-decide, found from this
file's place in the tree (build/bin/ beside scripts/), else on PATH. It
draws a machine's matrix from the answer and bottom lines the report
read (harness/render/matrix.c: the one drawing, which the kernel's
screen and pagebench-linux's terminal show too), and combines runs of
one CPU and CPU groups (harness/decide/combine.c). decided.py hands it a log's
figures instead, for a log without answer lines. Nothing here decides or
draws."""
import os
import shutil
import subprocess

from . import bottom, grammar


def _find():
    """build/bin/pagebench-decide of this tree where it is built, else the
    one on PATH, else the tree's path (not built: available() says so)."""
    here = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(
        os.path.abspath(__file__)))), "build", "bin", "pagebench-decide")
    if os.access(here, os.X_OK):
        return here
    return shutil.which("pagebench-decide") or here


TOOL = _find()


class EngineError(Exception):
    pass


def available():
    return os.access(TOOL, os.X_OK)


def run(args, text):
    """pagebench-decide's standard output for text; EngineError where it
    fails or is not built."""
    if not available():
        raise EngineError("%s is not built (make)" % TOOL)
    r = subprocess.run([TOOL] + list(args), input=text, capture_output=True,
                       text=True)
    if r.returncode:
        raise EngineError("pagebench-decide: %s" % (r.stderr.strip() or
                                                    "exit %d" % r.returncode))
    return r.stdout


def lines_of(answers, bottoms):
    """The log's own lines of these answers and bottom lines, without
    their tag: what the engine reads back (tools/answer_lines.c)."""
    out = [a.text for a in answers]
    out += [l for b in bottoms for l in b.lines]
    if any(not l for l in out):
        raise EngineError("an answer line without its text")
    return out


def matrix(answers, bottoms, rows):
    """The matrix of these lines, at most rows lines of 100 columns; []
    where there is no answer line. Lines the engine refuses (a log's own
    figures out of its ranges) give the one line that says so, not the
    report's end."""
    if not answers or rows < 1:
        return []
    text = "machine m\n" + "\n".join(lines_of(answers, bottoms)) + "\n"
    try:
        out = run(["--matrix", str(min(rows, 1000))], text).splitlines()
    except EngineError as e:
        return ["no matrix: %s" % str(e).splitlines()[-1][:200]]
    return out[1:]


def combine(groups):
    """groups: [(name, [[BottomLine] of one run, ...])], each name
    [A-Za-z0-9_.+-]. Returns ({name: [BottomLine] combined}, [FleetLine])."""
    text = []
    for name, runs in groups:
        text.append("group %s" % name)
        for i, run_lines in enumerate(runs):
            text.append("run %d" % (i + 1))
            text += [l for b in run_lines for l in b.lines]
    out = run(["--combine"], "\n".join(text) + "\n")
    combined, fleet, cur = {}, [], None
    rx = {k: grammar.compiled(k) for k in bottom.KINDS + ("fleet",)}
    for n, line in enumerate(out.splitlines(), 1):
        if line.startswith("group "):
            cur = combined.setdefault(line[len("group "):], [])
            continue
        body = line.split(") ", 1)[-1]
        kind = body.split(" ", 1)[0]
        m = rx[kind].match(body) if kind in rx else None
        if m is None or (cur is None and kind != "fleet"):
            raise EngineError("pagebench-decide --combine printed an unexpected line "
                              "%d: %r" % (n, line[:80]))
        if kind == "fleet":
            fleet.append(bottom.FleetLine.from_groups(m.groups()))
        else:
            bottom.Collector(cur).add(kind, m.groups(), 0, body)
    return combined, fleet
