"""The selection rules in C (harness/rules.c on the tables scripts/rules2c
makes of rules/) against scripts/pbreport/rules.py: the picks on every
recorded CPUID dump. The answer lines (harness/answer.c) are the run's one
decision; this stays only while the report still evaluates rules itself."""
import os
import subprocess
import sys
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(HERE)
BIN = os.path.join(REPO, "build", "bin")
DUMPS = os.path.join(os.environ.get("SHARED_DIR") or
                     os.path.join(REPO, "..", "shared"), "cpuid")
sys.path.insert(0, os.path.join(REPO, "scripts"))
sys.dont_write_bytecode = True

from pbreport import parse as P  # noqa: E402
from pbreport import rules as R  # noqa: E402


def binary(name):
    path = os.path.join(BIN, name)
    if not os.access(path, os.X_OK):
        raise AssertionError("%s is not built: run make" % path)
    return path


class RulesAgree(unittest.TestCase):
    """build/bin/test_rules --picks against rules.py, on every recorded
    CPUID dump, with MISC_ENABLE.FAST_STRING unknown, set and clear."""

    def python_picks(self, facts):
        t = R.tables()
        entries = []
        for p in t.picks:
            if p.entry not in entries:
                entries.append(p.entry)
        out = []
        for e in entries:
            for k in R.KERNELS:
                for pk in R.picks(t, k, e, facts):
                    out.append("|".join([
                        k, e, pk.version, pk.rule.variant if pk.rule else "?",
                        "" if pk.rule else ",".join(pk.unknown.needs),
                        ";".join("%s=%s" % (a, r.variant) for a, r in pk.alternatives)]))
        return out

    def test_every_dump(self):
        if not os.path.isdir(DUMPS):
            self.skipTest("no dumps at %s (shared/ beside the repo)" % DUMPS)
        cpuid = binary("pagebench-cpuid")
        dumps = sorted(d for d in os.listdir(DUMPS) if d.endswith(".txt"))
        self.assertGreater(len(dumps), 5)
        for dump in dumps:
            path = os.path.join(DUMPS, dump)
            r = subprocess.run([cpuid, path], capture_output=True, timeout=60)
            self.assertEqual(r.returncode, 0, r.stderr)
            reader = P.Reader(dump, dump)
            reader.feed(r.stdout)
            facts, _ = R.machine_facts(reader.machines[0])
            for fs in (None, 1, 0):
                with self.subTest(cpu=dump, fast_string=fs):
                    args = [binary("test_rules"), "--picks", path] + \
                        ([] if fs is None else [str(fs)])
                    c = subprocess.run(args, capture_output=True, text=True, timeout=60)
                    self.assertEqual(c.returncode, 0, c.stderr)
                    f = dict(facts) if fs is None else dict(facts, fast_string=fs)
                    self.assertEqual(c.stdout.splitlines(), self.python_picks(f))


if __name__ == "__main__":
    unittest.main()
