"""scripts/pagebench-report run from a test, one way for every test file."""
import os
import subprocess
import sys

TESTS = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
ROOT = os.path.dirname(TESTS)
TOOL = os.path.join(ROOT, "scripts", "pagebench-report")


def run_tool(*args, stdin=None, timeout=300, preexec_fn=None):
    """(status, stdout, stderr) of pagebench-report ARGS, as text; bytes
    that are not UTF-8 are replaced, so a garbled log the tool echoes
    cannot raise in the test instead of failing its assertion."""
    env = dict(os.environ, PYTHONDONTWRITEBYTECODE="1")
    r = subprocess.run([sys.executable, TOOL] + list(args), input=stdin,
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       env=env, timeout=timeout, preexec_fn=preexec_fn)
    return r.returncode, r.stdout.decode("utf-8", "replace"), \
        r.stderr.decode("utf-8", "replace")
