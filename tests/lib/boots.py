"""The guests the tests boot: tests/boots.cfg, one section (row) per guest
configuration, and the one place that starts them.

    import boots
    b = boots.run(self, "kernel-xen")   # boot the row (once per process), check it
    b.first("plan ")                    # then the test's own assertions

A row says how to boot (launcher, loader, firmware, CPU model, memory,
CPUs, accelerator, the kernel's options, QEMU arguments, timeout) and what
any run of it must show (the launcher's exit status, regexes that must and
must not match a line of the log). tests/boots.cfg's header describes
every field. A row booted without inputs is booted once per process and
shared by every test that asks for it; inputs (a stick the test prepared,
an initramfs, options only known at run time) make a boot of its own.

Launchers: scripts/run-qemu, scripts/run-linux-module, or QEMU itself
where a test needs what run-qemu does not do (keys typed into GRUB's menu,
a stick booted as it is, Debian's kernel with an initramfs of the test's).
Its status then reads as run-qemu's: isa-debug-exit's 1 is 0 (success),
3 is 1 (failures).

Groups: a row's `groups` (tests/boots.cfg's header says what each means)
and a test's GROUPS (its class's, else its module's) are what
`tests/run -g GROUP` selects; with a group chosen, a test that boots a
row outside it is skipped, so `-g fast` boots only the fast rows.

    tests/lib/boots.py [--list] [ROW]       # the rows; the command a row runs
"""
import atexit
import configparser
import os
import re
import select
import shlex
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
TESTS = os.path.dirname(HERE)
REPO = os.path.dirname(TESTS)
sys.path.insert(0, os.path.join(REPO, "scripts"))
from pbreport import grammar  # noqa: E402  (the log grammar, from docs/log-format.md)
import qemu_accel  # noqa: E402  (scripts/qemu_accel.py: whether /dev/kvm is usable)

CFG = os.path.join(TESTS, "boots.cfg")
RUN_QEMU = os.path.join(REPO, "scripts", "run-qemu")
RUN_LINUX_MODULE = os.path.join(REPO, "scripts", "run-linux-module")
MKISO = os.path.join(REPO, "scripts", "mkiso")
ELF = os.path.join(REPO, "build", "pagebench.elf")
ISO = os.path.join(REPO, "build", "pagebench.iso")
OVMF = "/usr/share/ovmf/OVMF.fd"
QEMU = "qemu-system-x86_64"
# A Linux guest (loader linux) prints its init's first line within seconds
# under TCG (5 to 11 s here). One silent for this long hung in QEMU or in
# the kernel's boot, before init and so before any pagebench code ran:
# seen once in about 40 boots of [linux-numa4] (2026-12-02, the AMD VM).
# It is booted again, once; a second silence is the test's failure.
LINUX_SILENT_S = 120
TAG = re.compile(r"^\(([A-Za-z0-9_]{1,15})\) (.*)$")

# Every field a row may have, and the values it may take (None: any text).
CHOICES = {
    "launcher": ("run-qemu", "qemu", "run-linux-module"),
    "loader": ("multiboot", "iso", "usb", "linux", "module"),
    "firmware": ("seabios", "ovmf"),
    "accel": ("tcg", "kvm", "auto"),
    "readonly": ("yes", "no"),
}
FIELDS = ("launcher", "loader", "firmware", "cpu", "memory", "smp", "accel", "append",
          "kernel_args", "qemu_args", "run_qemu_args", "timeout", "screen_pages",
          "rmmod_after", "readonly", "keys", "keys_after", "stop_at", "status",
          "must", "must_not", "groups", "about")
# The groups of rows and tests (tests/boots.cfg's header says what each means).
GROUPS = ("fast", "boot", "kvm", "uefi", "usb", "smp", "linux", "module", "report",
          "unit", "house")
# The groups a row's other fields decide: in the group exactly when the row says so.
DERIVED = {
    "boot": ("loader = multiboot, iso or usb", lambda r: r.loader in ("multiboot", "iso", "usb")),
    "kvm": ("accel = kvm", lambda r: r.accel == "kvm"),
    "uefi": ("firmware = ovmf", lambda r: r.firmware == "ovmf"),
    "usb": ("loader = usb", lambda r: r.loader == "usb"),
    "smp": ("smp above 1", lambda r: (r.smp or 1) > 1),
    "linux": ("loader = linux", lambda r: r.loader == "linux"),
    "module": ("loader = module", lambda r: r.loader == "module"),
}
# tests/run -g: the groups chosen (None: every test and row).
chosen = None
# The loaders each launcher can start.
LOADERS = {"run-qemu": ("multiboot", "iso", "usb"), "qemu": ("multiboot", "iso", "usb", "linux"),
           "run-linux-module": ("module",)}


class RowError(Exception):
    """boots.cfg says something the runner cannot do: named, never guessed."""


class Row:
    def __init__(self, name, section):
        self.name = name
        unknown = sorted(set(section) - set(FIELDS))
        if unknown:
            raise RowError("boots.cfg [%s]: unknown field %s (fields: %s)"
                           % (name, ", ".join(unknown), " ".join(FIELDS)))
        get = lambda k: section.get(k, "").strip()
        for key, allowed in CHOICES.items():
            if get(key) and get(key) not in allowed:
                raise RowError("boots.cfg [%s]: %s = %s; valid: %s"
                               % (name, key, get(key), " ".join(allowed)))
        self.launcher, self.loader, self.firmware = get("launcher"), get("loader"), get("firmware")
        self.accel, self.cpu, self.memory = get("accel"), get("cpu"), get("memory")
        if self.loader not in LOADERS.get(self.launcher, ()):
            raise RowError("boots.cfg [%s]: %s cannot start loader = %s"
                           % (name, self.launcher, self.loader))
        # No append field: the loader's own (the built ISO's GRUB menu).
        self.append = section["append"].strip() if "append" in section else None
        self.kernel_args = get("kernel_args")
        self.qemu_args = shlex.split(get("qemu_args"))
        self.run_qemu_args = shlex.split(get("run_qemu_args"))
        self.readonly = get("readonly") == "yes"
        self.keys = shlex.split(get("keys"))
        self.keys_after, self.about = get("keys_after"), get("about")
        try:
            self.smp = int(get("smp")) if get("smp") else None
            self.timeout = int(get("timeout"))
            self.screen_pages = int(get("screen_pages") or 0)
            self.rmmod_after = float(get("rmmod_after")) if get("rmmod_after") else None
            self.status = int(get("status"))
            self.stop_at = re.compile(get("stop_at")) if get("stop_at") else None
            self.must = [re.compile(r) for r in get("must").splitlines() if r.strip()]
            self.must_not = [re.compile(r) for r in get("must_not").splitlines() if r.strip()]
        except (ValueError, re.error) as e:
            raise RowError("boots.cfg [%s]: %s" % (name, e))
        if self.launcher != "qemu" and (self.keys or self.readonly):
            raise RowError("boots.cfg [%s]: keys and readonly need launcher = qemu" % name)
        if self.launcher == "qemu" and self.loader == "iso" and self.append is not None:
            raise RowError("boots.cfg [%s]: QEMU boots the built ISO, whose menu has the "
                           "options; append needs launcher = run-qemu" % name)
        self.groups = tuple(get("groups").split())
        unknown = [g for g in self.groups if g not in GROUPS]
        if unknown or not self.groups:
            raise RowError("boots.cfg [%s]: groups = %s; valid: %s"
                           % (name, " ".join(unknown) or "(none)", " ".join(GROUPS)))
        for group, (why, holds) in DERIVED.items():
            if holds(self) != (group in self.groups):
                raise RowError("boots.cfg [%s]: %s group %s: the row %s"
                               % (name, "in" if group in self.groups else "not in", group,
                                  ("does not say " if group in self.groups else "says ") + why))

    def needs(self):
        """Why this machine cannot boot the row, or None."""
        if self.firmware == "ovmf" and not os.path.exists(OVMF):
            return "OVMF is not installed (%s)" % OVMF
        if self.accel == "kvm" and not qemu_accel.kvm_usable():
            return "KVM is not usable here (/dev/kvm missing or closed)"
        return None


def read_rows(path=CFG):
    """{name: Row} of boots.cfg, in the file's order."""
    cp = configparser.ConfigParser(interpolation=None)
    cp.optionxform = str
    with open(path) as f:
        cp.read_file(f)
    return {name: Row(name, cp[name]) for name in cp.sections()}


ROWS = read_rows()


def row(name):
    if name not in ROWS:
        raise RowError("no row [%s] in tests/boots.cfg" % name)
    return ROWS[name]


class Boot:
    """One boot's serial log (the lines of ours, their tag taken off),
    the launcher's status, stderr and stdout, and the files it left
    (files["stick"], files["screens"])."""

    def __init__(self, status, text, stderr="", stdout="", files=None, row=None):
        self.status, self.text, self.stderr, self.stdout = status, text, stderr, stdout
        self.files, self.row = files or {}, row
        self.lines = []
        self.tag = None
        for raw in text.splitlines():
            m = TAG.match(raw.rstrip("\r"))
            if m:
                self.tag = self.tag or m.group(1)
                self.lines.append(m.group(2))
        # The run's last result line, and what follows it (the log file's
        # line, "run complete"): docs/log-format.md, "The end of a run".
        dones = [i for i, l in enumerate(self.lines) if grammar.classify(l) == "done"]
        self.done_line = self.lines[dones[-1]] if dones else None
        self.after_done = self.lines[dones[-1] + 1:] if dones else []

    def first(self, prefix):
        return next((l for l in self.lines if l.startswith(prefix)), None)

    def flags(self):
        line = self.first("features ")
        return dict(kv.split("=") for kv in line.split()[1:])

    def variants(self, suite):
        line = self.first("variants %s:" % suite)
        return line.split(":", 1)[1].split() if line is not None else []

    def passes(self):
        """[(header, [(pre, name, value, post), ...]), ...] in the order the
        passes start; a header that comes again (the passes take turns in
        epochs) continues its pass."""
        pass_re, value_re = grammar.compiled("pass"), grammar.compiled("value")
        out, current = {}, None
        for line in self.lines:
            m = pass_re.match(line)
            if m:
                current = out.setdefault(m.group(1) + m.group(2), [])
            m = value_re.match(line)
            if m:
                current.append((int(m.group(1), 16), m.group(2),
                                int(m.group(3), 16), int(m.group(4), 16)))
        return list(out.items())

    def stat_reps(self, suite, header):
        """{variant: reps} of a pass, from its stat lines (time=: a
        variant the race stopped has fewer)."""
        pid = {h: i for i, h in grammar.PASS_TABLE}[header[len("copy "):]
                                                  if suite == "copy" else header]
        return {m.group(3): int(m.group(5)) for m in (grammar.compiled("stat").match(l)
                                                      for l in self.lines)
                if m and m.group(1) == suite and m.group(2) == pid and not m.group(4)}

    def kinds(self):
        """The grammar's kind of every line, in order (None: undocumented)."""
        return [grammar.classify(l) for l in self.lines]


# Every boot's files (logs, sticks, screendumps) live here until the tests end.
_TMP = None


def _tmpdir(name):
    global _TMP
    if _TMP is None:
        _TMP = tempfile.mkdtemp(prefix="pagebench-boots-")
        atexit.register(shutil.rmtree, _TMP, True)
    return tempfile.mkdtemp(prefix=name + "-", dir=_TMP)


def make_stick(name, path):
    """A stick image for row name: the ISO made with the row's options."""
    r = row(name)
    subprocess.run([MKISO, ELF, path] + ([r.append] if r.append else []), check=True)
    return path


def command(r, tmp, stick=None, initrd=None, more_append=""):
    """The launcher's argv for row r, its files in tmp."""
    append = None if r.append is None else (r.append + more_append).strip()
    if r.launcher == "run-linux-module":
        cmd = [RUN_LINUX_MODULE, "--append", append or "", "--kernel-args", r.kernel_args]
        if r.rmmod_after is not None:
            cmd += ["--rmmod-after", "%g" % r.rmmod_after]
        if r.accel != "auto":
            cmd += ["--accel", r.accel]
        cmd += ["--cpu", r.cpu] if r.cpu else []
        cmd += ["--smp", str(r.smp)] if r.smp else []
        cmd += ["--memory", r.memory, "--timeout", str(r.timeout)]
        return cmd
    if r.launcher == "run-qemu":
        cmd = [RUN_QEMU, "-q", "-o", os.path.join(tmp, "serial.log"), "--timeout", str(r.timeout)]
        cmd += {"multiboot": ["--kernel"], "iso": [], "usb": ["--usb", stick]}[r.loader]
        cmd += ["--uefi"] if r.firmware == "ovmf" else []
        cmd += ["--accel", r.accel] if r.accel != "auto" else []
        cmd += ["--cpu", r.cpu] if r.cpu else []
        cmd += ["--smp", str(r.smp)] if r.smp else []
        cmd += ["--memory", r.memory]
        cmd += ["--append", append] if append is not None else []
        cmd += ["--qemu-arg=" + a for a in r.qemu_args]
        if r.screen_pages:
            cmd += ["--screendump", os.path.join(tmp, "screen.ppm"),
                    "--screendump-pages", str(r.screen_pages)]
        return cmd + r.run_qemu_args
    cmd = [QEMU, "-display", "none", "-serial", "stdio", "-no-reboot",
           "-device", "isa-debug-exit,iobase=0xf4,iosize=0x04", "-m", r.memory,
           "-accel", "tcg" if r.accel == "auto" else r.accel, "-cpu", r.cpu or "max"]
    cmd += ["-smp", str(r.smp)] if r.smp else []
    if r.loader == "multiboot":
        cmd += ["-kernel", ELF, "-append", append or ""]
    elif r.loader == "linux":
        kernels = sorted(f for f in os.listdir("/boot") if re.match(r"vmlinuz-.*-amd64$", f))
        cmd += ["-kernel", os.path.join("/boot", kernels[-1]), "-initrd", initrd,
                "-append", append or ""]
    elif r.loader == "iso":
        cmd += ["-cdrom", ISO, "-boot", "d"]
    else:
        cmd += ["-drive", "if=none,id=stick,format=raw,file=%s%s"
                % (stick.replace(",", ",,"), ",readonly=on" if r.readonly else ""),
                "-device", "qemu-xhci", "-device", "usb-storage,drive=stick"]
    cmd += ["-bios", OVMF] if r.firmware == "ovmf" else []
    return cmd + r.qemu_args


def _serial(r, cmd, silent_s=None):
    """QEMU itself: (status, serial text). Keys are typed one by one once
    keys_after has appeared (GRUB reads an escape sequence whose bytes
    arrive apart as a lone Escape); stop_at's line ended, QEMU is stopped.
    silent_s: with no byte on the serial port by then, QEMU is stopped
    and the status is None."""
    errf = tempfile.TemporaryFile()
    p = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=errf)
    buf, typed = b"", not r.keys
    started = time.monotonic()
    deadline = started + r.timeout
    silent = False
    try:
        while time.monotonic() < deadline:
            if silent_s is not None and not buf and time.monotonic() - started > silent_s:
                silent = True
                p.kill()
                break
            if select.select([p.stdout], [], [], 0.5)[0]:
                data = os.read(p.stdout.fileno(), 65536)
                if not data:
                    break
                buf += data
            if not typed and r.keys_after.encode() in buf:
                for key in r.keys:
                    time.sleep(0.5)
                    p.stdin.write(key.encode())
                    p.stdin.flush()
                typed = True
            if r.stop_at and _stopped(r, buf.decode("utf-8", "replace")):
                break
        else:
            p.kill()
        if not r.stop_at:
            p.wait(timeout=60)
    finally:
        if p.poll() is None:
            p.kill()
        p.wait()
        errf.seek(0)
        err = errf.read().decode("utf-8", "replace")
        errf.close()
    if silent:
        return None, "", err
    status = {1: 0, 3: 1}.get(p.returncode, p.returncode) if not r.stop_at else None
    return status, buf.decode("utf-8", "replace"), err


def _stopped(r, text):
    """stop_at has matched a whole line of ours (one that has ended)."""
    ended = text[:text.rfind("\n") + 1]
    return any(r.stop_at.search(l) for l in Boot(0, ended).lines)


def _run_until(r, cmd, log):
    """A launcher stopped once its log shows stop_at: (None, stderr)."""
    errf = tempfile.TemporaryFile()
    # Own session: the launcher and its QEMU are one group to end.
    p = subprocess.Popen(cmd, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                         stderr=errf, start_new_session=True)
    deadline = time.monotonic() + r.timeout
    try:
        while p.poll() is None and time.monotonic() < deadline:
            if os.path.exists(log):
                with open(log, "rb") as f:
                    if _stopped(r, f.read().decode("latin-1")):
                        break
            time.sleep(0.2)
    finally:
        if p.poll() is None:
            os.killpg(p.pid, signal.SIGTERM)
            try:
                p.wait(timeout=20)
            except subprocess.TimeoutExpired:
                os.killpg(p.pid, signal.SIGKILL)
                p.wait()
        errf.seek(0)
        err = errf.read().decode("utf-8", "replace")
        errf.close()
    return p.returncode, err


def launch(name, stick=None, initrd=None, more_append=""):
    """Boot row name now: a Boot. stick: an image to boot (usb rows; made
    from the row's options when not given); initrd: Linux's (linux rows);
    more_append: words added to the row's options."""
    r = row(name)
    why = r.needs()
    if why:
        raise unittest.SkipTest("row [%s]: %s" % (name, why))
    if chosen is not None and not set(r.groups) & set(chosen):
        raise unittest.SkipTest("row [%s] is in %s, not in -g %s"
                                % (name, " ".join(r.groups), " ".join(chosen)))
    tmp = _tmpdir(name)
    files = {}
    if r.loader == "usb":
        if stick is None:
            stick = os.path.join(tmp, "stick.img")
            if r.launcher == "qemu":
                make_stick(name, stick)
        files["stick"] = stick
    if r.loader == "linux" and initrd is None:
        raise RowError("row [%s] boots Linux: the test gives its initrd" % name)
    cmd = command(r, tmp, stick, initrd, more_append)
    log = os.path.join(tmp, "serial.log")
    started = time.monotonic()
    stdout = ""
    if r.launcher == "qemu" and r.loader == "linux":
        status, text, stderr = _serial(r, cmd, LINUX_SILENT_S)
        if not text and status is None:
            sys.stderr.write("row [%s]: no output in %d s, booted again\n"
                             % (name, LINUX_SILENT_S))
            status, text, stderr = _serial(r, cmd)
    elif r.launcher == "qemu":
        status, text, stderr = _serial(r, cmd)
    elif r.stop_at:
        status, stderr = _run_until(r, cmd, log)
        text = ""
    else:
        proc = subprocess.run(cmd, stdin=subprocess.DEVNULL, capture_output=True, text=True,
                              errors="replace", timeout=r.timeout + 600)
        status, stdout, stderr = proc.returncode, proc.stdout, proc.stderr
        text = stdout if r.launcher == "run-linux-module" else ""
    if r.launcher == "run-qemu" and os.path.exists(log):
        files["log"] = log
        with open(log, "rb") as f:
            text = f.read().decode("utf-8", "replace")
    if r.screen_pages:
        files["screens"] = [os.path.join(tmp, "screen.ppm")] + [
            os.path.join(tmp, "screen-%d.ppm" % k) for k in range(2, r.screen_pages + 1)]
    b = Boot(status, text, stderr, stdout, files, r)
    b.seconds = time.monotonic() - started
    return b


_BOOTED = {}


def boot(name):
    """Row name's one boot in this process, shared by every test that asks."""
    if name not in _BOOTED:
        _BOOTED[name] = launch(name)
    return _BOOTED[name]


def check(test, b):
    """What every run of the row must show: its status, every must regex
    matching a line of the log (tag taken off), no must_not matching any."""
    r = b.row
    tail = "\n%s\n%s" % (b.stderr[-2000:], b.text[-3000:])
    if r.stop_at is None:
        test.assertEqual(b.status, r.status, "row [%s]: the launcher said %s%s"
                         % (r.name, b.status, tail))
    for rx in r.must:
        test.assertTrue(any(rx.search(l) for l in b.lines),
                        "row [%s]: no line matches %r%s" % (r.name, rx.pattern, tail))
    for rx in r.must_not:
        bad = [l for l in b.lines if rx.search(l)]
        test.assertFalse(bad, "row [%s]: lines match %r" % (r.name, rx.pattern))


def run(test, name, **inputs):
    """Boot row name (shared when there are no inputs) and check it."""
    b = launch(name, **inputs) if inputs else boot(name)
    check(test, b)
    return b


def main(argv):
    if not argv or argv[0] == "--list":
        for name, r in ROWS.items():
            print("%-28s %-22s %s" % (name, " ".join(r.groups), r.about))
        return 0
    try:
        r = row(argv[0])
    except RowError as e:
        print("boots.py: %s" % e, file=sys.stderr)
        return 2
    tmp = "TMP"
    print(shlex.join(command(r, tmp, os.path.join(tmp, "stick.img"), "INITRD")))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
