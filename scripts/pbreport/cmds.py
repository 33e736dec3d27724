"""The verdict and claims subcommands: their options and their output."""
from . import claims as C
from . import commit
from . import fleet as F
from . import matrix
from . import rules as R
from . import verdict as V


class CommandError(Exception):
    pass


def add_parsers(sub, parents, fmt, epilog):
    p = sub.add_parser(
        "verdict", parents=parents, formatter_class=fmt,
        help="per machine: keep each kernel's pick, or switch to what",
        description="For each machine whose log has answer lines: one "
        "screen (at most 40 lines of 100 columns): the CPU, how it ran, "
        "and per function a matrix of pass x kernel pick, each cell the "
        "log's decision: keep, switch to a routine (the saving and its "
        "95% interval) or undecided; caveats as footnotes. A log without "
        "answer lines says so and gets the detailed verdict (--explain): "
        "for each machine, function (clear_page, clear_pages, "
        "copy_page, memset and memcpy by size class, scrubbing) and pass: "
        "the winner, the variants as good as it and which test said so, "
        "whether the data can decide (and the reps that could), what each "
        "Linux and Xen version selects on this CPU by the rules in rules/ "
        "and what that costs, and a one-line recommendation. With more "
        "than one machine, a fleet table per group of machines follows.",
        epilog=epilog)
    p.add_argument("logs", nargs="*", metavar="LOG")
    p.add_argument("--json", action="store_true",
                   help="the stable JSON shape of docs/report.md, with "
                        "each machine's answer lines as answers[]")
    p.add_argument("--explain", action="store_true",
                   help="the detailed verdict: every pass's winner, the "
                        "picks' costs and recommendations, as before the "
                        "answer lines")
    p.add_argument("--format", choices=("text", "commit"), default="text",
                   help="commit: the block a maintainer pastes into a "
                        "commit message, one per CPU group")
    p.add_argument("--linux", metavar="VERSION",
                   help="one Linux version instead of every era the rules "
                        "know (e.g. 6.12)")
    p.add_argument("--xen", metavar="VERSION",
                   help="one Xen version instead of every era (e.g. 4.21.1)")
    p.add_argument("--function", action="append", choices=V.FUNCTIONS,
                   help="only this function (repeatable)")

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


def versions(args):
    out = {}
    tabs = R.tables()
    for k in R.KERNELS:
        text = getattr(args, k, None)
        if text is None:
            continue
        try:
            out[k] = R.check_version(tabs, k, text)
        except R.UnknownVersion as e:
            raise CommandError("--%s: %s" % (k, e))
    return out


def run(args, machines):
    try:
        if args.cmd == "verdict":
            vs = versions(args)
            fns = tuple(args.function) if args.function else V.FUNCTIONS
            if args.format == "commit":
                return commit.text(machines)
            verdicts = [V.machine_verdict(m, args.alpha, vs, functions=fns)
                        for m in machines]
            rows = F.fleet(verdicts) if len(verdicts) > 1 else []
            if args.json:
                return V.to_json(verdicts, rows)
            if args.explain:
                out = V.text(verdicts)
                if rows:
                    out += "\n" + F.text(rows)
                return out
            out = answer_text(machines, verdicts)
            if rows:
                # The one choice per CPU group is the answers' (commit.py);
                # the fleet table weighs the old view, so it is detail.
                out += ("\nfleet: --format commit gives the one choice per "
                        "group of CPUs; --explain the detailed fleet table\n")
            return out
        table = C.load_claims()
        if args.id:
            unknown = [i for i in args.id if i not in table.ids()]
            if unknown:
                raise CommandError("unknown claim id %s (known: %s)" % (
                    ", ".join(unknown), ", ".join(table.ids())))
        res = C.evaluate(table, machines, args.alpha, args.id)
        return C.to_json(res) if args.json else C.text(res)
    except (R.RulesError, C.ClaimsError) as e:
        raise CommandError(str(e))


def answer_text(machines, verdicts):
    """One screen per machine with answer lines; for one without, a line
    that says so and its detailed verdict."""
    out, old = [], False
    for m, v in zip(machines, verdicts):
        screen = matrix.build(m)
        if screen is not None:
            out.append(matrix.text(screen))
        else:
            out.append(matrix.no_answers_line(m) + "\n" +
                       V.text([v], footer=False))
            old = True
    return "\n".join(out) + (V.FOOTER + "\n" if old else "")
