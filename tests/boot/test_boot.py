"""Boot tests: pagebench under QEMU (TCG always, KVM where it works), read
back from the serial log. Every line must match docs/log-format.md."""
import os
import re
import shutil
import subprocess
import sys
import tempfile
import unittest

TESTS = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
REPO = os.path.dirname(TESTS)
sys.path.insert(0, os.path.join(REPO, "scripts"))
from pbreport import grammar  # noqa: E402  (the log grammar, from docs/log-format.md)
from pbreport import parse as P  # noqa: E402
import strings_log  # noqa: E402
sys.path.insert(0, os.path.join(TESTS, "lib"))
import boots  # noqa: E402  (tests/boots.cfg: the guests the tests boot)
from boots import Boot  # noqa: E402,F401  (a log read back, also from a fixture)

ELF = os.path.join(REPO, "build", "pagebench.elf")
ISO = os.path.join(REPO, "build", "pagebench.iso")
CLEAR_HEADERS = [grammar.PASS_HEADERS[p] for p in
                 ("l1", "l1f", "l2", "l2f", "l3", "l3f", "mem")]
FIXTURES = os.path.join(REPO, "tests", "fixtures", "boot")
NOT_UEFI = "log not saved: no UEFI boot services (BIOS, QEMU -kernel or multiboot v1)"


def kvm_usable():
    return os.access("/dev/kvm", os.R_OK | os.W_OK)


def hardware_virtualization():
    """Whether this CPU offers KVM vmx or svm (/proc/cpuinfo flags)."""
    with open("/proc/cpuinfo") as f:
        for line in f:
            if line.startswith("flags"):
                return bool({"vmx", "svm"} & set(line.split()))
    return False


def gpt_partitions(path):
    """The used entries of the GPT of a disk image (512-byte sectors)."""
    with open(path, "rb") as f:
        head = f.read(1024)
        if head[512:520] != b"EFI PART":
            raise ValueError("%s has no GPT" % path)
        lba, n, size = (int.from_bytes(head[512 + 72:512 + 80], "little"),
                        int.from_bytes(head[512 + 80:512 + 84], "little"),
                        int.from_bytes(head[512 + 84:512 + 88], "little"))
        f.seek(lba * 512)
        table = f.read(n * size)
    out = []
    for i in range(n):
        e = table[i * size:(i + 1) * size]
        if e[:16] == bytes(16):
            continue
        t = e[:16]
        guid = "%08x-%04x-%04x-%s-%s" % (int.from_bytes(t[:4], "little"),
                                         int.from_bytes(t[4:6], "little"),
                                         int.from_bytes(t[6:8], "little"),
                                         t[8:10].hex(), t[10:16].hex())
        out.append({"type": guid, "first": int.from_bytes(e[32:40], "little"),
                    "last": int.from_bytes(e[40:48], "little"),
                    "attributes": int.from_bytes(e[48:56], "little"),
                    "name": e[56:128].decode("utf-16-le").rstrip("\0")})
    return out


def fat_label(path, lba):
    """The boot sector's volume label of the FAT at lba, or None."""
    with open(path, "rb") as f:
        f.seek(lba * 512)
        bs = f.read(512)
    if bs[510:512] != b"\x55\xaa":
        return None
    # FAT12/16 keep the extended boot record at 36, FAT32 at 64.
    for ebr in (36, 64):
        if bs[ebr + 2] == 0x29:
            return bs[ebr + 7:ebr + 18].decode("ascii", "replace").rstrip()
    return None


GROUPS = ("fast", "boot")


class LogChecks(unittest.TestCase):
    def assert_documented(self, b):
        for line in b.lines:
            self.assertIsNotNone(grammar.classify(line), "undocumented line: %r" % line)

    def assert_ending(self, b, done):
        """done: is the last result line; only the log file's line and
        "run complete" follow, in that order."""
        self.assertEqual(b.done_line, done)
        kinds = [grammar.classify(l) for l in b.after_done]
        self.assertIn(kinds, (["log"], ["log", "complete"]), b.after_done)

    def assert_success(self, b):
        self.assertEqual(b.status, 0, "run-qemu said %d:\n%s\n%s" % (b.status, b.stderr[-3000:], b.text[-3000:]))
        self.assert_ending(b, "done: 0 failures")
        self.assertEqual(b.kinds()[0], "xen")
        self.assertFalse([l for l in b.lines if l.startswith("verify FAILED")])
        self.assert_documented(b)

    def assert_matrix(self, b, headers, reps):
        """Every pass, each iteration one line per variant in table order
        (reps=N: suite=xen and its 2021 order); reps=None, with stats,
        every other iteration reversed (docs/method.md, "Order"), and as
        many as each variant's stat line counts (epochs until time= is
        spent; a variant the race stopped stops early, so an iteration
        has the variants still running)."""
        passes = b.passes()
        self.assertEqual([h for h, _ in passes], headers)
        for header, values in passes:
            suite = "copy" if header.startswith("copy ") else "clear"
            names = b.variants(suite)
            if reps is not None:
                self.assertEqual([v[1] for v in values], names * reps, header)
            else:
                counts = b.stat_reps(suite, header)
                self.assertEqual(sorted(counts), sorted(names), header)
                want, left, k = [], dict(counts), 0
                while any(left.values()):
                    running = [n for n in names if left[n]]
                    for n in running[::-1] if k % 2 else running:
                        want.append(n)
                        left[n] -= 1
                    k += 1
                self.assertEqual([v[1] for v in values], want, header)
            for pre, name, value, post in values:
                self.assertTrue(pre > 0 and value > 0 and post > 0, (header, name))

    def assert_skips_honest(self, b):
        """A variant is skipped only for a feature this CPU lacks or was told to drop."""
        flags = b.flags()
        cmdline = b.first("cmdline: ")
        for line in b.lines:
            m = re.fullmatch(r"skipped: (\w+) \((clear|copy)\): needs (\w+)(.*)", line)
            if not m:
                continue
            feat, rest = m.group(3), m.group(4)
            if "disable=" in rest:
                self.assertRegex(cmdline, r"disable=\S*" + re.escape(rest.split("disable=")[1].rstrip(")")))
            else:
                self.assertEqual(flags.get(feat), "0", line)
            self.assertNotIn(m.group(1), b.variants(m.group(2)))


class KernelBoots(LogChecks):
    GROUPS = ("fast", "boot", "kvm")

    def test_kernel_tcg_full_matrix(self):
        """-kernel under TCG: the full default matrix, both suites, verified."""
        b = boots.run(self, "kernel-default-plan")
        self.assert_success(b)
        # By default epochs until the run's time budget is spent; under
        # TCG, whose figures advise nothing, that budget is the first round.
        self.assertRegex(b.first("plan "), r"^plan suite=all reps=auto passes=\S+ "
                         r"time=1000ms$")
        self.assertIn("runs_on=tcg", b.first("hot load "))
        self.assert_matrix(b, CLEAR_HEADERS + ["copy " + h for h in CLEAR_HEADERS], None)
        stats = [grammar.compiled("stat").match(l) for l in b.lines
                 if grammar.classify(l) == "stat"]
        self.assertTrue(stats)
        for m in stats:
            self.assertTrue(int(m.group(6)) >= 3 and int(m.group(6)) % 2, m.group(0))
        self.assert_skips_honest(b)
        for kind in ("copy-hot", "copy-cold"):
            got = [l.split()[1][8:] for l in b.lines if l.startswith(kind + " ")]
            self.assertEqual(got, b.variants("copy"), kind)
        self.assertTrue(b.first("runtime ms="))
        self.assertTrue(b.first("flush: wbinvd+clflush"))
        self.assertEqual(b.first("boot: "), "boot: multiboot loader=qemu")
        self.assertEqual(b.after_done, [NOT_UEFI])
        # TCG's loads are as fast as a CPU's: its hypervisor leaf names it.
        self.assertRegex(b.first("hot load "), r"^hot load loads=1000 ticks=\d+ "
                         r"ns=\d+\.\d\d runs_on=tcg$")
        self.assertIsNone(b.first("note: hot load"))

    @unittest.skipUnless(kvm_usable(), "KVM is not usable here (/dev/kvm missing or closed): -kernel under KVM not tested")
    def test_kernel_kvm_xen_suite(self):
        """-kernel under KVM: the 2021 suite; run-qemu turns off what KVM cannot run."""
        b = boots.run(self, "kernel-kvm-xen")
        self.assert_success(b)
        self.assert_matrix(b, CLEAR_HEADERS[:4], 3)
        self.assert_skips_honest(b)
        self.assertEqual(b.first("hypervisor: "), "hypervisor: KVMKVMKVM")
        # Without vmx or svm this KVM emulates every instruction
        # (docs/method.md): the hot load line must say so, and with them
        # the guest runs on the CPU.
        hot = grammar.compiled("hot_load").match(b.first("hot load "))
        self.assertIsNotNone(hot)
        want = "cpu" if hardware_virtualization() else "emulator"
        self.assertEqual(hot.group(4), want, hot.group(0))
        self.assertEqual(b.first("note: hot load") is not None, want == "emulator")

    def test_cycles_gating_tcg(self):
        """Cycles beside ticks under TCG: QEMU reports no APERF/MPERF
        (CPUID.06H:ECX[0] is 0), so one line says so and no pass has a
        cycles line. Forced, the kernel reads MSRs 0xE7/0xE8 and finds
        them not counting (TCG: no fault, no count) or faulting, and says so;
        disabled, or cycles=off, it says that."""
        cases = {
            "cycles-default": r"no APERF/MPERF: CPUID\.06H:ECX\[0\] is 0",
            "cycles-forced": r"APERF/MPERF do not count: \+\d+ and \+\d+ over \d+ TSC ticks"
                             r"|rdmsr of MPERF \(0xe7\) or APERF \(0xe8\) faulted",
            "cycles-disabled": r"no APERF/MPERF: turned off by disable=aperfmperf",
            "cycles-off": r"cycles=off",
        }
        for row, why in cases.items():
            with self.subTest(row=row):
                b = boots.run(self, row)
                self.assert_success(b)
                self.assertEqual(b.flags()["aperfmperf"], "0")
                kinds = b.kinds()
                self.assertEqual(kinds.count("cycles_none"), 1)
                self.assertEqual(kinds.count("cycles_source") + kinds.count("cycles"), 0)
                self.assertRegex(b.first("cycles: none ("),
                                 r"^cycles: none \((?:%s)\)$" % why)

    def test_xen_suite_shape_tcg(self):
        """suite=xen: Jan's passes, 3 reps, only the 2021 variants, his line shapes."""
        b = boots.run(self, "xen-tagged")
        self.assert_success(b)
        self.assertEqual(b.tag, "XEN")
        self.assertTrue(all(l.startswith("(XEN) ") for l in b.text.splitlines() if l.startswith("(")))
        self.assert_matrix(b, CLEAR_HEADERS[:4], 3)
        self.assertTrue(set(b.variants("clear")) <= {"sse2", "stosb", "stosl", "stosq", "avx", "avx512", "clzero"})
        self.assertIsNone(b.first("variants copy:"))
        self.assertRegex(b.lines[0], r"^erms=[01] fsrm=[01] fzrm=[01] fsrs=[01] fsrcs=[01] l1d=\d+k l2=\d+k$")

    def test_default_accel_says_why(self):
        """No --accel: KVM only where the CPU has vmx or svm, else TCG with
        the reason in one line (make run on an emulating KVM ends quickly)."""
        b = boots.run(self, "accel-default")
        self.assert_success(b)
        hw = any(f in open("/proc/cpuinfo").read().split() for f in ("vmx", "svm"))
        chosen = re.search(r"qemu-system-x86_64 .* -accel (\w+)", b.stderr).group(1)
        if kvm_usable() and hw:
            self.assertEqual(chosen, "kvm")
        else:
            self.assertEqual(chosen, "tcg")
            self.assertEqual(len(re.findall(r"^run-qemu: using TCG: .+$", b.stderr, re.M)), 1)

    def test_xen_suite_line_order_unchanged(self):
        """suite=xen prints the line types of the build before the one
        harness, in the same order. Types added since (sizes from the
        refactor, the ACPI and TSC-source lines from the timer work) come on
        top: sizes follows the plan line, one line per pass."""
        with open(os.path.join(FIXTURES, "xen-tcg-before-harness.log"),
                  errors="replace") as f:
            before = Boot(0, f.read(), "")
        b = boots.run(self, "xen")
        self.assert_success(b)
        kinds = b.kinds()
        old = set(before.kinds())
        self.assertEqual([k for k in kinds if k in old], before.kinds())
        first = kinds.index("sizes")
        self.assertEqual(kinds[first - 1], "plan")
        self.assertEqual(kinds[first:first + 4], ["sizes"] * 4)
        self.assertEqual(kinds.count("sizes"), 4)

    def test_cpu_models(self):
        """Printed features match QEMU's CPU models; what is missing never runs."""
        models = {"cpu-qemu64": {"avx": "0", "erms": "0", "avx512f": "0"},
                  "cpu-haswell": {"avx": "1", "avx2": "1", "erms": "1", "avx512f": "0"},
                  "cpu-skylake": {"avx": "1", "avx2": "1", "erms": "1", "avx512f": "0", "clzero": "0"}}
        for row, want in models.items():
            with self.subTest(model=boots.row(row).cpu):
                b = boots.run(self, row)
                self.assert_success(b)
                flags = b.flags()
                for feat, val in want.items():
                    self.assertEqual(flags[feat], val, feat)
                self.assert_skips_honest(b)
                if want["avx"] == "0":
                    ran = [v[1] for _, vals in b.passes() for v in vals]
                    self.assertFalse([n for n in ran if n.startswith("avx")])
                    self.assertTrue(b.first("skipped: avx (clear): needs avx"))

    def test_selftest_ud_is_caught(self):
        b = boots.run(self, "selftest-ud")   # shared with test_screen
        self.assertEqual(b.status, 1)
        exc = b.first("exception: ")
        self.assertRegex(exc, r"^exception: #UD \(invalid opcode\) vector=6 error=0x0 rip=0x[0-9a-f]+ cr2=0x[0-9a-f]+ during: selftest=ud")
        self.assert_ending(b, "done: 1 failure")

    def test_malformed_options_reported_run_completes(self):
        b = boots.run(self, "options-malformed")
        self.assertEqual(b.status, 1)
        errors = [l for l in b.lines if l.startswith("option error: ")]
        self.assertEqual(len(errors), 2, errors)
        self.assertIn("reps=", errors[0])
        self.assertIn("valid: a number from 1 to", errors[0])
        self.assertIn("frobnicate", errors[1])
        self.assertEqual([h for h, _ in b.passes()], ["L1 w/o flush"])
        self.assert_ending(b, "done: 2 failures")

    def test_strings_suite_tcg(self):
        """suite=strings in the kernel: the lines of pagebench-linux less its
        own, every variant QEMU's CPU has (no AVX-512: skipped, with the
        reason), read by the report."""
        b = boots.run(self, "strings")
        self.assert_success(b)
        flags = b.flags()
        self.assertEqual(flags["avx512bw"], "0")
        strings_log.check(self, b.lines, [0, 1, 8, 64], 2, flags)
        self.assertEqual(b.passes(), [])
        self.assertIsNone(b.first("disturbance"))
        (m,), diags = P.read_bytes(b.text.encode(), "kernel.log")
        self.assertEqual([str(d) for d in diags if d.kind == "skip"], [])
        self.assertEqual(len(m.strings.blocks), 6 + 18 + 2)

    def test_strings_option_error_tcg(self):
        """A bad sizes= in the kernel: the error line of pagebench-linux, and
        the run goes on with the default sizes."""
        b = boots.run(self, "strings-bad-sizes")
        self.assertEqual(b.status, 1)
        self.assertEqual([l for l in b.lines if l.startswith("option error: ")],
                         ["option error: sizes=: bad size '4097'; valid: byte "
                          "counts from 0 to 4096, comma-separated"])
        sizes = [int(x) for x in grammar.compiled("strings_plan").match(
            b.first("strings sizes=")).group(1).split(",")]
        self.assertEqual(len(sizes), 24)
        self.assert_ending(b, "done: 1 failure")


class IsoBoots(LogChecks):
    GROUPS = ("boot", "uefi")

    def test_iso_bios_tcg(self):
        b = boots.run(self, "iso-bios")
        self.assert_success(b)
        self.assertEqual([h for h, _ in b.passes()], ["L1 w/o flush", "L2 w/ flush"])
        # GRUB passes the options alone; QEMU -kernel puts the image path first.
        self.assertEqual(b.first("cmdline: "), "cmdline: suite=xen passes=l1,l2f")
        self.assertRegex(b.first("boot: "), r"^boot: multiboot loader=GRUB ")
        self.assertEqual(b.after_done[0], NOT_UEFI)

    @unittest.skipUnless(os.path.exists("/usr/share/ovmf/OVMF.fd"), "OVMF is not installed: UEFI boot not tested")
    def test_iso_uefi_tcg(self):
        b = boots.run(self, "iso-uefi")   # shared with test_usb_log
        self.assert_success(b)
        self.assertEqual([h for h, _ in b.passes()], ["L1 w/o flush"])
        # multiboot2 with the firmware kept: its free RAM claimed, some left to it.
        m = re.match(r"^boot: multiboot2 uefi=2\.\d+ claimed=(\d+)M left=(\d+)M "
                     r"firmware=.+ rev=0x[0-9a-f]+ loader=GRUB ", b.first("boot: "))
        self.assertTrue(m, b.first("boot: "))
        self.assertEqual(b.first("memory "), "memory usable=%sM" % m.group(1))
        self.assertGreater(int(m.group(2)), 0)
        # The RSDP from the firmware's configuration table, not a BIOS search.
        self.assertRegex(b.first("acpi "), r"^acpi rsdp=0x[0-9a-f]+ rev=2 root=xsdt ")
        self.assertEqual(b.after_done[0], "log not saved: booted from a CD (El Torito), "
                                          "no PBRESULTS volume there")


class Image(unittest.TestCase):
    GROUPS = ("boot",)

    def test_elf32_with_multiboot_header_first(self):
        data = open(ELF, "rb").read()
        self.assertEqual(data[:5], b"\x7fELF\x01", "QEMU -kernel needs an ELF32 container")
        magic = (0x1BADB002).to_bytes(4, "little")
        off = data.find(magic)
        self.assertTrue(0 <= off < 8192 - 12 and off % 4 == 0, off)
        flags = int.from_bytes(data[off + 4:off + 8], "little")
        check = int.from_bytes(data[off + 8:off + 12], "little")
        self.assertEqual((0x1BADB002 + flags + check) & 0xffffffff, 0)

    def test_multiboot2_header_for_uefi(self):
        """GRUB on UEFI: a multiboot2 header in the first 32 KiB, 8-byte
        aligned, asking for boot services (tag 7) and a 64-bit entry (tag 9)
        that is a symbol of the kernel's, efi64_entry."""
        data = open(ELF, "rb").read()
        magic = (0xE85250D6).to_bytes(4, "little")
        off = data.find(magic)
        self.assertTrue(0 <= off < 32768 and off % 8 == 0, off)
        words = [int.from_bytes(data[off + 4 * i:off + 4 * i + 4], "little") for i in range(4)]
        self.assertEqual(words[1], 0, "architecture: i386")
        self.assertEqual(sum(words) & 0xffffffff, 0, "checksum")
        tags, p, end = {}, off + 16, off + words[2]
        while p < end:
            typ = int.from_bytes(data[p:p + 2], "little")
            size = int.from_bytes(data[p + 4:p + 8], "little")
            tags[typ] = data[p + 8:p + size]
            if typ == 0:
                break
            p += (size + 7) & ~7
        self.assertIn(0, tags, "no end tag")
        self.assertIn(7, tags, "no EFI boot services tag")
        entry = int.from_bytes(tags[9][:4], "little")
        syms = subprocess.run(["nm", os.path.join(REPO, "build", "pagebench64.elf")],
                              capture_output=True, text=True, check=True).stdout
        self.assertIn("%016x T efi64_entry" % entry, syms)

    def test_results_partition(self):
        """After the ISO, a GPT "basic data" FAT partition labelled
        PBRESULTS, writable (no read-only attribute), empty."""
        parts = gpt_partitions(ISO)
        fat = [p for p in parts if fat_label(ISO, p["first"]) == "PBRESULTS"]
        self.assertEqual(len(fat), 1, parts)
        p = fat[0]
        self.assertEqual(p["type"], "ebd0a0a2-b9e5-4433-87c0-68b6b72699c7")
        self.assertEqual(p["attributes"] & (1 << 60), 0, "read-only attribute set")
        # A partition of its own: no other one (ISO 9660 gaps, the EFI
        # system partition, HFS+) shares a sector with it.
        for q in parts:
            if q is not p:
                self.assertTrue(q["last"] < p["first"] or q["first"] > p["last"], q)
        out = subprocess.run(["mdir", "-i", "%s@@%d" % (ISO, p["first"] * 512), "::"],
                             capture_output=True, text=True)
        self.assertEqual(out.returncode, 0, out.stderr)
        self.assertIn("No files", out.stdout)

    def test_iso_is_hybrid_bios_and_uefi(self):
        out = subprocess.run(["xorriso", "-indev", ISO, "-report_el_torito", "plain"],
                             capture_output=True, text=True).stdout
        self.assertRegex(out, r"El Torito boot img :\s+1\s+BIOS")
        self.assertRegex(out, r"El Torito boot img :\s+2\s+UEFI")

    def test_reproducible_build(self):
        """Two clean builds of the committed tree give identical ELF and ISO."""
        with tempfile.TemporaryDirectory() as tmp:
            outs = []
            for n in (1, 2):
                d = os.path.join(tmp, str(n))
                subprocess.run(["git", "clone", "-q", REPO, d], check=True)
                subprocess.run(["make", "-s", "build/pagebench.elf", "build/pagebench.iso"],
                               cwd=d, check=True, capture_output=True)
                outs.append([open(os.path.join(d, "build", f), "rb").read()
                             for f in ("pagebench.elf", "pagebench.iso")])
            self.assertEqual(outs[0][0], outs[1][0], "ELF differs between builds")
            self.assertEqual(outs[0][1], outs[1][1], "ISO differs between builds")


if __name__ == "__main__":
    unittest.main()
