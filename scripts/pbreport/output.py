"""Where the report's text goes, and noticing when it does not get there.

A write error (a full disk, a closed pipe, /dev/full, stdout closed) must
not pass for success nor end in a traceback: every write goes through a
Sink, which turns the error into OutputLost naming the output; the
command line reports it and exits with its "output lost" status.
"""
import contextlib
import os
import sys


class OutputLost(Exception):
    def __init__(self, name, err, doing="writing"):
        why = getattr(err, "strerror", None) or str(err)
        super().__init__("output lost: %s %s: %s" % (doing, name, why))
        self.name = name


class Sink:
    """A text stream whose write errors are OutputLost."""

    def __init__(self, fh, name):
        self.fh, self.name = fh, name

    def write(self, text):
        if self.fh is None:
            raise OutputLost(self.name, "it is closed")
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
def output(path):
    """A Sink for stdout ("-" or None) or for the file path, flushed (and
    the file closed) at the end of the block."""
    if path in (None, "-"):
        sink = Sink(sys.stdout, "stdout")
        yield sink
        sink.flush()
        return
    try:
        fh = open(path, "w", encoding="utf-8")
    except OSError as err:
        raise OutputLost(path, err, "opening") from None
    try:
        yield Sink(fh, path)
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
