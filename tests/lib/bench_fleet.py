#!/usr/bin/env python3
"""How long `pagebench-report verdict` takes on generated fleets: a
benchmark that prints figures, not a test (its times depend on the CPU).

Usage: tests/lib/bench_fleet.py [--fleet-only] [MACHINES ...]
                                              default: 1000 2000 4000 16000

--fleet-only times fleet.fleet() alone, in this process, on the two
machines' verdicts copied under MACHINES names: the step that was
quadratic, without the parsing and per-machine verdicts that are linear.

Each fleet is pdsh streams (at most 4,000 hosts each, under fleet.py's
MAX_HOSTS) built from tests/fixtures/verdict/pdsh.log: host i prints nodea's
log when i is even and nodeb's when odd, so no variant wins on every
machine and each fleet row takes the min-max path, which compares every
machine's losses. Time linear in the machines shows as a steady figure in
the last column.
"""
import os
import resource
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
TESTS = os.path.dirname(HERE)
REPO = os.path.dirname(TESTS)
REPORT = os.path.join(REPO, "scripts", "pagebench-report")
PDSH = os.path.join(TESTS, "fixtures", "verdict", "pdsh.log")
PER_STREAM = 4000


def host_logs():
    """nodea's and nodeb's lines, without their prefixes."""
    logs = {b"nodea": [], b"nodeb": []}
    with open(PDSH, "rb") as f:
        for line in f:
            host, sep, rest = line.partition(b": ")
            if sep and host in logs:
                logs[host].append(rest)
    return logs[b"nodea"], logs[b"nodeb"]


def write_fleet(folder, machines, a, b):
    """pdsh streams of machines hosts in folder: their paths."""
    paths = []
    for first in range(0, machines, PER_STREAM):
        hosts = range(first, min(machines, first + PER_STREAM))
        path = os.path.join(folder, "fleet-%d.log" % first)
        with open(path, "wb") as f:
            # pdsh interleaves hosts line by line.
            for i in range(len(a)):
                f.writelines(b"n%05d: %s" % (h, (a if h % 2 == 0 else b)[i])
                             for h in hosts)
        paths.append(path)
    return paths


def fleet_only(sizes):
    sys.path.insert(0, os.path.join(REPO, "scripts"))
    from pbreport import analysis as A, fleet as F, verdict as V
    machines, _ = F.load([PDSH])
    two = [V.machine_verdict(m, A.DEFAULT_ALPHA, {}) for m in machines]
    print("%9s %9s %10s %6s" % ("machines", "cpu s", "cpu ms/m", "rows"))
    for n in sizes:
        # Each machine's decisions objects of its own, as parsed logs give.
        vs = [dict(two[i % 2], machine="n%05d" % i,
                   decisions=[dict(d) for d in two[i % 2]["decisions"]]) for i in range(n)]
        t = time.process_time()
        rows = F.fleet(vs)
        dt = time.process_time() - t
        print("%9d %9.2f %10.3f %6d" % (n, dt, 1000 * dt / n, len(rows)), flush=True)


def main(argv):
    if argv[:1] == ["--fleet-only"]:
        return fleet_only([int(n) for n in argv[1:]] or [1000, 2000, 4000, 16000])
    sizes = [int(n) for n in argv] or [1000, 2000, 4000, 16000]
    a, b = host_logs()
    if len(a) != len(b):
        sys.exit("bench_fleet: nodea and nodeb of %s differ in length" % PDSH)
    print("%9s %9s %9s %10s %10s" % ("machines", "wall s", "cpu s", "wall ms/m", "cpu ms/m"))
    with tempfile.TemporaryDirectory() as folder:
        for n in sizes:
            paths = write_fleet(folder, n, a, b)
            t = time.monotonic()
            ru = resource.getrusage(resource.RUSAGE_CHILDREN)
            r = subprocess.run([REPORT, "verdict", "-q"] + paths,
                               stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
            dt = time.monotonic() - t
            ru2 = resource.getrusage(resource.RUSAGE_CHILDREN)
            cpu = ru2.ru_utime + ru2.ru_stime - ru.ru_utime - ru.ru_stime
            if r.returncode:
                sys.exit("bench_fleet: verdict exited %d: %s"
                         % (r.returncode, r.stderr.decode(errors="replace")[-500:]))
            print("%9d %9.1f %9.1f %10.2f %10.2f" % (n, dt, cpu, 1000 * dt / n, 1000 * cpu / n),
                  flush=True)
            for p in paths:
                os.remove(p)


if __name__ == "__main__":
    main(sys.argv[1:])
