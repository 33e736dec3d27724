"""TSC rate sources under QEMU TCG: every source forced in turn gives the
same rate as the others; an absent one says so and falls back; the ACPI
tables the sources come from are listed. Lines as docs/log-format.md."""
import re
import unittest

import boots  # tests/boots.cfg: the guests the tests boot
from test_boot import LogChecks

# The bound on how far two sources may disagree: 0.1%.
TOLERANCE_PPM = 1000
PPM = 1000000
# tsc= names in the automatic order, and the tsc line's names for each.
PICKS = ("cpuid", "amd", "hpet", "pmtimer", "pit")
SOURCES = {"cpuid": ("cpuid-0x15", "cpuid-0x16", "hv-0x40000010"),
           "amd": ("amd-p0",), "hpet": ("hpet",), "pmtimer": ("pmtimer",),
           "pit": ("pit",)}
PICK_OF = {s: p for p, names in SOURCES.items() for s in names}


GROUPS = ("fast", "boot")


class Report:
    """The tsc, tsc check, tsc absent, note and acpi lines of one boot."""

    def __init__(self, b):
        m = re.fullmatch(r"tsc khz=(\d+) source=(\S+)", b.first("tsc khz=") or "")
        self.khz, self.source = (int(m.group(1)), m.group(2)) if m else (None, None)
        self.checks = {}
        for line in b.lines:
            m = re.fullmatch(r"tsc check source=(\S+) khz=(\d+) diff_ppm=(-?\d+)", line)
            if m:
                self.checks[m.group(1)] = (int(m.group(2)), int(m.group(3)))
        self.absent = dict(re.fullmatch(r"tsc absent (\w+): (.+)", l).groups()
                           for l in b.lines if l.startswith("tsc absent "))
        self.notes = [l for l in b.lines if l.startswith("note: tsc=")]
        m = re.fullmatch(r"acpi rsdp=0x[0-9a-f]+ rev=\d+ root=\w+ tables=(\S*)",
                         b.first("acpi ") or "")
        self.tables = m.group(1).split(",") if m else None

    def rates(self):
        """{tsc= name: kHz} of every source that gave a rate."""
        out = {PICK_OF[s]: k for s, (k, _) in self.checks.items()}
        out[PICK_OF[self.source]] = self.khz
        return out


class TimerSources(LogChecks):
    def assert_report_consistent(self, r):
        """Every source is accounted for once, and each check line's
        difference is the one its rate and the chosen rate give."""
        self.assertIn(r.source, PICK_OF, "chosen source")
        accounted = [PICK_OF[r.source]] + [PICK_OF[s] for s in r.checks] + \
            list(r.absent) + [re.match(r"note: tsc=(\w+)", n).group(1) for n in r.notes]
        self.assertEqual(sorted(accounted), sorted(PICKS))
        for src, (khz, diff) in r.checks.items():
            want = (khz - r.khz) * PPM / r.khz
            # Both rates were rounded to kHz before printing.
            self.assertLessEqual(abs(diff - want), 1 + 2 * PPM / 2 / r.khz, src)

    def test_each_source_forced(self):
        """Each source forced in turn: present ones give rates within 0.1% of
        each other; absent ones fall back with a note naming the source."""
        rates = {}
        for pick in PICKS:
            with self.subTest(tsc=pick):
                b = boots.run(self, "tsc-" + pick)
                self.assert_success(b)
                r = Report(b)
                self.assert_report_consistent(r)
                note = [n for n in r.notes if n.startswith("note: tsc=%s: absent (" % pick)]
                if note:
                    self.assertRegex(note[0], r"\); falling back to auto$")
                    self.assertNotIn(r.source, SOURCES[pick])
                else:
                    self.assertIn(r.source, SOURCES[pick])
                    self.assertEqual(r.notes, [])
                for other, (khz, diff) in r.checks.items():
                    self.assertLessEqual(abs(diff), TOLERANCE_PPM, other)
                for p, khz in r.rates().items():
                    rates.setdefault(p, []).append(khz)
        # QEMU's pc machine has all three reference clocks.
        self.assertLessEqual({"hpet", "pmtimer", "pit"}, set(rates))
        every = [k for ks in rates.values() for k in ks]
        spread = (max(every) - min(every)) * PPM / min(every)
        self.assertLessEqual(spread, TOLERANCE_PPM, rates)
        print("\n  TCG TSC kHz by source over %d boots: %s; spread %.0f ppm"
              % (len(PICKS), {p: rates[p] for p in sorted(rates)}, spread))

    def test_auto_order(self):
        """Automatic choice: the first present source in the order cpuid, amd,
        hpet, pmtimer, pit; the PM timer also through q35's X_PM_TMR_BLK."""
        for machine in ("pc", "q35"):
            with self.subTest(machine=machine):
                b = boots.run(self, "machine-" + machine)
                self.assert_success(b)
                r = Report(b)
                self.assert_report_consistent(r)
                chosen = PICKS.index(PICK_OF[r.source])
                self.assertEqual(set(PICKS[:chosen]), set(r.absent) & set(PICKS[:chosen]))
                self.assertLessEqual(set(PICKS[:chosen]), set(r.absent))
                self.assertIn("pmtimer", {PICK_OF[s] for s in r.checks} | {PICK_OF[r.source]})
                self.assertLessEqual({"FACP", "APIC", "HPET"}, set(r.tables or []))

    def test_no_hpet_falls_back(self):
        """-no-hpet: no HPET table, and tsc=hpet says so and falls back."""
        b = boots.run(self, "no-hpet")
        self.assert_success(b)
        r = Report(b)
        self.assert_report_consistent(r)
        self.assertEqual(r.notes, ["note: tsc=hpet: absent (ACPI HPET: not found); "
                                   "falling back to auto"])
        self.assertNotIn("hpet", r.checks)
        self.assertNotEqual(r.source, "hpet")
        self.assertIn("FACP", r.tables)
        self.assertNotIn("HPET", r.tables)

    def test_no_pit_bounded(self):
        """pit=off (the 8254 absent or its clock gated: the count stands
        still): tsc=pit gives up after a bounded wait and falls back."""
        b = boots.run(self, "no-pit")
        self.assert_success(b)
        r = Report(b)
        self.assert_report_consistent(r)
        self.assertEqual(r.notes, ["note: tsc=pit: absent (PIT: the counter does not "
                                   "advance); falling back to auto"])
        self.assertNotEqual(r.source, "pit")

    def test_no_acpi(self):
        """acpi=off: no RSDP, so neither HPET nor PM timer; the PIT still is."""
        b = boots.run(self, "no-acpi")
        self.assert_success(b)
        r = Report(b)
        self.assert_report_consistent(r)
        self.assertRegex(b.first("acpi"), r"^acpi: none \(no RSDP")
        self.assertRegex(r.absent["hpet"], r"^no ACPI tables: ")
        self.assertRegex(r.absent["pmtimer"], r"^no ACPI tables: ")
        self.assertIn("pit", r.rates())

    def test_amd_msrs_under_tcg(self):
        """An AMD Zen model under TCG: the P-state path reads the MSRs without
        faulting, finds HWCR.TscFreqSel clear (QEMU reads 0) and falls back."""
        b = boots.run(self, "tsc-amd-epyc")
        self.assert_success(b)
        r = Report(b)
        self.assert_report_consistent(r)
        self.assertRegex(b.first("cpu "), r"AuthenticAMD family=0x17 ")
        self.assertEqual(len(r.notes), 1)
        self.assertRegex(r.notes[0], r"^note: tsc=amd: absent \(AMD P0: ")

    def test_bad_tsc_option(self):
        """A tsc= value that does not exist is an option error; the run goes on
        with the automatic choice."""
        b = boots.run(self, "tsc-unknown")
        self.assertEqual(b.status, 1)
        self.assertIn("option error: tsc=: unknown 'tsc'; valid: auto cpuid amd hpet "
                      "pmtimer pit", b.lines)
        self.assert_ending(b, "done: 1 failure")
        self.assert_documented(b)
        r = Report(b)
        self.assertEqual(r.notes, [])
        self.assert_report_consistent(r)


if __name__ == "__main__":
    unittest.main()
