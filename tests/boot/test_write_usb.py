"""scripts/write-usb refuses everything but a removable, unused, large
enough whole disk, writes through the one descriptor it checked, and
verifies past the cache. No real disk is ever written: the devices are
loop devices over files here, with a made-up sysfs that calls them USB
sticks (the real sysfs calls a loop device fixed, which is refused)."""
import contextlib
import importlib.machinery
import importlib.util
import io
import os
import shutil
import stat
import struct
import subprocess
import tempfile
import unittest

TESTS = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
REPO = os.path.dirname(TESTS)
SCRIPT = os.path.join(REPO, "scripts", "write-usb")
ISO = os.path.join(REPO, "build", "pagebench.iso")
STICK_BYTES = 64 << 20
# What is on a "stick" before a test: not zeros, so a write shows.
PATTERN = bytes(range(256)) * (1 << 12)                # 1 MiB


def load():
    loader = importlib.machinery.SourceFileLoader("write_usb", SCRIPT)
    spec = importlib.util.spec_from_loader("write_usb", loader)
    mod = importlib.util.module_from_spec(spec)
    loader.exec_module(mod)
    return mod


wu = load()


def run(*args):
    return subprocess.run([SCRIPT] + list(args), stdin=subprocess.DEVNULL,
                          capture_output=True, text=True, timeout=60)


def iso_bytes():
    with open(ISO, "rb") as f:
        return f.read()


GROUPS = ("fast", "usb")


class Refusals(unittest.TestCase):
    def test_not_a_block_device(self):
        for dev in ("/nonexistent/sdz", "/dev/null", os.path.join(REPO, "README.md")):
            with self.subTest(dev=dev):
                r = run("--iso", ISO, dev)
                self.assertEqual(r.returncode, 3)
                self.assertIn("refused", r.stderr)

    def test_usage(self):
        for args in ([], ["--nosuch", "/dev/sdz"], ["/dev/sdz", "/dev/sdy"]):
            with self.subTest(args=args):
                self.assertEqual(run(*args).returncode, 2)

    def test_control_character(self):
        r = run("--iso", ISO, "/dev/sdz\n")
        self.assertEqual(r.returncode, 2)
        self.assertIn("control character", r.stderr)

    def test_not_an_iso(self):
        r = run("--iso", os.path.join(REPO, "README.md"), "/dev/null")
        self.assertEqual(r.returncode, 3)
        self.assertIn("not an ISO 9660 image", r.stderr)

    def test_iso_is_hybrid(self):
        f, size = wu.open_iso(ISO)
        f.close()
        self.assertEqual(size, os.path.getsize(ISO))


class Confirmation(unittest.TestCase):
    """The prompt waits a bounded time, and takes only the device's name."""

    def answer(self, text, timeout=5):
        r, w = os.pipe()
        self.addCleanup(os.close, w)
        if text is not None:
            os.write(w, text.encode())
        with os.fdopen(r) as stream, contextlib.redirect_stdout(io.StringIO()):
            wu.confirm("sdz", "/dev/sdz", stream, timeout)

    def test_right_name(self):
        self.answer("sdz\n")
        self.answer("/dev/sdz\n")

    def test_wrong_name(self):
        with self.assertRaisesRegex(wu.Refused, "not confirmed"):
            self.answer("sdy\n")

    def test_no_answer(self):
        with self.assertRaisesRegex(wu.Refused, r"not confirmed within 0\.2 s"):
            self.answer(None, timeout=0.2)


class InUseParsing(unittest.TestCase):
    """swaps and mounts by device number, from a made-up /proc."""

    def setUp(self):
        self.tmp = tempfile.mkdtemp()
        self.addCleanup(shutil.rmtree, self.tmp)
        self.proc = os.path.join(self.tmp, "proc")
        self.disk = type("FakeDisk", (), {})()
        self.disk.nodes = {"sdz": "8:16", "sdz1": "8:17", "sdz2": "8:18"}

    def process(self, pid, ns, mountinfo):
        d = os.path.join(self.proc, str(pid))
        os.makedirs(os.path.join(d, "ns"))
        os.symlink("mnt:[%d]" % ns, os.path.join(d, "ns", "mnt"))
        with open(os.path.join(d, "mountinfo"), "w") as f:
            f.write(mountinfo)

    def test_mounts_in_every_namespace_by_number(self):
        self.process(1, 100, "22 1 254:1 / / rw - ext4 /dev/vda1 rw\n"
                             "40 22 8:17 / /media/a\\040b rw - vfat /dev/disk/by-label/X rw\n")
        self.process(7, 100, "40 22 8:17 / /media/a\\040b rw - vfat /dev/disk/by-label/X rw\n")
        self.process(9, 200, "50 30 8:18 / /mnt rw shared:1 - ext4 /tmp/node rw\n")
        self.assertEqual(wu.mounts(self.disk, self.proc), [
            "sdz1 is mounted on /media/a b as /dev/disk/by-label/X in the mount namespace of pid 1",
            "sdz2 is mounted on /mnt as /tmp/node in the mount namespace of pid 9"])

    @unittest.skipUnless(os.geteuid() == 0, "needs root for mknod")
    def test_swap_by_device_number(self):
        # A node of the partition's number under another name.
        node = os.path.join(self.tmp, "swap node")
        os.mknod(node, stat.S_IFBLK | 0o600, os.makedev(8, 17))
        os.makedirs(self.proc)
        with open(os.path.join(self.proc, "swaps"), "w") as f:
            f.write("Filename\tType\tSize\tUsed\tPriority\n"
                    "%s partition 1024 0 -2\n" % node.replace(" ", "\\040"))
        self.assertEqual(wu.swaps(self.disk, self.proc), ["sdz1 is swap (%s)" % node])


def losetup(img):
    return subprocess.run(["losetup", "-f", "--show", img], check=True,
                          capture_output=True, text=True).stdout.strip()


class Stick(unittest.TestCase):
    """A loop device is a real block device; its sysfs is made up."""

    def loop(self, name):
        img = os.path.join(self.tmp, name)
        with open(img, "wb") as f:
            for _ in range(STICK_BYTES // len(PATTERN)):
                f.write(PATTERN)
        dev = losetup(img)
        self.addCleanup(subprocess.run, ["losetup", "-d", dev], check=True)
        return img, dev

    def fake_sysfs(self, dev, bus, parts=(("sdz1", "8:17"),)):
        """sysfs/dev/block/MAJ:MIN of dev -> a disk sdz under bus, with parts."""
        st = os.stat(dev)
        disk = os.path.join(self.sysfs, "devices", bus, "block", "sdz")
        os.makedirs(os.path.join(disk, "holders"))
        for name, num in parts:
            os.makedirs(os.path.join(disk, name, "holders"))
            for f, v in (("partition", "1"), ("dev", num)):
                with open(os.path.join(disk, name, f), "w") as fh:
                    fh.write(v + "\n")
        os.makedirs(os.path.join(self.sysfs, "dev", "block"), exist_ok=True)
        os.symlink(disk, os.path.join(self.sysfs, "dev", "block", wu.devnum(st.st_rdev)))
        return disk

    def set(self, **files):
        for name, value in files.items():
            with open(os.path.join(self.disk, name), "w") as f:
                f.write(value + "\n")

    def check(self, iso_size=1 << 20):
        fd, _ = wu.open_device(self.dev, False, self.sysfs)
        try:
            return wu.check_device(fd, iso_size, sysfs=self.sysfs)
        finally:
            os.close(fd)

    def main(self, *args, confirm=None):
        out, err = io.StringIO(), io.StringIO()
        kw = {"confirm": confirm} if confirm else {}
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            status = wu.main(["--iso", ISO] + list(args), sysfs=self.sysfs, **kw)
        return status, out.getvalue(), err.getvalue()

    def content(self, img=None):
        with open(img or self.img, "rb") as f:
            return f.read()


@unittest.skipUnless(os.geteuid() == 0 and shutil.which("losetup"),
                     "needs root and losetup for a loop device")
class LoopDevice(Stick):
    GROUPS = ("usb",)

    def setUp(self):
        self.tmp = tempfile.mkdtemp()
        self.addCleanup(shutil.rmtree, self.tmp)
        self.img, self.dev = self.loop("stick.img")
        self.sysfs = os.path.join(self.tmp, "sys")
        self.disk = self.fake_sysfs(self.dev, "usb1")
        self.set(removable="1")

    def assert_untouched(self, img=None):
        self.assertEqual(self.content(img), PATTERN * (STICK_BYTES // len(PATTERN)))

    def test_accepts_a_removable_unused_stick(self):
        disk = self.check()
        self.assertEqual((disk.name, disk.size), ("sdz", STICK_BYTES))

    def test_refuses_a_real_loop_device_as_fixed(self):
        r = run("--iso", ISO, self.dev)
        self.assertEqual(r.returncode, 3)
        self.assertIn("neither removable nor on USB", r.stderr)
        self.assert_untouched()

    def test_refuses_too_small(self):
        with self.assertRaisesRegex(wu.Refused, "the ISO needs"):
            self.check(iso_size=STICK_BYTES + 1)

    def test_refuses_partition(self):
        self.set(partition="1")
        with self.assertRaisesRegex(wu.Refused, "partition"):
            self.check()

    def test_refuses_fixed_disk_not_on_usb(self):
        shutil.rmtree(self.sysfs)
        self.disk = self.fake_sysfs(self.dev, "pci0")
        self.set(removable="0")
        with self.assertRaisesRegex(wu.Refused, "neither removable nor on USB"):
            self.check()

    def test_refuses_holders(self):
        """A device-mapper or RAID device stacked on the disk or a partition."""
        for where in ("", "sdz1"):
            with self.subTest(where=where or "disk"):
                holder = os.path.join(self.disk, where, "holders", "dm-0")
                os.mkdir(holder)
                with self.assertRaisesRegex(wu.Refused, r"%s is held by dm-0" % (where or "sdz")):
                    self.check()
                os.rmdir(holder)

    def test_write_and_verify(self):
        status, out, err = self.main("--yes", self.dev)
        self.assertEqual(status, 0, err)
        self.assertIn("written and verified", out)
        self.assertRegex(err, r"write-usb: wrote [\d.]+ MiB in")
        want = iso_bytes()
        got = self.content()
        self.assertEqual(got[:len(want)], want)
        self.assertEqual(got[len(want):], (PATTERN * (STICK_BYTES // len(PATTERN)))[len(want):])

    def test_verify_reads_past_the_cache(self):
        """The stick changes under the device's cache after the write (here
        through the loop device's backing file): the read-back sees it."""
        with open(ISO, "rb") as iso:
            size = os.fstat(iso.fileno()).st_size
            fd, _ = wu.open_device(self.dev, True, self.sysfs)
            try:
                with contextlib.redirect_stderr(io.StringIO()):
                    wu.write(fd, iso, size)
                    flip = size // 2
                    with open(self.img, "r+b") as f:
                        f.seek(flip)
                        old = f.read(1)
                        f.seek(flip)
                        f.write(bytes([old[0] ^ 0xff]))
                        f.flush()
                        os.fsync(f.fileno())
                    self.assertEqual(wu.verify(fd, iso, size), flip)
            finally:
                os.close(fd)

    def test_dry_run_writes_nothing(self):
        status, out, err = self.main("--dry-run", self.dev)
        self.assertEqual(status, 0, err)
        self.assertIn("dry run: would write", out)
        self.assert_untouched()

    def test_path_swapped_during_the_prompt(self):
        """A symlink names the stick while it is checked, and another disk
        while the user types: the write still goes to the stick checked."""
        other_img, other_dev = self.loop("other.img")
        link = os.path.join(self.tmp, "stick")
        os.symlink(self.dev, link)

        def swap_then_confirm(name, real):
            os.remove(link)
            os.symlink(other_dev, link)

        status, out, err = self.main(link, confirm=swap_then_confirm)
        self.assertEqual(status, 0, err)
        want = iso_bytes()
        self.assertEqual(self.content()[:len(want)], want)
        self.assert_untouched(other_img)

    def test_not_confirmed(self):
        def no(name, real):
            raise wu.Refused("not confirmed within 60 s")

        status, _, err = self.main(self.dev, confirm=no)
        self.assertEqual(status, 3)
        self.assertIn("not confirmed", err)
        self.assert_untouched()

    def test_exclusive_open_refused(self):
        """Someone holds the disk exclusively (as a mount does): EBUSY."""
        holder = os.open(self.dev, os.O_RDONLY | os.O_EXCL)
        self.addCleanup(os.close, holder)
        status, _, err = self.main("--yes", self.dev)
        self.assertEqual(status, 3)
        self.assertIn("in use, the kernel refused it exclusive access (EBUSY)", err)
        self.assert_untouched()


PART_FIRST = 2048           # sectors: the partition starts at 1 MiB


def mbr_with_one_partition(path, first=PART_FIRST):
    mbr = bytearray(512)
    sectors = STICK_BYTES // 512 - first
    mbr[446:462] = struct.pack("<B3sB3sII", 0, bytes(3), 0x83, bytes(3), first, sectors)
    mbr[510:512] = b"\x55\xaa"
    with open(path, "r+b") as f:
        f.write(mbr)


NEEDED = ("losetup", "partx", "mkfs.ext2", "mount", "umount", "mkswap", "swapon",
          "swapoff", "unshare")


@unittest.skipUnless(os.geteuid() == 0 and all(shutil.which(t) for t in NEEDED),
                     "needs root and %s" % ", ".join(NEEDED))
class RealUse(Stick):
    """A partition of the stick really mounted or swapped on, under a name
    that is neither /dev/sdz1 nor /dev/loopNp1: a node of its own made with
    mknod, and in a mount namespace of its own."""
    GROUPS = ("usb",)

    def setUp(self):
        self.tmp = tempfile.mkdtemp()
        self.addCleanup(shutil.rmtree, self.tmp)
        self.img = os.path.join(self.tmp, "stick.img")
        with open(self.img, "wb") as f:
            f.truncate(STICK_BYTES)
        mbr_with_one_partition(self.img)
        self.dev = losetup(self.img)
        self.addCleanup(subprocess.run, ["losetup", "-d", self.dev], check=True)
        # This kernel reads no partition table of a loop device itself;
        # -u also drops what an earlier user of this loop device left.
        subprocess.run(["partx", "-u", self.dev], check=True, capture_output=True)
        self.addCleanup(subprocess.run, ["partx", "-d", self.dev], check=True)
        self.part = self.dev + "p1"
        self.sysfs = os.path.join(self.tmp, "sys")
        self.disk = self.fake_sysfs(self.dev, "usb1",
                                    [("sdz1", wu.devnum(os.stat(self.part).st_rdev))])
        self.set(removable="1")
        self.node = os.path.join(self.tmp, "by-label", "STICK")
        os.mkdir(os.path.dirname(self.node))
        os.mknod(self.node, stat.S_IFBLK | 0o600, os.stat(self.part).st_rdev)
        self.mnt = os.path.join(self.tmp, "mnt")
        os.mkdir(self.mnt)
        self.before = self.content()

    def assert_untouched(self, img=None):
        """The MiB before the partition, which the ISO would overwrite, is as
        it was (the file system's own writes while mounted are not ours)."""
        self.assertEqual(self.content(img)[:PART_FIRST * 512], self.before[:PART_FIRST * 512])

    def refused(self, why):
        status, _, err = self.main("--yes", self.dev)
        self.assertEqual(status, 3, err)
        self.assertIn("EBUSY", err)
        self.assertRegex(err, why)
        self.assert_untouched()

    def mkfs(self):
        subprocess.run(["mkfs.ext2", "-q", self.part], check=True)
        self.before = self.content()

    def test_mounted_under_another_name(self):
        self.mkfs()
        subprocess.run(["mount", self.node, self.mnt], check=True)
        try:
            self.refused(r"sdz1 is mounted on %s as %s" % (self.mnt, self.node))
        finally:
            subprocess.run(["umount", self.mnt], check=True)

    def test_mounted_in_another_namespace(self):
        self.mkfs()
        p = subprocess.Popen(["unshare", "--mount", "--propagation", "private", "sh", "-c",
                              'mount "$1" "$2" && echo mounted && exec sleep 60', "sh",
                              self.node, self.mnt], stdout=subprocess.PIPE, text=True)
        try:
            self.assertEqual(p.stdout.readline(), "mounted\n")
            self.assertNotIn(self.mnt, open("/proc/self/mountinfo").read())
            self.refused(r"sdz1 is mounted on %s as %s in the mount namespace of pid \d+"
                         % (self.mnt, self.node))
        finally:
            p.kill()
            p.wait()

    def test_swap_on_a_partition(self):
        subprocess.run(["mkswap", "-q", self.part], check=True)
        self.before = self.content()
        subprocess.run(["swapon", self.node], check=True)
        try:
            self.refused(r"sdz1 is swap \(%s\)" % self.node)
        finally:
            subprocess.run(["swapoff", self.node], check=True)


if __name__ == "__main__":
    unittest.main()
