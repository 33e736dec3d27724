"""What the pagebench scripts share on their command line: the exit
statuses, --version, the refusal of control characters in values, and
stopping quietly when stdout's reader goes away.

Each script puts its folder on sys.path and imports this module."""
import argparse
import os
import re
import select
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))

# The exit statuses of every pagebench tool: those of lib/status.h, which
# pagebench-linux and pagebench-cpuid exit with.
OK = 0              # done
FAILURES = 1        # the run found failures
USAGE = 2           # usage or option error
ENVIRONMENT = 3     # the environment cannot run what was asked

# C0, DEL and C1: a newline or carriage return in a value would start a
# line of its own in a log or in a GRUB config; an escape, redraw a screen.
CONTROL_RE = re.compile(r"[\x00-\x1f\x7f-\x9f]")


def version():
    """The tree's version, as the log's version line gives it (scripts/version)."""
    out = subprocess.run([os.path.join(HERE, "version")], stdout=subprocess.PIPE,
                         text=True, check=True)
    return out.stdout.strip()


class VersionAction(argparse.Action):
    """--version: looked up only when asked for (it runs git)."""

    def __init__(self, option_strings, dest=argparse.SUPPRESS, **kwargs):
        super().__init__(option_strings, dest, nargs=0, default=argparse.SUPPRESS,
                         help="print the version (as in the log's version line) and exit")

    def __call__(self, parser, namespace, values, option_string=None):
        # As pagebench-linux and pagebench-cpuid print theirs.
        print("%s %s" % (parser.prog, version()))
        parser.exit(OK)


def add_version(ap):
    ap.add_argument("--version", action=VersionAction)


def refuse_control_characters(ap, args):
    """A usage error (exit 2) for the first value with a control character."""
    for action in ap._actions:
        values = getattr(args, action.dest, None)
        for value in values if isinstance(values, list) else [values]:
            m = CONTROL_RE.search(value) if isinstance(value, str) else None
            if m:
                name = "/".join(action.option_strings) or action.metavar or action.dest
                ap.error("%s: %r has a control character (%r at offset %d): refused"
                         % (name, value, m.group(0), m.start()))


def stdout_reader_gone():
    """Whether stdout is a pipe whose reader went away (poll says POLLERR
    on a pipe's write end then): a BrokenPipeError from another pipe, such
    as a child's stdin, is not that."""
    try:
        p = select.poll()
        p.register(sys.stdout.fileno(), select.POLLOUT)
        return any(ev & select.POLLERR for _, ev in p.poll(0))
    except (OSError, ValueError, AttributeError):
        return False


def exit_with(main, *args):
    """sys.exit(main(*args)), but when stdout's reader went away (a closed
    pipe, as with | head) quietly with OK, as lib/status.h says every
    pagebench tool does; stdout that cannot take the rest (a full disk,
    >/dev/full) is said on stderr, with ENVIRONMENT."""
    try:
        try:
            status = main(*args)
        except SystemExit as done:      # argparse: --help, --version, usage
            status = done.code
        try:
            sys.stdout.flush()
        except BrokenPipeError:
            raise
        except OSError as err:
            print("%s: cannot write to standard output: %s"
                  % (os.path.basename(sys.argv[0]), err.strerror), file=sys.stderr)
            status = ENVIRONMENT
            drop_stdout()
    except BrokenPipeError:
        if not stdout_reader_gone():
            raise
        drop_stdout()
        status = OK
    sys.exit(status)


def drop_stdout():
    """Python flushes stdout once more at exit: let it find nothing."""
    fd = os.open(os.devnull, os.O_WRONLY)
    os.dup2(fd, sys.stdout.fileno())
    os.close(fd)
