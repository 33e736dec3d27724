"""Where a root script writes, another user cannot steer it: every output
path goes through scripts/cmdline.py's open_folder / open_file_in /
open_output (never through a symlink, never a FIFO or device, never a file
another user owns or with other links, never in a folder another user can
write unless it is sticky). The helpers, then each script that had a path
a user could swap: run-qemu (-o, its log folder, --usb's folder),
coverage-check --keep, mkiso. Another user is nobody (uid 65534)."""
import os
import shutil
import stat
import subprocess
import sys
import tempfile
import unittest

TESTS = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
REPO = os.path.dirname(TESTS)
SCRIPTS = os.path.join(REPO, "scripts")
ELF = os.path.join(REPO, "build", "pagebench.elf")
LINUX = os.path.join(REPO, "build", "bin", "pagebench-linux")
NOBODY = 65534
sys.path.insert(0, SCRIPTS)
import cmdline  # noqa: E402

ROOT = os.geteuid() == 0
# A QEMU that exits at once: run-qemu gets as far as writing its log.
QUICK_QEMU = "#!/bin/sh\nexit 0\n"


GROUPS = ("fast", "house")


class Base(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.mkdtemp()
        self.addCleanup(shutil.rmtree, self.tmp)
        self.victim = os.path.join(self.tmp, "victim")
        with open(self.victim, "w") as f:
            f.write("precious\n")

    def assert_victim_intact(self):
        with open(self.victim) as f:
            self.assertEqual(f.read(), "precious\n")

    def folder(self, mode, owner=0):
        d = tempfile.mkdtemp(dir=self.tmp)
        os.chown(d, owner, owner)
        os.chmod(d, mode)
        return d


class Helpers(Base):
    def test_writes_a_new_and_an_own_file(self):
        path = os.path.join(self.tmp, "a", "b", "out.log")
        for text in ("first\n", "second\n"):
            with cmdline.open_output(path) as f:
                f.write(text)
            with open(path) as f:
                self.assertEqual(f.read(), text)
        with self.assertRaisesRegex(cmdline.UnsafePath, "File exists"):
            cmdline.open_output(path, exclusive=True)

    def test_refused_files(self):
        link = os.path.join(self.tmp, "link")
        os.symlink(self.victim, link)
        fifo = os.path.join(self.tmp, "fifo")
        os.mkfifo(fifo)
        hard = os.path.join(self.tmp, "hard")
        os.link(self.victim, hard)
        for path, why in ((link, "a symlink"), (fifo, "a FIFO"), (hard, "it has 2 links"),
                          ("/dev/null", "not a regular file")):
            with self.subTest(path=path):
                with self.assertRaisesRegex(cmdline.UnsafePath, "^%s: %s: not written$"
                                            % (path, why)):
                    cmdline.open_output(path)
        self.assert_victim_intact()

    @unittest.skipUnless(ROOT, "needs root to give files and folders to another user")
    def test_refused_owners_and_folders(self):
        theirs = os.path.join(self.tmp, "theirs")
        with open(theirs, "w") as f:
            f.write("theirs\n")
        os.chown(theirs, NOBODY, NOBODY)
        with self.assertRaisesRegex(cmdline.UnsafePath, "owned by uid %d: not written" % NOBODY):
            cmdline.open_output(theirs)
        for mode, owner, why in ((0o755, NOBODY, "owned by uid %d" % NOBODY),
                                 (0o777, 0, "writable by other users and not sticky"),
                                 (0o775, 0, "writable by other users and not sticky")):
            with self.subTest(mode=oct(mode), owner=owner):
                d = self.folder(mode, owner)
                with self.assertRaisesRegex(cmdline.UnsafePath, "^%s: %s" % (d, why)):
                    cmdline.open_output(os.path.join(d, "out.log"))
                self.assertEqual(os.listdir(d), [])
        sticky = self.folder(0o1777)
        with cmdline.open_output(os.path.join(sticky, "out.log")) as f:
            f.write("ok\n")

    @unittest.skipUnless(ROOT, "needs root: the link is another user's")
    def test_link_planted_above_the_folder(self):
        """A folder any user may write (ww), and in it another user's link
        to a folder of root's (ww/sub -> rootonly, 0700): ww/sub/out.log,
        and ww/sub/new/ with make (usb-logs DEST), must not land in
        rootonly (issue 38: only the last folder was checked). Nobody's
        link in a sticky folder is refused too; root's own link in a
        sticky folder of root's, and any in root's folders, are followed."""
        ww, rootonly = self.folder(0o777), self.folder(0o700)
        sticky, safe = self.folder(0o1777), self.folder(0o755)
        for link, owner in ((os.path.join(ww, "sub"), NOBODY),
                            (os.path.join(sticky, "theirs"), NOBODY),
                            (os.path.join(sticky, "mine"), 0), (os.path.join(safe, "mine"), 0)):
            os.symlink(rootonly, link)
            os.lchown(link, owner, owner)
        os.mkdir(os.path.join(ww, "real"))
        for path, make in ((os.path.join(ww, "sub", "out.log"), False),
                           (os.path.join(ww, "sub", "new", "out.log"), True),
                           (os.path.join(ww, "real", "..", "sub", "out.log"), False),
                           (os.path.join(sticky, "theirs", "out.log"), False)):
            with self.subTest(path=path, make=make):
                with self.assertRaisesRegex(cmdline.UnsafePath, "is a symbolic link in a "
                                            "folder other users can write"):
                    if make:
                        cmdline.open_folder(os.path.dirname(path), make=True)
                    else:
                        cmdline.open_output(path)
                self.assertEqual(os.listdir(rootonly), [])
        for path in (os.path.join(sticky, "mine", "a.log"), os.path.join(safe, "mine", "b.log")):
            with cmdline.open_output(path) as f:
                f.write("ok\n")
        self.assertEqual(sorted(os.listdir(rootonly)), ["a.log", "b.log"])

    def test_safe_folder_for_the_shell_scripts(self):
        r = subprocess.run([sys.executable, os.path.join(SCRIPTS, "cmdline.py"),
                            "safe-folder", self.tmp], capture_output=True, text=True)
        self.assertEqual((r.returncode, r.stderr), (0, ""))
        os.chmod(self.tmp, 0o777)
        r = subprocess.run([sys.executable, os.path.join(SCRIPTS, "cmdline.py"),
                            "safe-folder", self.tmp], capture_output=True, text=True)
        os.chmod(self.tmp, 0o700)
        self.assertEqual(r.returncode, 3)
        self.assertIn("writable by other users and not sticky", r.stderr)


@unittest.skipUnless(os.path.exists(ELF), "needs build/pagebench.elf: run make")
class RunQemu(Base):
    def run_qemu(self, *args, boot=("--kernel",)):
        bin_dir = os.path.join(self.tmp, "bin")
        os.makedirs(bin_dir, exist_ok=True)
        qemu = os.path.join(bin_dir, "qemu-system-x86_64")
        with open(qemu, "w") as f:
            f.write(QUICK_QEMU)
        os.chmod(qemu, 0o755)
        env = dict(os.environ, PATH=bin_dir + ":" + os.environ["PATH"])
        return subprocess.run([os.path.join(SCRIPTS, "run-qemu"), "-q", "--accel", "tcg"]
                              + list(boot) + list(args), env=env, capture_output=True,
                              text=True, timeout=120, stdin=subprocess.DEVNULL)

    def test_output_through_a_symlink(self):
        """Before: -o LINK truncated and wrote the file LINK names."""
        link = os.path.join(self.tmp, "serial.log")
        os.symlink(self.victim, link)
        r = self.run_qemu("-o", link)
        self.assert_victim_intact()
        self.assertEqual(r.returncode, 3, r.stderr)
        self.assertIn("run-qemu: the log %s: a symlink: not written" % link, r.stderr)

    @unittest.skipUnless(ROOT, "needs root to give a folder to another user")
    def test_log_folder_another_user_can_write(self):
        """Before: build/logs/<host>-<second>.log was opened by a name
        another user could plant a link under."""
        for mode, owner in ((0o755, NOBODY), (0o777, 0)):
            with self.subTest(mode=oct(mode), owner=owner):
                logs = self.folder(mode, owner)
                r = self.run_qemu("--log-dir", logs)
                self.assertEqual(r.returncode, 3, r.stderr)
                self.assertRegex(r.stderr, r"run-qemu: the log %s: (owned by|"
                                 r"writable by other users)" % logs)
                self.assertEqual(os.listdir(logs), [])

    @unittest.skipUnless(ROOT, "needs root to give a folder to another user")
    def test_usb_in_a_folder_another_user_owns(self):
        """Before: the file's owner was checked, not its folder's."""
        theirs = self.folder(0o755, NOBODY)
        stick = os.path.join(theirs, "stick.img")
        r = self.run_qemu("--usb", stick, "-o", os.path.join(self.tmp, "serial.log"), boot=())
        self.assertEqual(r.returncode, 2, r.stderr)
        self.assertIn("run-qemu: --usb %s: its folder %s: owned by uid %d"
                      % (stick, theirs, NOBODY), r.stderr)
        self.assertEqual(os.listdir(theirs), [])


@unittest.skipUnless(os.access(LINUX, os.X_OK), "needs build/bin/pagebench-linux: run make")
class CoverageCheckKeep(Base):
    def test_keep_through_a_symlink(self):
        """Before: --keep DIR wrote run1.log through a link planted there."""
        keep = os.path.join(self.tmp, "keep")
        os.mkdir(keep)
        os.symlink(self.victim, os.path.join(keep, "run1.log"))
        r = subprocess.run([os.path.join(SCRIPTS, "coverage-check"), "-n", "2", "--keep", keep,
                            "--", "suite=xen", "passes=l1", "variants=stosb", "reps=2"],
                           capture_output=True, text=True, timeout=300)
        self.assert_victim_intact()
        self.assertNotEqual(r.returncode, 0)
        self.assertIn("coverage-check: %s/run1.log: a symlink: not written" % keep, r.stderr)


@unittest.skipUnless(os.path.exists(ELF), "needs build/pagebench.elf: run make")
class Mkiso(Base):
    def mkiso(self, iso):
        return subprocess.run([os.path.join(SCRIPTS, "mkiso"), ELF, iso], capture_output=True,
                              text=True, timeout=300)

    def test_iso_a_symlink(self):
        link = os.path.join(self.tmp, "pagebench.iso")
        os.symlink(self.victim, link)
        r = self.mkiso(link)
        self.assertEqual(r.returncode, 3, r.stderr)
        self.assertIn("is a symlink or not a regular file: refused", r.stderr)
        self.assert_victim_intact()
        self.assertTrue(os.path.islink(link))

    @unittest.skipUnless(ROOT, "needs root to give a folder to another user")
    def test_folder_another_user_can_write(self):
        """Before: rm -f "$iso", then grub-mkrescue -o "$iso" and dd
        of="$iso" by name, in a folder where another user could plant a
        link between them."""
        d = self.folder(0o777)
        r = self.mkiso(os.path.join(d, "pagebench.iso"))
        self.assertEqual(r.returncode, 3, r.stderr)
        self.assertIn("writable by other users and not sticky", r.stderr)
        self.assertEqual(os.listdir(d), [])

    def test_made_by_rename(self):
        """A new ISO replaces an old one whole, and nothing else is left."""
        iso = os.path.join(self.tmp, "pagebench.iso")
        with open(iso, "w") as f:
            f.write("old\n")
        r = self.mkiso(iso)
        self.assertEqual(r.returncode, 0, r.stderr)
        st = os.lstat(iso)
        self.assertTrue(stat.S_ISREG(st.st_mode))
        self.assertGreater(st.st_size, 1 << 20)
        self.assertEqual(stat.S_IMODE(st.st_mode), 0o644)
        self.assertEqual(sorted(os.listdir(self.tmp)), ["pagebench.iso", "victim"])


if __name__ == "__main__":
    unittest.main()
