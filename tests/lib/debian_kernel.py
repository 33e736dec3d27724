"""Debian's own kernel as linked: vmlinux out of /boot/vmlinuz-*, its
symbols out of the kernel's own kallsyms tables, a routine disassembled.

Debian's /boot/System.map-* is a one-line stub ("The real System.map is in
the linux-image-<version>-dbg package"), and the vmlinux inside the bzImage
is stripped; but a kernel built with CONFIG_KALLSYMS carries every symbol's
name and address in .rodata, in the tables the kernel build writes
(kallsyms_offsets, _relative_base, _num_syms, _names, _markers,
_seqs_of_names, _token_table, _token_index: the order 6.1's generator in
Debian's linux-kbuild-6.1 writes; another order is reported, not guessed).
This module finds those tables by their shape and reads them. Python's
stdlib only, plus objdump (binutils) for the disassembly.
"""
import glob
import lzma
import os
import re
import struct
import subprocess
import zlib

HDRS = b"HdrS"
# The compressed payload's first bytes (arch/x86/boot/compressed/Makefile).
XZ, GZIP, ZSTD, LZ4, BZIP2, LZO = (b"\xfd7zXZ\x00", b"\x1f\x8b", b"\x28\xb5\x2f\xfd",
                                    b"\x02\x21\x4c\x18", b"BZh", b"\x89LZO")


class Unsupported(Exception):
    """The kernel is there but cannot be read with the stdlib: say why."""


def installed():
    """The newest /boot/vmlinuz-* that Debian installed, or None."""
    found = sorted(glob.glob("/boot/vmlinuz-*"), key=os.path.getmtime)
    return found[-1] if found else None


def payload(bzimage):
    """The compressed vmlinux inside a bzImage: the boot protocol's
    payload_offset/payload_length (2.08 on), relative to the
    protected-mode code after the setup sectors."""
    if len(bzimage) < 0x250 or bzimage[0x202:0x206] != HDRS:
        raise Unsupported("not a bzImage (no HdrS header)")
    version = struct.unpack_from("<H", bzimage, 0x206)[0]
    if version < 0x208:
        raise Unsupported("boot protocol %#x has no payload_offset" % version)
    setup_sects = bzimage[0x1f1] or 4
    start = (setup_sects + 1) * 512
    offset, length = struct.unpack_from("<II", bzimage, 0x248)
    data = bzimage[start + offset:start + offset + length]
    if len(data) != length or not length:
        raise Unsupported("payload (%d bytes at %#x) runs past the file"
                          % (length, start + offset))
    return data


def decompress(data):
    """vmlinux (ELF) from the payload, told apart by its magic."""
    if data.startswith(XZ):
        out = lzma.LZMADecompressor(format=lzma.FORMAT_XZ).decompress(data)
    elif data.startswith(GZIP):
        out = zlib.decompressobj(16 + zlib.MAX_WBITS).decompress(data)
    elif data[:1] == b"\x5d" and data[1:5] != b"\xff\xff\xff\xff":
        # The kernel's LZMA is the .lzma ("alone") format: props 0x5d.
        out = lzma.LZMADecompressor(format=lzma.FORMAT_ALONE).decompress(data)
    elif data.startswith(ZSTD):
        raise Unsupported("the kernel is zstd-compressed: zstd is not in "
                          "Python's stdlib")
    else:
        names = {LZ4: "lz4", BZIP2: "bzip2", LZO: "lzo"}
        kind = next((n for m, n in names.items() if data.startswith(m)),
                    "an unknown format (%s)" % data[:6].hex())
        raise Unsupported("the kernel is compressed with %s, not read here"
                          % kind)
    if not out.startswith(b"\x7fELF"):
        raise Unsupported("the payload is not an ELF vmlinux")
    return out


def _strings(buf, pos, count):
    out = []
    for _ in range(count):
        end = buf.index(b"\0", pos)
        out.append(buf[pos:end])
        pos = end + 1
    return out, pos


def _align8(x):
    return (x + 7) & ~7


def _name_len(buf, pos):
    """A kallsyms_names entry's length: one byte, or two (ULEB128) for the
    long names 6.1 allows."""
    n = buf[pos]
    if n & 0x80:
        return (n & 0x7f) | (buf[pos + 1] << 7), pos + 2
    return n, pos + 1


def elf_text_start(image):
    """The virtual address of the first PT_LOAD: _text."""
    phoff, = struct.unpack_from("<Q", image, 0x20)
    phentsize, phnum = struct.unpack_from("<HH", image, 0x36)
    for i in range(phnum):
        p_type, _, _, vaddr = struct.unpack_from("<IIQQ", image, phoff + i * phentsize)
        if p_type == 1:
            return vaddr
    raise Unsupported("vmlinux has no PT_LOAD")


def token_table(image):
    """(start, [256 tokens]): the table whose bytes '0'..'9' stand for
    themselves, confirmed by kallsyms_token_index after it."""
    digits = b"".join(bytes([c]) + b"\0" for c in b"0123456789")
    p = image.find(digits)
    while p != -1:
        _, end = _strings(image, p, 256 - 0x30)
        index = struct.unpack_from("<256H", image, _align8(end))
        start = p - index[0x30]
        if index[0] == 0 and start >= 0:
            table, _ = _strings(image, start, 256)
            offs = [0]
            for t in table[:-1]:
                offs.append(offs[-1] + len(t) + 1)
            if list(index) == offs:
                return start, table
        p = image.find(digits, p + 1)
    raise Unsupported("no kallsyms token table in vmlinux (CONFIG_KALLSYMS?)")


def kallsyms(image):
    """{name: [(type, address)]} of every symbol kallsyms holds.

    kallsyms_relative_base holds _text; kallsyms_num_syms follows it, then
    the names, markers and seqs_of_names, which end where the token table
    starts: that chain is what tells the real tables from a stray copy of
    _text's address."""
    table_at, table = token_table(image)
    text = elf_text_start(image)
    needle = struct.pack("<Q", text)
    base = image.find(needle)
    while base != -1:
        if base % 8 == 0:
            count, = struct.unpack_from("<I", image, base + 8)
            if 0 < count < 1 << 24:
                names = pos = _align8(base + 12)
                for _ in range(count):
                    n, pos = _name_len(image, pos)
                    pos += n
                markers = _align8(pos)
                seqs = _align8(markers + 4 * ((count + 255) // 256))
                if _align8(seqs + 3 * count) == table_at:
                    break
        base = image.find(needle, base + 1)
    else:
        raise Unsupported("no kallsyms tables ending at the token table")
    offsets = struct.unpack_from("<%di" % count, image, base - _align8(4 * count))
    symbols = {}
    pos = names
    for off in offsets:
        n, pos = _name_len(image, pos)
        name = b"".join(table[b] for b in image[pos:pos + n]).decode("ascii", "replace")
        pos += n
        # CONFIG_KALLSYMS_ABSOLUTE_PERCPU: negative is base-relative,
        # stored as -1 - (address - base); positive is absolute.
        addr = text - 1 - off if off < 0 else off
        symbols.setdefault(name[1:], []).append((name[:1], addr))
    return symbols


def banner(image):
    """The kernel's own "Linux version ..." line."""
    m = re.search(rb"Linux version [\x20-\x7e]+", image)
    return m.group(0).decode() if m else "Linux (no banner)"


class Kernel:
    """One vmlinuz read: the vmlinux image, its symbols, objdump on it."""

    def __init__(self, vmlinuz, workdir):
        with open(vmlinuz, "rb") as fh:
            image = decompress(payload(fh.read()))
        self.path = os.path.join(workdir, "vmlinux")
        with open(self.path, "wb") as fh:
            fh.write(image)
        self.banner = banner(image)
        self.symbols = kallsyms(image)
        self.addresses = sorted({a for v in self.symbols.values() for _, a in v})
        self.names = {}
        for name, entries in self.symbols.items():
            for _, addr in entries:
                self.names.setdefault(addr, name)

    def address(self, name):
        """A function symbol's one address (t or T)."""
        entries = {a for t, a in self.symbols.get(name, []) if t in "tT"}
        if len(entries) != 1:
            raise KeyError("%s: %d text symbols of that name" % (name, len(entries)))
        return entries.pop()

    def routine(self, name):
        """[(address, instruction as objdump -M intel prints it)] from the
        symbol to the next one, padding included."""
        start = self.address(name)
        stop = next(a for a in self.addresses if a > start)
        out = subprocess.run(["objdump", "-d", "--no-show-raw-insn", "-M", "intel",
                              "--start-address=%#x" % start,
                              "--stop-address=%#x" % stop, self.path],
                             check=True, stdout=subprocess.PIPE, text=True).stdout
        insns = []
        for line in out.splitlines():
            m = re.match(r"^\s*([0-9a-f]+):\s+(.*\S)\s*$", line)
            if m:
                insns.append((int(m.group(1), 16), m.group(2)))
        return insns

    def jump_target(self, text):
        """The symbol a direct JMP goes to, or None."""
        m = re.match(r"^jmp\s+(?:0x)?([0-9a-f]+)\b", text)
        return self.names.get(int(m.group(1), 16)) if m else None

