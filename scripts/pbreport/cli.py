"""Command line of scripts/pagebench-report: argument parsing, reading the
inputs, choosing what to print, exit codes."""
import argparse
import re
import sys

import cmdline

from . import analysis as A
from . import claims as C
from . import cmds
from . import decided
from . import export as X
from . import htmlreport as H
from . import parse as P
from . import perbyte
from . import strings as S
from . import textout as T
from .fleet import load
from .output import OutputLost, drop_stdout, escape_controls, flush_stdout, output

PROG = "pagebench-report"

# The exit statuses every pagebench tool shares (scripts/cmdline.py); this
# tool's 1, where others report failures, is "no usable data".
EXIT_OK, EXIT_NO_DATA, EXIT_USAGE, EXIT_ENV = (
    cmdline.OK, cmdline.FAILURES, cmdline.USAGE, cmdline.ENVIRONMENT)

EPILOG = """exit status:
  0  results were printed; also when stdout's reader went away (a closed
     pipe, as with | head): it stops quietly, as every pagebench tool
  1  no usable data: no input had a value line or a copy-hot/copy-cold line
     (empty, garbage, or pagebench-cpuid output only)
  2  usage error: bad options, a filter (--machine, --strings-variants)
     that matches nothing, diff with fewer than two machines
  3  the environment cannot do what was asked: an input cannot be read,
     or output was lost (an output file that cannot be opened, a write
     error: a full disk, /dev/full); said on stderr

Lines that cannot be read are reported on stderr (file:line: skipped:
reason) unless -q is given; what the --max-line and --max-input limits cut
is reported even with -q. See docs/report.md."""


class UsageError(Exception):
    pass


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


SIZE_UNITS = {"": 1, "k": 1 << 10, "m": 1 << 20, "g": 1 << 30}


def size_type(s):
    m = re.match(r"^([0-9]{1,12})([kKmMgG]?)$", s)
    if not m or int(m.group(1)) == 0:
        raise argparse.ArgumentTypeError(
            "not a size in bytes: %r (a positive number, K, M or G after "
            "it for KiB, MiB, GiB)" % s)
    return int(m.group(1)) * SIZE_UNITS[m.group(2).lower()]


class Parser(argparse.ArgumentParser):
    """argparse drops the errors of writing --help; this one lets them
    through, so that help that was not written is not a success."""

    def print_help(self, file=None):
        (file or sys.stdout).write(self.format_help())


def build_parser():
    common = Parser(add_help=False)
    common.add_argument("-q", "--quiet", action="store_true",
                        help="do not report skipped lines and warnings "
                             "(cuts and unreadable inputs are still said)")
    common.add_argument("--max-line", type=size_type, default=P.MAX_LINE,
                        metavar="BYTES",
                        help="read at most BYTES of a line (default %d; "
                             "pagebench prints at most 512)" % P.MAX_LINE)
    common.add_argument("--max-input", type=size_type, default=P.MAX_INPUT,
                        metavar="BYTES",
                        help="read at most BYTES of each input (default "
                             "%dM). The report holds about 3 bytes of memory "
                             "a byte read: the default input costs about "
                             "%d MB" % (P.MAX_INPUT >> 20,
                                        (3 * P.MAX_INPUT + (32 << 20)) // 10**6))
    common.add_argument("--machine", action="append", metavar="REGEX",
                        help="only machines whose name matches REGEX "
                             "(repeatable; a search, case-insensitive)")
    common.add_argument("--strings-variants", metavar="NAMES",
                        help="suite=strings: only these variants "
                             "(comma-separated), e.g. the ones without "
                             "vector registers")
    tie = Parser(add_help=False)
    tie.add_argument("--tie", type=tie_type, default=S.DEFAULT_TIE,
                     metavar="PCT",
                     help="suite=strings: a lead moves only to a variant "
                          "surely faster by more than PCT per cent (the "
                          "interval of its ratio to the leader below "
                          "1 - PCT/100); default %g" % (100 * S.DEFAULT_TIE))

    ap = Parser(
        prog=PROG, formatter_class=argparse.RawDescriptionHelpFormatter,
        description="Read pagebench serial logs (and logs of Jan Beulich's "
                    "2021 Xen clear_page experiment), summarise each "
                    "machine, compare machines, export samples, draw an "
                    "HTML report. LOG is a file, or - for stdin; with no "
                    "LOG, stdin is read.",
        epilog=EPILOG)
    cmdline.add_version(ap)
    sub = ap.add_subparsers(dest="cmd", metavar="COMMAND")
    sub.required = True
    fmt = argparse.RawDescriptionHelpFormatter

    p = sub.add_parser("summary", parents=[common, tie], formatter_class=fmt,
                       help="per machine: facts, a table per pass, winners",
                       description="For each machine: its header facts, and "
                       "for each pass a table of the variants by rank: n, the "
                       "medians of pre, variant time and post (ticks per call; "
                       "ns per 4 KiB page and GB/s when the TSC frequency is "
                       "known), min-max, IQR, bytes per tick; then the "
                       "pass's answers (as winners and verdict give them). For "
                       "suite=strings: per block the figures by size, the "
                       "leader at each size (a description), the crossovers and the cost of "
                       "zero-length calls.",
                       epilog=EPILOG)
    p.add_argument("logs", nargs="*", metavar="LOG")

    p = sub.add_parser("diff", parents=[common], formatter_class=fmt,
                       help="compare machines (or runs), benchstat style",
                       description="Compare two or more machines (every "
                       "machine of every LOG, in order; the first is the "
                       "base). Rows are (suite, pass, variant), one table "
                       "per metric; each cell is median ±spread; each column "
                       "after the first has the change against the first: "
                       "the C engine's ratio of the two, epoch by epoch, - 1, "
                       "and its 95% interval; ~ marks a change whose "
                       "interval holds 0 (within noise).",
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
                   help="comma-separated metrics among time, pre, post, use "
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

    p = sub.add_parser("winners", parents=[common], formatter_class=fmt,
                       help="each machine's answer per pass and kernel pick",
                       description="For each machine, function, pass and "
                       "kernel pick (as the verdict screen's columns merge "
                       "them): the answer's decision (keep, switch, "
                       "undecided, or none and why), the pick and the "
                       "routine, the saving, and each one's ns per 4 KiB page "
                       "and GB/s (memset, memcpy: ns per call). The answers "
                       "are the log's, or pagebench-decide's for a "
                       "log without them; nothing is decided here.",
                       epilog=EPILOG)
    p.add_argument("logs", nargs="*", metavar="LOG")

    cmds.add_parsers(sub, [common], fmt, EPILOG)

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

    p = sub.add_parser("html", parents=[common, tie], formatter_class=fmt,
                       help="a self-contained offline HTML report",
                       description="Write one HTML page with inline SVG and "
                       "no scripts: first the verdict (with the fleet table) "
                       "and the claims, as those subcommands give them; then "
                       "the machines' facts, the winners table, "
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


STDERR_LOST = []     # set once stderr could not be written


def say(msg):
    try:
        sys.stderr.write("%s: %s\n" % (PROG, escape_controls(msg)))
        sys.stderr.flush()
    except (OSError, AttributeError, ValueError):
        STDERR_LOST.append(msg)     # nowhere to say it; the status will


def listing(names, most=40):
    """names for a message, the first most of them."""
    names = list(names)
    more = len(names) - most
    return ", ".join(names[:most]) + (" and %d more" % more if more > 0 else "")


def check_names(option, given, valid, what):
    """A filter's names that match nothing are a usage error listing the
    valid ones: a filter that is silently ignored passes for one that ran."""
    unknown = [g for g in given if g not in valid]
    if not unknown:
        return
    if not valid:
        raise UsageError("%s %s: the input has no %s" % (
            option, ",".join(unknown), what))
    raise UsageError("%s: no %s named %s; the input has: %s" % (
        option, what[:-1] if what.endswith("s") else what,
        " or ".join(repr(u) for u in unknown), listing(valid)))


def select(machines, patterns):
    """The machines any pattern matches; each pattern must match one."""
    if not patterns:
        return machines
    rx = [re.compile(p, re.I) for p in patterns]
    for p, r in zip(patterns, rx):
        if not any(r.search(m.name) for m in machines):
            raise UsageError("--machine %r matches no machine; the machines "
                             "with data are: %s"
                             % (p, listing(m.name for m in machines)))
    return [m for m in machines if any(r.search(m.name) for r in rx)]


def strings_variants(machines, option):
    """The names of --strings-variants, each one checked against the
    variants of the machines' strings blocks."""
    names = [v.strip() for v in option.split(",") if v.strip()]
    if not names:
        raise UsageError("--strings-variants %r: no names in it" % option)
    valid = {}
    for m in machines:
        for b in S.blocks(m):
            for v in b.variants:
                valid.setdefault(v, None)
    check_names("--strings-variants", names, list(valid),
                "suite=strings variants")
    return set(names)


def write_out(path, text):
    """Every output but export's: text, JSON and HTML, whose control
    characters can only have come from a log. text: a string, or its
    parts to be joined by newlines, written as they come."""
    with output(path, escape=True) as fh:
        if isinstance(text, str):
            fh.write(text)
            return
        for i, part in enumerate(text):
            fh.write("\n" + part if i else part)


def run(argv):
    ap = build_parser()
    try:
        args = ap.parse_args(argv)
    except OSError as err:      # --help, or a usage message, not written
        raise OutputLost("stdout", err) from None
    for pat in args.machine or ():
        try:
            re.compile(pat)
        except re.error as err:
            raise UsageError("bad --machine pattern %r: %s" % (pat, err))
    paths = args.logs or ["-"]
    machines, diags = load(paths, max_line=args.max_line,
                           max_input=args.max_input)
    for d in diags:
        if not args.quiet or d.kind in ("cut", "error"):
            say(str(d))
    if any(d.kind == "error" for d in diags):
        say("error: an input cannot be read; nothing is reported")
        return EXIT_ENV
    for m in machines:
        if not m.has_data and not args.quiet:
            say("%s: no usable data (no value lines); left out" % m.name)
    machines = [m for m in machines if m.has_data]
    if not machines:
        say("no usable data found")
        return EXIT_NO_DATA
    machines = select(machines, args.machine)
    if args.strings_variants is not None:
        S.restrict(machines, strings_variants(machines, args.strings_variants))
    if args.cmd in ("verdict", "html", "summary", "winners"):
        try:
            decided.fill(machines)
        except (decided.DecideError, OSError) as err:
            say("error: %s" % err)
            return EXIT_ENV
        for m in machines:
            if m.decide_refused and not args.quiet:
                say("warning: %s: no answers: pagebench-decide refused its "
                    "figures: %s" % (m.name, m.decide_refused))

    if args.cmd == "summary":
        write_out("-", T.summary_parts(machines, args.tie))
    elif args.cmd == "winners":
        write_out("-", T.winners(machines) + "\n")
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
        res = T.diff(machines, args.metric, unit, args.spread)
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
        write = {"csv": X.write_csv, "json": X.write_json,
                 "benchfmt": X.write_benchfmt}[args.format]
        with output(args.output) as fh:
            write(machines, fh)
    elif args.cmd == "html":
        shown = diags if not args.quiet else ()
        try:
            page = H.report(machines, args.relative, shown,
                            args.title, args.tie)
        except C.ClaimsError as err:
            raise UsageError(str(err))
        write_out(args.output, page)
    return EXIT_OK


def main(argv=None):
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.reconfigure(errors="backslashreplace")
        except (AttributeError, ValueError):
            pass
    del STDERR_LOST[:]
    try:
        try:
            status = run(sys.argv[1:] if argv is None else argv)
        except SystemExit as done:      # argparse: --help, usage errors
            status = done.code if isinstance(done.code, int) else EXIT_USAGE
        flush_stdout()
    except UsageError as err:
        say("error: %s" % err)
        status = EXIT_USAGE
    except OutputLost as err:
        drop_stdout()
        if err.reader_gone():
            return EXIT_OK      # | head took what it wanted: quietly
        say("error: %s" % err)
        status = EXIT_ENV
    except KeyboardInterrupt:
        return 130
    if STDERR_LOST and status == EXIT_OK:
        status = EXIT_ENV
    return status
