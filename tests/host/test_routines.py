"""Every variant that stands for a kernel's routine is that routine.

A row of variants/clear.def, copy.def or strings.def with a cite names
where the routine was read ("WHERE FILE SYMBOL"); tests/fixtures/routines/
<routine>.insns records, from there, its instruction sequence: the
mnemonics in source order, AT&T as the kernels write them, and
".p2align N" where the source aligns. This test disassembles the routine
pagebench built (objdump -d on build/k/variants/*.o) and compares the two
after normalising both to one spelling: AT&T size suffixes dropped
(movq = mov), condition-code aliases merged (jnz = jne), a string
instruction's width taken from its operand (rep stosq = rep stos QWORD),
NOPs that pad to an alignment accepted only where the source aligns, and
there the next instruction must sit on that boundary.

Where pagebench cannot be the routine as written (the RFC's routines take
pages where pagebench's range routines take bytes; an inline asm
alternative's register set-up is the compiler's), the fixture says so line
by line: "- MNEMONIC  # why" is in the source only, "+ MNEMONIC  # why" in
pagebench's only. Nothing else may differ.

Where Debian's own kernel is installed (linux-image-amd64, from
`scripts/deps test`), the routines it has are read from its vmlinux as
linked (tests/lib/debian_kernel.py) and compared with the same fixtures, the
source's side: the object confirms the recorded sequence, which the test
above ties to pagebench's. KERNEL names pagebench's routine's counterpart
there; the kernel's build differs from the source only as NORMALISED
lists, and those differences are undone before the comparison.

    python3 tests/host/test_routines.py --show   prints the sequences side by side
"""
import glob
import gzip
import lzma
import os
import re
import shutil
import struct
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
TESTS = os.path.dirname(HERE)
REPO = os.path.dirname(TESTS)
sys.path.insert(0, os.path.join(TESTS, "lib"))
from tables import table_rows  # noqa: E402
import debian_kernel  # noqa: E402

FIXTURES = os.path.join(TESTS, "fixtures", "routines")
OBJECTS = os.path.join(REPO, "build", "k", "variants", "*.o")

# AT&T's size suffixes on the instructions the routines use.
SUFFIXED = {"mov", "xor", "and", "or", "add", "sub", "cmp", "test", "dec",
            "inc", "lea", "shr", "shl", "sar", "push", "pop", "neg", "not",
            "imul"}
EXTEND = {"movzbl": "movzx", "movzbq": "movzx", "movzwl": "movzx",
          "movzwq": "movzx", "movslq": "movsxd"}
JCC = {"jnz": "jne", "jz": "je", "jc": "jb", "jnae": "jb", "jnb": "jae",
       "jnc": "jae", "jnbe": "ja", "jna": "jbe", "jnge": "jl", "jnl": "jge",
       "jng": "jle", "jnle": "jg", "jpe": "jp", "jpo": "jnp"}
STRING_OPS = ("stos", "movs", "lods", "scas", "cmps")
WIDTH_LETTER = {"b": "b", "w": "w", "l": "d", "d": "d", "q": "q"}
PTR_WIDTH = {"BYTE": "b", "WORD": "w", "DWORD": "d", "QWORD": "q"}
PREFIXES = {"rep", "repe", "repz", "repne", "repnz"}


def canon(mnemonic):
    """One spelling of an AT&T mnemonic from a source ("rep stosq",
    "movzbl", "jnz", "RET")."""
    toks = mnemonic.lower().split()
    prefix = [t for t in toks[:-1] if t in PREFIXES]
    op = toks[-1]
    if op in EXTEND:
        op = EXTEND[op]
    elif op[:-1] in STRING_OPS and op[-1] in WIDTH_LETTER:
        op = op[:-1] + "." + WIDTH_LETTER[op[-1]]
    elif op[:-1] in SUFFIXED and op[-1] in "bwlq":
        op = op[:-1]
    elif op in ("retq", "retl"):
        op = "ret"
    op = JCC.get(op, op)
    return " ".join(prefix + [op])


def canon_objdump(text):
    """One spelling of an instruction as objdump -M intel prints it
    ("rep stos QWORD PTR es:[rdi],rax", "jne 10 <x.loop>")."""
    toks = text.split()
    prefix = []
    while toks and toks[0] in PREFIXES:
        prefix.append(toks.pop(0))
    op = toks[0]
    if op in STRING_OPS:
        width = next((PTR_WIDTH[t] for t in toks[1:] if t in PTR_WIDTH), None)
        op = "%s.%s" % (op, width)
    op = JCC.get(op, op)
    return " ".join(prefix + [op])


def is_padding(text):
    """NASM's alignment NOPs: nop, nop DWORD PTR ..., xchg ax,ax, data16
    ... nop."""
    toks = text.split()
    return toks[0] == "nop" or text.replace(" ", "") == "xchgax,ax" or \
        (toks[0] in ("data16", "cs") and "nop" in toks)


GROUPS = ("fast", "house")


class Fixture:
    """A tests/fixtures/routines/<routine>.insns file."""

    def __init__(self, path):
        self.path = path
        self.routine = os.path.basename(path)[:-len(".insns")]
        self.cite = None
        self.items = []         # (kind, value): kind "insn", "align", "-", "+"
        with open(path, encoding="utf-8") as fh:
            for n, line in enumerate(fh, 1):
                m = re.match(r"^# cite: (.+)$", line.rstrip("\n"))
                if m:
                    self.cite = m.group(1).strip()
                    continue
                body = line.split("#", 1)[0].strip()
                if not body:
                    continue
                m = re.match(r"^\.p2align (\d+)$", body)
                if m:
                    self.items.append(("align", 1 << int(m.group(1))))
                elif body[0] in "+-":
                    if "#" not in line:
                        raise ValueError("%s:%d: a difference without its "
                                         "reason" % (path, n))
                    self.items.append((body[0], canon(body[1:].strip())))
                else:
                    self.items.append(("insn", canon(body)))
        if not self.cite:
            raise ValueError("%s: no '# cite:' line" % path)

    def source(self):
        """The source's sequence, canonical: what the cite holds."""
        return [v for k, v in self.items if k in ("insn", "-")]


_DISASM = {}


def disassembly():
    """{routine: [(offset, instruction text)]} of every global routine in
    build/k/variants/*.o, NASM's local labels (routine.loop) folded in,
    up to routine.end."""
    if _DISASM:
        return _DISASM
    for obj in sorted(glob.glob(OBJECTS)):
        out = subprocess.run(["objdump", "-d", "--no-show-raw-insn",
                              "-M", "intel", obj], check=True,
                             stdout=subprocess.PIPE, text=True).stdout
        current = None
        for line in out.splitlines():
            m = re.match(r"^[0-9a-f]+ <([^>]+)>:$", line)
            if m:
                name = m.group(1)
                if "." not in name:
                    current = name
                    _DISASM[current] = []
                elif current is None or not name.startswith(current + ".") \
                        or name == current + ".end":
                    current = None
                continue
            m = re.match(r"^\s+([0-9a-f]+):\s+(.*\S)\s*$", line)
            if m and current:
                _DISASM[current].append((int(m.group(1), 16), m.group(2)))
    return _DISASM


def compare(fixture, insns, matched=None):
    """[] when pagebench's instructions are the fixture's; else what
    differs, one line each. matched, a list, gets pagebench's
    instructions as read (padding left out)."""
    problems = []
    matched = [] if matched is None else matched
    i = 0

    def here():
        return "%#x" % insns[i][0] if i < len(insns) else "the end"

    for kind, value in fixture.items:
        if kind == "-":
            continue
        if kind == "align":
            while i < len(insns) and is_padding(insns[i][1]):
                i += 1
            if i < len(insns) and insns[i][0] % value:
                problems.append("at %s: the source aligns to %d here"
                                % (here(), value))
            continue
        if i < len(insns) and is_padding(insns[i][1]) and value != "nop":
            problems.append("at %s: padding where the source does not align"
                            % here())
            while i < len(insns) and is_padding(insns[i][1]):
                i += 1
        if i >= len(insns):
            problems.append("pagebench's routine ends where the source has %s"
                            % value)
            return problems
        got = canon_objdump(insns[i][1])
        matched.append(got)
        if got != value:
            problems.append("at %s: %s where the source has %s"
                            % (here(), got, value))
            return problems
        i += 1
    if i < len(insns):
        matched += [canon_objdump(t) for _, t in insns[i:]]
        problems.append("at %s: %s after the source's last instruction"
                        % (here(), insns[i][1]))
    return problems


def fixtures():
    return {f.routine: f for f in
            (Fixture(p) for p in sorted(glob.glob(os.path.join(FIXTURES, "*.insns"))))}


def cited_rows():
    return {r["routine"]: r for r in table_rows() if r["cite"]}


# pagebench's routine -> (the kernel's symbol, the symbol its entry JMP
# goes to when an ALTERNATIVE's original instruction is a jump there, or
# None). Debian's 6.1 kernel (bookworm) has the routines of its era:
# memcpy_erms and memset_erms are the bodies 6.4 moved into __memcpy and
# __memset behind FSRM/FSRS; the range routines (clear_pages), Xen's and
# the RFC's are not in it.
KERNEL = {
    "clear_stosb": ("clear_page_erms", None),
    "clear_stosq": ("clear_page_rep", None),
    "clear_orig": ("clear_page_orig", None),
    "copy_movsq": ("copy_page", "copy_page_regs"),
    "copy_regs": ("copy_page_regs", None),
    "memcpy_movsq": ("__memcpy", "memcpy_orig"),
    "memcpy_movsb": ("memcpy_erms", None),
    "memcpy_orig": ("memcpy_orig", None),
    "memset_stosb": ("memset_erms", None),
}
# Routines pagebench has without claiming to be the kernel's (no cite):
# shown by --show against the kernel's, not asserted.
KERNEL_UNCITED = {"memset_orig": ("memset_orig", None),
                  "memset_stosq": ("__memset", "memset_orig")}

NORMALISED = (
    "RET is 'jmp __x86_return_thunk' (CONFIG_RETHUNK; boot patches it to "
    "ret or to the thunk): read as ret",
    "an ALTERNATIVE whose original is 'jmp OTHER' (copy_page -> "
    "copy_page_regs, __memcpy -> memcpy_orig) is linked as that jump, plus "
    "its NOP pad; a REP_GOOD CPU runs it patched to NOPs, which the fixture "
    "records: the jump and pad are dropped",
    "after the last instruction, the NOPs and INT3s up to the next symbol "
    "(the next function's alignment, the linker's 0xcc fill) are dropped",
)


def kernel_normalise(kernel, insns, entry_jump=None):
    """Debian's routine as the source writes it, per NORMALISED."""
    out = list(insns)
    if entry_jump:
        if not out or kernel.jump_target(out[0][1]) != entry_jump:
            raise AssertionError("expected the ALTERNATIVE's 'jmp %s' first, got %r"
                                 % (entry_jump, out[:1]))
        out.pop(0)
        while out and is_padding(out[0][1]):
            out.pop(0)
    while out and (is_padding(out[-1][1]) or out[-1][1] == "int3"):
        out.pop()
    return [(a, "ret" if kernel.jump_target(t) == "__x86_return_thunk" else t)
            for a, t in out]


class SourceSide(Fixture):
    """A fixture's source sequence alone: '-' lines are the source's,
    '+' lines are pagebench's and left out."""

    def __init__(self, fixture):
        self.__dict__.update(fixture.__dict__)
        self.items = [("insn" if k == "-" else k, v)
                      for k, v in fixture.items if k != "+"]


_KERNEL = {}


def debian():
    """(Kernel, None) or (None, why not): read once per run."""
    if "k" not in _KERNEL:
        vmlinuz = debian_kernel.installed()
        if not vmlinuz:
            _KERNEL["k"] = (None, "no /boot/vmlinuz-*: Debian's linux-image-amd64 "
                                  "is not installed (scripts/deps test)")
        elif not shutil.which("objdump"):
            _KERNEL["k"] = (None, "no objdump (binutils)")
        else:
            work = tempfile.TemporaryDirectory(prefix="pb-vmlinux-")
            _KERNEL["dir"] = work
            try:
                _KERNEL["k"] = (debian_kernel.Kernel(vmlinuz, work.name), None)
            except debian_kernel.Unsupported as e:
                _KERNEL["k"] = (None, "%s: %s" % (vmlinuz, e))
    return _KERNEL["k"]


class TestRoutines(unittest.TestCase):
    def test_cited_rows_and_fixtures_agree(self):
        """Every cited row has a fixture that records the same cite, and
        every fixture belongs to a cited row."""
        rows, fx = cited_rows(), fixtures()
        self.assertTrue(rows, "no cited rows in variants/*.def")
        self.assertEqual(sorted(fx), sorted(rows))
        for routine, row in rows.items():
            self.assertEqual(fx[routine].cite, row["cite"], routine)
            self.assertRegex(row["cite"], r"^\S+@\S+ \S+ \S+$|^lkml:\S+ \S+ \S+$",
                             "%s: cite is WHERE FILE SYMBOL" % routine)

    def test_instruction_sequences(self):
        if not shutil.which("objdump"):
            self.skipTest("no objdump")
        dis = disassembly()
        if not dis:
            self.skipTest("no build/k/variants/*.o: make first")
        for routine, f in sorted(fixtures().items()):
            with self.subTest(routine=routine):
                self.assertIn(routine, dis, "not in build/k/variants/*.o")
                self.assertEqual(compare(f, dis[routine]), [], routine)

    def test_a_changed_instruction_is_caught(self):
        """The comparison fails on one mnemonic changed, on an alignment
        that is not there, and on an instruction too many."""
        if not shutil.which("objdump") or not disassembly():
            self.skipTest("no objdump or no build")
        f = fixtures()["clear_orig"]
        insns = disassembly()["clear_orig"]
        self.assertEqual(compare(f, insns), [])
        dec = next(n for n, (_, t) in enumerate(insns) if t.startswith("dec"))
        changed = insns[:dec] + [(insns[dec][0], "sub    ecx,0x1")] + insns[dec + 1:]
        self.assertTrue(compare(f, changed))
        shifted = [(off + 4, t) for off, t in insns]
        self.assertTrue(any("aligns" in p for p in compare(f, shifted)))
        self.assertTrue(compare(f, insns + [(insns[-1][0] + 1, "ret")]))

    def test_spellings(self):
        """AT&T as the sources write it and Intel as objdump prints it
        come out the same."""
        pairs = [("movq", "mov    QWORD PTR [rdi],rax"),
                 ("xorl", "xor    eax,eax"),
                 ("movzbl", "movzx  ecx,BYTE PTR [rsi]"),
                 ("movzbq", "movzx  r8,BYTE PTR [rsi+0x1]"),
                 ("jnz", "jne    10 <clear_orig.loop>"),
                 ("jz", "je     3f <x.y>"),
                 ("jpe", "jp     20 <x.step>"),
                 ("rep stosq", "rep stos QWORD PTR es:[rdi],rax"),
                 ("rep stosb", "rep stos BYTE PTR es:[rdi],al"),
                 ("rep movsq", "rep movs QWORD PTR es:[rdi],QWORD PTR ds:[rsi]"),
                 ("RET", "ret"), ("shrq", "shr    rcx,0x6"),
                 ("prefetchnta", "prefetchnta BYTE PTR [rsi+0x40]"),
                 ("movnti", "movnti QWORD PTR [rdi],rax")]
        for att, intel in pairs:
            self.assertEqual(canon(att), canon_objdump(intel), att)
        self.assertNotEqual(canon("rep stosq"), canon("rep stosb"))
        self.assertNotEqual(canon("jl"), canon("jb"))
        for pad in ("nop", "nop    DWORD PTR [rax+rax*1+0x0]", "xchg   ax,ax",
                    "data16 cs nop WORD PTR [rax+rax*1+0x0]"):
            self.assertTrue(is_padding(pad), pad)
        self.assertFalse(is_padding("xchg   rax,rbx"))


class TestDebianKernel(unittest.TestCase):
    """The kernel's own object against the fixtures (see the docstring)."""
    GROUPS = ("house",)

    def kernel(self):
        kernel, why = debian()
        if kernel is None:
            self.skipTest(why)
        return kernel

    def test_routines_as_linked(self):
        kernel = self.kernel()
        fx = fixtures()
        for routine, (symbol, entry_jump) in sorted(KERNEL.items()):
            with self.subTest(routine=routine, kernel=symbol):
                insns = kernel_normalise(kernel, kernel.routine(symbol), entry_jump)
                self.assertEqual(compare(SourceSide(fx[routine]), insns), [],
                                 "%s: %s" % (symbol, kernel.banner))

    def test_symbols_read(self):
        """kallsyms read right: _text is the ELF's first load address, the
        weak alias memcpy sits on __memcpy, and each routine ends at
        the banner is the kernel's."""
        kernel = self.kernel()
        with open(kernel.path, "rb") as fh:
            text = debian_kernel.elf_text_start(fh.read(64 * 1024))
        self.assertIn(("T", text), kernel.symbols["_text"])
        self.assertEqual(kernel.address("__memcpy"),
                         next(a for _, a in kernel.symbols["memcpy"]))
        self.assertTrue(kernel.banner.startswith("Linux version "), kernel.banner)

    def test_a_changed_kernel_instruction_is_caught(self):
        """One mnemonic changed, a return thunk that is another jump, or
        a missing entry jump: each fails."""
        kernel = self.kernel()
        fx = SourceSide(fixtures()["clear_stosq"])
        raw = kernel.routine("clear_page_rep")
        self.assertEqual(compare(fx, kernel_normalise(kernel, raw)), [])
        stos = next(n for n, (_, t) in enumerate(raw) if t.startswith("rep stos"))
        wide = raw[:stos] + [(raw[stos][0], "rep stos BYTE PTR es:[rdi],al")] + raw[stos + 1:]
        self.assertTrue(compare(fx, kernel_normalise(kernel, wide)))
        ret = next(n for n, (_, t) in enumerate(raw) if t.startswith("jmp"))
        other = raw[:ret] + [(raw[ret][0], "jmp    %#x" % kernel.address("clear_page_erms"))]
        self.assertTrue(compare(fx, kernel_normalise(kernel, other)))
        with self.assertRaises(AssertionError):
            kernel_normalise(kernel, raw, "copy_page_regs")


class TestKernelReader(unittest.TestCase):
    """tests/lib/debian_kernel.py on made-up bzImages: no kernel needed."""

    @staticmethod
    def bzimage(payload, setup_sects=3):
        head = bytearray((setup_sects + 1) * 512)
        head[0x1f1] = setup_sects
        head[0x202:0x206] = b"HdrS"
        struct.pack_into("<H", head, 0x206, 0x20f)
        struct.pack_into("<II", head, 0x248, 0x40, len(payload))
        return bytes(head) + bytes(0x40) + payload

    def test_payload_by_magic(self):
        elf = b"\x7fELF" + bytes(60)
        for packed in (gzip.compress(elf), lzma.compress(elf, format=lzma.FORMAT_XZ),
                       lzma.compress(elf, format=lzma.FORMAT_ALONE)):
            got = debian_kernel.decompress(debian_kernel.payload(self.bzimage(packed)))
            self.assertEqual(got, elf)

    def test_unreadable_said_why(self):
        cases = [(self.bzimage(b"\x28\xb5\x2f\xfd" + bytes(8)), "zstd"),
                 (self.bzimage(b"\x02\x21\x4c\x18" + bytes(8)), "lz4"),
                 (self.bzimage(gzip.compress(b"not an elf")), "not an ELF"),
                 (bytes(4096), "not a bzImage")]
        for image, why in cases:
            with self.assertRaisesRegex(debian_kernel.Unsupported, why):
                debian_kernel.decompress(debian_kernel.payload(image))
        short = bytearray(self.bzimage(b"x"))
        struct.pack_into("<I", short, 0x24c, 1 << 20)
        with self.assertRaisesRegex(debian_kernel.Unsupported, "runs past"):
            debian_kernel.payload(bytes(short))


def show():
    dis = disassembly()
    kernel, why = debian()
    print("kernel: %s" % (kernel.banner if kernel else "none (%s)" % why))
    if kernel:
        print("kernel side normalised:")
        for n in NORMALISED:
            print("   - %s" % n)
    for routine, f in sorted(fixtures().items()):
        insns = dis.get(routine, [])
        ours = []
        problems = compare(f, insns, ours) if insns else ["not built"]
        print("== %s  (%s)  %s" % (routine, f.cite,
                                  "same" if not problems else "DIFFERS"))
        src = f.source()
        diffs = ["%s %s  # %s" % (k, v, "source only" if k == "-" else "pagebench only")
                 for k, v in f.items if k in "+-"]
        print("   source    (%d): %s" % (len(src), " ".join(src)))
        print("   pagebench (%d): %s" % (len(ours), " ".join(ours)))
        for d in diffs:
            print("   %s" % d)
        for p in problems:
            print("   ! %s" % p)
        if kernel and routine in KERNEL:
            symbol, entry_jump = KERNEL[routine]
            theirs = kernel_normalise(kernel, kernel.routine(symbol), entry_jump)
            kp = compare(SourceSide(f), theirs)
            seq = [canon_objdump(t) for _, t in theirs if not is_padding(t) or t == "nop"]
            print("   kernel    (%d): %s  [%s: %s]" % (
                len(seq), " ".join(seq), symbol,
                "same as the source" if not kp else "DIFFERS"))
            for p in kp:
                print("   ! kernel %s" % p)
        elif kernel:
            print("   kernel: not in %s" % kernel.banner.split(" (")[0])
    if kernel:
        for routine, (symbol, entry_jump) in sorted(KERNEL_UNCITED.items()):
            theirs = [canon_objdump(t) for _, t in
                      kernel_normalise(kernel, kernel.routine(symbol), entry_jump)
                      if not is_padding(t)]
            ours = [canon_objdump(t) for _, t in dis.get(routine, []) if not is_padding(t)]
            first = next((i for i, (a, b) in enumerate(zip(theirs, ours)) if a != b),
                         min(len(theirs), len(ours)))
            print("== %s against %s (no cite: not asserted)  %s" % (
                routine, symbol, "same" if theirs == ours else
                "differs from instruction %d" % (first + 1)))
            print("   kernel    (%d): %s" % (len(theirs), " ".join(theirs)))
            print("   pagebench (%d): %s" % (len(ours), " ".join(ours)))


if __name__ == "__main__":
    if sys.argv[1:] == ["--show"]:
        show()
    else:
        unittest.main()
