"""scripts/run-qemu's own logic, without booting: reading QEMU's dump of a
stopped VM, and building the options of a rerun."""
import importlib.machinery
import importlib.util
import os
import shutil
import subprocess
import tempfile
import unittest

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SCRIPT = os.path.join(REPO, "scripts", "run-qemu")
loader = importlib.machinery.SourceFileLoader("run_qemu", SCRIPT)
rq = importlib.util.module_from_spec(importlib.util.spec_from_loader("run_qemu", loader))
loader.exec_module(rq)

# What QEMU 7.2 printed here when the guest's XGETBV stopped the VM.
XGETBV_DUMP = """KVM internal error. Suberror: 1
extra data[0]: 0x0000000000000001
emulation failure
RAX=00000000000000e7 RBX=0000000000000800 RCX=0000000000000000 RDX=0000000000000000
Code=62 10 00 e8 b2 f3 ff ff 89 e9 48 89 c2 48 c1 ea 20 0f 01 d1 <0f> 01 d0 48 83 c4 08 48 c1
"""


def boot_with_stderr(text):
    b = rq.Boot([], None, True)
    b.stderr = text.splitlines(True)
    return b


class QuirkDetection(unittest.TestCase):
    def test_faulting_instruction_names_the_feature(self):
        cases = {"<0f> 01 d0 48": "xsave", "<c5> f9 ef c0": "xsave",
                 "<0f> 01 fc 48 83": "clzero", "<66> 0f ef c0 0f": "sse2",
                 "<66> 0f 38 f8 07": "movdir64b", "<62> f1 fd 48 e7": "avx512f"}
        for code, feat in cases.items():
            with self.subTest(code=code):
                dump = XGETBV_DUMP.replace("<0f> 01 d0 48", code)
                self.assertEqual(rq.Boot.quirk_feature(boot_with_stderr(dump))[0], feat)

    def test_unknown_instruction_is_not_guessed(self):
        dump = XGETBV_DUMP.replace("<0f> 01 d0", "<f4> 90 90")
        self.assertEqual(boot_with_stderr(dump).quirk_feature(), (None, "f4 90 90 48 83 c4 08 48"))

    def test_no_emulation_failure_no_quirk(self):
        self.assertEqual(boot_with_stderr("qemu: some warning\n").quirk_feature(), (None, None))


class AccelChoice(unittest.TestCase):
    def cpuinfo(self, flags):
        path = os.path.join(self.tmp, "cpuinfo")
        with open(path, "w") as f:
            f.write("processor\t: 0\nflags\t\t: fpu %s sse2\n\n" % flags)
        return path

    def setUp(self):
        self.tmp = tempfile.mkdtemp()
        self.addCleanup(shutil.rmtree, self.tmp)
        # The rule lives in scripts/qemu_accel.py, shared with run-linux-module.
        self.real = rq.qemu_accel.kvm_usable
        self.addCleanup(setattr, rq.qemu_accel, "kvm_usable", self.real)

    def test_kvm_without_hardware_virtualization_means_tcg(self):
        rq.qemu_accel.kvm_usable = lambda: True
        accel, why = rq.default_accel(False, self.cpuinfo("pae lm"))
        self.assertEqual(accel, "tcg")
        self.assertIn("no vmx or svm", why)

    def test_kvm_with_vmx_or_svm(self):
        rq.qemu_accel.kvm_usable = lambda: True
        for flag in ("vmx", "svm"):
            self.assertEqual(rq.default_accel(False, self.cpuinfo("lm " + flag)), ("kvm", None))
        self.assertEqual(rq.default_accel(True, self.cpuinfo("svm"))[0], "tcg")

    def test_no_kvm_device(self):
        rq.qemu_accel.kvm_usable = lambda: False
        accel, why = rq.default_accel(False, self.cpuinfo("svm"))
        self.assertEqual(accel, "tcg")
        self.assertIn("/dev/kvm", why)


class Options(unittest.TestCase):
    def test_disable_words_merge_into_one(self):
        self.assertEqual(rq.with_disabled("reps=2 disable=clzero suite=xen", ["xsave", "clzero"]),
                         "reps=2 suite=xen disable=clzero,xsave")
        self.assertEqual(rq.with_disabled(None, ["xsave"]), "disable=xsave")

    def test_screendump_keeps_the_vm(self):
        """--screendump needs the VM halted, not ended by isa-debug-exit,
        unless the user said how the run ends."""
        self.assertEqual(rq.with_exit_halt("suite=xen"), "suite=xen exit=halt")
        self.assertEqual(rq.with_exit_halt(None), "exit=halt")
        self.assertEqual(rq.with_exit_halt("exit=reboot reps=1"), "exit=reboot reps=1")

    def test_bad_usage_exits_2(self):
        r = subprocess.run([SCRIPT, "--accel", "hvf"], capture_output=True, text=True)
        self.assertEqual(r.returncode, 2)
        r = subprocess.run([SCRIPT, "--kernel", "--elf", "/nonexistent.elf"],
                           capture_output=True, text=True)
        self.assertEqual(r.returncode, 2)
        self.assertIn("missing", r.stderr)


if __name__ == "__main__":
    unittest.main()
