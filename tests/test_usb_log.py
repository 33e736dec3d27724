"""The log saved on the stick (UEFI): the built image, written to a
"stick" (a copy of the ISO, attached writable to an XHCI controller),
boots under OVMF; the kernel writes its log to the stick's PBRESULTS
partition, which is read back here with mtools and compared with the
serial log. The same image as a CD, and on a BIOS, says why it saved
nothing. The screen's footer shows the same line."""
import importlib.machinery
import importlib.util
import os
import re
import subprocess
import tempfile
import unittest

from test_boot import Boot, LogChecks, fat_label, gpt_partitions

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
RUN_QEMU = os.path.join(REPO, "scripts", "run-qemu")
OVMF = "/usr/share/ovmf/OVMF.fd"
OPTIONS = "suite=xen passes=l1 reps=1"
SAVED = re.compile(r"^log saved: \\pagebench\\(\d{8}-\d{6}(?:-\d+)?\.log) bytes=(\d+) "
                   r"volume=PBRESULTS$")
# A line of ours in the raw serial text, from its tag (GRUB may leave a
# "\r" or an escape sequence before the first) to its "\r".
RAW_TAGGED = re.compile(r"\([A-Za-z0-9_]{1,15}\) .*")


def load(name, path):
    loader = importlib.machinery.SourceFileLoader(name, path)
    mod = importlib.util.module_from_spec(importlib.util.spec_from_loader(name, loader))
    loader.exec_module(mod)
    return mod


screen = load("screen", os.path.join(REPO, "tests", "screen.py"))


def run(tmp, *args, timeout=600):
    """run-qemu with args; (Boot of the serial log, raw serial text)."""
    log = os.path.join(tmp, "serial.log")
    proc = subprocess.run([RUN_QEMU, "-q", "-o", log, "--timeout", str(timeout)] + list(args),
                          capture_output=True, text=True, timeout=timeout + 300)
    with open(log, "rb") as f:
        raw = f.read().decode("utf-8", "replace")
    return Boot(proc.returncode, raw, proc.stderr), raw


def results_offset(stick):
    """Byte offset of the stick's PBRESULTS partition, for mtools' -i FILE@@OFFSET."""
    for p in gpt_partitions(stick):
        if fat_label(stick, p["first"]) == "PBRESULTS":
            return p["first"] * 512
    raise AssertionError("no PBRESULTS partition on %s" % stick)


def mtools(cmd, stick, path):
    out = subprocess.run([cmd, "-i", "%s@@%d" % (stick, results_offset(stick)), path],
                         capture_output=True, timeout=60)
    return out.returncode, out.stdout, out.stderr.decode("utf-8", "replace")


@unittest.skipUnless(os.path.exists(OVMF), "OVMF is not installed: the UEFI log file is not tested")
class SavedLog(LogChecks):
    def test_uefi_stick_saves_the_serial_log(self):
        """OVMF, the image as a USB stick: the file on PBRESULTS holds the
        serial log's lines from the first to done:, byte for byte."""
        with tempfile.TemporaryDirectory() as tmp:
            stick = os.path.join(tmp, "stick.img")
            b, raw = run(tmp, "--uefi", "--accel", "tcg", "--usb", stick, "--append", OPTIONS)
            self.assert_success(b)
            m = SAVED.match(b.after_done[0])
            self.assertTrue(m, b.after_done)
            name, size = m.group(1), int(m.group(2))

            rc, listing, err = mtools("mdir", stick, "::/pagebench")
            self.assertEqual(rc, 0, err)
            listing = listing.decode("ascii", "replace")
            self.assertRegex(listing, r"\s%d\s.*\s%s\n" % (size, re.escape(name)))
            rc, saved, err = mtools("mtype", stick, "::/pagebench/" + name)
            self.assertEqual(rc, 0, err)
            self.assertEqual(len(saved), size)

            # Serial's own bytes for our lines, up to and with done:.
            serial = [m.group(0) + "\n" for m in map(RAW_TAGGED.search, raw.split("\n")) if m]
            done = max(i for i, l in enumerate(serial) if " done: " in l)
            self.assertEqual(saved.decode("ascii"), "".join(serial[:done + 1]))
            self.assertTrue(saved.endswith(b") done: 0 failures\r\n"))
            # And the report tool reads the file as it reads the serial log.
            rep = subprocess.run([os.path.join(REPO, "scripts", "pagebench-report"), "summary",
                                  "-"], input=saved, capture_output=True, timeout=60)
            self.assertEqual(rep.returncode, 0, rep.stderr)

    def test_uefi_cd_says_why_not(self):
        """The same image as a CD: no log saved, and the line says why."""
        with tempfile.TemporaryDirectory() as tmp:
            b, _ = run(tmp, "--uefi", "--accel", "tcg", "--append", OPTIONS)
            self.assert_success(b)
            self.assertEqual(b.after_done, ["log not saved: booted from a CD (El Torito), "
                                            "no PBRESULTS volume there"])

    def test_bios_stick_says_why_not(self):
        """SeaBIOS boots the stick (multiboot v1): nothing written to it."""
        with tempfile.TemporaryDirectory() as tmp:
            stick = os.path.join(tmp, "stick.img")
            b, _ = run(tmp, "--accel", "tcg", "--usb", stick, "--append", OPTIONS)
            self.assert_success(b)
            self.assertEqual(b.after_done, ["log not saved: no UEFI boot services "
                                            "(BIOS, QEMU -kernel or multiboot v1)"])
            rc, listing, err = mtools("mdir", stick, "::")
            self.assertEqual(rc, 0, err)
            self.assertIn(b"No files", listing)

    def test_screen_footer_says_where(self):
        """The screen's footer shows the log line under done:."""
        with tempfile.TemporaryDirectory() as tmp:
            stick, dump = os.path.join(tmp, "stick.img"), os.path.join(tmp, "screen.ppm")
            b, raw = run(tmp, "--uefi", "--accel", "tcg", "--usb", stick, "--append", OPTIONS,
                         "--screendump", dump)
            self.assertEqual(b.status, 0, b.stderr[-2000:])
            geo = screen.geometry_from_log(raw)
            self.assertIsNotNone(geo, raw[-2000:])
            rows = screen.read_screen(dump, *geo)
            log = b.after_done[0]
            self.assertTrue(SAVED.match(log), log)
            self.assertEqual(rows[-3:], ["done: 0 failures", log[:geo[0]].rstrip(),
                                         "run complete, halting."])


if __name__ == "__main__":
    unittest.main()
