"""The version string, as the build writes it into every log
("pagebench version=..."): git describe --always --dirty of the checkout
these scripts are in, or "unknown" outside one. One function, so that it
can be pointed at a version helper shared by the project's scripts."""
import os
import subprocess

REPO = os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.realpath(__file__))))


def _git(*args):
    try:
        r = subprocess.run(["git", "-C", REPO] + list(args),
                           stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                           stdin=subprocess.DEVNULL, timeout=30,
                           universal_newlines=True)
    except (OSError, subprocess.SubprocessError):
        return None
    return r.stdout.strip() if r.returncode == 0 else None


def version():
    # Only this checkout's own history: scripts copied into some other
    # repository's tree must not take that repository's version.
    top = _git("rev-parse", "--show-toplevel")
    if top is None or os.path.realpath(top) != REPO:
        return "unknown"
    return _git("describe", "--always", "--dirty") or "unknown"
