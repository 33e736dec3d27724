"""Where the report's text goes, and noticing when it does not get there.

A write error (a full disk, /dev/full, stdout closed) must not pass for
success nor end in a traceback: every write goes through a Sink, which
turns the error into OutputLost naming the output; the command line
reports it and exits with its "output lost" status. A closed pipe on
stdout (the reader gone, as with | head) is no loss: the command line
stops quietly with status 0 (lib/status.h's rule for every tool).

Text from a log (a machine's name from an attachment or title, its brand)
may carry control characters; a text output passes through
escape_controls(), so that they are shown, not obeyed by a terminal.
"""
import contextlib
import errno
import os
import re
import sys

# C0 but tab and newline, DEL, and C1: an escape or CSI (\x9b) could move
# the cursor, recolour or retitle the terminal; a backspace or carriage
# return, print over what came before.
CONTROL_RE = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]")


def escape_controls(text):
    """text with each control character shown as \\xNN."""
    return CONTROL_RE.sub(lambda m: "\\x%02x" % ord(m.group()), text)


class OutputLost(Exception):
    def __init__(self, name, err, doing="writing"):
        why = getattr(err, "strerror", None) or str(err)
        super().__init__("output lost: %s %s: %s" % (doing, name, why))
        self.name = name
        self.errno = getattr(err, "errno", None)

    def reader_gone(self):
        """stdout was a pipe whose reader went away."""
        return self.name == "stdout" and self.errno == errno.EPIPE


class Sink:
    """A text stream whose write errors are OutputLost; escape: what is
    written passes through escape_controls()."""

    def __init__(self, fh, name, escape=False):
        self.fh, self.name, self.escape = fh, name, escape

    def write(self, text):
        if self.fh is None:
            raise OutputLost(self.name, "it is closed")
        if self.escape:
            text = escape_controls(text)
        try:
            return self.fh.write(text)
        except OSError as err:
            raise OutputLost(self.name, err) from None

    def flush(self):
        if self.fh is None:
            return
        try:
            self.fh.flush()
        except OSError as err:
            raise OutputLost(self.name, err) from None


def flush_stdout():
    """Flushes stdout, which Python would otherwise do at exit, where an
    error only prints "Exception ignored" and sets status 120."""
    Sink(sys.stdout, "stdout").flush()


@contextlib.contextmanager
def output(path, escape=False):
    """A Sink for stdout ("-" or None) or for the file path, flushed (and
    the file closed) at the end of the block."""
    if path in (None, "-"):
        sink = Sink(sys.stdout, "stdout", escape)
        yield sink
        sink.flush()
        return
    try:
        fh = open(path, "w", encoding="utf-8")
    except OSError as err:
        raise OutputLost(path, err, "opening") from None
    try:
        yield Sink(fh, path, escape)
        try:
            fh.close()      # flushes: a full disk may show only here
        except OSError as err:
            raise OutputLost(path, err) from None
    finally:
        if not fh.closed:
            try:
                fh.close()
            except OSError:
                pass        # the error being raised says it already


def drop_stdout():
    """After stdout failed: point it at /dev/null, so that Python's own
    flush at exit finds nothing to fail on."""
    try:
        fd = os.open(os.devnull, os.O_WRONLY)
        os.dup2(fd, sys.stdout.fileno())
        os.close(fd)
    except (OSError, AttributeError, ValueError):
        pass
