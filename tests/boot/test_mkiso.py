"""scripts/mkiso keeps every file it makes on the way inside its private
mktemp -d folder, where no other user can plant anything."""
import os
import shutil
import subprocess
import tempfile
import unittest

TESTS = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
REPO = os.path.dirname(TESTS)
MKISO = os.path.join(REPO, "scripts", "mkiso")
ELF = os.path.join(REPO, "build", "pagebench.elf")

# mktemp as a local user who won the race would leave it: the folder made
# as asked, and symlinks planted beside it under every name derived from it.
PLANTING_MKTEMP = """#!/bin/sh
dir=$(%s "$@") || exit
for suffix in .log .results.img .iso .cfg; do
	ln -s "%s" "$dir$suffix"
done
echo "$dir"
"""


GROUPS = ("fast", "house")


@unittest.skipUnless(os.path.exists(ELF), "needs build/pagebench.elf: run make")
class TemporaryFiles(unittest.TestCase):
    GROUPS = ("house",)

    def setUp(self):
        self.tmp = tempfile.mkdtemp()
        self.addCleanup(shutil.rmtree, self.tmp)

    def test_planted_symlinks_are_not_followed(self):
        victim = os.path.join(self.tmp, "root-owned-file")
        with open(victim, "w") as f:
            f.write("precious\n")
        bin_dir, tmpdir = os.path.join(self.tmp, "bin"), os.path.join(self.tmp, "tmp")
        os.mkdir(bin_dir)
        os.mkdir(tmpdir)
        with open(os.path.join(bin_dir, "mktemp"), "w") as f:
            f.write(PLANTING_MKTEMP % (shutil.which("mktemp"), victim))
        os.chmod(os.path.join(bin_dir, "mktemp"), 0o755)
        env = dict(os.environ, PATH=bin_dir + ":" + os.environ["PATH"], TMPDIR=tmpdir)
        iso = os.path.join(self.tmp, "out.iso")
        for options in ([], ["suite=xen"]):
            with self.subTest(options=options):
                r = subprocess.run([MKISO, ELF, iso] + options, env=env,
                                   capture_output=True, text=True, timeout=300)
                self.assertEqual(r.returncode, 0, r.stderr)
                self.assertGreater(os.path.getsize(iso), 0)
                with open(victim) as f:
                    self.assertEqual(f.read(), "precious\n")
                # The private folder went away; only the planted links are left.
                left = [n for n in os.listdir(tmpdir) if not os.path.islink(os.path.join(tmpdir, n))]
                self.assertEqual(left, [])
                self.assertTrue(os.listdir(tmpdir), "the mktemp shim was not used")
                for n in os.listdir(tmpdir):
                    os.remove(os.path.join(tmpdir, n))


if __name__ == "__main__":
    unittest.main()
