"""scripts/bench-vs-peers against stub perf and likwid-bench: what it runs,
in which order and on which bytes, what it does when a tool is absent or
fails, and the arithmetic of its table. pagebench-linux is the real build,
wrapped so that its calls are logged and its output kept; the peers print
their real tools' formats with figures the test chose, so the medians and
CVs they must give are known exactly. Nothing here asserts a speed."""
import importlib.machinery
import importlib.util
import json
import math
import os
import re
import statistics
import subprocess
import sys
import tempfile
import unittest

TESTS = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
REPO = os.path.dirname(TESTS)
SCRIPT = os.path.join(REPO, "scripts", "bench-vs-peers")
LINUX = os.path.join(REPO, "build", "bin", "pagebench-linux")
STORE_VALUE = os.path.join(REPO, "build", "bin", "pagebench-store-value")
RUNS = 3
ARGS = ["-k", str(RUNS), "--reps", "3", "--passes", "l1"]
PASS = "l1"
HOT = "l1h"

# What the stubs report, run by run. perf's figures are GiB/s, printed in
# the unit perf itself would pick (memset x86-64-unrolled falls to KB/sec,
# memcpy x86-64-unrolled to MB/sec); likwid-bench's are its MByte/s. All
# are exact in binary, so the stubs print them without rounding.
PERF_GIBS = {
    "memset x86-64-stosb": (40.0, 50.0, 45.0),
    "memset x86-64-stosq": (41.0, 39.0, 40.5),
    "memset x86-64-unrolled": (768 / 2**20, 832 / 2**20, 896 / 2**20),
    "memcpy x86-64-movsb": (30.0, 31.0, 35.0),
    "memcpy x86-64-movsq": (29.0, 33.0, 32.0),
    "memcpy x86-64-unrolled": (0.75, 0.8125, 0.875),
}
LIKWID_MBS = {
    "store_avx": (60000, 62000, 61000),
    "store_mem_avx": (20000, 25000, 30000),
    "store_avx512": (70000, 66000, 68000),
    "store_mem_avx512": (21000, 24000, 22500),
    "copy_avx": (90000, 100000, 80000),
    "copy_mem_avx": (40000, 41000, 42500),
}

# chrt -f 1 COMMAND...: a shell stub (one Python start fewer per peer run),
# logging as STUB does; the script's probe runs "true".
CHRT_STUB = r'''#!/bin/sh
[ "$1" = -f ] && [ "$2" = 1 ] && [ $# -ge 3 ] || { echo "chrt stub: want -f 1 COMMAND..." >&2; exit 2; }
shift 2
if [ "$*" = true ]; then
    echo '{"tool": "chrt", "kind": "probe", "key": "true", "args": ["-f", "1", "true"]}' >> "$STUB_STATE/calls"
    exit 0
fi
echo "{\"tool\": \"chrt\", \"kind\": \"run\", \"key\": \"$1\", \"args\": [\"-f\", \"1\"]}" >> "$STUB_STATE/calls"
exec "$@"
'''

# One program for every stub; its name says which tool it plays. Each call
# is appended to STUB_STATE/calls, and the number of earlier calls alike is
# the counter that picks the run's figure.
STUB = r'''
import json, os, re, subprocess, sys

state = os.environ["STUB_STATE"]
tool = os.path.basename(sys.argv[0])
args = sys.argv[1:]
with open(os.path.join(state, "config.json")) as f:
    config = json.load(f)
calls = os.path.join(state, "calls")


def log(kind, key):
    """Log this call; return how many calls of this kind and key came before."""
    try:
        with open(calls) as f:
            seen = [json.loads(line) for line in f]
    except FileNotFoundError:
        seen = []
    with open(calls, "a") as f:
        f.write(json.dumps({"tool": tool, "kind": kind, "key": key, "args": args}) + "\n")
    return sum(1 for c in seen if c["tool"] == tool and c["kind"] == kind and c["key"] == key)


def fail(what):
    msg = config.get(what, {}).get(tool)
    if msg:
        sys.stderr.write(msg + "\n")
        sys.exit(1)


def perf_bps(bps):
    """perf's print_bps(): the unit by the speed, powers of 1024."""
    if bps < 1 << 10:
        return " %14f bytes/sec" % bps
    if bps < 1 << 20:
        return " %14fd KB/sec" % (bps / 1024)
    if bps < 1 << 30:
        return " %14f MB/sec" % (bps / 1024 / 1024)
    return " %14f GB/sec" % (bps / 1024 / 1024 / 1024)


if tool == "taskset":
    if len(args) < 3 or args[0] != "-c":
        sys.exit("taskset stub: want -c CPU COMMAND...")
    log("run", args[1])
    os.execvp(args[2], args[2:])

elif tool == "perf":
    # perf bench mem COLL -f FUNC -s SIZE -l LOOPS
    coll, func, size, loops = args[2], args[4], args[6], args[8]
    probe = loops == "1"
    n = log("probe" if probe else "run", "%s %s" % (coll, func))
    fail("probe_fail" if probe else "fail")
    print("# Running 'mem/%s' benchmark:" % coll)
    print("# function '%s' (stub)" % func)
    print("# Copying %s bytes ..." % size)
    print()
    print("            inf GB/sec" if probe else
          perf_bps(config["perf"]["%s %s" % (coll, func)][n] * 2**30))

elif tool == "likwid-bench":
    # likwid-bench -t TEST -w S0:SIZE:1 -s SECONDS
    test, work = args[1], args[3]
    probe = args[5] == "0.01"
    n = log("probe" if probe else "run", test)
    fail("probe_fail" if probe else "fail")
    num, unit = re.fullmatch(r"S0:(\d+)(B|kB|MB):1", work).groups()
    size = int(num) * {"B": 1, "kB": 1000, "MB": 1000000}[unit]
    cpu = config["likwid_cpu"]
    print("Allocate: Process running on hwthread %d (Domain S0) - Vector length 2000/16000" % cpu)
    print("-" * 80)
    print("LIKWID MICRO BENCHMARK")
    print("Test: %s" % test)
    print("-" * 80)
    print("Group: 0 Thread 0 Global Thread 0 running on hwthread %d - Vector length 2000 Offset 0" % cpu)
    print("Size (Byte):\t\t%d" % size)
    print("MByte/s:\t\t%.2f" % (1234.5 if probe else config["likwid"][test][n]))
    print("-" * 80)

elif tool == "pagebench-linux":
    n = log("run", "")
    if "pagebench_output" in config:        # what the test wrote, not a run
        sys.stdout.write(config["pagebench_output"])
        sys.exit(0)
    r = subprocess.run([config["pagebench"]] + args + config.get("pagebench_args", []),
                       capture_output=True)
    with open(os.path.join(state, "pagebench-%d.log" % n), "wb") as f:
        f.write(r.stdout)
    sys.stdout.buffer.write(r.stdout)
    sys.stderr.buffer.write(r.stderr)
    sys.exit(r.returncode)
'''


def load_script():
    loader = importlib.machinery.SourceFileLoader("bench_vs_peers", SCRIPT)
    spec = importlib.util.spec_from_loader(loader.name, loader)
    module = importlib.util.module_from_spec(spec)
    loader.exec_module(module)
    return module


PAIRS = load_script().PAIRS


def cv(xs):
    return statistics.stdev(xs) / statistics.mean(xs)


def perf_gbs(routine):
    return [v * 2**30 / 1e9 for v in PERF_GIBS[routine]]


def likwid_gbs(routine):
    half = 2 if routine.startswith("copy") else 1
    return [v / 1e3 / half for v in LIKWID_MBS[routine]]


GROUPS = ("fast", "linux")


class Sandbox:
    """A copy of the checkout's layout in a private directory: the script,
    pbreport and what it reads linked in, build/bin/pagebench-linux the logging wrapper,
    and a bin/ of stubs that is all of PATH."""

    def __init__(self, tmp, tools=("perf", "likwid-bench", "taskset", "chrt"), store_value=False,
                 **config):
        self.tmp = tmp
        self.affinity = sorted(os.sched_getaffinity(0))
        # Not the script's own fallback (the highest CPU), so the test sees
        # which one it took.
        self.likwid_cpu = self.affinity[0]
        scripts = os.path.join(tmp, "repo", "scripts")
        bindir = os.path.join(tmp, "repo", "build", "bin")
        self.path = os.path.join(tmp, "bin")
        for d in (scripts, bindir, self.path):
            os.makedirs(d)
        os.symlink(SCRIPT, os.path.join(scripts, "bench-vs-peers"))
        os.symlink(os.path.join(REPO, "scripts", "pbreport"), os.path.join(scripts, "pbreport"))
        # Its t quantile.
        os.symlink(os.path.join(REPO, "scripts", "interval-constants"),
                   os.path.join(scripts, "interval-constants"))
        # pbreport reads the log grammar (and rules) from the checkout.
        for d in ("docs", "rules"):
            os.symlink(os.path.join(REPO, d), os.path.join(tmp, "repo", d))
        self.script = os.path.join(scripts, "bench-vs-peers")
        if store_value:
            os.symlink(STORE_VALUE, os.path.join(bindir, "pagebench-store-value"))
        for name, where in [(t, self.path) for t in tools] + [("pagebench-linux", bindir)]:
            p = os.path.join(where, name)
            with open(p, "w") as f:
                f.write(CHRT_STUB if name == "chrt" else "#!%s -S\n%s" % (sys.executable, STUB))
            os.chmod(p, 0o755)
        config = dict({"perf": PERF_GIBS, "likwid": LIKWID_MBS,
                       "likwid_cpu": self.likwid_cpu, "pagebench": LINUX}, **config)
        with open(os.path.join(tmp, "config.json"), "w") as f:
            json.dump(config, f)

    def run(self, *args):
        env = dict(os.environ, PATH=self.path, STUB_STATE=self.tmp)
        return subprocess.run([sys.executable, self.script] + list(args), env=env,
                              stdin=subprocess.DEVNULL, capture_output=True,
                              text=True, timeout=120)

    def calls(self):
        try:
            with open(os.path.join(self.tmp, "calls")) as f:
                return [json.loads(line) for line in f]
        except FileNotFoundError:
            return []

    def pagebench_logs(self):
        logs = []
        for n in range(RUNS):
            with open(os.path.join(self.tmp, "pagebench-%d.log" % n)) as f:
                logs.append(f.read())
        return logs


def stat_median(log, op, variant, pass_id=HOT):
    m = re.search(r"\bstat suite=%s pass=%s variant=%s reps=\S+ .*?median=([0-9.]+)"
                  % (op, pass_id, variant), log)
    return float(m.group(1)) if m else None


# t(0.975, 2): the 3 runs' interval, as tables give it.
T_975_2 = 4.3027


def paired(a, b):
    """The geometric mean of a[i]/b[i] and its 95% t-interval, worked here."""
    logs = [math.log(x / y) for x, y in zip(a, b)]
    assert len(logs) == RUNS
    m = statistics.mean(logs)
    h = T_975_2 * statistics.stdev(logs) / math.sqrt(RUNS)
    return math.exp(m), math.exp(m - h), math.exp(m + h)


def log_fact(log, pattern):
    m = re.search(pattern, log)
    assert m, pattern
    return int(m.group(1))


def table(stdout):
    """The table's rows by (op, pagebench variant): pass, bytes, op,
    variant, peer (its words joined), then the seven figures: peer GB/s,
    pb GB/s, pb/pr, its interval, own GB/s, own/pb, its interval."""
    rows = {}
    for line in stdout.splitlines():
        f = line.split()
        if len(f) >= 13 and f[0] == PASS:
            rows[(f[2], f[3])] = f[:4] + [" ".join(f[4:-7])] + f[-7:]
    return rows


@unittest.skipUnless(os.access(LINUX, os.X_OK), "build/bin/pagebench-linux is not built")
class BenchVsPeers(unittest.TestCase):
    GROUPS = ("linux",)

    def sandbox(self, **kw):
        tmp = tempfile.TemporaryDirectory()
        self.addCleanup(tmp.cleanup)
        return Sandbox(tmp.name, **kw)

    def expected_pairs(self, logs, tools=("perf", "likwid")):
        """The pairs whose pagebench variant every run timed, in PAIRS order."""
        return [p for p in PAIRS if p[2] in tools and
                all(stat_median(log, p[0], p[1][0]) is not None for log in logs)]

    def per_page(self, logs, pairs):
        """(pair, per-page variant) of the pairs whose per-page twin every run timed."""
        return [(p, p[4]) for p in pairs if p[4] and
                all(stat_median(log, p[0], p[4]) is not None for log in logs)]

    def gbs(self, logs, op, name, pass_id):
        size = log_fact(logs[0], r"\bsizes pass=%s .*\b%s=(\d+)" % (pass_id, op))
        ticks = [stat_median(log, op, name, pass_id) for log in logs]
        khz = [log_fact(log, r"\btsc khz=(\d+)") for log in logs]
        return size, [size / (t / (k * 1e3)) / 1e9 for t, k in zip(ticks, khz)]

    def check_interval(self, text, lo, hi, pct=False):
        """An interval cell against the one worked here (t to 4 digits)."""
        if pct:
            m = re.fullmatch(r"([+-]\d+\.\d)\.\.([+-]\d+\.\d)%", text)
            got = [1 + float(x) / 100 for x in m.groups()]
            tol = 0.0011
        else:
            m = re.fullmatch(r"(\d+\.\d{3})-(\d+\.\d{3})", text)
            got = [float(x) for x in m.groups()]
            tol = 0.0011 * max(1, hi)
        self.assertTrue(m, text)
        self.assertAlmostEqual(got[0], lo, delta=tol)
        self.assertAlmostEqual(got[1], hi, delta=tol)

    def check_pagebench_columns(self, row, logs, op, name):
        """The same-work (l1h) figure and the own pass's (l1) beside it:
        their bytes are the same, the difference is the paired arithmetic."""
        size, gbs = self.gbs(logs, op, name, HOT)
        own_size, own = self.gbs(logs, op, name, PASS)
        self.assertEqual(size, own_size)
        self.assertEqual(row[1], str(size))
        self.assertEqual(row[6], "%.2f" % statistics.median(gbs))
        self.assertEqual(row[9], "%.2f" % statistics.median(own))
        r, lo, hi = paired(own, gbs)
        self.assertEqual(row[10], "%+.1f%%" % (100 * (r - 1)))
        self.check_interval(row[11], lo, hi, pct=True)
        return gbs

    def test_all_tools_interleaved_and_the_table(self):
        box = self.sandbox()
        r = box.run(*ARGS)
        self.assertEqual(r.returncode, 0, r.stderr)
        logs = box.pagebench_logs()
        pairs = self.expected_pairs(logs)
        self.assertTrue(any(p[2] == "perf" for p in pairs), "no perf pair ran")
        self.assertTrue(any(p[2] == "likwid" for p in pairs), "no likwid pair ran")
        self.assertIn("taking turns run by run (pagebench, perf, likwid, ...)", r.stdout)
        self.assertIn("CPU %d," % box.likwid_cpu, r.stdout)

        calls = box.calls()
        # The probes come first; then run by run: pagebench, perf's pairs,
        # likwid's pairs.
        probes = [c for c in calls if c["kind"] == "probe"]
        self.assertEqual(calls[:len(probes)], probes)
        self.assertEqual({c["tool"] for c in probes}, {"perf", "likwid-bench", "chrt"})
        turn = [("pagebench-linux", "")] + \
            [("perf", p[3]) for p in pairs if p[2] == "perf"] + \
            [("likwid-bench", p[3]) for p in pairs if p[2] == "likwid"]
        runs = [(c["tool"], c["key"]) for c in calls[len(probes):]
                if c["tool"] not in ("taskset", "chrt")]
        self.assertEqual(runs, turn * RUNS)
        # Every peer under SCHED_FIFO, as pagebench-linux runs.
        for i, c in enumerate(calls):
            if c["kind"] == "run" and c["tool"] in ("perf", "likwid-bench"):
                j = i - 2 if c["tool"] == "perf" else i - 1
                self.assertEqual((calls[j]["tool"], calls[j]["args"][:2]), ("chrt", ["-f", "1"]))

        # Every tool on the same CPU (likwid's), on pagebench's bytes.
        size = {op: log_fact(logs[0], r"\bsizes pass=%s .*\b%s=(\d+)" % (HOT, op))
                for op in ("clear", "copy")}
        for i, c in enumerate(calls):
            if c["tool"] == "pagebench-linux":
                self.assertIn("cpu=%d" % box.likwid_cpu, c["args"])
                self.assertIn("passes=l1,l1h", c["args"])
                self.assertIn("reps=3", c["args"])
            elif c["tool"] == "perf" and c["kind"] == "run":
                self.assertEqual(calls[i - 1]["tool"], "taskset")
                self.assertEqual(calls[i - 1]["args"][:2], ["-c", str(box.likwid_cpu)])
                op = "clear" if c["args"][2] == "memset" else "copy"
                self.assertEqual(c["args"][6], "%dB" % size[op])
            elif c["tool"] == "likwid-bench" and c["kind"] == "run":
                # A copy's working set holds source and destination.
                streams, op = (2, "copy") if c["key"].startswith("copy") else (1, "clear")
                self.assertEqual(c["args"][3], "S0:%dB:1" % (streams * size[op]))
                # likwid-bench 5.2 reads -s as whole seconds (0.5 is 0: 10
                # iterations, start-up and all): at least one.
                self.assertEqual(c["args"][4], "-s")
                self.assertRegex(c["args"][5], r"^[1-9]\d*$")

        rows = table(r.stdout)
        twins = self.per_page(logs, pairs)
        self.assertTrue(twins, "no per-page twin ran")
        self.assertEqual(sorted(rows), sorted([(p[0], p[1][0]) for p in pairs] +
                                              [(p[0], name) for p, name in twins]))
        # Each twin's row follows its pair's.
        order = [(f[2], f[3]) for f in (line.split() for line in r.stdout.splitlines())
                 if len(f) >= 13 and f[0] == PASS]
        for p, name in twins:
            self.assertEqual(order.index((p[0], name)), order.index((p[0], p[1][0])) + 1)
        pb_cvs, peer_cvs = [], {}
        for op, names, tool, routine, _, _ in pairs:
            with self.subTest(op=op, variant=names[0]):
                row = rows[(op, names[0])]
                self.assertEqual(row[4], "%s %s" % (tool, routine))
                gbs = self.check_pagebench_columns(row, logs, op, names[0])
                peer = perf_gbs(routine) if tool == "perf" else likwid_gbs(routine)
                self.assertEqual(row[5], "%.2f" % statistics.median(peer))
                ratio, lo, hi = paired(gbs, peer)
                self.assertEqual(row[7], "%.3f" % ratio)
                self.check_interval(row[8], lo, hi)
                pb_cvs.append(cv(gbs))
                peer_cvs.setdefault(tool, []).append(cv(peer))
        # A twin against the same peer runs as its pair; not in the CVs.
        for (op, _, tool, routine, _, _), name in twins:
            with self.subTest(op=op, variant=name):
                row = rows[(op, name)]
                self.assertEqual(row[4], "%s %s" % (tool, routine))
                gbs = self.check_pagebench_columns(row, logs, op, name)
                peer = perf_gbs(routine) if tool == "perf" else likwid_gbs(routine)
                self.assertEqual(row[5], "%.2f" % statistics.median(peer))
                ratio, lo, hi = paired(gbs, peer)
                self.assertEqual(row[7], "%.3f" % ratio)
                self.check_interval(row[8], lo, hi)
        # The conversions, worked by hand: 45 GiB/s is 48.32 GB/s, and
        # likwid's 90000 MByte/s of a copy's loads and stores 45 GB/s copied.
        self.assertEqual(rows[("clear", "stosb_all")][5], "48.32")
        self.assertEqual(rows[("copy", "avx_t")][5], "45.00")

        best = min(peer_cvs, key=lambda t: statistics.median(peer_cvs[t]))
        a, b = statistics.median(pb_cvs), statistics.median(peer_cvs[best])
        line = re.search(re.escape(
            "%s: pagebench's median CV %.2f%%, the steadiest peer's (%s) %.2f%%: "
            "ratio %.2f; " % (PASS, 100 * a, best, 100 * b, a / b)) +
            r"95% bootstrap interval (\d+\.\d\d)-(\d+\.\d\d) over 3 runs: (.*)\n", r.stdout)
        self.assertTrue(line, r.stdout)
        lo, hi = float(line.group(1)), float(line.group(2))
        self.assertLessEqual(lo, hi)
        # The words follow the interval against 1: never a side from an
        # interval that holds both.
        self.assertEqual(line.group(3),
                         "pagebench is the steadier" if hi < 1 else
                         "%s is the steadier" % best if lo > 1 else
                         "undecided: more runs (-k) would narrow it")

    def test_value_table(self):
        """After the pairs, the value alone: pagebench-store-value on the
        CPU the tools share, at the clears' bytes of the level, a row per
        store kind (or its skip line), GB/s of zeros and of 1.0 and the
        tool's time ratio; without the tool built, one line says so."""
        if not os.access(STORE_VALUE, os.X_OK):
            self.skipTest("build/bin/pagebench-store-value is not built")
        box = self.sandbox(store_value=True)
        r = box.run(*ARGS)
        self.assertEqual(r.returncode, 0, r.stderr)
        size = log_fact(box.pagebench_logs()[0], r"\bsizes pass=%s .*\bclear=(\d+)" % HOT)
        run = [c for c in box.calls() if c["tool"] == "taskset" and
               c["args"][2].endswith("pagebench-store-value")]
        self.assertEqual(len(run), 1)
        self.assertEqual(run[0]["args"][:2], ["-c", str(box.likwid_cpu)])
        self.assertEqual(run[0]["args"][3:], [str(size)])
        head = r.stdout.index("value stored and statistic (pagebench-store-value")
        rows = r.stdout[head:].splitlines()[2:6]
        for kind, row in zip(("movnti", "movntdq_zmm", "movdqa_zmm", "stosb"), rows):
            with self.subTest(kind=kind):
                if row.startswith("store="):
                    self.assertRegex(row, r"^store=%s skipped: the CPU lacks \w+$" % kind)
                    continue
                self.assertRegex(row, r"^%s +%d +\d+\.\d\d +\d+\.\d\d +\d+\.\d{3} +\d+\.\d{3}$"
                                 % (kind, size))
                zero, one, ratio, _ = (float(x) for x in row.split()[2:])
                # GB/s of each over the other is the time ratio, to rounding.
                self.assertAlmostEqual(zero / one, ratio, delta=0.01 * ratio + 0.02)
        r = self.sandbox().run(*ARGS)
        self.assertRegex(r.stdout, r"\nvalue stored: \S+/build/bin/pagebench-store-value "
                                   r"is not built: run make\n")

    def check_skipped(self, absent, present, message, **kw):
        tools = {"perf": "perf", "likwid": "likwid-bench"}
        box = self.sandbox(tools=[tools[present], "taskset", "chrt"], **kw) if absent \
            else self.sandbox(**kw)
        r = box.run(*ARGS)
        self.assertEqual(r.returncode, 0, r.stderr)
        skipped = absent or [t for t in tools if t != present][0]
        self.assertIn("bench-vs-peers: %s; its pairs are skipped\n" % message, r.stdout)
        self.assertIn("taking turns run by run (pagebench, %s, ...)" % present, r.stdout)
        runs = [c for c in box.calls() if c["kind"] == "run" and c["tool"] not in ("taskset", "chrt")]
        self.assertEqual({c["tool"] for c in runs}, {"pagebench-linux", tools[present]})
        logs = box.pagebench_logs()
        rows = table(r.stdout)
        pairs = self.expected_pairs(logs, (skipped, present))
        for (op, names, tool, routine, _, _), name in \
                [(p, p[1][0]) for p in pairs] + self.per_page(logs, pairs):
            with self.subTest(op=op, variant=name):
                row = rows[(op, name)]
                self.check_pagebench_columns(row, logs, op, name)
                if tool == skipped:
                    self.assertEqual(row[4], "(%s skipped)" % tool)
                    self.assertEqual(row[5], "-")
                    self.assertEqual(row[7:9], ["-", "-"])
                else:
                    self.assertEqual(row[4], "%s %s" % (tool, routine))
                    self.assertNotEqual(row[5], "-")
                    self.assertNotEqual(row[7], "-")
        return box, r

    def test_perf_absent(self):
        self.check_skipped("perf", "likwid",
                           "perf is not installed (Debian package linux-perf)")

    def test_likwid_absent(self):
        box, r = self.check_skipped("likwid", "perf",
                                    "likwid-bench is not installed (Debian package likwid)")
        # Without likwid's CPU to follow, the highest this process may use.
        self.assertIn("CPU %d," % box.affinity[-1], r.stdout)

    def test_chrt_absent(self):
        """The peers then run at the default priority, and it says so."""
        box = self.sandbox(tools=["perf", "likwid-bench", "taskset"])
        r = box.run(*ARGS)
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertIn("bench-vs-peers: chrt is not installed (Debian package util-linux); "
                      "the peers run at the default priority, pagebench-linux under "
                      "SCHED_FIFO\n", r.stdout)
        runs = [c["tool"] for c in box.calls() if c["kind"] == "run"]
        self.assertIn("likwid-bench", runs)
        self.assertNotIn("chrt", runs)

    def test_likwid_that_cannot_run_is_skipped(self):
        self.check_skipped(None, "perf", "likwid-bench does not run here: no counters here",
                           probe_fail={"likwid-bench": "no counters here"})

    def check_failure(self, expect, **kw):
        box = self.sandbox(**kw)
        r = box.run(*ARGS)
        self.assertEqual(r.returncode, 1, r.stdout)
        self.assertRegex(r.stderr, expect)
        self.assertNotIn("pb GB/s", r.stdout)
        return box

    def test_perf_failing(self):
        box = self.check_failure(
            r"bench-vs-peers: chrt -f 1 taskset -c %d perf bench mem memset -f x86-64-stosb "
            r"-s \d+B -l \d+: perf: cannot mmap\n" % min(os.sched_getaffinity(0)),
            fail={"perf": "perf: cannot mmap"})
        # It stopped at the first failure: one pagebench run, one perf run.
        runs = [c["tool"] for c in box.calls() if c["kind"] == "run"]
        self.assertEqual(runs, ["pagebench-linux", "chrt", "taskset", "perf"])

    def test_likwid_failing(self):
        self.check_failure(r"bench-vs-peers: chrt -f 1 likwid-bench -t store_avx -w S0:\d+B:1 "
                           r"-s \S+: likwid: cannot allocate\n",
                           fail={"likwid-bench": "likwid: cannot allocate"})

    def test_pagebench_failing(self):
        """Its log's end is shown (a real failure: pagebench's deliberate one)."""
        self.check_failure(r"\(PB\) exception: SIGILL .*selftest=ud(.|\n)*"
                           r"bench-vs-peers: pagebench-linux failed \(status 1\)\n",
                           pagebench_args=["selftest=ud"])

    def test_bad_arguments(self):
        box = self.sandbox()
        for args in (["-k", "1"], ["--reps", "0"], ["--passes", "bogus"],
                     ["--passes", "l1,"], ["-k", "two"]):
            with self.subTest(args=args):
                r = box.run(*args)
                self.assertEqual(r.returncode, 2, r.stdout)
                self.assertRegex(r.stderr, r"bench-vs-peers: error: ")
        self.assertEqual(box.calls(), [], "a tool ran despite bad arguments")


class UnusableLog(unittest.TestCase):
    """pagebench-linux's output that gives no figure (a stand-in program prints it, so
    no build is needed): a clear error with the status --help gives, no
    traceback."""

    def check(self, output, expect):
        with tempfile.TemporaryDirectory() as tmp:
            box = Sandbox(tmp, pagebench_output=output)
            r = box.run(*ARGS)
        self.assertEqual(r.returncode, 3, r.stderr)
        self.assertNotIn("Traceback", r.stderr)
        self.assertRegex(r.stderr, expect)
        self.assertNotIn("pb GB/s", r.stdout)

    def hold(self):
        with open(os.path.join(REPO, "tests", "fixtures", "verdict", "hold.log")) as f:
            return f.read()

    def test_no_tsc_khz_line(self):
        text = self.hold()
        without = re.sub(r"(?m)^\(PB\) tsc khz=.*\n", "", text)
        self.assertNotEqual(without, text)
        self.check(without, r"^bench-vs-peers: pagebench-linux's log has no tsc khz "
                            r"line: its ticks cannot be turned into GB/s\n$")

    def test_no_machine(self):
        self.check("", r"^bench-vs-peers: pagebench-linux's output holds no machine's "
                       r"log, not one\n$")

    def test_two_machines(self):
        self.check(self.hold() * 2, r"^bench-vs-peers: pagebench-linux's output holds "
                                    r"2 machines' logs, not one\n$")

    def test_help_names_the_status(self):
        r = subprocess.run([sys.executable, SCRIPT, "--help"], capture_output=True, text=True)
        self.assertEqual(r.returncode, 0)
        self.assertRegex(r.stdout, r"\b3 pagebench-linux's output gives no figure")



class RatioInterval(unittest.TestCase):
    """The CV ratio's bootstrap interval, on figures made to say each answer."""

    def verdict(self, mine, theirs):
        bvp = load_script()
        key = ("l1", "clear", "memset x86-64-stosb")
        pb = {key: [(4096, 1, g, "stosb_all") for g in mine]}
        peer = {key: list(theirs)}
        return bvp.ratio_verdict(pb, peer, "l1", "perf", len(mine))

    def test_steady_against_noisy(self):
        steady = [10.0, 10.01, 9.99, 10.0, 10.02, 9.98, 10.0, 10.01]
        noisy = [10.0, 12.0, 8.0, 11.0, 9.0, 12.5, 7.5, 10.0]
        self.assertTrue(self.verdict(steady, noisy).endswith(": pagebench is the steadier"))
        self.assertTrue(self.verdict(noisy, steady).endswith(": perf is the steadier"))

    def test_alike_is_undecided(self):
        a = [10.0, 10.5, 9.5, 10.2, 9.8, 10.4, 9.6, 10.1]
        b = [10.1, 9.6, 10.4, 9.9, 10.3, 9.5, 10.5, 9.8]
        self.assertTrue(self.verdict(a, b).endswith(": undecided: more runs (-k) would narrow it"))

    def test_a_missed_run_gives_no_interval(self):
        bvp = load_script()
        key = ("l1", "clear", "memset x86-64-stosb")
        pb = {key: [(4096, 1, 10.0, "stosb_all")] * 3}
        self.assertEqual(bvp.ratio_verdict(pb, {key: [1.0, 2.0]}, "l1", "perf", 3),
                         "no interval: a tool missed a run")


class PairedRatio(unittest.TestCase):
    """The ratio pagebench/peer and its interval, on figures worked by hand."""

    def test_known_figures(self):
        bvp = load_script()
        # Run ratios 2 and 4: geometric mean sqrt(8); the log-ratios' mean
        # 1.5 ln 2 and sd ln 2 / sqrt(2), so the half-width is
        # t(0.975, 1) * (ln 2 / sqrt 2) / sqrt 2 = 12.7062 * ln 2 / 2.
        r, lo, hi = bvp.paired_ratio([2.0, 8.0], [1.0, 2.0])
        self.assertAlmostEqual(r, math.sqrt(8), places=12)
        h = 12.7062 * math.log(2) / 2
        self.assertAlmostEqual(math.log(lo), 1.5 * math.log(2) - h, places=4)
        self.assertAlmostEqual(math.log(hi), 1.5 * math.log(2) + h, places=4)

    def test_the_same_ratio_every_run_has_no_width(self):
        bvp = load_script()
        for x in bvp.paired_ratio([3.0, 6.0, 9.0], [1.0, 2.0, 3.0]):
            self.assertAlmostEqual(x, 3.0, places=12)

    def test_runs_are_paired_not_pooled(self):
        """The machine's state moves both tools of a run alike: a ratio
        steady run by run is narrow however far the runs' levels lie."""
        bvp = load_script()
        _, lo, hi = bvp.paired_ratio([10.0, 20.0, 40.0], [9.9, 20.1, 39.8])
        self.assertLess(hi / lo, 1.05)

    def test_unpaired_is_an_error(self):
        bvp = load_script()
        with self.assertRaises(ValueError):
            bvp.paired_ratio([1.0, 2.0], [1.0])


@unittest.skipUnless(os.access(LINUX, os.X_OK), "build/bin/pagebench-linux is not built")
class HotBufferPasses(unittest.TestCase):
    """pagebench-linux's hot-buffer pass beside its own: the lines' grammar
    and arithmetic, no speed."""

    @classmethod
    def setUpClass(cls):
        sys.path.insert(0, os.path.join(REPO, "scripts"))
        from pbreport import grammar
        cls.grammar = grammar
        r = subprocess.run([LINUX, "passes=l1,l1h", "variants=stosb,avx_t,movsq,movsb_all",
                            "reps=3"], capture_output=True, text=True, timeout=300)
        cls.status, cls.log = r.returncode, r.stdout

    def lines(self, kind):
        rx = self.grammar.tagged(kind)
        return [m for m in (rx.match(line) for line in self.log.splitlines()) if m]

    def test_runs_clean(self):
        self.assertEqual(self.status, 0, self.log[-2000:])
        self.assertIn("plan suite=all reps=3 passes=l1,l1h", self.log)

    def test_sizes_are_the_own_pass_bytes_and_no_fill(self):
        sizes = {m.group(1): m.groups()[1:] for m in self.lines("sizes")}
        self.assertEqual(sizes["l1h"][0], "0")
        self.assertEqual(sizes["l1h"][1:], sizes["l1"][1:])

    def test_no_header_no_value_lines(self):
        """Only epoch, stat and ratio lines: the pass has no fill to probe."""
        self.assertNotIn("L1 hot buffer:", self.log)
        for m in self.lines("epoch"):
            if m.group(2) == "l1h":
                self.assertEqual(m.group(4), "0")

    def test_stat_and_ratio_lines(self):
        stats = [m for m in self.lines("stat") if m.group(2) == "l1h"]
        self.assertEqual(sorted((m.group(1), m.group(3)) for m in stats),
                         [("clear", "avx_t"), ("clear", "stosb"), ("copy", "avx_t"),
                          ("copy", "movsb_all"), ("copy", "movsq")])
        for m in stats:
            with self.subTest(line=m.group(0)):
                self.assertIsNone(m.group(4), "a hot-buffer pass has no use probe")
                self.assertEqual((m.group(5), m.group(6), m.group(12)), ("3", "3", "reps"))
                self.assertGreaterEqual(int(m.group(7)), 1)
                med = float(m.group(8))
                if m.group(9) != "?":
                    self.assertLessEqual(float(m.group(9)), med)
                    self.assertLessEqual(med, float(m.group(10)))
        # One batch for the whole pass, as a timed pass's.
        self.assertEqual(len({m.group(7) for m in stats if m.group(1) == "clear"}), 1)
        ratios = [m for m in self.lines("ratio") if m.group(2) == "l1h"]
        self.assertEqual(sorted((m.group(1), m.group(3), m.group(4)) for m in ratios),
                         [("clear", "avx_t", "stosb"), ("copy", "avx_t", "movsq"),
                          ("copy", "movsb_all", "movsq")])
        for m in ratios:
            if m.group(7) != "?":
                self.assertLessEqual(float(m.group(7)), float(m.group(6)))
                self.assertLessEqual(float(m.group(6)), float(m.group(8)))


if __name__ == "__main__":
    unittest.main()
