"""The verdict and claims subcommands: their options and their output.
verdict only renders the answer lines (the log's, or pagebench-decide's
for a log without them): it decides nothing."""
import json

from . import claims as C
from . import commit
from . import cpufacts
from . import explain
from . import matrix
from . import runinfo

# The functions an answer line may name (docs/log-format.md, "The answer").
FUNCTIONS = ("clear_page", "clear_pages", "copy_page", "memset", "memcpy",
             "scrub")


class CommandError(Exception):
    pass


def add_parsers(sub, parents, fmt, epilog):
    p = sub.add_parser(
        "verdict", parents=parents, formatter_class=fmt,
        help="per machine: keep each kernel's pick, or switch to what",
        description="For each machine: its answer lines (made once by the "
        "C engine: the log's own, or for a log without them "
        "build/bin/pagebench-decide's from its figures) on one screen (at "
        "most 40 lines of 100 columns): the CPU, how it ran, and per "
        "function a matrix of pass x kernel pick, each cell the answer's "
        "decision: keep, switch to a routine (the saving and its 95% "
        "interval) or undecided; caveats as footnotes. A log no answer "
        "can be made for says so in one line.",
        epilog=epilog)
    p.add_argument("logs", nargs="*", metavar="LOG")
    p.add_argument("--json", action="store_true",
                   help="the stable JSON shape of docs/report.md, with "
                        "each machine's answer lines as answers[]")
    p.add_argument("--explain", action="store_true",
                   help="every answer line in full (pick, routine, ratio "
                        "and interval, epochs, need, why, assuming), pass "
                        "by pass, with the pass's stat lines")
    p.add_argument("--format", choices=("text", "commit"), default="text",
                   help="commit: the block a maintainer pastes into a "
                        "commit message, one per CPU group")
    p.add_argument("--function", action="append", choices=FUNCTIONS,
                   help="only this function's answers (repeatable)")

    p = sub.add_parser(
        "claims", parents=parents, formatter_class=fmt,
        help="the 2021 thread's and the kernels' claims, tested per machine",
        description="Each claim of the seed threads and commit messages "
        "(scripts/pbreport/data/claims.txt: who, when, where, the exact "
        "words, the proposition in pagebench's terms) evaluated on each "
        "machine: holds, refuted, undecided (and why) or no-data, with the "
        "figures as evidence.", epilog=epilog)
    p.add_argument("logs", nargs="*", metavar="LOG")
    p.add_argument("--json", action="store_true",
                   help="JSON: claims[].id, who, quote, results[].machine, "
                        "verdict, evidence")
    p.add_argument("--id", action="append", metavar="ID",
                   help="only this claim (repeatable)")


def only(machines, fns):
    """The machines with only the answers of functions fns."""
    if not fns:
        return
    for m in machines:
        m.answers = [a for a in m.answers if a.fn in fns]


def machine_json(m):
    return {"machine": m.name, "source": m.source, "format": m.format,
            "runs_on": runinfo.runs_on(m), "caveat": runinfo.caveat(m),
            "answers_from": m.answers_from,
            # False where the run was cut short or its log ends early
            # (parse.Machine.incomplete says why).
            "complete": m.incomplete is None, "incomplete": m.incomplete,
            # What the log says of its CPU (pagebench-decide's input).
            "features": cpufacts.machine_facts(m)[0],
            "answers": [a.to_json() for a in m.answers]}


def to_json(machines):
    return json.dumps({"format": "pagebench-report-verdict/2",
                       "machines": [machine_json(m) for m in machines]},
                      indent=1) + "\n"


def run(args, machines):
    if args.cmd == "verdict":
        only(machines, args.function)
        if args.format == "commit":
            return commit.text(machines)
        if args.json:
            return to_json(machines)
        if args.explain:
            return explain.text(machines)
        return answer_text(machines)
    try:
        table = C.load_claims()
        if args.id:
            unknown = [i for i in args.id if i not in table.ids()]
            if unknown:
                raise CommandError("unknown claim id %s (known: %s)" % (
                    ", ".join(unknown), ", ".join(table.ids())))
        res = C.evaluate(table, machines, args.alpha, args.id)
        return C.to_json(res) if args.json else C.text(res)
    except C.ClaimsError as e:
        raise CommandError(str(e))


def answer_text(machines):
    """One screen per machine with answer lines; for one without, the
    line that says so."""
    out = []
    for m in machines:
        screen = matrix.build(m)
        out.append(matrix.text(screen) if screen is not None else "\n".join(
            matrix.wrap("== " + m.name, matrix.no_answers_line(m)[
                len(m.name) + 2:]) + (matrix.wrap("incomplete", m.incomplete)
                                       if m.incomplete else [])) + "\n")
    text = "\n".join(out)
    if len([m for m in machines if m.answers]) > 1:
        text += ("\nfleet: --format commit gives the one choice per group "
                 "of CPUs\n")
    return text
