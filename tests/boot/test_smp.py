"""Every CPU up, every CPU at once, the watchdog: the kernel under QEMU TCG
with several vCPUs (multi-threaded TCG runs them in parallel). Each boot is
a tiny plan; the line shapes come from docs/log-format.md."""
import importlib.machinery
import importlib.util
import os
import re
import sys
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
TESTS = os.path.dirname(HERE)
sys.path.insert(0, os.path.join(TESTS, "lib"))
from test_boot import REPO, LogChecks, grammar  # noqa: E402
import boots  # noqa: E402  (tests/boots.cfg: the guests the tests boot)

CPUS_RE = grammar.compiled("cpus")
OUT_RE = grammar.compiled("cpus_out")
SMP_RE = grammar.compiled("selftest_smp")
WATCHDOG_RE = grammar.compiled("watchdog")
STATE_RE = grammar.compiled("watchdog_state")
NUMA_RE = grammar.compiled("numa")
EXCEPTION_RE = grammar.compiled("exception")
OPTION_ERROR_RE = grammar.compiled("option_error")


def ids(text):
    """The APIC ids of a cpus line: "0-2,5" -> [0, 1, 2, 5]."""
    assert not text.endswith(",..."), "a list cut short in a small VM: " + text
    out = []
    for item in text.split(","):
        lo, _, hi = item.partition("-")
        out += list(range(int(lo), int(hi or lo) + 1))
    return out


GROUPS = ("fast", "boot", "smp")


class SmpChecks(LogChecks):
    def matches(self, b, rx):
        return [m for m in (rx.match(l) for l in b.lines) if m]

    def one(self, b, rx):
        got = self.matches(b, rx)
        self.assertEqual(len(got), 1, "want one %s line in:\n%s" % (rx.pattern, b.text[-3000:]))
        return got[0]

    def online(self, b):
        """(online, of, ids, mode) from the cpus line."""
        m = self.one(b, CPUS_RE)
        return int(m.group(1)), int(m.group(2)), ids(m.group(3)), m.group(4)

    def assert_failed_run(self, b, failures):
        self.assertEqual(b.status, 1, "run-qemu said %d (want 1, the kernel "
                         "reported failures):\n%s\n%s" % (b.status, b.stderr[-2000:], b.text[-3000:]))
        self.assert_ending(b, "done: %d failure%s" % (failures, "" if failures == 1 else "s"))
        self.assert_documented(b)


class CpusUp(SmpChecks):
    def test_smp4_all_up_and_start_together(self):
        """-smp 4: four CPUs online with four distinct ids, the first the
        BSP; one call on each, on its own CPU, none early, none late."""
        b = boots.run(self, "smp4-selftest")
        self.assert_success(b)
        online, of, apic, mode = self.online(b)
        self.assertEqual((online, of), (4, 4))
        self.assertEqual(len(set(apic)), 4)
        self.assertEqual(mode, "xapic")     # QEMU 7.2's TCG has no x2APIC
        self.assertFalse(self.matches(b, OUT_RE))
        m = self.one(b, SMP_RE)
        self.assertEqual(m.group(1), "ok", m.group(0))
        self.assertEqual(int(m.group(2)), 4)
        self.assertEqual(int(m.group(4)), 0, "a CPU arrived after the start: " + m.group(0))
        st = self.one(b, STATE_RE)
        self.assertEqual(int(st.group(2)), apic[-1])    # the last AP watches

    def test_smp1_as_before(self):
        """-smp 1: one CPU, nothing to start, no watchdog; the call
        primitive still runs on the one CPU."""
        b = boots.run(self, "smp1-selftest")
        self.assert_success(b)
        online, of, apic, _ = self.online(b)
        self.assertEqual((online, of, len(apic)), (1, 1, 1))
        self.assertEqual(self.one(b, STATE_RE).group(3), "only one CPU is online")
        m = self.one(b, SMP_RE)
        self.assertEqual((m.group(1), m.group(2), m.group(3)), ("ok", "1", "0"))

    def test_cpus_2_of_4(self):
        """cpus=2 under -smp 4: the BSP and one AP; the other two are listed
        and left out; the call runs on exactly two CPUs."""
        b = boots.run(self, "smp4-cpus2")
        self.assert_success(b)
        online, of, apic, _ = self.online(b)
        self.assertEqual((online, of, len(apic)), (2, 4, 2))
        out = self.one(b, OUT_RE)
        self.assertEqual(out.group(2), "not started: cpus=2")
        self.assertEqual(sorted(apic + ids(out.group(1))), list(range(4)))
        self.assertEqual(self.one(b, SMP_RE).group(2), "2")

    def test_cpus_bad_value(self):
        """cpus= outside 1..256 is an option error naming the range; the run
        goes on with every CPU and fails."""
        for bad, row in (("0", "smp2-cpus0"), ("257", "smp2-cpus257"), ("two", "smp2-cpus-two")):
            with self.subTest(cpus=bad):
                b = boots.run(self, row)
                self.assert_failed_run(b, 1)
                err = self.one(b, OPTION_ERROR_RE)
                self.assertIn("cpus=: bad count '%s'; valid: a number from 1 to 256" % bad,
                              err.group(0))
                self.assertEqual(self.online(b)[:2], (2, 2))

    def test_cpu_that_never_answers(self):
        """selftest=nosipi: the last MADT CPU gets INIT but no SIPI. It is
        reported by id, left out of the count and of every call."""
        b = boots.run(self, "smp4-nosipi")
        self.assert_success(b)
        online, of, apic, _ = self.online(b)
        self.assertEqual((online, of), (3, 4))
        out = self.one(b, OUT_RE)
        self.assertEqual(out.group(2), "did not answer")
        silent = ids(out.group(1))
        self.assertEqual(len(silent), 1)
        self.assertNotIn(silent[0], apic)
        self.assertEqual(sorted(apic + silent), list(range(4)))
        m = self.one(b, SMP_RE)
        self.assertEqual((m.group(1), m.group(2)), ("ok", "3"))

    def test_hotpluggable_cpus_not_counted(self):
        """-smp 2,maxcpus=4: QEMU lists the two absent CPUs as not enabled;
        they are neither counted nor waited for."""
        b = boots.run(self, "smp2-hotpluggable")
        self.assert_success(b)
        self.assertEqual(self.online(b)[:2], (2, 2))
        self.assertFalse(self.matches(b, OUT_RE))

    def test_numa_nodes_from_srat(self):
        """Two NUMA nodes of two CPUs each: a numa line per node, from the SRAT."""
        b = boots.run(self, "smp4-numa")
        self.assert_success(b)
        nodes = self.matches(b, NUMA_RE)
        self.assertEqual([(int(m.group(1)), int(m.group(2)), ids(m.group(3))) for m in nodes],
                         [(0, 0, [0, 1]), (1, 1, [2, 3])])

    def test_xen_suite_on_four_cpus(self):
        """An existing suite under -smp 4 behaves as on one CPU: every line
        documented, the same matrix, no failures."""
        b = boots.run(self, "smp4-xen")
        self.assert_success(b)
        self.assert_matrix(b, ["L1 w/o flush"], 1)
        self.assertEqual(self.online(b)[:2], (4, 4))


class Watchdog(SmpChecks):
    def assert_watchdog(self, b, apic, step):
        m = self.one(b, WATCHDOG_RE)
        self.assertEqual(int(m.group(1)), apic, m.group(0))
        self.assertGreaterEqual(int(m.group(2)), 2000, m.group(0))    # watchdog=2
        self.assertIsNotNone(m.group(3), "the stuck CPU did not take the NMI: " + m.group(0))
        self.assertEqual(m.group(4), step)

    def test_hang_on_the_bsp(self):
        """selftest=hang: the BSP hangs with interrupts off; the watcher
        names the step, and the run ends with a failure in bounded time."""
        b = boots.run(self, "hang-bsp")
        self.assert_failed_run(b, 1)
        self.assert_watchdog(b, self.online(b)[2][0],
                             "selftest=hang: a deliberate hang with interrupts off")
        self.assertIsNone(b.first("plan "))     # the run ended there

    def test_hang_caught_without_arat(self):
        """qemu64 has no ARAT (the APIC timer may stop in HLT): the watcher
        says it stays awake, and still catches the hang."""
        b = boots.run(self, "hang-no-arat")
        self.assert_failed_run(b, 1)
        self.assertIn("note: watchdog: the APIC timer may stop in HLT (no ARAT); "
                      "the watcher stays awake", b.lines)
        self.assert_watchdog(b, self.online(b)[2][0],
                             "selftest=hang: a deliberate hang with interrupts off")

    def test_hang_on_an_ap(self):
        """selftest=hang-ap: cpu 1 hangs inside a call of every CPU; the
        BSP's wait names it and its step, and the run goes on without it."""
        b = boots.run(self, "hang-ap")
        self.assert_failed_run(b, 1)
        self.assert_watchdog(b, self.online(b)[2][1],
                             "selftest=hang-ap: a deliberate hang with interrupts off on cpu 1")
        self.assertTrue(b.first("plan "))
        self.assert_matrix(b, ["L1 w/o flush"], 1)

    def test_hang_needs_a_second_cpu(self):
        """With one CPU nobody can watch: selftest=hang refuses, with a note
        and a failure, rather than hang for good."""
        b = boots.run(self, "hang-one-cpu")
        self.assert_failed_run(b, 1)
        self.assertIn("note: selftest=hang: not run: no other CPU watches this one "
                      "(see the watchdog line)", b.lines)
        self.assertFalse(self.matches(b, WATCHDOG_RE))

    def test_healthy_run_never_fires(self):
        """The whole 2021 suite with the shortest deadline there is: no
        step takes a second, so nothing fires."""
        b = boots.run(self, "watchdog-healthy")
        self.assert_success(b)
        self.assertEqual(self.one(b, STATE_RE).group(1), "1")
        self.assertFalse(self.matches(b, WATCHDOG_RE))

    def test_exception_on_an_ap(self):
        """selftest=ud-ap: #UD on cpu 1 prints the exception with its step
        and ends the run from there, stopping the BSP first."""
        b = boots.run(self, "ud-ap")
        self.assert_failed_run(b, 1)
        m = self.one(b, EXCEPTION_RE)
        self.assertEqual(m.group(1), "#UD")
        self.assertEqual(m.group(9), "selftest=ud-ap: a deliberate invalid opcode on cpu 1")
        self.assertIsNone(b.first("plan "))


class RunQemuSmp(unittest.TestCase):
    """scripts/run-qemu --smp, without booting."""

    def setUp(self):
        path = os.path.join(REPO, "scripts", "run-qemu")
        loader = importlib.machinery.SourceFileLoader("run_qemu_smp", path)
        self.rq = importlib.util.module_from_spec(
            importlib.util.spec_from_loader("run_qemu_smp", loader))
        loader.exec_module(self.rq)

    def test_smp_maps_to_qemu(self):
        args = self.rq.parse_args(["--kernel", "--smp", "4"])
        cmd = self.rq.qemu_command(args, "tcg", "max", "pagebench.elf", "")
        self.assertEqual(cmd[cmd.index("-smp") + 1], "4")
        args = self.rq.parse_args(["--kernel"])
        self.assertNotIn("-smp", self.rq.qemu_command(args, "tcg", "max", "pagebench.elf", ""))

    def test_smp_zero_is_usage_error(self):
        self.assertEqual(self.rq.main(["--kernel", "--smp", "0"]), self.rq.USAGE)


if __name__ == "__main__":
    unittest.main()


SCRUB_RE = grammar.compiled("scrub")
SCRUB_PLAN_RE = grammar.compiled("scrub_plan")


class ScrubSuite(SmpChecks):
    """suite=scrub on the kernel: every CPU count, every byte verified."""

    def steps(self, b):
        return [(m.group(1), int(m.group(2)), m.group(3)) for m in self.matches(b, SCRUB_RE)]

    def test_scrub_four_cpus(self):
        b = boots.run(self, "scrub-smp4")
        self.assert_success(b)
        plan = self.one(b, SCRUB_PLAN_RE)
        self.assertEqual((plan.group(1), plan.group(2)), ("1,2,4", "1"))
        self.assertEqual(sorted(self.steps(b)),
                         sorted((v, c, "local") for v in ("stosb", "orig") for c in (1, 2, 4)))
        for m in self.matches(b, SCRUB_RE):
            wall, slowest, fastest = (int(m.group(k)) for k in (6, 7, 8))
            self.assertTrue(wall >= slowest >= fastest > 0, m.group(0))

    def test_scrub_one_cpu_and_cpus_limit(self):
        b = boots.run(self, "scrub-smp1")
        self.assert_success(b)
        self.assertEqual(self.one(b, SCRUB_PLAN_RE).group(1), "1")
        b = boots.run(self, "scrub-smp4-cpus2")
        self.assert_success(b)
        self.assertEqual(self.one(b, SCRUB_PLAN_RE).group(1), "1,2")
        self.assertEqual(self.online(b)[:2], (2, 4))

    def test_scrub_numa_remote_step(self):
        """Two nodes: each CPU clears its own node's memory, then the other's."""
        b = boots.run(self, "scrub-numa")
        self.assert_success(b)
        self.assertEqual(self.one(b, SCRUB_PLAN_RE).group(2), "2")
        steps = self.steps(b)
        self.assertEqual(sorted(s for s in steps if s[2] == "remote"),
                         [("orig", 4, "remote"), ("stosb", 4, "remote")])
        self.assertEqual(len([s for s in steps if s[2] == "local"]), 6)


@unittest.skipUnless(os.path.exists("/usr/share/ovmf/OVMF.fd"), "OVMF is not installed")
class UefiSmp(SmpChecks):
    """On UEFI the boot CPU keeps the firmware's GDT: the other CPUs start
    from a page the kernel claimed below 1 MiB, and an exception or NMI on
    them lands through the firmware's code selector, aliased in the
    kernel's GDT (kernel/x86/gdt.c)."""
    GROUPS = ("boot", "smp", "uefi")

    def test_uefi_all_cpus_and_scrub(self):
        b = boots.run(self, "uefi-smp2-scrub")
        self.assert_success(b)
        self.assertEqual(self.online(b)[:2], (2, 2))
        self.assertTrue(self.one(b, SMP_RE).group(0).startswith("selftest smp: ok cpus=2"))
        self.assertEqual(self.one(b, SCRUB_PLAN_RE).group(1), "1,2")

    def test_uefi_exception_on_another_cpu(self):
        b = boots.run(self, "uefi-smp2-ud-ap")
        self.assertEqual(b.status, 1, b.text[-2000:])
        exc = self.one(b, EXCEPTION_RE)
        self.assertEqual(exc.group(1), "#UD")
        self.assertIn("on cpu 1", exc.group(0))
