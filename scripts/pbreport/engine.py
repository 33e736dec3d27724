"""The C engine where the report needs it: pagebench-decide, found from this
file's place in the tree (build/bin/ beside scripts/), else on PATH. It
draws a machine's matrix from the answer and bottom lines the report
read (harness/render/matrix.c: the one drawing, which the kernel's
screen and pagebench-linux's terminal show too), and combines runs of
one CPU and CPU groups (harness/decide/combine.c), and makes the comparisons
the report shows (versus.py: tools/decide_compare.h). decided.py hands
it a log's figures instead, for a log without answer lines. Nothing here
decides or draws."""
import os
import re
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


# pagebench-decide --compare's lines (tools/decide_compare.h).
FIGURE_LINE = re.compile(r"^interval variant=(\d+) epochs=(\d+) median=(\d+) "
                         r"lo=(\d+|\?) hi=(\d+|\?)$")
RATIO_LINE = re.compile(r"^ratio num=(\d+) den=(\d+) (?:none|epochs=(\d+) "
                        r"median=(\d+\.\d{6}) lo=(\d+\.\d{6}|\?) hi=(\d+\.\d{6}|\?))$")


def _figures(groups):
    """(epochs, median, lo, hi) of a line's groups; lo and hi None without
    an interval."""
    n, med, lo, hi = groups
    return (int(n), float(med), None if lo == "?" else float(lo),
            None if hi == "?" else float(hi))


def compare(sets):
    """sets: [(series, pairs)], series a list of (quantum, [each epoch's
    median]) in hundredths, pairs a list of (num, den), indexes into
    series. Returns per set ([(epochs, median, lo, hi)] of each series, in
    hundredths, [(epochs, median, lo, hi) or None] of each pair's ratio):
    the engine's arithmetic, lo and hi None without an interval."""
    text = []
    for i, (series, pairs) in enumerate(sets):
        text.append("pass %d" % i)
        text += ["series variant=%d quantum=%d med=%s" % (j, q, ",".join(map(str, med)))
                 for j, (q, med) in enumerate(series)]
        text += ["compare num=%d den=%d" % p for p in pairs]
    out = run(["--compare"], "\n".join(text) + "\n").splitlines()
    got, cur = [], None
    for n, line in enumerate(out, 1):
        iv, r = FIGURE_LINE.match(line), RATIO_LINE.match(line)
        if line.startswith("pass "):
            cur = ([], [])
            got.append(cur)
        elif cur is not None and iv:
            cur[0].append(_figures(iv.groups()[1:]))
        elif cur is not None and r:
            cur[1].append(_figures(r.groups()[2:]) if r.group(3) else None)
        else:
            raise EngineError("pagebench-decide --compare printed an unexpected line "
                              "%d: %r" % (n, line[:80]))
    if [(len(a), len(b)) for a, b in got] != [(len(s), len(p)) for s, p in sets]:
        raise EngineError("pagebench-decide --compare answered another count of lines")
    return got
