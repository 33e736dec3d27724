"""scripts/write-usb refuses everything but a removable, unmounted, large
enough whole disk, and verifies what it wrote. No real disk is ever written:
the device checks run on a loop device with a made-up sysfs."""
import importlib.machinery
import importlib.util
import os
import subprocess
import tempfile
import unittest

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SCRIPT = os.path.join(REPO, "scripts", "write-usb")
ISO = os.path.join(REPO, "build", "pagebench.iso")


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


class Refusals(unittest.TestCase):
    def test_not_a_block_device(self):
        for dev in ("/nonexistent/sdz", "/dev/null", os.path.join(REPO, "README.md")):
            with self.subTest(dev=dev):
                r = run("--iso", ISO, dev)
                self.assertEqual(r.returncode, 2)
                self.assertIn("refused", r.stderr)

    def test_not_an_iso(self):
        r = run("--iso", os.path.join(REPO, "README.md"), "/dev/null")
        self.assertEqual(r.returncode, 2)
        self.assertIn("not an ISO 9660 image", r.stderr)

    def test_iso_is_hybrid(self):
        self.assertGreater(wu.check_iso(ISO), 0)


@unittest.skipUnless(os.geteuid() == 0 and os.path.exists("/usr/sbin/losetup"),
                     "needs root and losetup for a loop device")
class LoopDevice(unittest.TestCase):
    """A loop device is a real block device; sysfs and mounts are made up."""

    def setUp(self):
        self.tmp = tempfile.mkdtemp()
        self.img = os.path.join(self.tmp, "stick.img")
        with open(self.img, "wb") as f:
            f.truncate(64 << 20)
        self.dev = subprocess.run(["losetup", "-f", "--show", self.img], check=True,
                                  capture_output=True, text=True).stdout.strip()
        self.addCleanup(subprocess.run, ["losetup", "-d", self.dev])
        st = os.stat(self.dev)
        self.sysfs = os.path.join(self.tmp, "sys")
        disk = os.path.join(self.sysfs, "devices", "usb1", "block", "sdz")
        os.makedirs(os.path.join(disk, "sdz1"))
        os.makedirs(os.path.join(self.sysfs, "dev", "block"))
        os.symlink(disk, os.path.join(self.sysfs, "dev", "block",
                                      "%d:%d" % (os.major(st.st_rdev), os.minor(st.st_rdev))))
        self.disk = disk
        self.set(removable="1", size=str((64 << 20) // 512))
        self.mounts = os.path.join(self.tmp, "mounts")
        self.set_mounts("/dev/vda / ext4 rw 0 0\n")

    def set(self, **files):
        for name, value in files.items():
            with open(os.path.join(self.disk, name), "w") as f:
                f.write(value + "\n")

    def set_mounts(self, text):
        with open(self.mounts, "w") as f:
            f.write(text)

    def check(self, iso_size=1 << 20):
        return wu.check_device(self.dev, iso_size, sysfs=self.sysfs, mounts=self.mounts)

    def test_accepts_a_removable_unmounted_stick(self):
        name, _, size = self.check()
        self.assertEqual((name, size), ("sdz", 64 << 20))

    def test_refuses_a_real_loop_device_as_fixed(self):
        r = run("--iso", ISO, self.dev)
        self.assertEqual(r.returncode, 2)
        self.assertIn("neither removable nor on USB", r.stderr)

    def test_refuses_mounted_partition(self):
        self.set_mounts("/dev/sdz1 /media/stick vfat rw 0 0\n")
        with self.assertRaisesRegex(wu.Refused, "mounted"):
            self.check()

    def test_refuses_too_small(self):
        with self.assertRaisesRegex(wu.Refused, "the ISO needs"):
            self.check(iso_size=128 << 20)

    def test_refuses_partition(self):
        with open(os.path.join(self.disk, "partition"), "w") as f:
            f.write("1\n")
        with self.assertRaisesRegex(wu.Refused, "partition"):
            self.check()

    def test_refuses_fixed_disk_not_on_usb(self):
        fixed = os.path.join(self.sysfs, "devices", "pci0", "block", "sdz")
        os.makedirs(os.path.dirname(fixed))
        os.rename(self.disk, fixed)
        link = os.path.join(self.sysfs, "dev", "block", os.listdir(os.path.join(self.sysfs, "dev", "block"))[0])
        os.remove(link)
        os.symlink(fixed, link)
        self.disk = fixed
        self.set(removable="0")
        with self.assertRaisesRegex(wu.Refused, "neither removable nor on USB"):
            self.check()

    def test_write_and_verify(self):
        self.assertIsNone(wu.write_and_verify(ISO, self.dev))
        with open(self.img, "rb") as f, open(ISO, "rb") as iso:
            want = iso.read()
            self.assertEqual(f.read(len(want)), want)


if __name__ == "__main__":
    unittest.main()
