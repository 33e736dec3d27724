"""The rows of rules/ that issue 26 corrected, evaluated by
scripts/pbreport/rules.py on made-up facts: the same CPUs as
tests/unit/test_rules.c's check_builtin() gives harness/rules.c, with the
same expected picks, so that both evaluators are held to the rows (on
recorded CPUs tests/test_rules_agree.py compares them).

- Xen 4.21 on keeps CLZERO only where the CLFLUSH line size (CPUID.1
  EBX[15:8] x 8, capped at 128) is a power of two: the features line's
  clzeroline.
- Xen's shanghai.c sets no XEN_REP_MOVSB: 0, not unknown.
- Xen's ERMS suppression reads the boot CPU's MISC_ENABLE.FAST_STRING.
"""
import os
import sys
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "scripts"))
from pbreport import rules as R  # noqa: E402

ZEN4 = {"vendor": "AuthenticAMD", "family": 0x19, "model": 0x11,
        "stepping": 1, "erms": 1, "fsrm": 1, "fsrs": 0, "clzero": 1,
        "clflush": 1, "clzeroline": 1,
        "cpuid1_eax": R.cpuid1_eax(0x19, 0x11, 1), "vfm": 0x1911}
# Zhaoxin: CPUID vendor "  Shanghai  ", the cpu line's token "Shanghai".
ZHAOXIN = {"vendor": "Shanghai", "family": 7, "model": 0x1b, "stepping": 0,
           "erms": 1, "fsrm": 0, "fsrs": 0, "clzero": 0, "clflush": 0,
           "clzeroline": 0, "cpuid1_eax": R.cpuid1_eax(7, 0x1b, 0),
           "vfm": 0x71b}
HASWELL = {"vendor": "GenuineIntel", "family": 6, "model": 0x3c,
           "stepping": 3, "erms": 1, "fsrm": 0, "fsrs": 0, "clzero": 0,
           "clflush": 1, "clzeroline": 0,
           "cpuid1_eax": R.cpuid1_eax(6, 0x3c, 3), "vfm": 0x63c}


def text(kernel, entry, facts):
    """test_rules.c's picks_text(): "VERSION=CELL" of every era."""
    out = []
    for p in R.picks(R.tables(), kernel, entry, facts):
        if p.rule:
            out.append("%s=%s" % (p.version, p.rule.variant))
        else:
            out.append("%s=?(%s)" % (p.version, ",".join(
                "%s:%s" % (a, r.variant) for a, r in p.alternatives)))
    return " ".join(out)


class XenClzero(unittest.TestCase):
    def test_power_of_two_line_keeps_clzero(self):
        self.assertEqual(text("xen", "clear_page_cold", ZEN4), ">=4.21=clzero_sf")
        self.assertEqual(text("xen", "scrub_page_cold", ZEN4), ">=4.21=clzero_sf")

    def test_odd_line_drops_clzero(self):
        f = dict(ZEN4, clzeroline=0)
        self.assertEqual(text("xen", "clear_page_cold", f), ">=4.21=sse2")

    def test_no_clflush_drops_clzero(self):
        f = dict(ZEN4, clflush=0, clzeroline=0)
        self.assertEqual(text("xen", "clear_page_cold", f), ">=4.21=sse2")

    def test_a_log_without_the_fact_is_unknown(self):
        """A log from before clzeroline: Xen's pick needs it, named."""
        f = dict(ZEN4)
        del f["clzeroline"]
        p = R.picks(R.tables(), "xen", "clear_page_cold", f)
        self.assertEqual(len(p), 1)
        self.assertIsNone(p[0].rule)
        self.assertEqual(p[0].unknown.needs, ["clzeroline"])
        # Without CLZERO at all the fact is not needed.
        g = dict(f, clzero=0)
        self.assertEqual(text("xen", "clear_page_cold", g), ">=4.21=sse2")


class XenRepMovsb(unittest.TestCase):
    def test_shanghai_is_known(self):
        self.assertEqual(text("xen", "memcpy", ZHAOXIN),
                         "4.15-4.20=movsq >=4.21 <4.21.1=movsb >=4.21.1=movsq_br")

    def test_boot_cpu_fast_strings(self):
        """early_init_intel() clears ERMS when the boot CPU's fast strings
        are off: memset on 4.21 is then the REP STOSQ one."""
        self.assertEqual(text("xen", "memset", dict(HASWELL, fast_string=1)),
                         "4.15-4.20=stosb >=4.21=stosb")
        self.assertEqual(text("xen", "memset", dict(HASWELL, fast_string=0)),
                         "4.15-4.20=stosb >=4.21=stosq_br")

    def test_rows_cite_early_init_intel(self):
        rows = [r for r in R.tables().flags
                if r.kernel == "xen" and r.flag == "ERMS" and
                any(a.name == "fast_string" for a in r.condition)]
        self.assertEqual(len(rows), 1)
        self.assertIn("early_init_intel()", rows[0].file)


if __name__ == "__main__":
    unittest.main()
