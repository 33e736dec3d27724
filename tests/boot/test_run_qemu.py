"""scripts/run-qemu: its own logic without booting (reading QEMU's dump of
a stopped VM, building the options of a rerun, the command it prints), and
short boots for what it passes on (--append, --usb)."""
import importlib.machinery
import importlib.util
import json
import os
import pty
import re
import select
import shlex
import shutil
import subprocess
import sys
import tempfile
import time
import unittest

TESTS = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
REPO = os.path.dirname(TESTS)
SCRIPT = os.path.join(REPO, "scripts", "run-qemu")
loader = importlib.machinery.SourceFileLoader("run_qemu", SCRIPT)
rq = importlib.util.module_from_spec(importlib.util.spec_from_loader("run_qemu", loader))
loader.exec_module(rq)
sys.path.insert(0, os.path.join(TESTS, "lib"))
import boots  # noqa: E402  (tests/boots.cfg: the guests the tests boot)

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


GROUPS = ("fast", "boot")


class QuirkDetection(unittest.TestCase):
    def test_faulting_instruction_names_the_feature(self):
        cases = {"<0f> 01 d0 48": "xsave", "<c5> f9 ef c0": "xsave",
                 "<0f> 01 fc 48 83": "clzero", "<66> 0f ef c0 0f": "sse2",
                 "<66> 0f 38 f8 07": "movdir64b", "<62> f1 fd 48 e7": "avx512f",
                 # the verdict's doubles: MOVQ rax->xmm0, MULSD, UCOMISD
                 "<66> 48 0f 6e c0": "sse2", "<f2> 0f 59 c1 66": "sse2",
                 "<66> 0f 2e c8 7a": "sse2"}
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
        self.assertIn("/nonexistent.elf: no such file", r.stderr)


if __name__ == "__main__":
    unittest.main()


def run_qemu(*args, timeout=300, **kw):
    return subprocess.run([SCRIPT] + list(args), stdin=subprocess.DEVNULL, capture_output=True,
                          text=True, timeout=timeout, **kw)


# A run of a few seconds under TCG.
QUICK = "suite=xen passes=l1 reps=1"


class UsbTarget(unittest.TestCase):
    """--usb FILE takes a regular file of ours or a new path; anything else
    is refused before a byte is written."""
    GROUPS = ("boot", "usb")

    def setUp(self):
        self.tmp = tempfile.mkdtemp()
        self.addCleanup(shutil.rmtree, self.tmp)

    def assert_refused(self, path, why):
        r = run_qemu("--usb", path, "--append", QUICK, "--timeout", "120",
                     "-o", os.path.join(self.tmp, "serial.log"))
        self.assertEqual(r.returncode, 2, r.stderr)
        self.assertRegex(r.stderr, r"run-qemu: --usb %s: .*%s" % (re.escape(path), why))
        self.assertNotIn("qemu-system", r.stderr)

    def test_refuses_what_is_not_a_file(self):
        fifo = os.path.join(self.tmp, "fifo")
        os.mkfifo(fifo)
        link = os.path.join(self.tmp, "null-link")
        os.symlink("/dev/null", link)
        for path, why in (("/dev/null", "character device"), (self.tmp, "directory"),
                          (fifo, "fifo"), (link, "symlink")):
            with self.subTest(path=path):
                self.assert_refused(path, why)

    @unittest.skipUnless(os.geteuid() == 0, "needs root to give a file to another user")
    def test_refuses_a_file_another_user_owns(self):
        theirs = os.path.join(self.tmp, "theirs.img")
        with open(theirs, "wb") as f:
            f.write(b"their data")
        os.chown(theirs, 65534, 65534)
        self.assert_refused(theirs, "owned by uid 65534")
        with open(theirs, "rb") as f:
            self.assertEqual(f.read(), b"their data")

    @unittest.skipUnless(os.geteuid() == 0 and shutil.which("losetup"),
                         "needs root and losetup for a loop device")
    def test_refuses_a_loop_device_and_leaves_it_alone(self):
        img = os.path.join(self.tmp, "disk.img")
        pattern = bytes(range(256)) * (32 << 12)         # 8 MiB
        with open(img, "wb") as f:
            f.write(pattern)
        dev = subprocess.run(["losetup", "-f", "--show", img], check=True,
                             capture_output=True, text=True).stdout.strip()
        self.addCleanup(subprocess.run, ["losetup", "-d", dev], check=True)
        link = os.path.join(self.tmp, "stick")
        os.symlink(dev, link)
        for path, why in ((dev, "block device"), (link, "symlink")):
            with self.subTest(path=path):
                self.assert_refused(path, why)
        with open(dev, "rb") as f:
            self.assertEqual(f.read(), pattern)
        with open(img, "rb") as f:
            self.assertEqual(f.read(), pattern)

    def test_a_new_path_gets_the_image(self):
        r = boots.run(self, "usb-new-path")
        stick = r.files["stick"]
        self.assertEqual(r.status, 0, r.stderr)
        with open(stick, "rb") as f:
            head = f.read(0x8006)
        self.assertEqual(head[0x8001:0x8006], b"CD001")
        # It ends with the command that reads the stick, which works.
        last = r.stderr.splitlines()[-1]
        prefix = "run-qemu: the logs a UEFI run saved on the stick: "
        self.assertTrue(last.startswith(prefix), last)
        cmd = shlex.split(last[len(prefix):])
        self.assertEqual([os.path.abspath(cmd[0]), cmd[1]],      # relative to here, if it can
                         [os.path.join(REPO, "scripts", "usb-logs"), stick])
        logs = subprocess.run(cmd, capture_output=True, text=True, timeout=60)
        self.assertEqual(logs.returncode, 0, logs.stderr)
        self.assertIn("no logs saved on PBRESULTS yet", logs.stdout)   # BIOS saves none


def cmdline_of(text):
    """The options the kernel says it received (its cmdline line)."""
    for raw in text.splitlines():
        m = re.search(r"\(PB\) cmdline:(?: (.*))?$", raw.rstrip("\r"))
        if m:
            return m.group(1) or ""
    return None


ELF = os.path.join(REPO, "build", "pagebench.elf")
OVMF = "/usr/share/ovmf/OVMF.fd"


@unittest.skipUnless(os.path.exists(ELF), "needs build/pagebench.elf: run make")
class Append(unittest.TestCase):
    """--append reaches the kernel exactly as given, or is refused."""
    GROUPS = ("boot", "uefi")

    def setUp(self):
        self.tmp = tempfile.mkdtemp()
        self.addCleanup(shutil.rmtree, self.tmp)
        self.log = os.path.join(self.tmp, "serial.log")

    def boot(self, *args):
        return run_qemu("-q", "-o", self.log, "--timeout", "240", *args)

    def test_grub_specials_reach_the_kernel_as_given(self):
        for name in ("grub-specials-bios", "grub-specials-uefi"):
            with self.subTest(row=name):
                append = boots.row(name).append
                self.assertIn(" u=#f then", append)
                r = boots.run(self, name)
                self.assertEqual(r.status, 1, r.stderr)   # unknown options are failures
                self.assertEqual(cmdline_of(r.text), append)
                self.assertNotIn("\x1b", r.text)     # GRUB's screen

    def test_kernel_gets_quotes_and_backslashes_as_given(self):
        append = boots.row("kernel-quotes").append
        self.assertIn(" a'b c\"d e\\f", append)
        r = boots.run(self, "kernel-quotes")
        self.assertEqual(r.status, 1, r.stderr)
        # QEMU's -kernel puts the image's path first.
        self.assertEqual(cmdline_of(r.text), ELF + " " + append)

    def test_quotes_and_backslashes_are_refused_through_grub(self):
        """GRUB's multiboot commands hand the kernel \\' for ', \\" for "
        and \\\\ for \\: such options cannot arrive as given."""
        for bad in ("a'b", 'c"d', "e\\f", "'unbalanced"):
            with self.subTest(bad=bad):
                r = self.boot("--append", QUICK + " " + bad)
                self.assertEqual(r.returncode, 2, r.stderr)
                self.assertIn("quote or backslash", r.stderr)
                self.assertNotIn("qemu-system", r.stderr)
                r = subprocess.run([os.path.join(REPO, "scripts", "mkiso"), ELF,
                                    os.path.join(self.tmp, "x.iso"), bad],
                                   capture_output=True, text=True)
                self.assertEqual(r.returncode, 2, r.stderr)
                self.assertFalse(os.path.exists(os.path.join(self.tmp, "x.iso")))

    def test_control_characters_are_refused(self):
        forged = QUICK + "\n(PB) done: 0 failures"
        for args in (["--append", forged], ["--kernel", "--append", forged],
                     ["--cpu", "max\r"], ["--qemu-arg=-no-hpet\x1b[2J"],
                     ["-o", os.path.join(self.tmp, "a\nb.log")]):
            with self.subTest(args=args):
                r = self.boot(*args)
                self.assertEqual(r.returncode, 2, r.stderr)
                self.assertRegex(r.stderr, r"control character")
                self.assertNotIn("qemu-system", r.stderr)
        self.assertEqual(os.listdir(self.tmp), [])


# A qemu-system-x86_64 that records the arguments it was given and exits.
RECORDING_QEMU = """#!%s
import json, os, sys
with open(os.environ["RECORDED_ARGV"], "w") as f:
    json.dump(sys.argv[1:], f)
""" % sys.executable


class PrintedCommand(unittest.TestCase):
    def test_printed_command_can_be_pasted(self):
        """The command run-qemu prints, split as a shell would, is the
        command QEMU was given, whatever the paths hold."""
        tmp = tempfile.mkdtemp(prefix="pb run $HOME 'q' ")
        self.addCleanup(shutil.rmtree, tmp)
        bin_dir = os.path.join(tmp, "bin")
        os.mkdir(bin_dir)
        qemu = os.path.join(bin_dir, "qemu-system-x86_64")
        with open(qemu, "w") as f:
            f.write(RECORDING_QEMU)
        os.chmod(qemu, 0o755)
        iso = os.path.join(tmp, 'a "b" c;d.iso')
        shutil.copyfile(os.path.join(REPO, "build", "pagebench.iso"), iso)
        recorded = os.path.join(tmp, "argv.json")
        env = dict(os.environ, PATH=bin_dir + ":" + os.environ["PATH"], RECORDED_ARGV=recorded)
        r = run_qemu("-q", "--accel", "tcg", "--iso", iso, "--elf", ELF,
                     "--qemu-arg=-name", "--qemu-arg=a b\\c", "-o", os.path.join(tmp, "x.log"),
                     env=env)
        self.assertEqual(r.returncode, 3, r.stderr)        # no kernel ran
        printed = [l[len("run-qemu: "):] for l in r.stderr.splitlines()
                   if l.startswith("run-qemu: qemu-system-x86_64 ")]
        self.assertEqual(len(printed), 1, r.stderr)
        with open(recorded) as f:
            argv = json.load(f)
        self.assertIn(iso, argv)
        self.assertEqual(shlex.split(printed[0]), ["qemu-system-x86_64"] + argv)


class LogName(unittest.TestCase):
    """The default log's name comes from the hostname, made safe: it never
    leaves the folder it is meant for, build/logs unless told."""

    def setUp(self):
        self.real = rq.socket.gethostname
        self.addCleanup(setattr, rq.socket, "gethostname", self.real)

    def test_hostile_hostnames_stay_in_the_folder(self):
        folder = os.path.join(REPO, "build", "logs")
        for host, want in (("../../../x", "_.._.._x"), ("/etc/passwd", "_etc_passwd"),
                           (".hidden", "hidden"), ("a b\tc", "a_b_c"), ("..", "host"),
                           ("", "host"), ("épée", "_p_e"), ("vm-1.example.org", "vm-1.example.org")):
            with self.subTest(host=host):
                rq.socket.gethostname = lambda: host
                for where, got in ((folder, rq.default_log_path(None)),
                                   ("/tmp/logs", rq.default_log_path("/tmp/logs"))):
                    self.assertEqual(os.path.dirname(got), where)
                    self.assertRegex(os.path.basename(got),
                                     r"^%s-\d{4}-\d\d-\d\dT\d{6}\.log$" % re.escape(want))

    @unittest.skipUnless(os.geteuid() == 0 and shutil.which("unshare"),
                         "needs root and unshare for a hostname of its own")
    def test_hostname_with_slashes(self):
        """A real hostname of ../../x (in a UTS namespace of its own), and a
        QEMU that exits at once: the log is made in --log-dir, nowhere else."""
        tmp = tempfile.mkdtemp()
        self.addCleanup(shutil.rmtree, tmp)
        bin_dir, logs = os.path.join(tmp, "bin"), os.path.join(tmp, "a", "b", "logs")
        os.mkdir(bin_dir)
        with open(os.path.join(bin_dir, "qemu-system-x86_64"), "w") as f:
            f.write(RECORDING_QEMU)
        os.chmod(os.path.join(bin_dir, "qemu-system-x86_64"), 0o755)
        env = dict(os.environ, PATH=bin_dir + ":" + os.environ["PATH"],
                   RECORDED_ARGV=os.path.join(tmp, "argv.json"))
        # hostname(1) refuses such a name; the system call takes it.
        set_hostname = "import os, socket, sys; socket.sethostname(sys.argv[1]); " \
                       "os.execv(sys.argv[2], sys.argv[2:])"
        r = subprocess.run(["unshare", "--uts", sys.executable, "-c", set_hostname, "../../x",
                            SCRIPT, "-q", "--accel", "tcg", "--log-dir", logs],
                           env=env, capture_output=True, text=True, timeout=60)
        self.assertEqual(r.returncode, 3, r.stderr)        # no kernel ran
        made = [os.path.relpath(os.path.join(d, n), tmp) for d, _, names in os.walk(tmp)
                for n in names]
        self.assertEqual(len(made), 3, made)               # the shim, its record, the log
        log, = [m for m in made if m.startswith("a/b/logs/")]
        self.assertRegex(log, r"^a/b/logs/_.._x-[0-9T-]+\.log$")


class MakeRun(unittest.TestCase):
    """make run keeps its log where git ignores it; SAVE=1 puts it in results/."""

    def run_line(self, *make_args):
        r = subprocess.run(["make", "-n", "-C", REPO, "run"] + list(make_args),
                           capture_output=True, text=True, timeout=120)
        self.assertEqual(r.returncode, 0, r.stderr)
        lines = [l for l in r.stdout.splitlines() if l.startswith("scripts/run-qemu")]
        self.assertEqual(len(lines), 1, r.stdout)
        return shlex.split(lines[0])

    def test_default_and_save(self):
        self.assertNotIn("--log-dir", self.run_line())
        argv = self.run_line("SAVE=1", "RUN_ARGS=--kernel")
        self.assertEqual(argv[argv.index("--log-dir") + 1], "results")
        self.assertEqual(argv[-1], "--kernel")
        ignored = subprocess.run(["git", "-C", REPO, "check-ignore", "-q", "build/logs/x.log"])
        self.assertEqual(ignored.returncode, 0, "build/logs is not ignored by git")

    def test_v1_shows_the_raw_log(self):
        self.assertNotIn("--raw", self.run_line())
        self.assertIn("--raw", self.run_line("V=1"))


class SavedLog(unittest.TestCase):
    """The saved log holds GRUB's text without its screen's control
    sequences; the live view gets the bytes as they came."""
    GRUB = (b"\x1b[H\x1b[J\x1b[1;1H\x1b[?25l\x1b[m\x1b[2;24HGNU GRUB  version 2.06\r\n"
            b"\x1b[5;78H\x1b[22;1H   The highlighted entry will be executed\r\n"
            b"\x1b(B\x1b]0;title\x07\r(PB) pagebench version=abc\r\n")

    def test_screen_sequences_are_not_saved(self):
        import io
        saved, live = io.StringIO(), io.StringIO()
        real = sys.stdout
        sys.stdout = live
        try:
            rq.Boot([], saved, quiet=False)._read_serial(io.BytesIO(self.GRUB))
        finally:
            sys.stdout = real
        self.assertEqual(saved.getvalue(), "GNU GRUB  version 2.06\r\n"
                         "   The highlighted entry will be executed\r\n"
                         "\r(PB) pagebench version=abc\r\n")
        self.assertEqual(live.getvalue(), self.GRUB.decode())


def fake_qemu(tmp, body):
    """A directory holding a qemu-system-x86_64 that runs the Python body."""
    bin_dir = os.path.join(tmp, "bin")
    os.makedirs(bin_dir, exist_ok=True)
    with open(os.path.join(bin_dir, "qemu-system-x86_64"), "w") as f:
        f.write("#!%s\n%s\n" % (sys.executable, body))
    os.chmod(os.path.join(bin_dir, "qemu-system-x86_64"), 0o755)
    return bin_dir


class ExitStatus(unittest.TestCase):
    """0 done, 1 failures found, 2 usage, 3 the environment cannot run it,
    4 timeout: what each means in run-qemu."""

    def setUp(self):
        self.tmp = tempfile.mkdtemp()
        self.addCleanup(shutil.rmtree, self.tmp)
        self.log = os.path.join(self.tmp, "x.log")

    def run_with(self, path, *args):
        return subprocess.run([sys.executable, SCRIPT, "-q", "--accel", "tcg", "-o", self.log]
                              + list(args), env=dict(os.environ, PATH=path),
                              stdin=subprocess.DEVNULL, capture_output=True, text=True,
                              timeout=120)

    def test_no_qemu(self):
        r = self.run_with(os.path.join(self.tmp, "empty"), "--kernel")
        self.assertEqual(r.returncode, 3, r.stderr)
        self.assertIn("qemu-system-x86_64 is missing", r.stderr)

    def test_qemu_ends_before_the_kernel(self):
        r = self.run_with(fake_qemu(self.tmp, "import sys; sys.exit(1)"), "--kernel")
        self.assertEqual(r.returncode, 3, r.stderr)
        self.assertIn("before the kernel ended the run", r.stderr)

    def test_kernel_failures(self):
        body = "print('(PB) done: 2 failures\\r', flush=True); raise SystemExit(3)"
        r = self.run_with(fake_qemu(self.tmp, body), "--kernel")
        self.assertEqual(r.returncode, 1, r.stderr)

    def test_done(self):
        body = "print('(PB) done: 0 failures\\r', flush=True); raise SystemExit(1)"
        r = self.run_with(fake_qemu(self.tmp, body), "--kernel")
        self.assertEqual(r.returncode, 0, r.stderr)

    def test_timeout(self):
        r = self.run_with(fake_qemu(self.tmp, "import time; time.sleep(60)"), "--kernel",
                          "--timeout", "1")
        self.assertEqual(r.returncode, 4, r.stderr)
        self.assertIn("timeout after 1 s", r.stderr)

    def test_no_ovmf(self):
        real = rq.OVMF
        self.addCleanup(setattr, rq, "OVMF", real)
        rq.OVMF = [os.path.join(self.tmp, "OVMF.fd")]
        self.assertEqual(rq.main(["--uefi"]), rq.ENVIRONMENT)

    def test_build_output_missing_or_named_file_missing(self):
        real = rq.DEFAULT_ELF
        self.addCleanup(setattr, rq, "DEFAULT_ELF", real)
        rq.DEFAULT_ELF = os.path.join(self.tmp, "pagebench.elf")
        self.assertEqual(rq.main(["--kernel", "--elf", rq.DEFAULT_ELF]), rq.ENVIRONMENT)
        self.assertEqual(rq.main(["--kernel", "--elf", os.path.join(self.tmp, "mine.elf")]),
                         rq.USAGE)

    def test_help_documents_them(self):
        r = subprocess.run([SCRIPT, "--help"], capture_output=True, text=True)
        for status in ("0  ", "1  ", "2  ", "3  ", "4  "):
            self.assertIn("\n  " + status, r.stdout)


class Answer(unittest.TestCase):
    """make run ends with the answer: run-qemu --answer prints, after the
    serial log, what pagebench-report verdict draws from the saved log;
    under TCG its cells say no recommendation."""
    GROUPS = ("boot", "report")

    def test_answer_after_the_log(self):
        self.assertIn("--answer", boots.row("answer-after-log").run_qemu_args)
        r = boots.run(self, "answer-after-log")
        self.assertEqual(r.status, 0, r.stderr)
        log = r.files["log"]
        report = subprocess.run([os.path.join(REPO, "scripts", "pagebench-report"),
                                 "verdict", "-q", log], capture_output=True, text=True,
                                timeout=120)
        self.assertEqual(report.returncode, 0, report.stderr)
        self.assertTrue(report.stdout.startswith("== %s\n" % os.path.basename(log)),
                        report.stdout)
        self.assertTrue(r.stdout.endswith(report.stdout), (r.stdout, report.stdout))
        self.assertIn("runs_on=tcg", report.stdout)
        self.assertIn("not a CPU: no recommendation", report.stdout)
        self.assertNotIn("→", report.stdout)

    def test_make_run_asks_for_it(self):
        with open(os.path.join(REPO, "Makefile")) as f:
            self.assertRegex(f.read(), r"\n\t\$\(Q\)scripts/run-qemu --answer ")


def on_terminal(argv, env, timeout=60):
    """argv run in the repository with stdout on a pseudo-terminal:
    (status, what it wrote there, stderr)."""
    master, slave = pty.openpty()
    with tempfile.TemporaryFile() as err:
        p = subprocess.Popen(argv, stdin=subprocess.DEVNULL, stdout=slave, stderr=err, env=env,
                             cwd=REPO)
        os.close(slave)
        out = b""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if not select.select([master], [], [], 1)[0]:
                continue
            try:
                data = os.read(master, 65536)
            except OSError:             # EIO: the last writer closed it
                break
            if not data:
                break
            out += data
        os.close(master)
        p.wait(timeout=timeout)
        err.seek(0)
        return p.returncode, out.decode("utf-8", "replace"), err.read().decode()


def screen_lines(text):
    """The lines a terminal keeps of text: each line as its last carriage
    return and erase-line left it."""
    lines = text.replace("\r\n", "\n").split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    return [l.split("\r")[-1].replace("\x1b[K", "") for l in lines]


# A QEMU whose guest says a few lines of a TCG run, staying at its epoch
# long enough for the progress line to show it, and ends as pagebench does.
TCG_GUEST = """import sys, time
lines = ["\\x1b[2J\\x1b[HGNU GRUB  version 2.06", "(PB) pagebench version=abc",
         "(PB) hot load loads=1000 ticks=10017 ns=3.72 runs_on=tcg",
         "(PB) plan suite=all reps=auto passes=l1 time=1000ms", "(PB) L1 w/o flush:",
         "(PB) epoch suite=clear pass=l1 n=0 fill=+0 work=+0"]
for line in lines:
    print(line + "\\r", flush=True)
time.sleep(1)
print("(PB) done: 0 failures\\r", flush=True)
raise SystemExit(1)
"""


class Terminal(unittest.TestCase):
    """On a terminal, run-qemu shows a progress line while QEMU runs, the
    answer, and where the log is: the raw log goes to the file only.
    --raw, or a pipe, echoes the log as it comes (make run V=1)."""

    def setUp(self):
        self.tmp = tempfile.mkdtemp()
        self.addCleanup(shutil.rmtree, self.tmp)
        self.log = os.path.join(self.tmp, "x.log")
        self.env = dict(os.environ, PATH=fake_qemu(self.tmp, TCG_GUEST) + ":" + os.environ["PATH"])

    def run_qemu(self, *args):
        return on_terminal([sys.executable, SCRIPT, "--accel", "tcg", "--kernel", "-o", self.log]
                           + list(args), self.env)

    def test_progress_then_the_answer_and_the_log(self):
        status, out, err = self.run_qemu("--answer")
        self.assertEqual(status, 0, err)
        screen = screen_lines(out)
        self.assertEqual(screen, ["QEMU's TCG translator, not a CPU: no recommendation",
                                  "this CPU's answer: build/bin/pagebench-linux",
                                  "log: %s (done: 0 failures)" % self.log])
        # The progress line went by, redrawn in place, naming the run's steps.
        self.assertIn("\r\x1b[Krun-qemu: ", out)
        self.assertRegex(out, r"run-qemu: \d+ s, \d+ lines of log: epoch suite=clear pass=l1 n=0")
        self.assertNotIn("(PB)", out)
        self.assertNotIn("qemu-system-x86_64 ", err)    # the command: --raw shows it
        with open(self.log) as f:
            saved = f.read()
        self.assertIn("(PB) plan suite=all", saved)
        self.assertIn("GNU GRUB", saved)

    def test_raw_echoes_the_log(self):
        status, out, err = self.run_qemu("--raw")
        self.assertEqual(status, 0, err)
        self.assertIn("(PB) epoch suite=clear pass=l1 n=0", out)
        self.assertNotIn("run-qemu: ", out)
        self.assertIn("run-qemu: qemu-system-x86_64 ", err)
        self.assertIn("run-qemu: log saved to " + self.log, err)

    def test_a_pipe_gets_the_log(self):
        r = subprocess.run([sys.executable, SCRIPT, "--accel", "tcg", "--kernel", "-o", self.log],
                           env=self.env, stdin=subprocess.DEVNULL, capture_output=True,
                           text=True, timeout=60)
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertIn("(PB) epoch suite=clear pass=l1 n=0", r.stdout)
        self.assertNotIn("lines of log", r.stdout)

    def test_the_steps_shown(self):
        p = rq.Progress(None)
        self.assertEqual(p.text([], 0.4), "run-qemu: 0 s, 0 lines of log: booting")
        lines = ["\x1b[HGNU GRUB\r\n", "\r(PB) pagebench version=abc\r\n"]
        self.assertEqual(p.text(lines, 2), "run-qemu: 2 s, 2 lines of log: the kernel starts")
        lines += ["(PB) copy L2 w/ flush:\r\n", "(PB)  pre=1 movsb=2 post=3\r\n"]
        self.assertEqual(p.text(lines, 3), "run-qemu: 3 s, 4 lines of log: copy L2 w/ flush")
        lines += ["(PB) epoch suite=copy pass=l2f n=4 fill=+4096 work=+0\r\n",
                  "(PB)  pre=1 movsb=2 post=3\r\n"]
        self.assertEqual(p.text(lines, 4),
                         "run-qemu: 4 s, 6 lines of log: epoch suite=copy pass=l2f n=4")
