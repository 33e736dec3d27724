"""pagebench-linux: the kernel's harness in user space, on this machine's
real CPU. Every line must be documented (docs/log-format.md), the report
tool must read the log, every variant the CPU offers must run and verify,
and bad input must fail the way the kernel fails."""
import fcntl
import json
import os
import pty
import shutil
import signal
import statistics
import re
import subprocess
import sys
import tempfile
import termios
import time
import unittest

TESTS = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
REPO = os.path.dirname(TESTS)
sys.path.insert(0, os.path.join(REPO, "scripts"))
from pbreport import grammar  # noqa: E402
from tables import rows as variant_rows, table_rows, variant_needs  # noqa: E402
from pbreport import parse as P  # noqa: E402
import strings_log  # noqa: E402
import boots  # noqa: E402  (tests/boots.cfg: the guests the tests boot)

TOOL = os.path.join(REPO, "build", "bin", "pagebench-linux")
CPUID_TOOL = os.path.join(REPO, "build", "bin", "pagebench-cpuid")
with open(os.path.join(REPO, "harness", "stats", "interval.h")) as _f:
    BATCH_TIMER_STEPS = int(re.search(r"#define BATCH_TIMER_STEPS\s+(\d+)",
                                      _f.read()).group(1))
# The smallest dump pagebench-cpuid reads: vendor, SSE2, long mode. Option
# errors do not depend on the CPU, so no recorded dump is needed.
CPUID_DUMP = (b"CPUID 00000000: 00000001-68747541-444D4163-69746E65\n"
              b"CPUID 00000001: 00000F00-00000800-00000000-04000000\n"
              b"CPUID 80000000: 80000001-00000000-00000000-00000000\n"
              b"CPUID 80000001: 00000000-00000000-00000000-20000000\n")
REPORT = os.path.join(REPO, "scripts", "pagebench-report")
TAG = re.compile(r"^\(([A-Za-z0-9_]{1,15})\) (.*)$")


GROUPS = ("fast", "linux")


class Run:
    def __init__(self, args, proc):
        self.args, self.status = args, proc.returncode
        self.stdout, self.stderr = proc.stdout, proc.stderr
        self.lines = []
        for raw in self.stdout.splitlines():
            m = TAG.match(raw)
            assert m, "untagged line on stdout: %r" % raw
            self.lines.append(m.group(2))

    def first(self, kind):
        return next((l for l in self.lines if grammar.classify(l) == kind), None)

    def all(self, kind):
        return [l for l in self.lines if grammar.classify(l) == kind]

    def flags(self):
        return dict(kv.split("=") for kv in self.first("features").split()[1:])

    def ran(self):
        out = set()
        for l in self.all("variants"):
            op, names = re.match(r"variants (\w+):(.*)", l).groups()
            out |= {(op, n) for n in names.split()}
        return out


PERF_TYPE_HARDWARE, PERF_TYPE_SOFTWARE = 0, 1
PERF_COUNT_HW_CPU_CYCLES, PERF_COUNT_SW_CONTEXT_SWITCHES = 0, 3


def perf_errno(type_, config, user_only):
    """None when perf_event_open gives this process the event (of this
    thread, on any CPU), else its errno: asked of the kernel directly
    (ctypes), not through pagebench."""
    import ctypes
    import struct
    SYS_PERF_EVENT_OPEN, EXCLUDE_KERNEL, EXCLUDE_HV = 298, 1 << 5, 1 << 6
    # struct perf_event_attr as of PERF_ATTR_SIZE_VER0 (64 bytes).
    attr = struct.pack("<IIQQQQQIIQ", type_, 64, config, 0, 0, 0,
                       (EXCLUDE_KERNEL if user_only else 0) | EXCLUDE_HV,
                       0, 0, 0)
    libc = ctypes.CDLL(None, use_errno=True)
    buf = ctypes.create_string_buffer(attr, len(attr))
    fd = libc.syscall(SYS_PERF_EVENT_OPEN, buf, 0, -1, -1, 0)
    if fd < 0:
        return ctypes.get_errno()
    os.close(fd)
    return None


def run(*args, timeout=300):
    proc = subprocess.run([TOOL] + list(args), capture_output=True, text=True,
                          timeout=timeout)
    return Run(args, proc)


class LinuxRunner(unittest.TestCase):
    GROUPS = ("linux", "boot")

    @classmethod
    def setUpClass(cls):
        if not os.access(TOOL, os.X_OK):
            raise AssertionError("%s is not built: run make" % TOOL)

    def assert_clean(self, r):
        self.assertEqual(r.status, 0, r.stdout[-3000:] + r.stderr[-2000:])
        self.assertEqual(r.lines[-1], "done: 0 failures")
        for line in r.lines:
            self.assertIsNotNone(grammar.classify(line), "undocumented: %r" % line)
        for kind in ("verify", "fault", "exception", "option_error"):
            self.assertEqual(r.all(kind), [], kind)

    def assert_report_reads(self, r):
        with tempfile.NamedTemporaryFile("w", suffix=".log") as f:
            f.write(r.stdout)
            f.flush()
            (m,), diags = P.read_bytes(r.stdout.encode(), f.name)
            self.assertEqual([str(d) for d in diags], [])
            self.assertTrue(m.has_data)
            self.assertEqual(m.done, 0)
            out = subprocess.run([REPORT, "summary", f.name], capture_output=True,
                                 text=True, timeout=120)
            self.assertEqual(out.returncode, 0, out.stderr)
            # Each pass ends with what the answer lines say of it.
            self.assertRegex(out.stdout, r"(?m)^answer[ :]")
            self.assertEqual(out.stderr, "")
        return m

    def test_hot_load_line(self):
        """The hot load line (cpu/hot_load.h): its ns is its ticks at the
        tsc line's rate, and what ran it follows from that ns."""
        r = run("suite=clear", "passes=l1", "variants=stosb", "reps=1")
        self.assert_clean(r)
        hot = grammar.compiled("hot_load").match(r.first("hot_load"))
        khz = int(grammar.compiled("tsc").match(r.first("tsc")).group(1))
        loads, ticks, ns, runs_on = hot.group(1, 2, 3, 4)
        self.assertEqual(int(loads), 1000)
        self.assertGreater(int(ticks), 0)
        want = (int(ticks) * 100000 + khz // 2) // khz
        self.assertEqual(ns, "%d.%02d" % (want // 100, want % 100))
        self.assertEqual(runs_on, "cpu" if want <= 2000 else "emulator")
        notes = [l for l in r.all("note") if l.startswith("note: hot load:")]
        self.assertEqual(len(notes), 0 if runs_on == "cpu" else 1)

    def test_xen_suite(self):
        """suite=xen reps=3: Jan's passes and line shapes, plus the Linux lines."""
        r = run("suite=xen", "reps=3")
        self.assert_clean(r)
        self.assertEqual(grammar.classify(r.lines[0]), "xen")
        headers = [l[:-1] for l in r.lines if grammar.classify(l) == "pass"]
        self.assertEqual(headers, [grammar.PASS_HEADERS[p] for p in ("l1", "l1f", "l2", "l2f")])
        names = r.first("variants").split(":")[1].split()
        values = [grammar.compiled("value").match(l).group(2) for l in r.all("value")]
        self.assertEqual(values, names * 3 * 4)
        self.assertTrue(set(names) <= {"sse2", "stosb", "stosl", "stosq", "avx", "avx512", "clzero"})
        for kind in ("linux_release", "linux_buffers", "linux_mlock", "linux_sched",
                     "linux_fidelity", "tsc", "runtime"):
            self.assertIsNotNone(r.first(kind), kind)
        self.assertRegex(r.first("flush"), r"^flush: clflush(opt)?$")
        self.assertEqual(len(r.all("disturbance")), 4)
        self.assertEqual(len(r.all("sizes")), 4)
        # Jan's shapes only: no variant lines, and no epochs, batches, use
        # probe or stat lines.
        for kind in ("variant", "epoch", "use", "stat", "tsc_step"):
            self.assertEqual(r.all(kind), [], kind)
        m = self.assert_report_reads(r)
        # The report reads the sizes the run printed, not a rule of its own.
        fill, clear, _ = (int(x) for x in re.match(
            r"sizes pass=l1 fill=(\d+) clear=(\d+) copy=(\d+)", r.first("sizes")).groups())
        self.assertEqual(P.pass_bytes(m, "clear", "L1 w/o flush"), clear)
        self.assertEqual(fill, 2 * clear)

    def test_every_variant_runs(self):
        """A short plan of every suite: each variant the CPU offers runs and
        verifies; each it lacks is skipped with the feature named."""
        r = run("reps=1", "passes=l1,l2f,hot,cold")
        self.assert_clean(r)
        flags, ran = r.flags(), r.ran()
        for (op, name), feat in variant_needs().items():
            with self.subTest(variant="%s/%s" % (op, name)):
                if feat == "none" or flags.get(feat) == "1":
                    self.assertIn((op, name), ran)
                else:
                    self.assertNotIn((op, name), ran)
                    self.assertIn("skipped: %s (%s): needs %s" % (name, op, feat),
                                  r.lines)
        got = {(m.group(2), m.group(1)) for m in
               (grammar.compiled("agg").match(l) for l in r.all("agg"))}
        copies = {n for op, n in ran if op == "copy"}
        self.assertEqual(got, {(v, k) for v in copies for k in ("copy-hot", "copy-cold")})
        self.assert_report_reads(r)
        self.assert_variant_lines(r, [v for v in variant_rows() if v["op"] in ("clear", "copy")])

    def assert_variant_lines(self, r, want):
        """One variant line per selected variant, its .def row, in table
        order, after every variants and skipped line."""
        rx = grammar.compiled("variant")
        got = [dict(zip(("name", "op", "shape", "store", "needs", "what"),
                        rx.match(l).groups())) for l in r.all("variant")]
        self.assertEqual(got, want)
        kinds = [grammar.classify(l) for l in r.lines]
        first = kinds.index("variant")
        self.assertEqual(kinds[first:first + len(want)], ["variant"] * len(want))
        self.assertNotIn("variants", kinds[first:])
        self.assertNotIn("skipped_variant", kinds[first:])
        self.assertEqual(kinds[first - 1] in ("variants", "skipped_variant"), True)

    def test_variant_lines_follow_the_selection(self):
        r = run("variants=stosb,avx_t", "passes=l1", "reps=1")
        self.assert_clean(r)
        self.assert_variant_lines(r, [v for v in variant_rows()
                                      if v["name"] in ("stosb", "avx_t")
                                      and v["op"] in ("clear", "copy")])

    def test_one_naming_convention(self):
        """A plain vector name stores non-temporally in every table, _t is
        its temporal twin (issue 18): the copy table had them the other
        way round. Jan's seven suite=xen names are unchanged."""
        rows = variant_rows()
        vector = ("sse2", "avx", "avx512")
        for v in rows:
            with self.subTest(op=v["op"], name=v["name"]):
                if v["name"] in vector:
                    self.assertEqual(v["store"], "nt")
                if v["name"].startswith(tuple(n + "_t" for n in vector)):
                    self.assertEqual(v["store"], "t")
        jan = ["sse2", "stosb", "stosl", "stosq", "avx", "avx512", "clzero"]
        self.assertEqual([v["name"] for v in rows if v["op"] == "clear"][:7], jan)
        names = run("suite=xen", "reps=1", "passes=l1").first("variants").split(":")[1].split()
        self.assertEqual(names, [n for n in jan if n in names])

    def test_ratio_lines(self):
        """Ratio lines (docs/log-format.md, "Ratio lines"): one per variant
        but the table's reference, over the pass's epochs. Whether the pass
        batches depends on this CPU's speed against its timer step, so the
        test checks the rule that chose the batch (interval.c, pass_batch:
        a first call shorter than BATCH_TIMER_STEPS steps batches every
        variant alike) and then, unbatched, the ratio's median from the
        value lines (one a sample); batched, the value lines time single
        calls and not the samples, so only the interval's shape is left to
        check. Without the reference, none."""
        r = run("suite=clear", "passes=l1f", "budget=100ms",
                "variants=stosb,stosq,sse2,avx_t")
        self.assert_clean(r)
        ran = sorted(v for op, v in r.ran())
        self.assertIn("stosb", ran)
        m = self.assert_report_reads(r)
        p = m.passes[("clear", P.PASS_IDS["l1f"])]
        ratios = {}
        for l in r.all("ratio"):
            g = grammar.compiled("ratio").match(l).groups()
            ratios[g[2]] = g
        self.assertEqual(sorted(ratios), [v for v in ran if v != "stosb"])
        self.assertEqual(set(p.ratios), {(v, "stosb") for v in ratios})

        def epoch_medians(v):
            by = {}
            for s in p.samples_of(v):
                by.setdefault(s.epoch, []).append(s.ticks)
            return [statistics.median(by[e]) for e in sorted(by)]
        step = int(grammar.compiled("tsc_step").match(r.first("tsc_step")).group(1))
        first_call = min(p.samples_of(v)[0].ticks for v in ran)
        batches = {p.stat(v).batch for v in ran}
        self.assertEqual(len(batches), 1, "one batch for the whole pass")
        batch = batches.pop()
        self.assertEqual(batch > 1, first_call < BATCH_TIMER_STEPS * step,
                         (batch, first_call, step))
        ref = epoch_medians("stosb")
        for v, g in ratios.items():
            with self.subTest(variant=v, batch=batch):
                st = p.stat(v)
                self.assertEqual((g[0], g[1], g[3], int(g[4])),
                                 ("clear", "l1f", "stosb", st.epochs))
                self.assertTrue(float(g[6]) <= float(g[5]) <= float(g[7]), g)
                mine = epoch_medians(v)
                self.assertEqual(len(mine), st.epochs)
                if batch == 1:
                    want = statistics.median(a / b for a, b in zip(mine, ref))
                    self.assertAlmostEqual(float(g[5]), want, delta=0.00011)
        bare = run("suite=clear", "passes=l1f", "budget=100ms",
                   "variants=stosq,sse2")
        self.assert_clean(bare)
        self.assertTrue(bare.all("stat"))
        self.assertEqual(bare.all("ratio"), [])

    def test_answer_lines(self):
        """Answer lines (docs/log-format.md, "The answer"): one per
        function, pass and pick, after the last pass and before the
        runtime and done: lines; where the pick is the table's
        reference, each figure is the routine's ratio line's; the action
        follows from the printed intervals and worth=; no candidate that
        a kernel cannot take; hot entries only in hot passes, cold ones
        only in the others; no advice where runs_on is not a CPU."""
        r = run("suite=clear", "passes=l1,l1f", "budget=100ms", "worth=2.5%")
        self.assert_clean(r)
        rx = grammar.compiled("answer")
        answers = [rx.match(l).groups() for l in r.all("answer")]
        self.assertTrue(answers)
        kinds = [grammar.classify(l) for l in r.lines]
        last_answer = max(i for i, k in enumerate(kinds) if k == "answer")
        self.assertLess(max(i for i, k in enumerate(kinds) if k in ("ratio", "stat")),
                        kinds.index("answer"))
        for k in ("verdict", "verdict_pick", "verdict_paired", "verdict_paired_pick",
                  "runtime", "done"):
            if k in kinds:
                self.assertGreater(kinds.index(k), last_answer, k)
        runs_on = grammar.compiled("hot_load").match(r.first("hot_load")).group(4)
        shape = {}
        for l in r.all("variant"):
            g = grammar.compiled("variant").match(l).groups()
            shape[g[0]] = (g[2], g[3])
        ratios = {}
        for l in r.all("ratio"):
            g = grammar.compiled("ratio").match(l).groups()
            ratios[(g[1], g[2])] = g
        line = 1 - 0.025
        self.assertEqual({(a[0], a[1]) for a in answers},
                         {(fn, p) for fn in ("clear_page", "clear_pages")
                          for p in ("l1", "l1f")
                          if any(a[0] == fn for a in answers)})
        # pagebench-linux measures the vector price (its vector_price line):
        # price= on exactly the routines that need vector registers (the
        # tables' regs column), never fpu=.
        self.assertRegex(r.first("vector_price"), r" ticks=\d+ lo=\d+ hi=\d+")
        vec = {(r_["op"], r_["name"]) for r_ in table_rows() if r_["regs"] == "VEC"}
        self.assertEqual({(a[10], a[18] is not None) for a in answers
                          if a[10] != "-" and a[15] is not None},
                         {(a[10], ("clear", a[10]) in vec) for a in answers
                          if a[10] != "-" and a[15] is not None})
        self.assertEqual({a[17] for a in answers}, {None})
        for a in answers:
            (fn, pas, _, _, kernel, versions, entry, pick, assuming, action, routine,
             ratio, lo, hi, epochs, pick_ns, routine_ns, fpu, price, worth, need, why,
             alike, drift_first, drift_last, unpriced, unpriced_ratio) = a
            with self.subTest(answer=a):
                self.assertEqual(worth, "2.5")
                if routine == "-":
                    self.assertIsNone(fpu)
                self.assertFalse(entry.endswith("_hot") and pas != "l1")
                self.assertFalse(entry.endswith("_cold") and pas == "l1")
                self.assertNotEqual(routine, "clzero")
                if routine != "-":
                    want = "range" if fn == "clear_pages" else "page"
                    self.assertEqual(shape[routine][0], want)
                    self.assertNotEqual(shape[routine][1], "clzero_nofence")
                if runs_on != "cpu":
                    self.assertEqual((action, why), ("none", "not-a-cpu"))
                    continue
                self.assertNotEqual(why, "not-a-cpu")
                self.assertEqual(need is not None, action == "undecided")
                if action in ("switch", "undecided") or (action == "keep" and routine != "-"):
                    self.assertIsNotNone(ratio)
                if ratio is None:
                    self.assertIsNone(drift_first)
                    continue
                # A drift: two halves' medians, apart by worth at least, of
                # 10 epochs or more.
                if drift_first is not None:
                    f, l_ = float(drift_first), float(drift_last)
                    self.assertGreaterEqual(abs(f - l_), min(f, l_) * 0.025 - 0.0001)
                    self.assertGreaterEqual(int(epochs), 10)
                lo_, med, hi_ = float(lo), float(ratio), float(hi)
                self.assertTrue(lo_ <= med <= hi_)
                if action == "switch":
                    self.assertLessEqual(hi_, line + 0.0001)
                elif action == "keep":
                    self.assertGreaterEqual(lo_, line - 0.0001)
                elif action == "undecided":
                    self.assertLessEqual(lo_, line + 0.0001)
                    self.assertGreaterEqual(hi_, line - 0.0001)
                    self.assertGreater(int(need), int(epochs))
                if pick != "stosb":
                    continue
                # The pick is the reference: the routine's own ratio line.
                g = ratios[(pas, routine)]
                self.assertEqual((ratio, lo, hi, epochs), (g[5], g[6], g[7], g[4]))
                cands = {v: g for (p, v), g in ratios.items() if p == pas and
                         shape[v] == ("range" if fn == "clear_pages" else "page",
                                      shape[v][1]) and shape[v][1] != "clzero_nofence"}
                if action == "switch":
                    below = [v for v, g in cands.items() if float(g[7]) < line]
                    self.assertIn(routine, below)
                    # The quickest is named, or alike names it beside one
                    # preferred to it (harness/decide/prefer.h).
                    quickest = min(float(cands[v][5]) for v in below)
                    if alike is None:
                        self.assertEqual(float(ratio), quickest)
                    else:
                        self.assertIn(alike, below)
                        self.assertEqual(float(cands[alike][5]), quickest)
                        self.assertGreater(float(ratio), quickest)
                else:
                    self.assertIsNone(alike)
                if action == "keep":
                    self.assertTrue(all(float(g[6]) >= line - 0.0001 for g in cands.values()))
                    self.assertEqual(float(ratio), min(float(g[5]) for g in cands.values()))

    def test_running_kernel_answers(self):
        """The running kernel's own pick (versions="running RELEASE"):
        from the flags of the cpuinfo file PAGEBENCH_CPUINFO names, here
        an Intel whose fast strings are off (rep_good and erms cleared):
        clear_page_orig and copy_page_regs, before the eras' lines; the
        kernel_flags line says what was read. An unreadable file: an
        unknown line, and no running answers."""
        fixture = os.path.join(REPO, "tests", "fixtures", "cpuinfo",
                               "intel-spr-fast-strings-off.txt")
        args = [TOOL, "suite=all", "passes=l1", "reps=3",
                "variants=stosb,orig,movsq,regs"]
        env = dict(os.environ, PAGEBENCH_CPUINFO=fixture)
        r = Run(args, subprocess.run(args, capture_output=True, text=True,
                                     timeout=300, env=env))
        self.assert_clean(r)
        release = grammar.compiled("linux_release").match(r.first("linux_release")).group(1)
        flags = grammar.compiled("linux_kernel_flags").match(r.first("linux_kernel_flags"))
        self.assertEqual(flags.group(1), fixture)
        got = dict(kv.split("=") for kv in flags.group(2).split())
        self.assertEqual((got["REP_GOOD"], got["ERMS"], got["FSRM"]), ("0", "0", "1"))
        rx = grammar.compiled("answer")
        answers = [rx.match(l).groups() for l in r.all("answer")]
        running = {a[0]: a for a in answers if a[5].startswith("running ")}
        self.assertEqual(sorted(running), ["clear_page", "copy_page"])
        for fn, pick in (("clear_page", "orig"), ("copy_page", "regs")):
            a = running[fn]
            self.assertEqual((a[4], a[5], a[6], a[7], a[8]),
                             ("linux", "running " + release, fn, pick, None))
            linux = [b for b in answers if b[0] == fn and b[4] == "linux"]
            self.assertEqual(linux[0], a, "the running kernel's line comes first")
        env["PAGEBENCH_CPUINFO"] = os.path.join(REPO, "tests", "fixtures", "no-such-file")
        r = Run(args, subprocess.run(args, capture_output=True, text=True,
                                     timeout=300, env=env))
        self.assert_clean(r)
        self.assertRegex(r.first("linux_kernel_flags"), r"^linux kernel_flags unknown \(.*no-such-file")
        self.assertFalse([l for l in r.all("answer") if 'versions="running ' in l])
        self.assertTrue(r.all("answer"))

    def test_time_budget(self):
        """time= (docs/method.md, "One time budget"): the plan says it; a
        variant the race stopped says stop=out and has at most its pass's
        epochs, the first ones, and ratio lines are over the epochs both
        ran; the pass stops settled, by time or at the most epochs; the
        report reads it. Given with precision=, time= wins and says so."""
        r = run("suite=clear", "passes=l1,l1f", "time=3s",
                "variants=stosb,stosq,avx_t,sse2,clzero,orig")
        self.assert_clean(r)
        plan = grammar.compiled("plan").match(r.first("plan"))
        self.assertEqual((plan.group(2), plan.group(4), plan.group(6)), ("auto", None, "3000"))
        stats = {}
        for l in r.all("stat"):
            g = grammar.compiled("stat").match(l).groups()
            if not g[3]:
                stats[(g[1], g[2])] = (int(g[5]), g[11])
        self.assertTrue(stats)
        for pid in ("l1", "l1f"):
            mine = {v: e for (p, v), e in stats.items() if p == pid}
            most = max(e for e, _ in mine.values())
            stops = {stop for _, stop in mine.values()}
            with self.subTest(pass_=pid):
                self.assertLessEqual(stops, {"settled", "time", "epochs", "out"})
                self.assertTrue(stops - {"out"}, mine)
                for v, (epochs, stop) in mine.items():
                    self.assertTrue(epochs >= 3 and epochs % 2, (v, epochs))
                    if stop != "out":
                        self.assertEqual(epochs, most, (v, mine))
                # CLZERO without SFENCE is no kernel's pick nor candidate:
                # measured for the first round only, where the CPU has it.
                if "clzero" in mine:
                    self.assertEqual(mine["clzero"], (3, "out"), mine)
        for l in r.all("ratio"):
            g = grammar.compiled("ratio").match(l).groups()
            self.assertEqual(int(g[4]), min(stats[(g[1], g[2])][0], stats[(g[1], g[3])][0]), l)
        self.assert_report_reads(r)
        both = run("suite=clear", "passes=l1", "time=1s", "precision=2%", "variants=stosb,stosq")
        self.assert_clean(both)
        self.assertIn("note: time=1000ms: the run's time budget wins over precision= and "
                      "budget=, which were given too", both.lines)
        self.assertIn(" time=1000ms", both.first("plan"))

    def test_stat_lines(self):
        """Epochs and stat lines (docs/log-format.md): every variant of
        every pass gets one, over the epochs its epoch lines mark, with an
        interval around its median; L1 passes add a use probe per epoch;
        copy-hot's short copies are timed in batches."""
        r = run("passes=l1,hot", "budget=200ms")
        self.assert_clean(r)
        plan = grammar.compiled("plan").match(r.first("plan"))
        self.assertEqual((plan.group(2), plan.group(5)), ("auto", "200"))
        step = int(grammar.compiled("tsc_step").match(r.first("tsc_step")).group(1))
        self.assertGreater(step, 0)
        stats = {}
        for l in r.all("stat"):
            g = grammar.compiled("stat").match(l).groups()
            stats[(g[0], g[1], g[2], g[3] or "time")] = g
        ran = r.ran()
        want = {(op, "l1", v, "time") for op, v in ran} | \
               {(op, "l1", v, "use") for op, v in ran} | \
               {("copy", "hot", v, "time") for op, v in ran if op == "copy"}
        self.assertEqual(set(stats), want)
        m = self.assert_report_reads(r)
        for (op, pid, v, metric), g in stats.items():
            with self.subTest(stat=(op, pid, v, metric)):
                reps, epochs, batch = int(g[4]), int(g[5]), int(g[6])
                med, lo, hi = float(g[7]), float(g[8]), float(g[9])
                self.assertTrue(epochs >= 3 and epochs % 2 == 1 and epochs <= 63)
                self.assertTrue(lo <= med <= hi, g)
                self.assertIn(g[11], ("precision", "budget", "epochs"))
                p = m.passes[(op, P.PASS_IDS[pid])]
                if metric == "use":
                    self.assertEqual(reps, epochs)
                    self.assertEqual(len([u for u in p.uses if u.variant == v]), epochs)
                elif pid == "l1":
                    # One value line per rep, each in an epoch the log marks.
                    samples = p.samples_of(v)
                    self.assertEqual(len(samples), reps)
                    self.assertEqual(sorted({s.epoch for s in samples}), list(range(epochs)))
                else:
                    # copy-hot batches when its quickest median copy is
                    # shorter than BATCH_TIMER_STEPS timer steps, every
                    # variant alike (copy_hot_cold.c): on some CPUs a
                    # 4 KiB copy is, on others not.
                    agg = [grammar.compiled("agg").match(l) for l in r.all("agg")]
                    quickest = min(int(a.group(5)) for a in agg
                                   if a.group(1) == "copy-hot")
                    self.assertEqual(batch > 1, quickest < BATCH_TIMER_STEPS * step,
                                     (batch, quickest, step))
        out = subprocess.run([REPORT, "summary", "-"], input=r.stdout,
                             capture_output=True, text=True, timeout=120)
        self.assertIn("95% interval", out.stdout)
        self.assertRegex(out.stdout, r"\nuse: reading the destination back")

    def test_bad_options_fail_as_the_kernel(self):
        """The kernel's parser and error text; exit 2 before measuring, the
        error on stderr as well as in the log."""
        for args in (("reps=abc",), ("suite=fill",), ("variants=nope",), ("frobnicate",),
                     ("precision=0%",), ("budget=2",), ("reps=5", "precision=2%"),
                     ("time=0s",), ("time=5",), ("time=90000s",), ("reps=5", "time=5s"),
                     ("suite=xen", "time=5s")):
            with self.subTest(args=args):
                r = run(*args)
                self.assertEqual(r.status, 2)
                errors = r.all("option_error")
                self.assertEqual(len(errors), 1, r.lines)
                self.assertEqual(r.stderr, "pagebench-linux: %s\n" % errors[0])
                self.assertEqual(r.all("value"), [])
                self.assertEqual(r.lines[-1], "done: 1 failure")
                # pagebench-cpuid parses as the kernel does: same text.
                # "frobnicate" has no '=': the host tool takes it for the
                # dump's file name, so only the key=value words compare.
                if args[0] != "frobnicate":
                    dump = subprocess.run([CPUID_TOOL] + list(args) + ["-"],
                                          input=CPUID_DUMP, capture_output=True)
                    self.assertEqual(dump.returncode, 2, dump.stderr)
                    self.assertEqual(dump.stderr.decode(), "pagebench-cpuid: %s\n" % errors[0])
                    kernel = [l for l in dump.stdout.decode().splitlines()
                              if "option error" in l]
                    self.assertEqual(["(PB) " + errors[0]], kernel)

    def test_bad_option_same_text_in_kernel(self):
        """The kernel itself, under TCG, prints the very same error line."""
        r = run("reps=0")
        kernel = [l for l in boots.run(self, "kernel-bad-reps").lines if "option error" in l]
        self.assertEqual(r.all("option_error"), kernel)

    def test_option_error_on_the_terminal(self):
        """`pagebench-linux suite=stirngs > x.log`: the error reaches the
        terminal (stderr), the status says usage (2), not failures (1)."""
        with tempfile.TemporaryDirectory() as tmp:
            log = os.path.join(tmp, "x.log")
            with open(log, "w") as f:
                proc = subprocess.run([TOOL, "suite=stirngs"], stdout=f,
                                      stderr=subprocess.PIPE, text=True, timeout=60)
            with open(log) as f:
                logged = f.read()
        self.assertEqual(proc.returncode, 2)
        self.assertEqual(proc.stderr, "pagebench-linux: option error: suite=: unknown "
                         "'stirngs'; valid: all xen clear copy scrub strings\n")
        self.assertIn("(PB) option error: suite=: unknown 'stirngs'", logged)
        self.assertTrue(logged.endswith("(PB) done: 1 failure\n"), logged[-200:])

    def test_newline_cannot_forge_a_line(self):
        """An argument with a newline once wrote a "(PB) done: 0 failures"
        line of its own into the log. Now it is refused as an option error,
        and every line of the log is one that the program wrote."""
        forged = "tag=PB\n(PB) done: 0 failures"
        for word in (forged, "variants=stosb\r(PB) done: 0 failures", "\x1b[2J=1"):
            with self.subTest(word=word):
                r = run(word, "suite=xen", "reps=1", "passes=l1")
                self.assertEqual(r.status, 2)
                self.assertEqual([l for l in r.lines if l.startswith("done:")],
                                 ["done: 1 failure"])
                self.assertEqual(r.all("value"), [])
                (error,) = r.all("option_error")
                self.assertRegex(error, r"control character \(?0x(0a|0d|1b)")
                self.assertIn(error, r.stderr)
                for raw in r.stdout.splitlines():
                    self.assertNotRegex(raw, r"[\x00-\x1f\x7f]", raw)
        # The cmdline line keeps the argument, made printable, on one line.
        self.assertIn("cmdline: tag=PB?(PB) done: 0 failures suite=xen reps=1 passes=l1",
                      run(forged, "suite=xen", "reps=1", "passes=l1").lines)

    def test_version(self):
        """--version gives the version= of the log."""
        r = run("suite=xen", "reps=1", "passes=l1")
        logged = re.match(r"pagebench version=(\S+)$", r.first("version")).group(1)
        for tool in (TOOL, CPUID_TOOL):
            with self.subTest(tool=os.path.basename(tool)):
                out = subprocess.run([tool, "--version"], capture_output=True,
                                     text=True, timeout=60)
                self.assertEqual(out.returncode, 0)
                self.assertEqual(out.stdout, "%s %s\n" % (os.path.basename(tool), logged))
                self.assertEqual(out.stderr, "")

    def test_nothing_to_measure(self):
        """scrub=1T beyond memory skipped the suite and exited 0; a run that
        measures none of what was asked now exits 3, naming the part and
        why on stderr, and its log still ends cleanly."""
        with open("/proc/meminfo") as f:
            avail = int(re.search(r"^MemAvailable:\s+(\d+) kB", f.read(), re.M).group(1))
        if avail * 1024 >= (1 << 40):
            self.skipTest("this machine has 1 TiB free: scrub=1T would run")
        r = run("suite=scrub", "scrub=1T", "reps=1")
        self.assertEqual(r.status, 3)
        self.assertEqual(r.stderr, "pagebench-linux: nothing to measure: suite=scrub: not "
                         "enough memory for the region (scrub=SIZE sets a smaller one)\n")
        self.assertIsNotNone(r.first("skipped_scrub"))
        self.assertEqual(r.all("scrub"), [])
        self.assertEqual(r.lines[-1], "done: 0 failures")
        flags = r.flags()
        lacking = sorted({(n, f) for (op, n), f in variant_needs().items()
                          if op == "clear" and f != "none" and flags.get(f) == "0"})
        if lacking:
            name, feat = lacking[0]
            r = run("suite=clear", "variants=" + name, "reps=1")
            self.assertEqual(r.status, 3)
            self.assertIn("nothing to measure: suite=clear: no selected variant can run "
                          "here, e.g. %s (clear): needs %s" % (name, feat), r.stderr)
            self.assertEqual(r.all("value"), [])
            # Part of what was asked is still a run: exit 0.
            r = run("suite=clear", "variants=stosb," + name, "reps=1", "passes=l1")
            self.assert_clean(r)
            self.assertIn("skipped: %s (clear): needs %s" % (name, feat), r.lines)

    def test_without_meminfo(self):
        """Without /proc/meminfo every pass is skipped: that is exit 3 too,
        and stderr says where the memory figure went missing."""
        script = 'mount --bind /dev/null /proc/meminfo && exec "$0" suite=xen reps=1'
        if not shutil.which("unshare"):
            self.skipTest("no unshare (util-linux)")
        probe = subprocess.run(["unshare", "-m", "sh", "-c", "mount --bind /dev/null /proc/meminfo"],
                               capture_output=True, text=True)
        if probe.returncode:
            self.skipTest("cannot hide /proc/meminfo in a mount namespace: %s" % probe.stderr.strip())
        proc = subprocess.run(["unshare", "-m", "sh", "-c", script, TOOL],
                              capture_output=True, text=True, timeout=120)
        r = Run(("suite=xen",), proc)
        self.assertEqual(r.status, 3, r.stderr)
        self.assertEqual(len(r.all("skipped_pass")), 4)
        self.assertEqual(r.all("value"), [])
        self.assertRegex(r.stderr, r"^pagebench-linux: nothing to measure: suite=xen: no pass "
                         r"can run, e.g. L1 w/o flush: .* \(/proc/meminfo gives no MemAvailable")

    def test_lost_output(self):
        """>/dev/full and a closed stdout exited 0 with the log cut or gone;
        now stderr says so and the status is 3."""
        for tool, args in ((TOOL, ["suite=xen", "reps=1"]), (TOOL, ["--help"]),
                           (TOOL, ["--version"])):
            with self.subTest(args=args, out="/dev/full"):
                with open("/dev/full", "w") as full:
                    proc = subprocess.run([tool] + args, stdout=full, stderr=subprocess.PIPE,
                                          text=True, timeout=120)
                self.assertEqual(proc.returncode, 3)
                self.assertEqual(proc.stderr, "pagebench-linux: cannot write the log to "
                                 "standard output: No space left on device\n")
        proc = subprocess.run(["sh", "-c", 'exec "$0" suite=xen reps=1 >&-', TOOL],
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                              timeout=120)
        self.assertEqual(proc.returncode, 3)
        self.assertEqual(proc.stderr, "pagebench-linux: standard output is closed: the log "
                         "would be lost\n")

    def test_closed_pipe(self):
        """| head -1 died of SIGPIPE, status 141, no word; now the run stops
        quietly with status 0 (lib/status.h): head's one line, nothing on
        stderr but the progress lines of passes begun before the write
        that failed (one a pass into a pipe)."""
        for args in (["suite=xen", "passes=l1", "variants=stosb", "reps=2"], ["--help"]):
            with self.subTest(args=args):
                p = subprocess.Popen([TOOL] + args, stdout=subprocess.PIPE,
                                     stderr=subprocess.PIPE)
                head = subprocess.run(["head", "-1"], stdin=p.stdout, capture_output=True,
                                      timeout=120)
                p.stdout.close()
                err = p.stderr.read()
                p.stderr.close()
                self.assertEqual(p.wait(timeout=120), 0)
                for line in err.decode().splitlines():
                    self.assertRegex(line, r"^\[\s*\d+%\] clear L1 w/o flush  \d+s")
                self.assertEqual(head.stdout.count(b"\n"), 1)

    def test_kernel_only_options_refused(self):
        for opt in ("console=ttyS1", "exit=halt"):
            with self.subTest(opt=opt):
                r = run(opt)
                self.assertEqual(r.status, 2)
                self.assertRegex(r.all("option_error")[0],
                                 r"^option error: %s=: not an option of pagebench-linux; "
                                 r"valid: .*cpu=" % opt.split("=")[0])

    def test_cpu_option(self):
        online = os.sched_getaffinity(0)
        cpu = min(online)
        r = run("cpu=%d" % cpu, "suite=xen", "reps=1", "passes=l1")
        self.assert_clean(r)
        self.assertRegex(r.first("linux_release"), r" cpu=%d online=\d+$" % cpu)
        r = run("suite=xen", "reps=1", "passes=l1")
        self.assertRegex(r.first("linux_release"), r" cpu=%d " % max(online))
        r = run("cpu=4095")
        self.assertEqual(r.status, 2)
        self.assertRegex(r.all("option_error")[0], r"^option error: cpu=: CPU 4095 is not one")

    @unittest.skipUnless(shutil.which("qemu-x86_64"),
                         "qemu-x86_64 (Debian qemu-user) is not installed")
    def test_forced_variant_faults_without_crash(self):
        """force= past the gate: the fault is a failure line, the run goes on.
        QEMU's user-mode emulator has no AVX-512, so EVEX code raises SIGILL
        there as it would on a CPU without it."""
        r = Run(("force=avx512f",), subprocess.run(
            ["qemu-x86_64", "-cpu", "max", TOOL, "force=avx512f",
             "variants=avx512,stosb", "passes=l1", "reps=2"],
            capture_output=True, text=True, timeout=300))
        self.assertEqual(r.flags()["avx512f"], "0")
        self.assertEqual(r.status, 1, r.stderr)
        faults = r.all("fault")
        self.assertEqual(len(faults), 2, r.lines)     # once per table, not per rep
        for op, fault in zip(("clear", "copy"), faults):
            self.assertRegex(fault, r"^fault: suite=%s pass=L1 w/o flush variant=avx512 "
                             r"SIGILL \(illegal instruction\) rip=0x[0-9a-f]+$" % op)
        self.assertIn("note: force=avx512f: running its variants although this CPU "
                      "does not report it", r.lines)
        # stosb goes on: both reps, verified.
        self.assertEqual([grammar.compiled("value").match(l).group(2) for l in r.all("value")],
                         ["stosb", "stosb"])
        self.assertEqual(r.lines[-1], "done: 2 failures")
        self.assertIsNotNone(r.first("runtime"))

    def test_forced_variant_that_the_cpu_has(self):
        """A feature the CPU has but does not report (a hypervisor hiding it)
        runs when forced, and is verified like any other; one it truly lacks
        faults (the test above). Either way no crash."""
        flags = run("passes=l1", "reps=1", "suite=xen").flags()
        lacking = sorted(f for f in set(variant_needs().values())
                         if f != "none" and flags.get(f) == "0")
        if not lacking:
            self.skipTest("this CPU reports every feature the variants need")
        for feat in lacking:
            with self.subTest(feat=feat):
                names = sorted({n for (op, n), f in variant_needs().items() if f == feat})
                r = run("force=" + feat, "variants=" + ",".join(names), "passes=l1", "reps=1")
                self.assertIn(r.status, (0, 1))
                self.assertEqual(r.lines[-1], "done: %d failure%s" % (
                    len(r.all("fault")) + len(r.all("verify")),
                    "" if len(r.all("fault")) + len(r.all("verify")) == 1 else "s"))
                self.assertEqual(r.all("verify"), [])
                self.assertEqual(r.all("exception"), [])

    def test_selftest_ud_reported(self):
        r = run("selftest=ud")
        self.assertEqual(r.status, 1)
        self.assertRegex(r.first("exception"),
                         r"^exception: SIGILL \(illegal instruction\) rip=0x[0-9a-f]+ "
                         r"addr=0x[0-9a-f]+ during: selftest=ud")
        self.assertEqual(r.lines[-1], "done: 1 failure")

    def test_scrub_every_cpu(self):
        """suite=scrub on a small region: every CPU count from 1 to all, each
        step verified, the report's scaling table and curve."""
        ncpus = len(os.sched_getaffinity(0))
        r = run("suite=scrub", "scrub=8M", "reps=2", "variants=stosb,stosq_all,orig")
        self.assert_clean(r)
        plan = grammar.compiled("scrub_plan").match(r.first("scrub_plan"))
        counts = [int(c) for c in plan.group(1).split(",")]
        want = sorted({min(1 << k, ncpus) for k in range(12) if (1 << k) < 2 * ncpus})
        self.assertEqual(counts, want)
        self.assertEqual(int(plan.group(3)), 8 << 20)
        steps = [grammar.compiled("scrub").match(l).groups() for l in r.all("scrub")]
        got = sorted((v, int(c), int(rep)) for v, c, node, rep, *_ in steps)
        self.assertEqual(got, sorted((v, c, rep) for v in ("stosb", "orig", "stosq_all")
                                     for c in counts for rep in (0, 1)))
        for v, c, node, rep, size, wall, slowest, fastest, late, gbs, spread in steps:
            self.assertEqual((node, int(size)), ("local", 8 << 20))
            self.assertTrue(int(wall) >= int(slowest) >= int(fastest) > 0)
        # How late the last CPU started is a figure of the machine's
        # scheduling (a busy 2-vCPU VM delays it); what holds everywhere
        # is that it falls within the step it is part of.
        for s in steps:
            self.assertTrue(0 <= int(s[8]) <= int(s[5]), s)
        m = self.assert_report_reads(r)
        with tempfile.NamedTemporaryFile("w", suffix=".log") as f:
            f.write(r.stdout)
            f.flush()
            out = subprocess.run([REPORT, "summary", f.name], capture_output=True,
                                 text=True, timeout=120).stdout
        self.assertRegex(out, r"-- scrub: GB/s by CPUs clearing at once")
        self.assertRegex(out, r"\n(stosb|orig|stosq_all) +[\d.]+")
        self.assertIn(("scrub", "cpus=1"), m.passes)

    def test_scrub_cpus_limits(self):
        r = run("suite=scrub", "scrub=4M", "reps=1", "variants=stosb", "cpus=1")
        self.assert_clean(r)
        self.assertRegex(r.first("scrub_plan"), r"^scrub counts=1 nodes=\d+ region=4194304$")
        self.assertEqual(len(r.all("scrub")), 1)

    def assert_tallies(self, r, windows_per_sample=1):
        """Each disturbance line's new counts agree with themselves and the
        log: samples kept are the pass's figures, retimes stay within the
        bound, per-CPU disturbed windows are the retimed plus the kept."""
        bound = int(grammar.compiled("linux_retime").match(r.first("linux_retime")).group(1))
        rx = grammar.compiled("disturbance")
        for line in r.all("disturbance"):
            with self.subTest(line=line):
                g = rx.match(line).groups()
                self.assertIsNotNone(g[6], "no retime counts")
                samples, retimed, kept = (int(x) for x in g[6:9])
                cpus, cut = P.parse_cpu_counts(g[9])
                self.assertFalse(cut)
                self.assertLessEqual(kept, samples)
                self.assertLessEqual(retimed, samples * bound)
                if windows_per_sample == 1:
                    self.assertEqual([c for c, _ in cpus], [int(r.first("linux_release").split("cpu=")[1].split()[0])])
                    self.assertEqual(sum(n for _, n in cpus), retimed + kept)

    def test_cycles_gating_and_retime_counts(self):
        """The cycles line says what this machine allows, as the kernel
        answers perf_event_open for user-only cycles; with cycles there is a
        cycles line per pass and variant, without none. The disturbance
        lines count every pass's samples: as many as its value lines."""
        r = run("suite=xen", "reps=3", "passes=l1,l2")
        self.assert_clean(r)
        signals = grammar.compiled("linux_retime").match(r.first("linux_retime")).group(2)
        self.assertTrue(signals.startswith("cpu-clock"), signals)
        switches = perf_errno(PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CONTEXT_SWITCHES, False)
        self.assertEqual("switches" in signals.split(","), switches is None, signals)
        if switches is not None:
            self.assertIn("perf_event_open(context-switches): %s" % os.strerror(switches),
                          r.first("linux_retime"))
        err = perf_errno(PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES, True)
        source, none = r.first("cycles_source"), r.first("cycles_none")
        names = r.first("variants").split(":")[1].split()
        got = [grammar.compiled("cycles").match(l).groups() for l in r.all("cycles")]
        if err is None:
            self.assertIsNone(none, "perf_event_open gives this test cycles")
            self.assertRegex(source, r"^cycles source=perf-cycles ref=")
            self.assertEqual([(g[1], g[2], g[3]) for g in got],
                             [(p, n, "3") for p in ("l1", "l2") for n in names])
            for g in got:
                self.assertNotEqual(g[7], "?", g)
        else:
            self.assertIsNone(source)
            self.assertIn("perf_event_open(cycles, user only): %s" % os.strerror(err), none)
            self.assertEqual(got, [])
        dist = [grammar.compiled("disturbance").match(l).groups() for l in r.all("disturbance")]
        self.assertEqual([(g[1], int(g[6])) for g in dist],
                         [("l1", 3 * len(names)), ("l2", 3 * len(names))])
        self.assert_tallies(r)
        m = self.assert_report_reads(r)
        self.assertEqual([d["samples"] for d in m.disturbances], [3 * len(names)] * 2)

    def test_cycles_off(self):
        """cycles=off: one line says so, no cycles lines; samples are still
        checked for disturbance."""
        r = run("suite=xen", "reps=1", "passes=l1", "cycles=off")
        self.assert_clean(r)
        self.assertEqual(r.all("cycles_none"), ["cycles: none (cycles=off)"])
        self.assertEqual(r.all("cycles") + r.all("cycles_source"), [])
        self.assertTrue(r.first("linux_retime"))
        self.assert_tallies(r)
        bad = run("suite=xen", "cycles=maybe")
        self.assertEqual(bad.status, 2)
        self.assertEqual(bad.first("option_error"),
                         "option error: cycles=: unknown 'maybe'; valid: on off")

    def test_scrub_counts_every_cpu(self):
        """suite=scrub: a disturbance line lists every CPU of the step."""
        ncpus = len(os.sched_getaffinity(0))
        r = run("suite=scrub", "scrub=4M", "reps=1", "variants=stosb")
        self.assert_clean(r)
        rx = grammar.compiled("disturbance")
        for line in r.all("disturbance"):
            g = rx.match(line).groups()
            count = int(re.match(r"cpus(\d+)", g[1]).group(1))
            cpus, _ = P.parse_cpu_counts(g[9])
            self.assertEqual(len(cpus), count, line)
            self.assertEqual(len({c for c, _ in cpus}), count, line)
            self.assertEqual(int(g[6]), 1, line)
        plan = grammar.compiled("scrub_plan").match(r.first("scrub_plan"))
        steps = len(plan.group(1).split(",")) + (int(plan.group(2)) > 1)
        self.assertEqual(len(r.all("disturbance")), steps)
        self.assert_tallies(r, windows_per_sample=ncpus)

    def test_progress_on_a_terminal_and_into_a_pipe(self):
        """stderr as a terminal shows one redrawn progress line; into a pipe,
        one line as each pass first runs, its percent at most 100 and its
        times whole seconds; stdout stays the clean log either way."""
        args = [TOOL, "suite=xen", "reps=30", "passes=l2,l2f"]
        plain = subprocess.run(args, capture_output=True, text=True, timeout=300)
        lines = plain.stderr.splitlines()
        self.assertEqual([re.sub(r"\[.*?\] | +\d+s.*$", "", l) for l in lines],
                         ["clear L2 w/o flush", "clear L2 w/ flush"], plain.stderr)
        for line in lines:
            m = re.match(r"\[\s*(\d+)%\] clear L2 w/o? flush  (\d+)s(?:, ~(\d+)s left)?$", line)
            self.assertTrue(m, line)
            self.assertLessEqual(int(m.group(1)), 100, line)
            self.assertLess(int(m.group(2)), 300, line)
        self.assertNotIn("\r", plain.stderr)
        master, slave = pty.openpty()
        try:
            proc = subprocess.run(args, stdout=subprocess.PIPE, stderr=slave,
                                  text=True, timeout=300)
            os.close(slave)
            slave = None
            chunks = []
            while True:
                try:
                    data = os.read(master, 65536)
                except OSError:
                    break
                if not data:
                    break
                chunks.append(data)
        finally:
            if slave is not None:
                os.close(slave)
            os.close(master)
        shown = b"".join(chunks).decode(errors="replace")
        self.assertEqual(proc.returncode, 0)
        self.assertRegex(shown, r"\[\s*\d+%\] clear L2 w/o flush rep \d+/30 \w+")
        for line in proc.stdout.splitlines():
            self.assertTrue(TAG.match(line), line)


def help_options(tool):
    """{key: value form} from a program's --help, its option lines."""
    out = subprocess.run([tool, "--help"], capture_output=True, text=True, timeout=60)
    assert out.returncode == 0 and out.stderr == "", out
    return dict(re.findall(r"^  (\w+)=(\S+)$", out.stdout, re.M))


def documented_options():
    """The Options table of docs/running.md: {key: {"programs", "names"}}, with programs
    from "kernel only" / "pagebench-linux only" and the a|b|c names of the
    first column, each name with the programs of its own row."""
    with open(os.path.join(REPO, "docs", "running.md")) as f:
        text = f.read()
    table = text.split("| Option | Meaning | Default |\n|---|---|---|\n", 1)[1]
    table = table.split("\n\n", 1)[0]
    keys = {}
    for row in table.splitlines():
        first, meaning = row.split(" | ")[:2]
        programs = ({"kernel"} if meaning.startswith("kernel only") else
                    {"linux"} if meaning.startswith("pagebench-linux only") else
                    {"kernel", "linux"})
        for key, value in re.findall(r"`(\w+)=([^`]*)`", first):
            k = keys.setdefault(key, {"programs": set(), "names": {}})
            k["programs"] |= programs
            if re.fullmatch(r"[a-z0-9-]+(\\\|[a-z0-9-]+)*", value):
                for name in value.split("\\|"):
                    k["names"].setdefault(name, set()).update(programs)
    return keys


def documented_defaults():
    """{key: default} of docs/running.md's Options table, where the Default
    column starts with a value in backquotes."""
    with open(os.path.join(REPO, "docs", "running.md")) as f:
        text = f.read()
    table = text.split("| Option | Meaning | Default |\n|---|---|---|\n", 1)[1]
    out = {}
    for row in table.split("\n\n", 1)[0].splitlines():
        cells = row.strip("|").split(" | ")
        m = re.match(r"`([^`]+)`", cells[-1].strip())
        if m:
            for key in re.findall(r"`(\w+)=", cells[0]):
                out[key] = m.group(1)
    return out


class OptionsDocumented(unittest.TestCase):
    """--help comes from the parser's own table, so docs/running.md's Options table
    is checked against it: no option the parser lacks, none it leaves out,
    each for the same programs, and the same names where it lists them."""

    def test_help_lists_every_option(self):
        """cpus= and scrub= were missing from the hand-written help."""
        linux = help_options(TOOL)
        for key in ("cpus", "scrub", "cpu", "suite", "sizes"):
            self.assertIn(key, linux)
        for key in ("console", "exit", "tsc", "watchdog"):
            self.assertNotIn(key, linux)
        kernel = help_options(CPUID_TOOL)
        self.assertIn("watchdog", kernel)
        self.assertNotIn("cpu", kernel)

    def test_documented_table_matches_the_parser(self):
        helps = {"linux": help_options(TOOL), "kernel": help_options(CPUID_TOOL)}
        parser = {}
        for program, options in helps.items():
            for key, form in options.items():
                k = parser.setdefault(key, {"programs": set(), "names": {}})
                k["programs"].add(program)
                if re.fullmatch(r"[a-z0-9-]+(\|[a-z0-9-]+)*", form):
                    for name in form.split("|"):
                        k["names"].setdefault(name, set()).add(program)
        documented = documented_options()
        self.assertEqual(sorted(documented), sorted(parser),
                         "docs/running.md's Options table vs the parser's keys")
        # A default the table gives as a value is the one --help says.
        helped = dict(help_defaults(CPUID_TOOL), **help_defaults(TOOL))
        for key, value in sorted(documented_defaults().items()):
            with self.subTest(default=key):
                self.assertTrue(helped[key] == value or
                                helped[key].startswith(value + " "),
                                "running.md: %s, --help: %s" % (value, helped[key]))
        for key in sorted(parser):
            with self.subTest(key=key):
                self.assertEqual(documented[key]["programs"], parser[key]["programs"])
                if parser[key]["names"]:
                    self.assertEqual(documented[key]["names"], parser[key]["names"])


def help_defaults(tool):
    """{key: the text after "Default:"} from a program's --help, its
    wrapped lines joined."""
    out = subprocess.run([tool, "--help"], capture_output=True, text=True, timeout=60)
    assert out.returncode == 0 and out.stderr == "", out
    defaults, key = {}, None
    for line in out.stdout.splitlines():
        m = re.match(r"^  (\w+)=\S+$", line)
        if m:
            key, text = m.group(1), []
            continue
        if key and line.startswith("      "):
            text.append(line.strip())
            m = re.search(r"\. Default: (.*)\.$", " ".join(text))
            if m:
                defaults[key] = m.group(1)
    return defaults


def plan_line(*args):
    """pagebench-linux's plan line for args, read as it is printed; the
    run is stopped there, before it measures anything."""
    proc = subprocess.Popen([TOOL] + list(args), stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    try:
        for line in proc.stdout:
            if re.match(r"^\(\w+\) plan ", line):
                return line.rstrip("\n")
    finally:
        proc.kill()
        proc.communicate()
    raise AssertionError("pagebench-linux %s printed no plan line" % " ".join(args))


def plan_words(line):
    return dict(re.findall(r" (\w+)=(\S+)", line))


def as_ms(t):
    """A time as --help and the options write it, 30s or 1000ms, in ms."""
    m = re.fullmatch(r"(\d+)(ms|s)", t)
    assert m, t
    return int(m.group(1)) * (1000 if m.group(2) == "s" else 1)


class HelpDefaults(unittest.TestCase):
    """The defaults --help prints are the ones a run takes: each run is
    stopped at its plan line, which says the suite, reps and time= or
    precision= and budget= the finished options carry. Each run takes
    under 0.2s (AMD EPYC Zen 5 VM)."""
    GROUPS = ("fast", "linux", "boot")

    @classmethod
    def setUpClass(cls):
        if not os.access(TOOL, os.X_OK):
            raise AssertionError("%s is not built: run make" % TOOL)
        cls.help = help_defaults(TOOL)

    def test_a_run_without_options(self):
        line = plan_line()
        words = plan_words(line)
        self.assertTrue(line.startswith("(%s) plan " % self.help["tag"]), line)
        self.assertEqual(words["suite"], self.help["suite"])
        self.assertEqual(words["reps"], "auto")
        self.assertTrue(self.help["reps"].startswith("epochs until time= is spent"),
                        self.help["reps"])
        self.assertEqual(words["time"], "%dms" % as_ms(self.help["time"]))
        self.assertNotIn("precision", words)

    def test_precision_and_budget_default_without_time(self):
        # Each has its default where the other is given without time=.
        for key, other, value in (("precision", "budget", "500ms"),
                                  ("budget", "precision", "2%")):
            with self.subTest(key=key):
                self.assertIn(key, self.help)
                given, _, when = self.help[key].partition(" ")
                self.assertEqual(when, "where given without time=")
                words = plan_words(plan_line("%s=%s" % (other, value)))
                self.assertNotIn("time", words)
                self.assertEqual(words[other], value)
                if key == "budget":
                    self.assertEqual(words[key], "%dms" % as_ms(given))
                else:
                    self.assertEqual(words[key], given)

    def test_a_suite_with_its_own_reps(self):
        # "... (xen 3, scrub 3, strings 11)": every suite that differs.
        own = dict((n, int(r)) for n, r in
                   re.findall(r"(\w+) (\d+)", self.help["reps"].partition("(")[2]))
        self.assertIn("xen", own)
        for suite in ("xen", "strings"):
            with self.subTest(suite=suite):
                words = plan_words(plan_line("suite=" + suite))
                self.assertEqual(words["reps"], str(own[suite]))


def start_stopped_later(args, **kw):
    """pagebench-linux with args, its stdout a pipe; returns (process, the
    lines read) once its second epoch line shows it inside the suite with
    one epoch of figures logged (the first, n=0, comes before any)."""
    proc = subprocess.Popen([TOOL] + list(args), stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, **kw)
    seen = []
    for line in proc.stdout:
        seen.append(line)
        if ") epoch suite=" in line and " n=0 " not in line:
            return proc, seen
    proc.wait()
    raise AssertionError("no epoch line: %s" % "".join(seen[-5:]))


class InterruptedRun(unittest.TestCase):
    """Ctrl-C (issue 38): the run stops at its next safe point, and its log
    ends with stopped: and a done: line that says it was interrupted, and
    how far it had come; status 128 + the signal; a second signal ends it
    at once. pagebench-report marks such a log incomplete, on stdout and
    in --json, whatever -q says (it printed full answers before)."""
    ARGS = ("suite=clear", "time=30s", "log=-")

    @classmethod
    def setUpClass(cls):
        if not os.access(TOOL, os.X_OK):
            raise AssertionError("%s is not built: run make" % TOOL)
        proc, seen = start_stopped_later(cls.ARGS)
        proc.send_signal(signal.SIGINT)
        # Through the file objects: what they have read ahead is theirs
        # (communicate() would read the descriptors); stderr is a few lines.
        out, cls.err = proc.stdout.read(), proc.stderr.read()
        cls.status, cls.log = proc.wait(timeout=60), "".join(seen) + out
        cls.lines = [TAG.match(l).group(2) for l in cls.log.splitlines()]

    def test_log_ends_interrupted(self):
        self.assertEqual(self.status, 128 + signal.SIGINT, self.err[-2000:])
        for line in self.lines:
            self.assertIsNotNone(grammar.classify(line), "undocumented: %r" % line)
        kinds = [grammar.classify(l) for l in self.lines]
        self.assertEqual(kinds[-3:], ["stopped", "runtime", "done"])
        self.assertRegex(self.lines[-3], r"^stopped: interrupted by SIGINT, during: clear ")
        self.assertRegex(self.lines[-1], r"^done: interrupted by SIGINT at (\d|[1-9]\d|100)% "
                         r"of the run, 0 failures$")
        # A run cut short answers nothing, as the module's.
        self.assertNotIn("answer", kinds)
        self.assertIn("interrupted by SIGINT at", self.err)

    def test_report_says_incomplete(self):
        with tempfile.TemporaryDirectory() as tmp:
            path = os.path.join(tmp, "int.log")
            with open(path, "w") as f:
                f.write(self.log)
            v = subprocess.run([REPORT, "verdict", "-q", path], capture_output=True,
                               text=True, timeout=300)
            j = subprocess.run([REPORT, "verdict", "--json", "-q", path,
                                os.path.join(REPO, "tests", "fixtures", "answer", "emr-a.log"),
                                os.path.join(REPO, "tests", "fixtures", "report",
                                             "xen-aorus.log")],
                               capture_output=True, text=True, timeout=300)
        self.assertEqual(v.returncode, 0, v.stderr)
        head = v.stdout.splitlines()[:2]
        self.assertEqual(head[0], "== int.log")
        self.assertRegex(head[1], r"^incomplete: interrupted by SIGINT at \d+% of the run$")
        self.assertEqual(j.returncode, 0, j.stderr)
        got = {m["machine"]: (m["complete"], m["incomplete"])
               for m in json.loads(j.stdout)["machines"]}
        self.assertEqual(got["emr-a.log"], (True, None))
        self.assertEqual(got["xen-aorus.log"], (True, None))
        self.assertFalse(got["int.log"][0])
        self.assertRegex(got["int.log"][1], r"^interrupted by SIGINT at \d+% of the run$")

    def test_sigterm_into_a_file(self):
        """SIGTERM, the log in a file: 143, and the terminal's last line
        gives the done: line as the log has it."""
        with tempfile.TemporaryDirectory() as tmp:
            path = os.path.join(tmp, "x.log")
            proc = subprocess.Popen([TOOL, "suite=clear", "time=30s", "log=" + path],
                                    stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
            for _ in range(600):
                if os.path.exists(path):
                    with open(path) as f:
                        if ") epoch suite=" in f.read():
                            break
                time.sleep(0.05)
            proc.send_signal(signal.SIGTERM)
            out, err = proc.communicate(timeout=60)
            with open(path) as f:
                last = f.read().splitlines()[-1]
        self.assertEqual(proc.returncode, 128 + signal.SIGTERM, err)
        self.assertRegex(last, r"^\(PB\) done: interrupted by SIGTERM at \d+% of the run, "
                         r"0 failures$")
        self.assertIn("answer: none (the run was interrupted", out)
        self.assertTrue(out.endswith("log: %s (%s)\n" % (path, last[len("(PB) "):])), out)

    def test_second_signal_ends_at_once(self):
        """The first SIGINT while the run cannot reach a safe point (its
        log into a pipe nobody reads: the write blocks) only asks; the
        second ends the program by the signal itself."""
        proc, _ = start_stopped_later(self.ARGS)
        fd = proc.stdout.fileno()
        for _ in range(600):        # until the pipe (64 KiB) is full and the writer waits
            buf = bytearray(4)
            fcntl.ioctl(fd, termios.FIONREAD, buf)
            if int.from_bytes(buf, sys.byteorder) >= 60 << 10:
                break
            time.sleep(0.05)
        time.sleep(0.5)
        proc.send_signal(signal.SIGINT)
        time.sleep(0.3)
        self.assertIsNone(proc.poll(), "the first SIGINT ended a run that could not stop")
        proc.send_signal(signal.SIGINT)
        try:
            self.assertEqual(proc.wait(timeout=10), -signal.SIGINT)
        finally:
            proc.kill()
            proc.communicate()

    def test_help_documents_the_status(self):
        out = subprocess.run([TOOL, "--help"], capture_output=True, text=True).stdout
        self.assertRegex(out, r"130, 143 +interrupted by SIGINT \(Ctrl-C\) or SIGTERM")


class ProgressNames(unittest.TestCase):
    """Progress into a pipe names each pass once, as it first runs, even
    where a suite builds the pass's name in a buffer of its own
    (suite=strings' block names, suite=scrub's CPU counts): the host keeps
    copies, not the pointers (issue 38: the strings blocks after the
    first of each op, and scrub's cpus=2, were never shown, and under
    AddressSanitizer the run stopped with a stack-use-after-scope)."""
    SANITIZED = os.path.join(REPO, "build", "san", "bin", "pagebench-linux")
    BLOCK = re.compile(r"^strings (memset|memcpy) ((?:tput|lat) dst=\d+(?: src=\d+)?):$")

    def shown(self, stderr):
        return [re.sub(r"^\[\s*\d+%\] | +\d+s(?:, ~\d+s left)?$", "", l)
                for l in stderr.splitlines()]

    def strings_blocks(self, tool):
        proc = subprocess.run([tool, "suite=strings", "reps=1", "sizes=0,64", "log=-"],
                              capture_output=True, text=True, timeout=300,
                              env=dict(os.environ, ASAN_OPTIONS="detect_leaks=0"))
        self.assertEqual(proc.returncode, 0, proc.stderr[-3000:])
        blocks = [" ".join(m.groups()) for m in
                  (self.BLOCK.match(TAG.match(l).group(2)) for l in proc.stdout.splitlines())
                  if m]
        self.assertEqual(len(blocks), 6 + 18)
        shown = self.shown(proc.stderr)
        for b in blocks:
            self.assertEqual(shown.count(b), 1, "%r in %r" % (b, shown))

    def test_strings_blocks_each_shown(self):
        self.strings_blocks(TOOL)

    def test_strings_under_address_sanitizer(self):
        """The same run, built with gcc's ASan and UBSan (make sanitized,
        which make test runs)."""
        if not os.access(self.SANITIZED, os.X_OK):
            self.fail("%s is not built: run make sanitized (make test does)"
                      % self.SANITIZED)
        self.strings_blocks(self.SANITIZED)

    def test_scrub_counts_each_shown(self):
        if len(os.sched_getaffinity(0)) < 2:
            self.skipTest("one CPU: suite=scrub runs one count")
        proc = subprocess.run([TOOL, "suite=scrub", "scrub=1M", "reps=2", "log=-"],
                              capture_output=True, text=True, timeout=300)
        self.assertEqual(proc.returncode, 0, proc.stderr)
        shown = self.shown(proc.stderr)
        self.assertEqual(shown.count("scrub cpus=1 local"), 1, shown)
        self.assertEqual(shown.count("scrub cpus=2 local"), 1, shown)


class StringsSuite(unittest.TestCase):
    """suite=strings under pagebench-linux (issue 12): the documented lines
    in their order, every variant the CPU offers, gating, option errors,
    and the report reading it all."""

    @classmethod
    def setUpClass(cls):
        if not os.access(TOOL, os.X_OK):
            raise AssertionError("%s is not built: run make" % TOOL)

    def test_strings_small(self):
        sizes = [0, 1, 8, 64]
        r = run("suite=strings", "sizes=64,1,0,8", "reps=3")
        LinuxRunner.assert_clean(self, r)
        self.assertEqual(r.first("plan"), "plan suite=strings reps=3 passes=none")
        strings_log.check(self, r.lines, sizes, 3, r.flags())
        LinuxRunner.assert_variant_lines(self, r, [v for v in variant_rows()
                                                   if v["shape"] == "string"])
        # pagebench-linux says what disturbed each block, like each pass.
        self.assertEqual(len(r.all("disturbance")), 6 + 18 + 2)
        self.assertEqual(r.all("value"), [])
        m = LinuxRunner.assert_report_reads(self, r)
        self.assertEqual(len(m.strings.blocks), 6 + 18 + 2)
        out = subprocess.run([REPORT, "summary", "-"], input=r.stdout,
                             capture_output=True, text=True, timeout=120)
        self.assertIn("-- strings memcpy lat dst=7 src=1", out.stdout)
        # Each block's leaders, or why none: the engine's ratios over the
        # three reps, each rep its epoch, whatever this machine measured.
        leaders = re.findall(r"(?m)^leader: (?:none \((.+)\): no variant leads at any "
                             r"size|\w+ (?:at \d+|\d+-\d+).* bytes \(a leader keeps)", out.stdout)
        self.assertEqual(len(leaders), 6 + 18, out.stdout)
        self.assertRegex(out.stdout, r"zero length, random: movsb \(REP, rcx=0\) ")

    def test_strings_disable_gates(self):
        r = run("suite=strings", "sizes=8", "reps=1", "disable=avx512bw")
        LinuxRunner.assert_clean(self, r)
        for op in ("memset", "memcpy"):
            self.assertIn("skipped: avx512_t (%s): needs avx512bw (turned off by "
                          "disable=avx512bw)" % op, r.lines)
        strings_log.check(self, r.lines, [8], 1, r.flags(), disabled=("avx512bw",))
        self.assertFalse([l for l in r.all("strings_value") if l.startswith(" avx512_t ")])

    @unittest.skipUnless(shutil.which("qemu-x86_64"),
                         "qemu-x86_64 (Debian qemu-user) is not installed")
    def test_strings_gated_and_forced_without_avx512(self):
        """QEMU's user-mode emulator has no AVX-512: the avx512_t routines
        are skipped with the reason; forced, each faults once and the run
        goes on."""
        def qemu(*args):
            return Run(args, subprocess.run(
                ["qemu-x86_64", "-cpu", "max", TOOL] + list(args),
                capture_output=True, text=True, timeout=600))
        r = qemu("suite=strings", "sizes=0,8", "reps=2")
        self.assertEqual(r.flags()["avx512bw"], "0")
        LinuxRunner.assert_clean(self, r)
        strings_log.check(self, r.lines, [0, 8], 2, r.flags())
        for op in ("memset", "memcpy"):
            self.assertIn("skipped: avx512_t (%s): needs avx512bw" % op, r.lines)
        r = qemu("suite=strings", "sizes=8", "reps=1", "force=avx512bw,avx512f",
                 "variants=avx512_t,stosb,movsb")
        self.assertEqual(r.status, 1, r.stderr)
        faults = r.all("fault")
        self.assertEqual(len(faults), 2, r.lines)
        for op, fault in zip(("memset", "memcpy"), faults):
            self.assertRegex(fault, r"^fault: suite=%s pass=strings tput dst=0( src=0)? "
                             r"n=8 variant=avx512_t SIGILL \(illegal instruction\) "
                             r"rip=0x[0-9a-f]+$" % op)
        values = [grammar.compiled("strings_value").match(l).group(1)
                  for l in r.all("strings_value")]
        self.assertEqual(sorted(set(values)), ["movsb", "stosb"])
        self.assertEqual(values.count("stosb"), 2 * 3)
        self.assertEqual(r.lines[-1], "done: 2 failures")

    def test_strings_option_errors(self):
        cases = {
            "sizes=4097": r"^option error: sizes=: bad size '4097'; valid: byte "
                          r"counts from 0 to 4096, comma-separated$",
            "sizes=8,x": r"^option error: sizes=: bad size 'x'; valid: byte counts",
            "sizes=8,8": r"^option error: sizes=: 8 given twice$",
            "reps=32": r"^option error: reps=: suite strings takes 1 to 31",
            "passes=l1": r"^option error: passes=: suite strings has no passes$",
        }
        for arg, rx in cases.items():
            with self.subTest(arg=arg):
                r = run("suite=strings", arg)
                self.assertEqual(r.status, 2)
                errors = r.all("option_error")
                self.assertEqual(len(errors), 1, r.lines)
                self.assertRegex(errors[0], rx)
                self.assertEqual(r.all("strings_value"), [])
                self.assertEqual(r.lines[-1], "done: 1 failure")
        r = run("sizes=8")
        self.assertEqual(r.all("option_error"),
                         ["option error: sizes=: only suite=strings measures sizes"])

    def test_strings_report_diff_two_runs(self):
        """Two runs of the same machine: diff compares every figure by the
        engine's ratio over the reps, and the HTML draws a chart per block."""
        logs = []
        with tempfile.TemporaryDirectory() as d:
            for i in (1, 2):
                r = run("suite=strings", "sizes=1,64", "reps=5", "variants=stosb,movsb,avx_t")
                LinuxRunner.assert_clean(self, r)
                path = os.path.join(d, "run%d.log" % i)
                with open(path, "w") as f:
                    f.write(r.stdout)
                logs.append(path)
            out = subprocess.run([REPORT, "diff", "--unit", "ticks"] + logs,
                                 capture_output=True, text=True, timeout=120)
            self.assertEqual(out.returncode, 0, out.stderr)
            rows = [l for l in out.stdout.splitlines()
                    if re.match(r"^mem(set|cpy)\s", l)]
            # memset: 6 blocks x 2 sizes x 2 variants (stosb, avx_t) + zero 2 x 3
            # memcpy: 18 x 2 x 2 + 2 x 3
            self.assertEqual(len(rows), 6 * 2 * 2 + 6 + 18 * 2 * 2 + 6)
            # A ratio over the 5 reps, or why none (a call net of its
            # overhead can take 0 ticks).
            for row in rows:
                self.assertRegex(row, r"(% [ ~] \[\S+%, \S+%\] \(epochs 5\)| \? \(no ratio: .+\))$")
            page = os.path.join(d, "r.html")
            out = subprocess.run([REPORT, "html", "-o", page] + logs,
                                 capture_output=True, text=True, timeout=120)
            self.assertEqual(out.returncode, 0, out.stderr)
            with open(page) as f:
                text = f.read()
        self.assertEqual(text.count('<figure class="strings-chart"'), 2 * (6 + 18))


if __name__ == "__main__":
    unittest.main()


class StaticBinary(unittest.TestCase):
    """build/bin/pagebench-linux-static: one file for any x86-64 Linux."""
    STATIC = os.path.join(REPO, "build", "bin", "pagebench-linux-static")

    def test_not_dynamic(self):
        if not shutil.which("ldd"):
            self.skipTest("no ldd")
        r = subprocess.run(["ldd", self.STATIC], capture_output=True, text=True)
        self.assertIn("not a dynamic executable", r.stdout + r.stderr)

    def test_no_interpreter(self):
        """No PT_INTERP: the kernel runs it without a dynamic loader."""
        with open(self.STATIC, "rb") as f:
            elf = f.read(1 << 20)
        self.assertEqual(elf[:4], b"\x7fELF")
        phoff = int.from_bytes(elf[32:40], "little")
        phentsize = int.from_bytes(elf[54:56], "little")
        phnum = int.from_bytes(elf[56:58], "little")
        types = [int.from_bytes(elf[phoff + i * phentsize:][:4], "little")
                 for i in range(phnum)]
        PT_INTERP = 3
        self.assertNotIn(PT_INTERP, types)

    def test_runs_with_an_empty_environment(self):
        r = subprocess.run(["env", "-i", self.STATIC, "suite=xen", "reps=1", "passes=l1"],
                           capture_output=True, text=True, timeout=120)
        self.assertEqual(r.returncode, 0, r.stderr)
        run = Run([], r)
        self.assertEqual(run.lines[-1], "done: 0 failures")
        self.assertIn("L1 w/o flush:", run.lines)
