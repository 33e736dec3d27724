"""Command line of scripts/pagebench-report: argument parsing, reading the
inputs, choosing what to print, exit codes."""
import argparse
import os
import re
import sys

from . import analysis as A
from . import cmds
from . import export as X
from . import htmlreport as H
from . import perbyte
from . import strings as S
from . import textout as T
from .fleet import load

PROG = "pagebench-report"

EXIT_OK, EXIT_NO_DATA, EXIT_USAGE = 0, 1, 2

EPILOG = """exit status:
  0  results were printed
  1  no usable data: no input had a value line or a copy-hot/copy-cold line
     (empty, unreadable, garbage, or pagebench-cpuid output only)
  2  usage error: bad options, diff with fewer than two machines, an
     output file that cannot be written

Lines that cannot be read are reported on stderr (file:line: skipped:
reason) unless -q is given. See docs/report.md."""


class UsageError(Exception):
    pass


def alpha_type(s):
    try:
        a = float(s)
    except ValueError:
        raise argparse.ArgumentTypeError("not a number: %r" % s)
    if not 0 < a < 1:
        raise argparse.ArgumentTypeError("alpha must be between 0 and 1")
    return a


def tie_type(s):
    try:
        t = float(s)
    except ValueError:
        raise argparse.ArgumentTypeError("not a number: %r" % s)
    if not 0 <= t < 100:
        raise argparse.ArgumentTypeError("a percentage from 0 to below 100")
    return t / 100


def metrics_type(s):
    ms = [x.strip() for x in s.split(",") if x.strip()]
    for x in ms:
        if x not in A.METRICS:
            raise argparse.ArgumentTypeError(
                "unknown metric %r (choose from %s)" % (x, ", ".join(A.METRICS)))
    if not ms:
        raise argparse.ArgumentTypeError("no metric given")
    return ms


def build_parser():
    common = argparse.ArgumentParser(add_help=False)
    common.add_argument("-q", "--quiet", action="store_true",
                        help="do not report skipped lines and warnings")
    common.add_argument("--machine", action="append", metavar="REGEX",
                        help="only machines whose name matches REGEX "
                             "(repeatable; a search, case-insensitive)")
    common.add_argument("--strings-variants", metavar="NAMES",
                        help="suite=strings: only these variants "
                             "(comma-separated), e.g. the ones without "
                             "vector registers")
    stat = argparse.ArgumentParser(add_help=False)
    stat.add_argument("--alpha", type=alpha_type, default=A.DEFAULT_ALPHA,
                      help="significance level (default %(default)s)")
    tie = argparse.ArgumentParser(add_help=False)
    tie.add_argument("--tie", type=tie_type, default=S.DEFAULT_TIE,
                     metavar="PCT",
                     help="suite=strings: a lead moves only to a variant "
                          "faster by more than PCT per cent, and "
                          "significantly; default %g" % (100 * S.DEFAULT_TIE))

    ap = argparse.ArgumentParser(
        prog=PROG, formatter_class=argparse.RawDescriptionHelpFormatter,
        description="Read pagebench serial logs (and logs of Jan Beulich's "
                    "2021 Xen clear_page experiment), summarise each "
                    "machine, compare machines, export samples, draw an "
                    "HTML report. LOG is a file, or - for stdin; with no "
                    "LOG, stdin is read.",
        epilog=EPILOG)
    sub = ap.add_subparsers(dest="cmd", metavar="COMMAND")
    sub.required = True
    fmt = argparse.RawDescriptionHelpFormatter

    p = sub.add_parser("summary", parents=[common, stat, tie], formatter_class=fmt,
                       help="per machine: facts, a table per pass, winners",
                       description="For each machine: its header facts, and "
                       "for each pass a table of the variants by rank: n, the "
                       "medians of pre, variant time and post (ticks; ns and "
                       "GB/s when the TSC frequency is known), min-max, IQR, "
                       "bytes per tick; then the winner, its margin over the "
                       "runner-up and whether that is significant. For "
                       "suite=strings: per block the figures by size, the "
                       "winner at each size, the crossovers and the cost of "
                       "zero-length calls.",
                       epilog=EPILOG)
    p.add_argument("logs", nargs="*", metavar="LOG")

    p = sub.add_parser("diff", parents=[common, stat], formatter_class=fmt,
                       help="compare machines (or runs), benchstat style",
                       description="Compare two or more machines (every "
                       "machine of every LOG, in order; the first is the "
                       "base). Rows are (suite, pass, variant), one table "
                       "per metric; each cell is median ±spread; each column "
                       "after the first has the change against the first and "
                       "the Mann-Whitney U p-value; ~ marks a change that is "
                       "not significant at --alpha.",
                       epilog=EPILOG)
    p.add_argument("logs", nargs="+", metavar="LOG")
    p.add_argument("--relative", action="store_true",
                   help="compare each variant as a ratio to the best variant "
                        "of the same machine and pass (needs no TSC "
                        "frequency)")
    p.add_argument("--unit", choices=("auto", "ns", "ticks"), default="auto",
                   help="auto: ns when every machine's TSC frequency is "
                        "known, else ticks (default)")
    p.add_argument("--metric", type=metrics_type, default=list(A.METRICS),
                   help="comma-separated metrics among time, pre, post "
                        "(default: all)")
    size = p.add_mutually_exclusive_group()
    size.add_argument("--per-call", action="store_true",
                      help="per pass even where the machines' pass sizes "
                           "differ (default: per 4 KiB page there)")
    size.add_argument("--per-page", action="store_true",
                      help="per 4 KiB page even where the sizes agree")
    p.add_argument("--spread", choices=("iqr", "range"), default="iqr",
                   help="what ± shows: half the IQR (default) or half the "
                        "min-max range, relative to the median")

    p = sub.add_parser("winners", parents=[common, stat], formatter_class=fmt,
                       help="each machine's best variant per pass",
                       description="For each pass and machine: the variant "
                       "with the lowest median time, its median (ns when the "
                       "TSC frequency is known, else ticks), the runner-up, "
                       "the margin (how much slower the runner-up is) and "
                       "whether the margin is significant.",
                       epilog=EPILOG)
    p.add_argument("logs", nargs="*", metavar="LOG")

    cmds.add_parsers(sub, [common, stat], fmt, EPILOG)

    p = sub.add_parser("export", parents=[common], formatter_class=fmt,
                       help="every sample as CSV, JSON or Go benchfmt",
                       description="Write one row per sample (and one per "
                       "copy-hot/copy-cold line). benchfmt is Go's benchmark "
                       "format, with the machine facts as key: value "
                       "configuration lines, for benchstat.",
                       epilog=EPILOG)
    p.add_argument("logs", nargs="*", metavar="LOG")
    p.add_argument("--format", required=True,
                   choices=("csv", "json", "benchfmt"))
    p.add_argument("-o", "--output", default="-",
                   help="output file (default: stdout)")

    p = sub.add_parser("html", parents=[common, stat, tie], formatter_class=fmt,
                       help="a self-contained offline HTML report",
                       description="Write one HTML page with inline SVG and "
                       "no scripts: the machines' facts, the winners table, "
                       "and for each pass a grouped bar chart of the "
                       "variants' median times per machine, with min-max "
                       "whiskers and quartile boxes; for suite=strings a "
                       "line chart per block of ticks per call against "
                       "size.",
                       epilog=EPILOG)
    p.add_argument("logs", nargs="*", metavar="LOG")
    p.add_argument("-o", "--output", default="-",
                   help="output file (default: stdout)")
    p.add_argument("--relative", action="store_true",
                   help="bars as ratios to the best variant of the same "
                        "machine and pass")
    p.add_argument("--title", help="page title")
    return ap


def say(msg):
    sys.stderr.write("%s: %s\n" % (PROG, msg))


def select(machines, patterns):
    if not patterns:
        return machines
    rx = [re.compile(p, re.I) for p in patterns]
    return [m for m in machines if any(r.search(m.name) for r in rx)]


def write_out(path, text):
    if path in (None, "-"):
        sys.stdout.write(text)
        sys.stdout.flush()
        return
    try:
        with open(path, "w", encoding="utf-8") as fh:
            fh.write(text)
    except OSError as err:
        raise UsageError("cannot write %s: %s" % (path, err.strerror or err))


def run(argv):
    ap = build_parser()
    args = ap.parse_args(argv)
    for pat in args.machine or ():
        try:
            re.compile(pat)
        except re.error as err:
            raise UsageError("bad --machine pattern %r: %s" % (pat, err))
    paths = args.logs or ["-"]
    machines, diags = load(paths)
    if not args.quiet:
        for d in diags:
            say(str(d))
    for m in machines:
        if not m.has_data and not args.quiet:
            say("%s: no usable data (no value lines); left out" % m.name)
    machines = [m for m in machines if m.has_data]
    machines = select(machines, args.machine)
    if args.strings_variants:
        S.restrict(machines, set(v.strip() for v in
                                 args.strings_variants.split(",")))
    if not machines:
        say("no usable data found")
        return EXIT_NO_DATA

    if args.cmd == "summary":
        write_out("-", T.summary(machines, args.alpha, args.tie))
    elif args.cmd == "winners":
        def unit_for(m):
            return A.NS if m.tsc_khz else A.TICKS
        write_out("-", T.winners(machines, args.alpha, unit_for) + "\n")
    elif args.cmd == "diff":
        if len(machines) < 2:
            raise UsageError("diff needs at least two machines; the input "
                             "has %d (%s)" % (len(machines), ", ".join(
                                 m.name for m in machines)))
        unit, warning = A.choose_unit(machines, args.unit, args.relative)
        if args.unit == "ns" and unit != A.NS and not args.quiet:
            say("warning: --unit ns: not every TSC frequency is known")
        if warning and not args.quiet:
            say("warning: " + warning)
        unit, size_note = perbyte.choose(machines, unit, args.per_call,
                                         args.per_page)
        res = T.diff(machines, args.alpha, args.metric, unit, args.spread)
        if not args.quiet:
            for w in res.warnings:
                say("warning: " + w)
        write_out("-", ("%s\n\n" % size_note if size_note else "") +
                  res.text + "\n")
    elif args.cmd in ("verdict", "claims"):
        try:
            write_out("-", cmds.run(args, machines))
        except cmds.CommandError as err:
            raise UsageError(str(err))
    elif args.cmd == "export":
        text = {"csv": X.to_csv, "json": X.to_json,
                "benchfmt": X.to_benchfmt}[args.format](machines)
        write_out(args.output, text)
    elif args.cmd == "html":
        shown = diags if not args.quiet else ()
        write_out(args.output, H.report(machines, args.alpha, args.relative,
                                        shown, args.title, args.tie))
    return EXIT_OK


def main(argv=None):
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.reconfigure(errors="backslashreplace")
        except (AttributeError, ValueError):
            pass
    try:
        return run(sys.argv[1:] if argv is None else argv)
    except UsageError as err:
        say("error: %s" % err)
        return EXIT_USAGE
    except BrokenPipeError:
        # The reader went away (| head): not an error of ours.
        try:
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, sys.stdout.fileno())
        except OSError:
            pass
        return EXIT_OK
    except KeyboardInterrupt:
        return 130
