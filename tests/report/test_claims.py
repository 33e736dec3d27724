"""claims of scripts/pagebench-report (docs/report.md, "claims"): the
claims table, and each claim holding, refuted and undecided on the logs of
tests/fixtures/verdict/ made for it."""
import json
import os
import subprocess
import sys
import tempfile
import unittest

sys.dont_write_bytecode = True
HERE = os.path.dirname(os.path.abspath(__file__))
TESTS = os.path.dirname(HERE)
ROOT = os.path.dirname(TESTS)
TOOL = os.path.join(ROOT, "scripts", "pagebench-report")
FIX = os.path.join(TESTS, "fixtures", "verdict")
sys.path.insert(0, os.path.join(ROOT, "scripts"))

from pbreport import claims as C  # noqa: E402

ISSUE_IDS = ("avx512-poor-hot", "erms-rep-stosb-only",
             "stosl-sometimes-faster", "avx-not-near-rep",
             "nt-or-clzero-from-l3", "fzrm-zero-length", "fsrm-short-movsb",
             "fsrs-short-stosb", "copy-page-c-hot", "prefetch-helps-cold")


def run_claims(*args):
    env = dict(os.environ, PYTHONDONTWRITEBYTECODE="1")
    r = subprocess.run([sys.executable, TOOL, "claims"] + list(args),
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       env=env, timeout=300)
    return r.returncode, r.stdout.decode(), r.stderr.decode()


def results(*logs, ids=()):
    args = ["--json", "-q"]
    for i in ids:
        args += ["--id", i]
    rc, out, err = run_claims(*(args + [os.path.join(FIX, n) for n in logs]))
    if rc != 0:
        raise AssertionError(err)
    doc = json.loads(out)
    return {c["id"]: {r["machine"]: r for r in c["results"]}
            for c in doc["claims"]}, doc


GROUPS = ("fast", "report")


class TableTest(unittest.TestCase):
    def test_the_issue_ids_are_there_with_who_quote_and_test(self):
        t = C.load_claims()
        for i in ISSUE_IDS:
            self.assertIn(i, t.ids())
        for c in t.claims:
            with self.subTest(claim=c.id):
                self.assertTrue(c.fields["who"])
                self.assertTrue(c.fields["quote"])
                self.assertTrue(c.fields["quote-status"])
                self.assertTrue(c.tests)
        self.assertGreater(len(t.claims), len(ISSUE_IDS),
                           "claims from the kernels' commit messages")

    def test_unverified_quotes_say_so(self):
        t = {c.id: c for c in C.load_claims().claims}
        for i in ("copy-page-c-hot", "prefetch-helps-cold"):
            self.assertNotEqual(t[i].fields["quote-status"], "exact")
        self.assertEqual(t["avx512-poor-hot"].fields["quote"],
                         "It is very little surprise that AVX-512 on Skylake "
                         "is poor.")

    def test_a_bad_table_is_refused(self):
        with tempfile.TemporaryDirectory() as d:
            p = os.path.join(d, "claims.txt")
            with open(p, "w") as fh:
                fh.write("id: x\nwho: y\nquote: q\nquote-status: exact\n"
                         "proposition: p\nquantifier: all\n"
                         "test: a=stosb b=stosq where=clear:lukewarm "
                         "expect=a<b\n")
            with self.assertRaisesRegex(C.ClaimsError, "bad selector"):
                C.load_claims(p)


class EvaluateTest(unittest.TestCase):
    def test_hold_refute_undecided(self):
        res, _ = results("hold.log", "refute.log", "undecided.log",
                         ids=("avx512-poor-hot", "clzero-faster-zen2"))
        for cid in ("avx512-poor-hot", "clzero-faster-zen2"):
            with self.subTest(claim=cid):
                r = res[cid]
                self.assertEqual(r["hold.log"]["verdict"], "holds")
                self.assertEqual(r["refute.log"]["verdict"], "refuted")
                self.assertEqual(r["undecided.log"]["verdict"], "undecided")
                # Close figures over 3 reps: the ratio's interval holds 1.
                self.assertRegex(r["undecided.log"]["why"],
                                 r"^1 of 2 cases not separated \(a/b \S+ \[0\.9\d+, "
                                 r"1\.0\d+\] over 3 epochs: it holds 1\)$")
        # The evidence carries the figures: refute.log's AVX-512 beats
        # everything in the hot L1 pass.
        ev = [e for e in res["avx512-poor-hot"]["refute.log"]["evidence"]
              if e["case"] == "L1 w/o flush"][0]
        self.assertEqual(ev["a"], "avx512_t")
        self.assertEqual(ev["relation"], "a<b")
        self.assertLess(ev["a_median"], ev["b_median"])
        # The engine's ratio of a over b, 8 reps (the first of an even
        # count left out), and each figure over its epochs.
        self.assertEqual(ev["epochs"], 7)
        self.assertTrue(ev["lo"] < ev["ratio"] < ev["hi"] < 1, ev)
        self.assertEqual(ev["delta_pct"], round(100 * (ev["ratio"] - 1), 2))
        self.assertTrue(ev["a_figure"][1] < ev["a_figure"][0] < ev["a_figure"][2], ev)
        self.assertLess(ev["a_figure"][0], ev["b_figure"][0])

    def test_conditions_give_no_data(self):
        res, _ = results("hold.log", ids=("fzrm-zero-length",
                                          "zen-movsb-aliasing",
                                          "fsrm-short-movsb"))
        r = res["fzrm-zero-length"]["hold.log"]
        self.assertEqual(r["verdict"], "no-data")
        self.assertIn("fzrm=0", r["why"])
        # Family 0x19 is in Zen2..Zen4, but the log has no strings figures.
        r = res["zen-movsb-aliasing"]["hold.log"]
        self.assertEqual(r["verdict"], "no-data")
        self.assertIn("no figures", r["why"])

    def test_strings_claims_on_a_strings_log(self):
        log = os.path.join(TESTS, "fixtures", "report",
                           "pb-strings-epyc-linux.log")
        rc, out, err = run_claims("--json", "-q", "--id",
                                  "erms-rep-stosb-only", log)
        self.assertEqual(rc, 0, err)
        r = json.loads(out)["claims"][0]["results"][0]
        self.assertIn(r["verdict"], ("holds", "refuted", "undecided"))
        cases = [e["case"] for e in r["evidence"]]
        self.assertTrue(any(c.startswith("memset tput n=") for c in cases))
        self.assertTrue(any(c.startswith("memcpy lat n=") for c in cases))

    def test_json_keys(self):
        _, doc = results("hold.log")
        c = doc["claims"][0]
        for k in ("id", "who", "quote", "results"):
            self.assertIn(k, c)
        for k in ("machine", "verdict", "evidence"):
            self.assertIn(k, c["results"][0])

    def test_unknown_id(self):
        rc, out, err = run_claims("--id", "nope", os.path.join(FIX,
                                                               "hold.log"))
        self.assertEqual(rc, 2)
        self.assertIn("unknown claim id nope", err)

    def test_2021_file(self):
        path = os.path.join(ROOT, "tests", "fixtures", "real", "xen-2021-clear-page.txt")
        rc, out, err = run_claims("--json", "-q", path)
        self.assertEqual(rc, 0, err)
        doc = json.loads(out)
        c = next(x for x in doc["claims"] if x["id"] == "avx512-poor-hot")
        aorus = next(r for r in c["results"]
                     if r["machine"] == "Aorus (Skylake)")
        # 3 reps, each its epoch: AVX-512 takes 3.5 times the best other's
        # time at every rep, and 3 epochs give an interval that says so.
        self.assertEqual(aorus["verdict"], "holds")
        self.assertEqual({(e["epochs"], e["relation"]) for e in aorus["evidence"]},
                         {(3, "a>b")})
        self.assertTrue(all(e["lo"] > 1 for e in aorus["evidence"]))


if __name__ == "__main__":
    unittest.main()
