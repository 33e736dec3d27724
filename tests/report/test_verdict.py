"""verdict and the commands that name a winner (summary, winners, html,
--json, --format commit), fleets and the per-byte diff of
scripts/pagebench-report (docs/report.md, "verdict", "Fleets", "diff").

The report decides nothing: every winner it names is an answer line's
(the log's, or build/bin/pagebench-decide's for a log without them). The
logs are those of tests/fixtures/verdict/ (gen-fixtures.py there) and
tests/fixtures/answer/.
"""
import html
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import unittest
from html.parser import HTMLParser

sys.dont_write_bytecode = True
HERE = os.path.dirname(os.path.abspath(__file__))
TESTS = os.path.dirname(HERE)
ROOT = os.path.dirname(TESTS)
FIX = os.path.join(TESTS, "fixtures", "verdict")
REPO = os.path.dirname(TESTS)
# shared/ lies beside the checkout; SHARED_DIR points elsewhere (a
# worktree deeper down).
DUMPS = os.path.join(os.environ.get("SHARED_DIR") or
                     os.path.join(ROOT, "..", "shared"), "cpuid")
CPUID_TOOLS = [os.path.join(ROOT, "build", d, "pagebench-cpuid")
               for d in ("bin", "host")]
sys.path.insert(0, os.path.join(ROOT, "scripts"))
sys.path.insert(0, os.path.join(TESTS, "lib"))
from report_tool import run_tool  # noqa: E402

from pbreport import commit  # noqa: E402
from pbreport import decided  # noqa: E402
from pbreport import fleet as F  # noqa: E402
from pbreport import picks as PK  # noqa: E402
from pbreport import parse as P  # noqa: E402

ANSWER = os.path.join(TESTS, "fixtures", "answer", "emr-a.log")


def matrix_of(page):
    """The engine's matrices an HTML page shows, as text."""
    return "\n".join(html.unescape(p) for p in
                     re.findall(r'<pre class="answer">(.*?)</pre>', page, re.S))


def fx(name):
    return os.path.join(FIX, name)


def verdict_json(*paths, extra=()):
    rc, out, err = run_tool("verdict", "--json", "-q", *extra, *paths)
    if rc != 0:
        raise AssertionError("verdict failed (%d): %s" % (rc, err))
    return json.loads(out)


GROUPS = ("fast", "report")


class BadInputTest(unittest.TestCase):
    def test_truncated_log(self):
        rc, out, err = run_tool("verdict", "--explain", fx("truncated.log"))
        self.assertEqual(rc, 0, err)
        self.assertNotIn("Traceback", err)
        self.assertIn("the log ends early", err)
        self.assertIn("-- L3 w/o flush (pass=l3)", out)

    def test_no_data(self):
        rc, out, err = run_tool("verdict", "--explain", stdin=b"garbage\n")
        self.assertEqual(rc, 1)
        self.assertIn("no usable data", err)

    def test_the_old_version_options_are_gone(self):
        """The eras are the answer lines'; no rule is evaluated here for
        a version asked for."""
        rc, out, err = run_tool("verdict", "--linux", "6.12", fx("hold.log"))
        self.assertEqual(rc, 2)
        self.assertIn("unrecognized arguments: --linux", err)


class FleetTest(unittest.TestCase):
    def test_pdsh_stream_is_read_host_by_host(self):
        with open(fx("pdsh.log"), "rb") as fh:
            data = fh.read()
        hosts, left = F.split_prefixed(data)
        self.assertEqual([h for h, _ in hosts], ["nodea", "nodeb"])
        self.assertEqual(len(left), 1)          # pdsh's own ssh message
        with open(fx("hold.log"), "rb") as fh:
            self.assertEqual(hosts[0][1], fh.read())
        ms, ds = F.load([fx("pdsh.log")])
        self.assertEqual([m.name for m in ms], ["nodea", "nodeb"])
        self.assertTrue(any("not a host's pagebench line" in str(d)
                            for d in ds))
        # A plain log is not taken for a stream.
        with open(fx("hold.log"), "rb") as fh:
            self.assertIsNone(F.split_prefixed(fh.read()))

    def test_clush_prefix_as_clush_prints_it(self):
        # clush -w a,b CMD (no -b) prints "a: LINE" just as pdsh does.
        data = b"".join(b"%s: %s\n" % (h, ln) for ln in
                        open(fx("hold.log"), "rb").read().splitlines()
                        for h in (b"a.example", b"b-2"))
        hosts, left = F.split_prefixed(data)
        self.assertEqual([h for h, _ in hosts], ["a.example", "b-2"])
        self.assertEqual(left, [])

class EmulatedRunTest(unittest.TestCase):
    """What ran a log (its hot load line, cpu/hot_load.h) gives the
    verdict a caveat and the fleet a group of its own."""

    HOT = {"cpu": "hot load loads=1000 ticks=4083 ns=1.70 runs_on=cpu",
           "emulator": "hot load loads=1000 ticks=2220648 ns=925.27 "
                       "runs_on=emulator"}

    def logs(self, d, **kinds):
        """hold.log once per name, with the hot load line (or the
        hypervisor line) kinds gives it."""
        with open(fx("hold.log")) as f:
            text = f.read()
        paths = []
        for name, kind in kinds.items():
            t = text
            if kind == "tcg":
                t = t.replace("(PB) hypervisor: none",
                              "(PB) hypervisor: TCGTCGTCGTCG")
            elif kind:
                t = t.replace("(PB) memory usable",
                              "(PB) %s\n(PB) memory usable" % self.HOT[kind])
            self.assertNotEqual(t, text)
            paths.append(os.path.join(d, name + ".log"))
            with open(paths[-1], "w") as f:
                f.write(t)
        return paths

    def test_caveat_and_runs_on(self):
        with tempfile.TemporaryDirectory() as d:
            v = verdict_json(*self.logs(d, a="cpu", b="emulator", c="tcg"))
            plain = verdict_json(fx("hold.log"))["machines"][0]
        got = {m["machine"][:-len(".log")]: (m["runs_on"], m["caveat"])
               for m in v["machines"]}
        self.assertEqual(got["a"], ("cpu", None))
        self.assertEqual(got["b"][0], "emulator")
        self.assertIn("hot load 925.27 ns", got["b"][1])
        self.assertIn("instruction emulator, not a CPU", got["b"][1])
        self.assertEqual(got["c"][0], "tcg")
        self.assertIn("TCG translator", got["c"][1])
        self.assertEqual((plain["runs_on"], plain["caveat"]), (None, None))

    def test_commit_groups_keep_the_emulator_apart(self):
        with tempfile.TemporaryDirectory() as d:
            ms, _ = P.load(self.logs(d, a="cpu", b="emulator", c="cpu",
                                     e="emulator"))
        groups = sorted(sorted(m.name for m in g) for g in commit.groups(ms))
        self.assertEqual(groups, [["a.log", "c.log"], ["b.log", "e.log"]])

    def test_emulator_named_logs_without_hot_load(self):
        """The kernel under an emulating KVM, from before the hot load
        line: a real CPU's cpu line, and only the file's name says
        emulator: no CPU group, no advice; pagebench-linux's log of the
        same CPU a group of its own."""
        paths = [os.path.join(REPO, "tests", "fixtures", n) for n in (
            "report/qemu-kvm-emulator-epyc-2026-11-30.log",
            "report/qemu-kvm-emulator-xen-epyc-2026-11-30.log",
            "real/epyc-linux-cpu-2026-11-30.log")]
        ms, _ = P.load(paths)
        ms = [m for m in ms if m.has_data]
        decided.fill(ms)
        groups = [[m.name for m in g] for g in commit.groups(ms)]
        for g in groups:
            self.assertFalse(any("emulator" in n for n in g) and
                             any("linux-cpu" in n for n in g), groups)
        for m in ms[:2]:
            self.assertNotIn("hot_load", m.facts)
            self.assertTrue(m.answers)
            self.assertEqual({a.action for a in m.answers}, {"none"})
        rc, out, err = run_tool("verdict", "-q", "--format", "commit", *paths)
        self.assertEqual(rc, 0, err)
        # The two emulator runs are one group; the CPU's run a block alone.
        group, _, rest = out.partition("\nCPU: ")
        self.assertIn("Measured: 2 runs", " ".join(group.split()))
        self.assertIn("runs_on=emulator", " ".join(group.split()))
        self.assertNotIn("runs_on=emulator", rest)
        self.assertIn("pagebench-linux on Linux 6.18.44-fc-v857", " ".join(rest.split()))

    def test_a_real_emulator_log(self):
        """The kernel under this project's PVM KVM."""
        v = verdict_json(os.path.join(REPO, "tests", "fixtures", "real",
                                      "emr-kvm-emulator-hot-load-2026-12-01.log"))
        m = v["machines"][0]
        self.assertEqual(m["runs_on"], "emulator")
        self.assertIn("instruction emulator", m["caveat"])


class PerByteDiffTest(unittest.TestCase):
    def test_sizes_differ(self):
        rc, out, err = run_tool("diff", "-q", "--metric", "time",
                                fx("sizes-a.log"), fx("sizes-b.log"))
        self.assertEqual(rc, 0, err)
        self.assertTrue(out.startswith("per 4 KiB page: the machines' sizes "
                                       "differ"), out)
        self.assertIn("L1 w/o flush: sizes-a.log 24576 B, sizes-b.log "
                      "16384 B", out)
        self.assertIn("variant time (ns per 4 KiB page)", out)
        row = next(ln for ln in out.splitlines()
                   if re.search(r"L1 w/o flush\s+stosb", ln))
        # 600 ticks for 6 pages against 500 ticks for 4: +25 % per page.
        self.assertRegex(row, r"\+24\.\d\d%|\+25\.\d\d%")
        rc, out, err = run_tool("diff", "-q", "--per-call", "--metric",
                                "time", fx("sizes-a.log"), fx("sizes-b.log"))
        self.assertEqual(rc, 0, err)
        self.assertIn("per pass on request (--per-call)", out)
        row = next(ln for ln in out.splitlines()
                   if re.search(r"L1 w/o flush\s+stosb", ln))
        self.assertRegex(row, r"-16\.\d\d%|-17\.\d\d%")

    def test_same_sizes_stay_per_call(self):
        rc, out, err = run_tool("diff", "-q", "--metric", "time",
                                fx("hold.log"), fx("refute.log"))
        self.assertEqual(rc, 0, err)
        self.assertTrue(out.startswith("variant time (ns)"), out[:80])


class OneWinnerTest(unittest.TestCase):
    """summary, winners, verdict, --json, --explain and html name the
    answer's routine for the same pass and pick, and nothing else."""
    GROUPS = ("report",)

    def answers(self, path):
        ms, _ = P.load([path])
        decided.fill(ms)
        return ms[0]

    def check(self, path):
        m = self.answers(path)
        self.assertTrue(m.answers)
        cols = {fn: PK.columns(m.answers, fn) for fn in
                ("clear_page", "clear_pages", "copy_page")}
        rc, win, err = run_tool("winners", "-q", path)
        self.assertEqual(rc, 0, err)
        rc, summ, err = run_tool("summary", "-q", path)
        self.assertEqual(rc, 0, err)
        rc, doc, err = run_tool("verdict", "-q", "--json", path)
        self.assertEqual(rc, 0, err)
        js = {(a["fn"], a["pass"], a["kernel"], a["versions"], a["entry"]):
              (a["action"], a["routine"])
              for a in json.loads(doc)["machines"][0]["answers"]}
        rc, page, err = run_tool("html", "-q", path)
        self.assertEqual(rc, 0, err)
        n = 0
        for fn, cs in cols.items():
            for c in cs:
                for row, a in c.answers.items():
                    n += 1
                    self.assertEqual(js[(a.fn, a.pass_id, a.kernel,
                                         a.versions, a.entry)],
                                     (a.action, a.routine))
                    picks = ", ".join(w.text(fn) for w in c.who if any(
                        x.row == row and x.fn == fn and
                        (x.kernel, x.versions, x.entry) ==
                        (w.kernel, w.versions, w.entry) for x in m.answers))
                    line = next(l for l in win.splitlines()
                                if l.startswith(fn) and
                                " %s " % picks in l and
                                l.split()[1] == row[0])
                    self.assertIn(" %s " % (a.routine or "-"), line + " ")
                    if a.action == "switch":
                        self.assertIn("answer %s, %s: switch to %s " % (
                            fn, picks, a.routine), summ)
                    if a.action == "switch":
                        self.assertRegex(matrix_of(page), "→ ?%s[* ]" % a.routine)
        self.assertGreater(n, 3)
        self.assertNotIn("winner:", summ)
        self.assertNotIn("significant", win)

    def test_a_log_with_answer_lines(self):
        self.check(ANSWER)

    def test_a_log_the_engine_decides(self):
        self.check(fx("hold.log"))

    def test_scrub_steps(self):
        """summary's scrub steps ("cpus=2", "cpus=4 remote") end with the
        answers of the step (pass=cpus2, cpus4_remote), not "none"."""
        path = os.path.join(REPO, "tests", "fixtures", "real", "epyc-linux-cpu-scrub-2026-11-30.log")
        m = self.answers(path)
        steps = {a.pass_id for a in m.answers if a.fn == "scrub"}
        self.assertTrue(steps)
        rc, summ, err = run_tool("summary", "-q", path)
        self.assertEqual(rc, 0, err)
        self.assertNotIn("answer: none", summ)
        said = [l for l in summ.splitlines() if l.startswith("answer scrub, ")]
        self.assertEqual(len(said), len({(a.pass_id, a.kernel, a.versions, a.entry)
                                         for a in m.answers if a.fn == "scrub"}))
        for a in m.answers:
            if a.action == "switch":
                self.assertIn("switch to %s " % a.routine, "\n".join(said))

    def test_units(self):
        """ns per 4 KiB page and GB/s = 4096 / ns, in winners."""
        rc, win, err = run_tool("winners", "-q", ANSWER)
        self.assertEqual(rc, 0, err)
        rows = [l.split() for l in win.splitlines() if l.startswith("clear_page ")]
        self.assertTrue(rows)
        for r in rows:
            if r[-5] != "-":
                self.assertAlmostEqual(float(r[-4]), 4096 / float(r[-5]), 1)
            self.assertEqual(r[-1], "ns/page")


class HtmlVerdictTest(unittest.TestCase):
    """html opens with the answers and the claims, and says what the
    verdict and claims subcommands say."""

    class Page(HTMLParser):
        def __init__(self, text):
            super().__init__()
            self.sections, self.claims = [], {}
            self._cell = self._claim = self._machine_td = None
            self.feed(text)

        def handle_starttag(self, tag, attrs):
            a = dict(attrs)
            if tag == "section" and "id" in a:
                self.sections.append(a["id"])
            if tag == "tr" and a.get("class") == "claim":
                self._claim = a["data-id"]
            if tag == "summary" and self._claim and self._machine_td:
                self._cell = (self._claim, self._machine_td)
            if tag == "td":
                self._machine_td = a.get("data-machine")

        def handle_endtag(self, tag):
            if tag in ("td", "summary"):
                self._cell = None

        def handle_data(self, data):
            if self._cell:
                self.claims[self._cell] = data.strip()

    def test_opens_with_answers_and_claims(self):
        logs = [fx("hold.log"), fx("refute.log"), fx("undecided.log")]
        rc, page, err = run_tool("html", "-q", *logs)
        self.assertEqual(rc, 0, err)
        got = self.Page(page)
        self.assertEqual(got.sections[:2], ["answer", "claims"])
        self.assertLess(got.sections.index("claims"),
                        got.sections.index("machines"))
        self.assertNotIn('id="verdict"', page)
        self.assertNotIn('id="fleet"', page)
        rc, out, err = run_tool("claims", "--json", "-q", *logs)
        self.assertEqual(rc, 0, err)
        want = {(c["id"], r["machine"]): r["verdict"]
                for c in json.loads(out)["claims"] for r in c["results"]}
        self.assertEqual(got.claims, want)
        # The three logs were built to hold, to refute and to stay
        # undecided: the page shows each of those claim results.
        self.assertTrue({"holds", "refuted", "undecided"} <=
                        set(want.values()))


if __name__ == "__main__":
    unittest.main()
