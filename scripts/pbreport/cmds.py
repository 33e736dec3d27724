"""The verdict and claims subcommands: their options and their output.
verdict only renders the answer and bottom lines (the log's, or
pagebench-decide's for a log without them): it decides nothing, and the
matrix is the engine's (verdictpage.py)."""
import json

from . import claims as C
from . import commit
from . import cpufacts
from . import engine
from . import explain
from . import runinfo
from . import verdictpage

# The functions an answer line may name (docs/log-format.md, "The answer").
FUNCTIONS = ("clear_page", "clear_pages", "copy_page", "memset", "memcpy",
             "scrub")


class CommandError(Exception):
    pass


def add_parsers(sub, parents, fmt, epilog):
    p = sub.add_parser(
        "verdict", parents=parents, formatter_class=fmt,
        help="per machine: keep each kernel's pick, or switch to what",
        description="For each machine: its bottom lines first, one per "
        "function and kernel pick (the kernel's own routine, the flags that "
        "select it, and keep, switch, trade-off or undecided over all the "
        "passes), then the matrix of pass x kernel pick that the C engine "
        "draws from the answer lines (the log's own, or for a log without "
        "them pagebench-decide's from its figures), on one screen: at most "
        "40 lines of 100 columns. A log no answer can be made for says so "
        "in one line.",
        epilog=epilog)
    p.add_argument("logs", nargs="*", metavar="LOG")
    p.add_argument("--json", action="store_true",
                   help="the stable JSON shape of docs/report.md, with "
                        "each machine's answer lines as answers[] and its "
                        "bottom lines as bottom_lines[]")
    p.add_argument("--explain", action="store_true",
                   help="the vector price and where it came from, every "
                        "bottom line with its passes, and every answer line "
                        "in full, pass by pass, with the pass's stat lines")
    p.add_argument("--format", choices=("text", "commit"), default="text",
                   help="commit: the block a maintainer pastes into a "
                        "commit message, one per CPU group (at most 25 lines "
                        "of 72 columns), then the fleet's")
    p.add_argument("--function", action="append", choices=FUNCTIONS,
                   help="only this function's answers (repeatable)")
    p.add_argument("--kernel", choices=("linux", "xen"),
                   help="only this kernel's picks")

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


def only(machines, fns, kernel=None):
    """The machines with only the answer and bottom lines of functions fns
    and of kernel (None: all)."""
    for m in machines:
        m.answers, m.bottoms = verdictpage.only(m, kernel, fns)


def machine_json(m):
    return {"machine": m.name, "source": m.source, "format": m.format,
            "runs_on": runinfo.runs_on(m), "caveat": runinfo.caveat(m),
            "answers_from": m.answers_from,
            # False where the run was cut short or its log ends early
            # (parse.Machine.incomplete says why).
            "complete": m.incomplete is None, "incomplete": m.incomplete,
            # What the log says of its CPU (pagebench-decide's input).
            "features": cpufacts.machine_facts(m)[0],
            "answers": [a.to_json() for a in m.answers],
            "bottom_lines": [b.to_json() for b in m.bottoms]}


def to_json(machines):
    return json.dumps({"format": "pagebench-report-verdict/2",
                       "machines": [machine_json(m) for m in machines]},
                      indent=1) + "\n"


def run(args, machines):
    if args.cmd == "verdict":
        try:
            return verdict_text(args, machines)
        except engine.EngineError as e:
            raise CommandError(str(e))
    try:
        table = C.load_claims()
        if args.id:
            unknown = [i for i in args.id if i not in table.ids()]
            if unknown:
                raise CommandError("unknown claim id %s (known: %s)" % (
                    ", ".join(unknown), ", ".join(table.ids())))
        res = C.evaluate(table, machines, args.id)
        return C.to_json(res) if args.json else C.text(res)
    except C.ClaimsError as e:
        raise CommandError(str(e))


def verdict_text(args, machines):
    if args.format == "commit":
        return commit.text(machines, args.kernel, args.function)
    if args.json:
        only(machines, args.function, args.kernel)
        return to_json(machines)
    if args.explain:
        only(machines, args.function, args.kernel)
        return explain.text(machines)
    return verdictpage.text(machines, args.kernel, args.function)
