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
import sys
import tempfile
import unittest

import boots  # tests/boots.cfg: the guests the tests boot
from test_boot import LogChecks

TESTS = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
REPO = os.path.dirname(TESTS)
OVMF = "/usr/share/ovmf/OVMF.fd"
SAVED = re.compile(r"^log saved: \\pagebench\\(\d{8}-\d{6}(?:-\d+)?\.log) bytes=(\d+) "
                   r"volume=PBRESULTS$")
# A line of ours in the raw serial text, from its tag (GRUB may leave a
# "\r" or an escape sequence before the first) to its "\r".
RAW_TAGGED = re.compile(r"\([A-Za-z0-9_]{1,15}\) .*")


sys.path.insert(0, os.path.join(TESTS, "lib"))
import screen  # noqa: E402  (tests/lib/screen.py: the screendump reader)


USB_LOGS = os.path.join(REPO, "scripts", "usb-logs")
_loader = importlib.machinery.SourceFileLoader("usb_logs", USB_LOGS)
usb_logs = importlib.util.module_from_spec(importlib.util.spec_from_loader("usb_logs", _loader))
_loader.exec_module(usb_logs)


def results_offset(stick):
    """Byte offset of the stick's PBRESULTS partition, for mtools' -i FILE@@OFFSET
    (scripts/usb-logs reads it from the GPT)."""
    return usb_logs.pbresults_offset(stick)


def mtools(cmd, stick, path):
    out = subprocess.run([cmd, "-i", "%s@@%d" % (stick, results_offset(stick)), path],
                         capture_output=True, timeout=60)
    return out.returncode, out.stdout, out.stderr.decode("utf-8", "replace")


def stick_from_iso(tmp, name):
    """A stick (raw image) of an ISO whose one GRUB entry passes row name's
    options; OVMF boots it as it is (run-qemu --usb would copy the ISO
    over it)."""
    return boots.make_stick(name, os.path.join(tmp, "stick.img"))


GROUPS = ("boot", "usb", "uefi")


@unittest.skipUnless(os.path.exists(OVMF), "OVMF is not installed: the UEFI log file is not tested")
class SavedLog(LogChecks):
    def test_uefi_stick_saves_the_serial_log(self):
        """OVMF, the image as a USB stick: the file on PBRESULTS holds the
        serial log's lines from the first to done:, byte for byte."""
        with tempfile.TemporaryDirectory() as tmp:
            b = boots.run(self, "uefi-stick")   # shared with test_screen_footer_says_where
            stick, raw = b.files["stick"], b.text
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
            # scripts/usb-logs lists it and copies it out as it is.
            dest = os.path.join(tmp, "copied")
            out = subprocess.run([USB_LOGS, stick, dest], capture_output=True, text=True,
                                 timeout=60)
            self.assertEqual(out.returncode, 0, out.stderr)
            self.assertRegex(out.stdout, r"\n  %s +%d bytes  \(PB\) done: 0 failures  \(copied\)\n"
                             % (re.escape(name), size))
            with open(os.path.join(dest, name), "rb") as f:
                self.assertEqual(f.read(), saved)
            # And the report tool reads the file as it reads the serial log.
            rep = subprocess.run([os.path.join(REPO, "scripts", "pagebench-report"), "summary",
                                  "-"], input=saved, capture_output=True, timeout=60)
            self.assertEqual(rep.returncode, 0, rep.stderr)

    def test_uefi_cd_says_why_not(self):
        """The same image as a CD: no log saved, and the line says why."""
        b = boots.run(self, "iso-uefi")     # shared with test_boot
        self.assert_success(b)
        self.assertEqual(b.after_done, ["log not saved: booted from a CD (El Torito), "
                                        "no PBRESULTS volume there"])

    def test_bios_stick_says_why_not(self):
        """SeaBIOS boots the stick (multiboot v1): nothing written to it."""
        b = boots.run(self, "bios-stick")
        stick = b.files["stick"]
        self.assert_success(b)
        self.assertEqual(b.after_done, ["log not saved: no UEFI boot services "
                                        "(BIOS, QEMU -kernel or multiboot v1)"])
        rc, listing, err = mtools("mdir", stick, "::")
        self.assertEqual(rc, 0, err)
        self.assertIn(b"No files", listing)

    def test_exception_still_saved(self):
        """A run ended by an exception saves its log too, the exception in it."""
        b = boots.run(self, "uefi-stick-ud")
        stick = b.files["stick"]
        self.assertEqual(b.status, 1)
        self.assert_ending(b, "done: 1 failure")
        name = SAVED.match(b.after_done[0]).group(1)
        rc, saved, err = mtools("mtype", stick, "::/pagebench/" + name)
        self.assertEqual(rc, 0, err)
        self.assertIn(b"(PB) exception: #UD (invalid opcode) ", saved)
        self.assertTrue(saved.endswith(b"(PB) done: 1 failure\r\n"))

    def test_read_only_stick_says_why_not(self):
        """A write-protected stick: nothing written, and the line says so."""
        b = boots.run(self, "stick-read-only")
        self.assert_success(b)
        self.assertEqual(b.after_done, ["log not saved: volume PBRESULTS is read-only"])

    def test_full_stick_says_why_not(self):
        """PBRESULTS filled up beforehand: the line says how full, and no
        half-written file is left."""
        with tempfile.TemporaryDirectory() as tmp:
            stick = stick_from_iso(tmp, "stick-as-is")
            rc, listing, err = mtools("mdir", stick, "::")
            free = int(re.search(rb"([\d ]+) bytes free", listing).group(1).replace(b" ", b""))
            filler = os.path.join(tmp, "filler")
            with open(filler, "wb") as f:
                f.truncate(free)
            out = subprocess.run(["mcopy", "-i", "%s@@%d" % (stick, results_offset(stick)),
                                  filler, "::/filler"], capture_output=True, text=True)
            self.assertEqual(out.returncode, 0, out.stderr)
            b = boots.run(self, "stick-as-is", stick=stick)
            self.assert_success(b)
            self.assertRegex(b.after_done[0], r"^log not saved: volume PBRESULTS is full: "
                                              r"0 bytes free, the log has \d+$")
            rc, listing, err = mtools("mdir", stick, "::")
            self.assertNotIn(b"pagebench", listing.lower())

    def test_name_taken_gets_a_suffix(self):
        """A clock that says what it said before (never set, say): every
        name of that minute is taken, so the run writes NAME-2.log and
        leaves the older logs as they were."""
        with tempfile.TemporaryDirectory() as tmp:
            stick = stick_from_iso(tmp, "stick-clock-stopped")
            target = "%s@@%d" % (stick, results_offset(stick))
            old = os.path.join(tmp, "old.log")
            with open(old, "wb") as f:
                f.write(b"(PB) an older run\r\n")
            subprocess.run(["mmd", "-i", target, "::/pagebench"], check=True)
            taken = ["20260101-0000%02d.log" % sec for sec in range(60)]
            for name in taken:
                subprocess.run(["mcopy", "-i", target, old, "::/pagebench/" + name], check=True)
            # The VM's clock starts at this minute and runs with the VM.
            b = boots.run(self, "stick-clock-stopped", stick=stick)
            self.assert_success(b)
            m = SAVED.match(b.after_done[0])
            self.assertTrue(m, b.after_done)
            self.assertRegex(m.group(1), r"^20260101-0000\d\d-2\.log$")
            for name in taken:
                rc, text, err = mtools("mtype", stick, "::/pagebench/" + name)
                self.assertEqual(text, b"(PB) an older run\r\n", name)
            rc, saved, err = mtools("mtype", stick, "::/pagebench/" + m.group(1))
            self.assertTrue(saved.endswith(b"(PB) done: 0 failures\r\n"))

    def test_screen_footer_says_where(self):
        """The screen's footer shows the log line under done:."""
        b = boots.run(self, "uefi-stick")   # shared with test_uefi_stick_saves_the_serial_log
        raw, (dump,) = b.text, b.files["screens"]
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
