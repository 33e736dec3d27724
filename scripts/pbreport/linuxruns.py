"""Host scripts that run build/bin/pagebench-linux themselves
(scripts/coverage-check, scripts/order-check): one run into a log, and
the machine read back from it, each failure a clear error in the
script's name."""
import os
import subprocess
import time

import cmdline  # scripts/cmdline.py: the scripts that import this put it on sys.path

from . import parse as P

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
TOOL = os.path.join(REPO, "build", "bin", "pagebench-linux")


def load_average():
    try:
        with open("/proc/loadavg") as f:
            return f.read().split()[0]
    except OSError:
        return "?"


def require_tool(who, tool=TOOL):
    if not os.access(tool, os.X_OK):
        raise SystemExit("%s: %s is not built: run make" % (who, tool))


def read(who, path):
    """The machines of a log that have data."""
    try:
        with open(path, "rb") as f:
            ms, _ = P.read_bytes(f.read(), path)
    except OSError as e:
        raise SystemExit("%s: %s: %s" % (who, path, e.strerror))
    return [m for m in ms if m.has_data]


def run(who, args, path, tool=TOOL):
    """pagebench-linux ARGS into path: (its machines with data, seconds).
    A run that fails says so with the log's last error lines."""
    t0 = time.monotonic()
    try:
        out = cmdline.open_output(path, binary=True)
    except cmdline.UnsafePath as e:
        raise SystemExit("%s: %s" % (who, e))
    with out:
        r = subprocess.run([tool] + args, stdout=out, stderr=subprocess.PIPE)
    took = time.monotonic() - t0
    if r.returncode != 0:
        with open(path, errors="replace") as f:
            said = [l.strip() for l in f if "error" in l or "FAILED" in l or
                    "fault:" in l or "exception:" in l]
        raise SystemExit("%s: pagebench-linux %s exited %d: %s"
                         % (who, " ".join(args), r.returncode, "; ".join(said[-3:]) or
                            r.stderr.decode(errors="replace")[-500:]))
    return read(who, path), took
