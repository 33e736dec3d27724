"""pagebench-linux suite=scrub on a 4-node guest: Debian's kernel under
QEMU (TCG), a busybox initramfs that runs build/bin/pagebench-linux-static.
The region is mapped once per node (MPOL_BIND), so a size that fits the
machine's memory but not a node's must be refused, with a message, before
anything is mapped; before, the machine-wide check took scrub=419968K on
1 GiB in 4 nodes and the run was OOM-killed (status 137, no word)."""
import glob
import importlib.machinery
import importlib.util
import os
import re
import shutil
import tempfile
import unittest

import boots  # tests/boots.cfg: the guests the tests boot

TESTS = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
REPO = os.path.dirname(TESTS)
STATIC = os.path.join(REPO, "build", "bin", "pagebench-linux-static")
BUSYBOX = "/bin/busybox"
KERNELS = sorted(glob.glob("/boot/vmlinuz-*-amd64"))
QEMU = shutil.which("qemu-system-x86_64")

loader = importlib.machinery.SourceFileLoader(
    "run_linux_module", os.path.join(REPO, "scripts", "run-linux-module"))
rlm = importlib.util.module_from_spec(importlib.util.spec_from_loader(loader.name, loader))
loader.exec_module(rlm)

INIT = r"""#!/bin/busybox sh
/bin/busybox --install -s /bin
export PATH=/bin
mount -t proc proc /proc
mount -t sysfs sysfs /sys
echo "@@nodes $(ls -d /sys/devices/system/node/node* | wc -l)@@"
grep MemFree /sys/devices/system/node/node*/meminfo
/pagebench-linux-static suite=scrub scrub=$(cat /size) reps=1 variants=stosb \
    >/log 2>/err
echo "@@status $?@@"
cat /log /err
echo "@@end@@"
poweroff -f
"""


GROUPS = ("linux", "smp")


@unittest.skipUnless(os.path.exists(STATIC) and KERNELS and QEMU and os.path.exists(BUSYBOX),
                     "needs make, Debian's kernel, busybox-static and QEMU (scripts/deps test)")
class ScrubPerNode(unittest.TestCase):
    def boot(self, size):
        with tempfile.TemporaryDirectory() as tmp:
            with open(BUSYBOX, "rb") as f:
                busybox = f.read()
            with open(STATIC, "rb") as f:
                static = f.read()
            d, x, r = 0o040755, 0o100755, 0o100644
            entries = [("bin", d, b"", (0, 0)), ("dev", d, b"", (0, 0)),
                       ("proc", d, b"", (0, 0)), ("sys", d, b"", (0, 0)),
                       ("dev/console", 0o020600, b"", (5, 1)),
                       ("bin/busybox", x, busybox, (0, 0)), ("init", x, INIT.encode(), (0, 0)),
                       ("pagebench-linux-static", x, static, (0, 0)),
                       ("size", r, size.encode(), (0, 0))]
            initrd = os.path.join(tmp, "initrd")
            with open(initrd, "wb") as f:
                f.write(rlm.cpio_newc(entries))
            b = boots.run(self, "linux-numa4", initrd=initrd)
        out = b.text.replace("\r", "")
        nodes = re.search(r"@@nodes (\d+)@@", out)
        status = re.search(r"@@status (\d+)@@\n(.*)@@end@@", out, re.S)
        self.assertTrue(nodes and status, out[-3000:])
        self.assertEqual(nodes.group(1), "4", out[-3000:])
        return int(status.group(1)), status.group(2)

    def test_too_big_for_a_node(self):
        status, log = self.boot("419968K")
        self.assertEqual(status, 3, log)
        self.assertRegex(log, r"\(PB\) skipped scrub: not enough memory on NUMA node \d+ for "
                              r"the region, which is mapped once per node: \d+M free there")
        self.assertRegex(log, r"pagebench-linux: nothing to measure: suite=scrub: not enough "
                              r"memory on NUMA node")
        self.assertNotIn("linux buffers=", log)      # nothing was mapped

    def test_fits_every_node(self):
        status, log = self.boot("16M")
        self.assertEqual(status, 0, log)
        self.assertIn("(PB) scrub counts=", log)
        self.assertRegex(log, r"nodes=4 ")
        self.assertIn("done: 0 failures", log)


if __name__ == "__main__":
    unittest.main()
