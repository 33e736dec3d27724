"""tests/boots.cfg, the table of the guests the tests boot, and
tests/lib/boots.py, which reads it: every row is well formed and booted by
some test, a bad row is refused with its name, and a row becomes the
launcher command it says. Nothing here boots."""
import ast
import glob
import os
import re
import subprocess
import tempfile
import time
import unittest

import boots

HERE = os.path.dirname(os.path.abspath(__file__))
TESTS = os.path.dirname(HERE)


def cfg_rows(text):
    with tempfile.NamedTemporaryFile("w", suffix=".cfg", delete=False) as f:
        f.write(text)
    try:
        return boots.read_rows(f.name)
    finally:
        os.unlink(f.name)


BASE = """[DEFAULT]
launcher = run-qemu
loader = multiboot
firmware = seabios
memory = 1G
accel = tcg
timeout = 60
status = 0
"""


GROUPS = ("fast", "house")


class Table(unittest.TestCase):
    def test_every_row_is_booted_by_a_test(self):
        """A row no test names is a boot nobody checks: the name (or its
        stem, for a test that adds the rest, "tsc-" + pick) is in a test."""
        sources = ""
        for path in glob.glob(os.path.join(TESTS, "*", "test_*.py")):
            if os.path.basename(path) != "test_boots.py":
                with open(path) as f:
                    sources += f.read()
        unused = []
        for name in boots.ROWS:
            stems = [name[:i + 1] for i, ch in enumerate(name) if ch == "-"]
            if '"%s"' % name not in sources and not any(
                    re.search(r'"%s" \+ \w+' % re.escape(s), sources) for s in stems):
                unused.append(name)
        self.assertEqual(unused, [])

    def test_the_example_in_hacking_md_is_a_row(self):
        """docs/hacking.md's example row is the table's, word for word."""
        with open(os.path.join(os.path.dirname(TESTS), "docs", "hacking.md")) as f:
            block = re.search(r"```ini\n(.*?)```", f.read(), re.S).group(1)
        name = re.match(r"\[([\w-]+)\]", block).group(1)
        with open(boots.CFG) as f:
            table = f.read()
        self.assertIn("\n" + block, table)
        self.assertIn('boots.run(self, "%s")' % name,
                      open(os.path.join(HERE, "test_timers.py")).read())

    def test_rows_say_what_they_are_for(self):
        self.assertEqual([n for n, r in boots.ROWS.items() if not r.about], [])
        self.assertGreater(len(boots.ROWS), 50)

    def test_a_bad_row_is_refused_by_name(self):
        cases = {"colour = red\n": r"\[x\]: unknown field colour",
                 "firmware = coreboot\n": r"\[x\]: firmware = coreboot; valid: seabios ovmf",
                 "launcher = run-linux-module\n": r"\[x\]: run-linux-module cannot start loader = multiboot",
                 "status = ok\n": r"\[x\]: invalid literal",
                 "must = ^(unclosed\n": r"\[x\]: missing \)",
                 "readonly = yes\n": r"\[x\]: keys and readonly need launcher = qemu",
                 "launcher = qemu\nloader = iso\nappend = a=b\n": r"\[x\]: QEMU boots the built ISO",
                 "groups = boot nosuch\n": r"\[x\]: groups = nosuch; valid: fast boot kvm",
                 "groups =\n": r"\[x\]: groups = \(none\); valid: ",
                 "accel = kvm\ngroups = fast boot\n":
                     r"\[x\]: not in group kvm: the row says accel = kvm",
                 "groups = boot uefi\n":
                     r"\[x\]: in group uefi: the row does not say firmware = ovmf",
                 "loader = usb\ngroups = boot\n": r"\[x\]: not in group usb",
                 "smp = 2\ngroups = boot\n": r"\[x\]: not in group smp",
                 "loader = iso\ngroups = fast\n": r"\[x\]: not in group boot"}
        for body, why in cases.items():
            with self.subTest(body=body):
                with self.assertRaisesRegex(boots.RowError, why):
                    cfg_rows(BASE + "[x]\nabout = a test\n" + body)
        with self.assertRaisesRegex(boots.RowError, r"no row \[nothing\]"):
            boots.row("nothing")


def test_classes():
    """(module name, class name, its groups, its source) of every test class."""
    for path in sorted(glob.glob(os.path.join(TESTS, "*", "test_*.py"))):
        with open(path) as f:
            src = f.read()
        tree = ast.parse(src)
        mod = os.path.basename(path)[:-3]
        groups = next((ast.literal_eval(n.value) for n in tree.body if isinstance(n, ast.Assign)
                       and [t.id for t in n.targets if isinstance(t, ast.Name)] == ["GROUPS"]),
                      None)
        for node in tree.body:
            if isinstance(node, ast.ClassDef):
                own = next((ast.literal_eval(n.value) for n in node.body
                            if isinstance(n, ast.Assign) and
                            [t.id for t in n.targets if isinstance(t, ast.Name)] == ["GROUPS"]),
                           None)
                yield mod, node.name, own or groups, ast.get_source_segment(src, node)


class Groups(unittest.TestCase):
    """tests/run -g GROUP: every test and row is in known groups, the
    header says what each is, and a test shares a group with each row it
    boots (else -g of its group would never boot that row)."""

    def test_the_header_lists_the_groups(self):
        with open(boots.CFG) as f:
            header = f.read().split("\n[DEFAULT]")[0]
        listed = re.findall(r"^#   (\w+) +\S", header.split("# Groups")[1], re.M)
        self.assertEqual(tuple(listed), boots.GROUPS)

    def test_every_test_is_in_known_groups(self):
        for mod, cls, groups, _ in test_classes():
            with self.subTest(test="%s.%s" % (mod, cls)):
                self.assertTrue(groups, "no GROUPS in the module or the class")
                self.assertEqual([g for g in groups if g not in boots.GROUPS], [])

    def test_a_test_shares_a_group_with_its_rows(self):
        for mod, cls, groups, src in test_classes():
            for name, r in boots.ROWS.items():
                stems = [name[:i + 1] for i, ch in enumerate(name) if ch == "-"]
                if '"%s"' % name in src or any(re.search(r'"%s" \+ \w+' % re.escape(s), src)
                                               for s in stems):
                    with self.subTest(test="%s.%s" % (mod, cls), row=name):
                        self.assertTrue(set(groups or ()) & set(r.groups),
                                        "%s against %s" % (groups, r.groups))

    def test_a_row_outside_the_chosen_groups_is_skipped(self):
        self.addCleanup(setattr, boots, "chosen", boots.chosen)
        boots.chosen = ("house",)
        with self.assertRaisesRegex(unittest.SkipTest, r"row \[xen\] is in fast boot, not in -g house"):
            boots.launch("xen")

    def test_run_takes_known_groups_only(self):
        run = os.path.join(TESTS, "run")
        r = subprocess.run([run, "-g", "nosuch"], capture_output=True, text=True, timeout=60)
        self.assertEqual(r.returncode, 2, r.stderr)
        self.assertIn("-g nosuch: no such group; groups: fast boot", r.stderr)
        # test_the_header_lists_the_groups is in group house, not unit.
        name = "-k test_the_header_lists_the_groups"
        for group, ran in (("house", "1 passed"), ("unit", "0 passed")):
            with self.subTest(group=group):
                r = subprocess.run([run, "-g", group] + name.split(), capture_output=True,
                                   text=True, timeout=120)
                self.assertEqual(r.stdout.splitlines()[-1], ran + ", 0 failed, 0 skipped",
                                 r.stdout + r.stderr)


class Commands(unittest.TestCase):
    """Each field reaches the launcher as the table's header says."""

    def command(self, body, **inputs):
        r = cfg_rows(BASE + "[x]\nabout = a test\n" + body)["x"]
        return boots.command(r, "/T", inputs.get("stick", "/T/stick.img"),
                             inputs.get("initrd"), inputs.get("more_append", ""))

    def test_run_qemu(self):
        cmd = self.command("loader = usb\nfirmware = ovmf\ncpu = EPYC\nsmp = 4\n"
                           "groups = boot uefi usb smp\n"
                           "append = suite=xen reps=1\nqemu_args = -machine q35 -no-hpet\n"
                           "screen_pages = 2\nrun_qemu_args = --answer\n")
        self.assertEqual(cmd[0], boots.RUN_QEMU)
        self.assertEqual(cmd[1:], ["-q", "-o", "/T/serial.log", "--timeout", "60",
                                   "--usb", "/T/stick.img", "--uefi", "--accel", "tcg",
                                   "--cpu", "EPYC", "--smp", "4", "--memory", "1G",
                                   "--append", "suite=xen reps=1", "--qemu-arg=-machine",
                                   "--qemu-arg=q35", "--qemu-arg=-no-hpet",
                                   "--screendump", "/T/screen.ppm", "--screendump-pages", "2",
                                   "--answer"])
        # No append field: the built ISO and its menu; auto: run-qemu picks.
        cmd = self.command("loader = iso\naccel = auto\ngroups = boot\n")
        self.assertNotIn("--append", cmd)
        self.assertNotIn("--accel", cmd)
        # An empty append is the kernel's defaults, passed as such.
        cmd = self.command("append =\ngroups = boot\n", more_append=" stall_limit_ms=9")
        self.assertEqual(cmd[cmd.index("--append") + 1], "stall_limit_ms=9")

    def test_qemu_itself(self):
        cmd = self.command("launcher = qemu\nloader = usb\nfirmware = ovmf\nreadonly = yes\n"
                           "groups = boot uefi usb\n"
                           "memory = 2G\n", stick="/T/a,b.img")
        self.assertEqual(cmd[0], boots.QEMU)
        self.assertIn("if=none,id=stick,format=raw,file=/T/a,,b.img,readonly=on", cmd)
        self.assertEqual(cmd[cmd.index("-bios") + 1], boots.OVMF)
        self.assertEqual(cmd[cmd.index("-m") + 1], "2G")
        self.assertEqual(cmd[cmd.index("-cpu") + 1], "max")
        self.assertIn("isa-debug-exit,iobase=0xf4,iosize=0x04", cmd)
        cmd = self.command("launcher = qemu\nappend = selftest=map\ngroups = boot\n")
        self.assertEqual(cmd[cmd.index("-kernel") + 1:cmd.index("-kernel") + 4],
                         [boots.ELF, "-append", "selftest=map"])

    def test_run_linux_module(self):
        cmd = self.command("launcher = run-linux-module\nloader = module\naccel = auto\n"
                           "groups = module\n"
                           "append = suite=xen\nkernel_args = watchdog_thresh=2\n"
                           "rmmod_after = 5\n", more_append=" stall_limit_ms=20")
        self.assertEqual(cmd, [boots.RUN_LINUX_MODULE, "--append", "suite=xen stall_limit_ms=20",
                               "--kernel-args", "watchdog_thresh=2", "--rmmod-after", "5",
                               "--memory", "1G", "--timeout", "60"])


class Silence(unittest.TestCase):
    """A guest that prints nothing by silent_s is stopped, status None; one
    that has printed is read to its end, however long it then is silent."""
    GROUPS = ("house",)

    def row(self):
        return cfg_rows(BASE + "[x]\nabout = a test\nlauncher = qemu\ngroups = boot\n")["x"]

    def test_silent_guest_stopped(self):
        started = time.monotonic()
        status, text, _ = boots._serial(self.row(), ["sleep", "30"], silent_s=1)
        self.assertEqual((status, text), (None, ""))
        self.assertLess(time.monotonic() - started, 20)

    def test_speaking_guest_read(self):
        # Silent past silent_s once it has spoken: still read to its end.
        status, text, _ = boots._serial(self.row(), ["sh", "-c", "echo a; sleep 2; echo b; exit 1"],
                                        silent_s=1)
        self.assertEqual((status, text), (0, "a\nb\n"))   # QEMU's exit 1 is a pass


class Checks(unittest.TestCase):
    """A row's must, must_not and status fail a test that does not show them."""

    def test_must_and_must_not(self):
        r = cfg_rows(BASE + "[x]\nabout = a test\ngroups = boot\nmust = ^done: 0 failures$\n"
                     "must_not = ^verify FAILED\n")["x"]
        good = boots.Boot(0, "(PB) plan x\r\n(PB) done: 0 failures\r\n", row=r)
        boots.check(self, good)
        for status, text in ((1, "(PB) done: 0 failures\n"),
                             (0, "(PB) done: 1 failure\n"),
                             (0, "done: 0 failures\n"),                  # not a line of ours
                             (0, "(PB) verify FAILED x\n(PB) done: 0 failures\n")):
            with self.subTest(status=status, text=text):
                with self.assertRaises(AssertionError):
                    boots.check(self, boots.Boot(status, text, row=r))


if __name__ == "__main__":
    unittest.main()
