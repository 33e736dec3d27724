"""scripts/usb-logs on images made as mkiso makes them, filled with logs by
mtools here (tests/boot/test_usb_log.py has the kernel write them itself under
OVMF): the listing, the copies, and a clear error for an image that is no
pagebench stick or whose GPT is damaged."""
import importlib.machinery
import importlib.util
import os
import shutil
import stat
import subprocess
import tempfile
import unittest
import zlib

TESTS = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
REPO = os.path.dirname(TESTS)
SCRIPT = os.path.join(REPO, "scripts", "usb-logs")
ELF = os.path.join(REPO, "build", "pagebench.elf")

loader = importlib.machinery.SourceFileLoader("usb_logs", SCRIPT)
ul = importlib.util.module_from_spec(importlib.util.spec_from_loader("usb_logs", loader))
loader.exec_module(ul)

LOGS = {
    "20260101-000000.log": b"(PB) pagebench version=abc\r\n(PB) done: 0 failures\r\n",
    "20260101-000000-2.log": b"(PB) pagebench version=abc\r\n(PB) done: 2 failures\r\n",
    "20260102-101010.log": b"(PB) pagebench version=abc\r\n(PB) plan suite=xen\r\n",
}


def usb_logs(*args):
    return subprocess.run([SCRIPT] + list(args), capture_output=True, text=True, timeout=120)


GROUPS = ("fast", "usb")


@unittest.skipUnless(os.path.exists(ELF), "needs build/pagebench.elf: run make")
class Images(unittest.TestCase):
    GROUPS = ("usb",)

    def setUp(self):
        self.tmp = tempfile.mkdtemp()
        self.addCleanup(shutil.rmtree, self.tmp)
        self.stick = os.path.join(self.tmp, "stick.img")
        subprocess.run([os.path.join(REPO, "scripts", "mkiso"), ELF, self.stick], check=True)

    def volume(self):
        return "%s@@%d" % (self.stick, ul.pbresults_offset(self.stick))

    def fill(self):
        subprocess.run(["mmd", "-i", self.volume(), "::/pagebench"], check=True)
        for name, text in LOGS.items():
            src = os.path.join(self.tmp, name)
            with open(src, "wb") as f:
                f.write(text)
            subprocess.run(["mcopy", "-i", self.volume(), src, "::/pagebench/" + name],
                           check=True)
            os.remove(src)

    def test_offset_is_the_fat_labelled_pbresults(self):
        r = subprocess.run(["minfo", "-i", self.volume()], capture_output=True, text=True)
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertIn('disk label="PBRESULTS  "', r.stdout)

    def test_a_fresh_stick_has_no_logs(self):
        r = usb_logs(self.stick)
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertIn("no logs saved on PBRESULTS yet", r.stdout)

    def test_lists_every_log_with_its_end(self):
        self.fill()
        r = usb_logs(self.stick)
        self.assertEqual(r.returncode, 0, r.stderr)
        rows = r.stdout.splitlines()
        self.assertRegex(rows[0], r"3 logs on PBRESULTS \(byte \d+\), \\pagebench\\:$")
        self.assertEqual([row.split()[:3] for row in rows[1:]], [
            [n, str(len(LOGS[n])), "bytes"] for n in sorted(LOGS)])
        self.assertTrue(rows[1].endswith("(PB) done: 2 failures"), rows[1])
        self.assertTrue(rows[2].endswith("(PB) done: 0 failures"), rows[2])
        self.assertTrue(rows[3].endswith("no done: line (the run did not end?)"), rows[3])

    def test_escapes_shown_not_obeyed(self):
        """A log whose last line hides a done: behind terminal escapes (a
        new title, a cleared screen, red text; issue 38): the listing shows
        them as \\xNN and takes no done: from it."""
        self.fill()
        name = "20260103-000000.log"
        src = os.path.join(self.tmp, name)
        with open(src, "wb") as f:
            f.write(b"(PB) pagebench version=abc\r\n"
                    b"\x1b]0;PWNED\x07\x1b[2J\x1b[1;31mFAKE\x1b[0m (PB) done: 0 failures\r\n")
        subprocess.run(["mcopy", "-i", self.volume(), src, "::/pagebench/" + name],
                       check=True)
        r = usb_logs(self.stick)
        self.assertEqual(r.returncode, 0, r.stderr)
        for c in "\x1b\x07\x9b":
            self.assertNotIn(c, r.stdout + r.stderr)
        row = next(l for l in r.stdout.splitlines() if l.strip().startswith(name))
        self.assertTrue(row.endswith("no done: line (the run did not end?)"), row)

    def test_copies_without_replacing(self):
        self.fill()
        dest = os.path.join(self.tmp, "out", "logs")
        r = usb_logs(self.stick, dest)
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertEqual(sorted(os.listdir(dest)), sorted(LOGS))
        for name, text in LOGS.items():
            with open(os.path.join(dest, name), "rb") as f:
                self.assertEqual(f.read(), text)
        r = usb_logs(self.stick, dest)
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertEqual(r.stdout.count("(already in %s)" % dest), 3)
        mine = os.path.join(dest, "20260101-000000.log")
        with open(mine, "wb") as f:
            f.write(b"my notes\n")
        r = usb_logs(self.stick, dest)
        self.assertEqual(r.returncode, 3)
        self.assertIn("%s exists and differs: not replaced" % mine, r.stderr)
        with open(mine, "rb") as f:
            self.assertEqual(f.read(), b"my notes\n")
        self.assertEqual(sorted(os.listdir(dest)), sorted(LOGS))   # no temporary left

    @unittest.skipUnless(os.geteuid() == 0 and shutil.which("losetup"),
                         "needs root and losetup for a loop device")
    def test_a_device(self):
        self.fill()
        dev = subprocess.run(["losetup", "-f", "--show", "-r", self.stick], check=True,
                             capture_output=True, text=True).stdout.strip()
        self.addCleanup(subprocess.run, ["losetup", "-d", dev], check=True)
        r = usb_logs(dev)
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertIn("3 logs on PBRESULTS", r.stdout)

    def corrupt(self, offset, data):
        with open(self.stick, "r+b") as f:
            f.seek(offset)
            f.write(data)

    def test_damaged_header(self):
        self.corrupt(512 + 80, (1 << 20).to_bytes(4, "little"))     # entry count
        r = usb_logs(self.stick)
        self.assertEqual(r.returncode, 3)
        self.assertIn("the GPT is damaged: its header's CRC does not match", r.stderr)

    def test_damaged_entries(self):
        with open(self.stick, "rb") as f:
            f.seek(512)
            head = f.read(92)
        table = int.from_bytes(head[72:80], "little")
        self.corrupt(table * 512 + 32, b"\xff" * 8)                  # first entry's first LBA
        r = usb_logs(self.stick)
        self.assertEqual(r.returncode, 3)
        self.assertIn("its partition entries' CRC does not match", r.stderr)

    def test_entries_out_of_the_disk(self):
        """CRCs right, a partition past the end of the disk."""
        with open(self.stick, "r+b") as f:
            f.seek(512)
            head = bytearray(f.read(92))
            table, count, size = (int.from_bytes(head[72:80], "little"),
                                  int.from_bytes(head[80:84], "little"),
                                  int.from_bytes(head[84:88], "little"))
            f.seek(table * 512)
            entries = bytearray(f.read(count * size))
            entries[40:48] = (1 << 40).to_bytes(8, "little")        # first entry's last LBA
            head[88:92] = zlib.crc32(entries).to_bytes(4, "little")
            head[16:20] = bytes(4)
            head[16:20] = zlib.crc32(head).to_bytes(4, "little")
            f.seek(table * 512)
            f.write(entries)
            f.seek(512)
            f.write(head)
        r = usb_logs(self.stick)
        self.assertEqual(r.returncode, 3)
        self.assertRegex(r.stderr, r"the GPT is damaged: partition 1 spans LBA \d+-\d+ "
                                   r"of a disk of \d+ sectors")

    def test_no_pbresults(self):
        first = ul.pbresults_offset(self.stick)
        self.corrupt(first + 43, b"OTHERLABEL ")                    # FAT16 volume label
        r = usb_logs(self.stick)
        self.assertEqual(r.returncode, 3)
        self.assertRegex(r.stderr, r"has no PBRESULTS partition \(its GPT lists 1, 2 "
                                   r"\(FAT NO NAME\), 3, 4 \(FAT OTHERLABEL\), 5\)")


NOBODY = 65534
# An mcopy that first lets another user (nobody, who can write DEST's
# folder when the test says so) rename the folder mcopy writes into and put
# a symlink to a root-only folder in its place: the swap a hostile user
# races root for, made certain. It fails, and is meant to, where that
# folder is not theirs to rename.
SWAP_MCOPY = r"""#!/bin/sh
for last; do :; done
folder=$(dirname "$last")
setpriv --reuid=%(uid)d --regid=%(uid)d --clear-groups \
    sh -c 'mv "$1" "$1.moved" && ln -s "$2" "$1"' sh "$folder" "$ROOT_ONLY" 2>/dev/null
exec %(mcopy)s "$@"
"""


@unittest.skipUnless(os.path.exists(ELF), "needs build/pagebench.elf: run make")
@unittest.skipUnless(os.geteuid() == 0 and shutil.which("setpriv") and shutil.which("mcopy"),
                     "needs root, setpriv and mtools: another user's moves against root")
class HostileDest(unittest.TestCase):
    """usb-logs run by root where another user (nobody) can act: whatever
    that user plants, nothing is written outside the private temporary
    folder and DEST, and nothing hangs. Before: the temporary folder was in
    DEST, so the swap above had mcopy write into the root-only folder, and
    copy_out() followed a planted DEST/NAME (a FIFO hung it; /dev/zero, a
    MemoryError)."""
    GROUPS = ("usb",)

    volume, fill = Images.volume, Images.fill

    def setUp(self):
        Images.setUp(self)
        os.chmod(self.tmp, 0o755)                   # nobody may reach DEST
        self.root_only = os.path.join(self.tmp, "root-only")
        os.mkdir(self.root_only, 0o700)
        bindir = os.path.join(self.tmp, "bin")
        os.mkdir(bindir)
        with open(os.path.join(bindir, "mcopy"), "w") as f:
            f.write(SWAP_MCOPY % {"uid": NOBODY, "mcopy": shutil.which("mcopy")})
        os.chmod(os.path.join(bindir, "mcopy"), 0o755)
        self.env = dict(os.environ, PATH=bindir + ":" + os.environ["PATH"],
                        ROOT_ONLY=self.root_only)
        self.fill()

    def as_nobody(self, *argv):
        subprocess.run(["setpriv", "--reuid=%d" % NOBODY, "--regid=%d" % NOBODY,
                        "--clear-groups"] + list(argv), check=True)

    def run_as_root(self, dest):
        def limit():            # a read of /dev/zero fails fast, not after 20 GiB
            import resource
            resource.setrlimit(resource.RLIMIT_AS, (1 << 30, 1 << 30))
        return subprocess.run([SCRIPT, self.stick, dest], capture_output=True, text=True,
                              timeout=60, env=self.env, preexec_fn=limit)

    def test_dest_another_user_can_write(self):
        for mode, owner in ((0o755, NOBODY), (0o777, 0), (0o775, 0)):
            with self.subTest(mode=oct(mode), owner=owner):
                dest = tempfile.mkdtemp(dir=self.tmp)
                os.chown(dest, owner, NOBODY)
                os.chmod(dest, mode)
                r = self.run_as_root(dest)
                self.assertEqual(os.listdir(self.root_only), [])
                self.assertEqual(r.returncode, 3, r.stderr)
                self.assertNotIn("Traceback", r.stderr)
                self.assertRegex(r.stderr, r"^usb-logs: DEST %s: (owned by uid %d|writable by "
                                 r"other users and not sticky)" % (dest, NOBODY))
                self.assertEqual(os.listdir(dest), [])

    def test_planted_names_in_a_sticky_dest(self):
        dest = os.path.join(self.tmp, "sticky")
        os.mkdir(dest)
        os.chmod(dest, 0o1777)
        first, second, third = sorted(LOGS)
        self.as_nobody("ln", "-s", "/dev/zero", os.path.join(dest, first))
        self.as_nobody("mkfifo", os.path.join(dest, second))
        self.as_nobody("ln", "-s", os.path.join(self.root_only, third),
                       os.path.join(dest, third))
        r = self.run_as_root(dest)
        self.assertEqual(os.listdir(self.root_only), [])
        self.assertEqual(r.returncode, 3, r.stderr)
        self.assertNotIn("Traceback", r.stderr)
        self.assertEqual(r.stderr.splitlines(), [
            "usb-logs: %s/%s exists (a symlink): not replaced" % (dest, first),
            "usb-logs: %s/%s exists and is not a regular file: not replaced" % (dest, second),
            "usb-logs: %s/%s exists (a symlink): not replaced" % (dest, third)])
        self.assertEqual(r.stdout.count("(NOT copied)"), 3)
        self.assertEqual(os.readlink(os.path.join(dest, first)), "/dev/zero")
        self.assertTrue(stat.S_ISFIFO(os.lstat(os.path.join(dest, second)).st_mode))
        self.assertEqual(sorted(os.listdir(dest)), sorted(LOGS))

    def test_a_sticky_dest_takes_new_logs(self):
        dest = os.path.join(self.tmp, "sticky")
        os.mkdir(dest)
        os.chmod(dest, 0o1777)
        r = self.run_as_root(dest)
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertEqual(os.listdir(self.root_only), [])
        for name, text in LOGS.items():
            st = os.lstat(os.path.join(dest, name))
            self.assertTrue(stat.S_ISREG(st.st_mode))
            self.assertEqual(st.st_uid, 0)
            with open(os.path.join(dest, name), "rb") as f:
                self.assertEqual(f.read(), text)


class NotAStick(unittest.TestCase):
    def test_no_gpt(self):
        for path in (os.path.join(REPO, "README.md"), "/dev/null"):
            with self.subTest(path=path):
                r = usb_logs(path)
                self.assertEqual(r.returncode, 3)
                self.assertIn("has no GPT", r.stderr)

    def test_usage(self):
        for args in ([], ["/nonexistent.img"], ["a\nb.img"], ["x", "y", "z"]):
            with self.subTest(args=args):
                r = usb_logs(*args)
                self.assertEqual(r.returncode, 2, r.stderr)
                self.assertTrue(r.stderr)


if __name__ == "__main__":
    unittest.main()
