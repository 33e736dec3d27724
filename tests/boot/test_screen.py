"""The screen: the font built from a Debian console font (scripts/psf2c),
the screendump reader (tests/lib/screen.py) on pictures made here, and real
boots under SeaBIOS and OVMF whose screen is read back from QEMU's
screendump and compared with the serial log it must agree with."""
import gzip
import os
import re
import subprocess
import sys
import tempfile
import unittest

TESTS = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
REPO = os.path.dirname(TESTS)
PSF2C = os.path.join(REPO, "scripts", "psf2c")
FONT_C = os.path.join(REPO, "build", "gen", "font.c")
OVMF = "/usr/share/ovmf/OVMF.fd"
TAG = re.compile(r"^\([A-Za-z0-9_]{1,15}\) (.*?)\r?$")


sys.path.insert(0, os.path.join(TESTS, "lib"))
import screen  # noqa: E402  (tests/lib/screen.py: the screendump reader)
import boots  # noqa: E402  (tests/boots.cfg: the guests the tests boot)
sys.path.insert(0, os.path.join(REPO, "scripts"))
from pbreport import grammar  # noqa: E402  (the log grammar, from docs/log-format.md)
psf2c = screen.psf2c


# ---- fonts made here ----

def glyph_for(i):
    """A distinct 8x16 glyph per index: its number in binary, rows 2-5."""
    return bytes([0, 0, i & 0xff, (i >> 8) & 0xff, 0x81, 0x42] + [0] * 10)


def psf1(chars, height=16, extra_table=b""):
    """A PSF1 font with one glyph per character (256 slots) and a table."""
    glyphs = b"".join(glyph_for(i + 1)[:height] for i in range(len(chars)))
    glyphs += bytes(height * (256 - len(chars)))
    table = b""
    for ch in chars:
        table += ord(ch).to_bytes(2, "little") + b"\xff\xff"
    table += b"\xff\xff" * (256 - len(chars))
    return b"\x36\x04" + bytes([0x02, height]) + glyphs + table + extra_table


def psf2(entries, width=8, height=16):
    """A PSF2 font; entries: one UTF-8 table entry (bytes) per glyph."""
    stride = (width + 7) // 8
    header = b"\x72\xb5\x4a\x86" + b"".join(
        v.to_bytes(4, "little") for v in (0, 32, 1, len(entries), stride * height, height, width))
    glyphs = b"".join(glyph_for(i + 1)[:stride * height].ljust(stride * height, b"\0")
                      for i in range(len(entries)))
    return header + glyphs + b"".join(e + b"\xff" for e in entries)


GROUPS = ("fast", "boot")


class Psf2c(unittest.TestCase):
    def write(self, data, gz=False):
        f = tempfile.NamedTemporaryFile(suffix=".psf.gz" if gz else ".psf", delete=False)
        f.write(gzip.compress(data) if gz else data)
        f.close()
        self.addCleanup(os.unlink, f.name)
        return f.name

    def test_psf1_with_table_gzip(self):
        chars = psf2c.SCREEN_CHARS
        font = psf2c.load_font(self.write(psf1(chars), gz=True))
        table = psf2c.screen_table(font)
        for i, ch in enumerate(chars):
            self.assertEqual(table[ch.encode("cp437")[0]], glyph_for(i + 1), ch)
        # Every other code is drawn as '?'.
        q = glyph_for(chars.index("?") + 1)
        self.assertEqual(table[0x00], q)
        self.assertEqual(table[0xe0], q)            # alpha: not a screen character
        self.assertEqual(sum(1 for g in table if g != q), len(chars) - 1)

    def test_psf2_utf8_table_and_sequences(self):
        # Glyph 2 also answers for U+00A0; glyph 3 has a combining sequence
        # after its own character, which must not count as characters.
        entries = [ch.encode() for ch in psf2c.SCREEN_CHARS]
        entries[1] += "\u00a0".encode()
        entries[2] += b"\xfe" + "e\u0301".encode()
        font = psf2c.load_font(self.write(psf2(entries)))
        self.assertEqual(font.unicode[0xa0], 1)
        self.assertEqual(font.unicode[ord(psf2c.SCREEN_CHARS[2])], 2)
        self.assertNotIn(0x301, font.unicode)
        self.assertNotIn(ord("e"), [u for u, g in font.unicode.items() if g == 2])
        psf2c.screen_table(font)

    def test_unfit_fonts_refused(self):
        chars = psf2c.SCREEN_CHARS
        cases = {
            "missing": psf1(chars.replace("─", "")),
            "8x14": psf1(chars, height=14),
            "not psf": b"hello, this is not a font at all",
            "cut short": psf1(chars)[:100],
        }
        for what, data in cases.items():
            with self.subTest(what=what):
                with self.assertRaises(psf2c.FontError):
                    psf2c.screen_table(psf2c.load_font(self.write(data)))
        # Two characters drawn alike could not be told apart when read back.
        entries = [ch.encode() for ch in chars]
        entries[5] += chars[6].encode()
        entries[6] = "\u00a0".encode()
        with self.assertRaises(psf2c.FontError):
            psf2c.screen_table(psf2c.load_font(self.write(psf2(entries))))

    def test_cli_fails_loudly(self):
        with tempfile.TemporaryDirectory() as tmp:
            out = os.path.join(tmp, "font.c")
            r = subprocess.run([PSF2C, "--font", os.path.join(tmp, "none.psf.gz"), "-o", out],
                               capture_output=True, text=True)
            self.assertEqual(r.returncode, 1)
            self.assertIn("console-setup-linux", r.stderr)
            self.assertFalse(os.path.exists(out))

    def test_built_font_is_the_debian_font(self):
        """build/gen/font.c holds the PSF's glyphs at their code page 437
        codes, and kernel/screen/font.h's line characters name the right codes."""
        with open(FONT_C) as f:
            rows = re.findall(r"\[0x([0-9a-f]{2})\] = \{ ([^}]*) \}", f.read())
        built = {int(code, 16): bytes(int(b, 16) for b in body.split(", ")) for code, body in rows}
        self.assertEqual(sorted(built), list(range(256)))
        font = psf2c.load_font()
        for ch in psf2c.SCREEN_CHARS:
            self.assertEqual(built[ch.encode("cp437")[0]], font.glyph(ch), ch)
        self.assertEqual(built[0x20], bytes(16))
        self.assertEqual(built[0xdb], b"\xff" * 16)
        self.assertEqual(sorted(set(built[0xc4])), [0x00, 0xff])     # one full row
        with open(os.path.join(REPO, "kernel", "screen", "font.h"), encoding="utf-8") as f:
            defines = re.findall(r"#define CH_\w+\s+0x([0-9a-f]{2})\s+/\* (\S) \*/", f.read())
        self.assertGreater(len(defines), 10)
        for code, ch in defines:
            self.assertIn(ch, psf2c.SCREEN_CHARS)
            self.assertEqual(int(code, 16), ch.encode("cp437")[0], ch)


# ---- the reader, on pictures drawn here ----

BLACK, GREY, WHITE, RED = b"\0\0\0", b"\xaa\xaa\xaa", b"\xff\xff\xff", b"\xff\x55\x55"


def draw(lines, cols, rows, cell_w=8, scale=1, colours=None, gap_copies=True):
    """A PPM of text in the font, as the kernel or a VGA would draw it:
    colours maps (row, col) -> (fg, bg); cells of cell_w pixels, the last
    (cell_w - 8) columns a VGA gap (a copy of column 8 for 0xB0-0xDF)."""
    table = psf2c.screen_table(psf2c.load_font())
    colours = colours or {}
    w, h = cols * cell_w * scale, rows * 16 * scale
    px = bytearray(BLACK * w * h)
    for r in range(rows):
        line = lines[r] if r < len(lines) else ""
        for c in range(cols):
            ch = line[c] if c < len(line) else " "
            code = ch.encode("cp437")[0]
            fg, bg = colours.get((r, c), (GREY, BLACK))
            for y in range(16):
                bits = table[code][y]
                for x in range(cell_w):
                    if x < 8:
                        on = bits & (0x80 >> x)
                    else:
                        on = gap_copies and 0xb0 <= code <= 0xdf and bits & 1
                    for dy in range(scale):
                        for dx in range(scale):
                            o = (((r * 16 + y) * scale + dy) * w + (c * cell_w + x) * scale + dx) * 3
                            px[o:o + 3] = fg if on else bg
    data = b"P6\n%d %d\n255\n" % (w, h) + bytes(px)
    f = tempfile.NamedTemporaryFile(suffix=".ppm", delete=False)
    f.write(data)
    f.close()
    return f.name


class Reader(unittest.TestCase):
    TEXT = ["pagebench version=v1 ─ x", "cpu vendor=GenuineIntel family=0x6",
            "┌─┬─┐ │ └┘ ├┤ ┼ █░▒ · {}|~", "done: 0 failures"]

    def read(self, path, *geo):
        self.addCleanup(os.unlink, path)
        return screen.read_screen(path, *geo)

    def test_vga_text_cells(self):
        """9-dot cells with the VGA's gap, colours and an inverse cell."""
        colours = {(3, 0): (BLACK, GREY), (3, 1): (RED, BLACK), (0, 0): (WHITE, BLACK)}
        got = self.read(draw(self.TEXT, 40, 5, cell_w=9, colours=colours), 40, 5)
        self.assertEqual(got, self.TEXT + [""])

    def test_framebuffer_scaled(self):
        got = self.read(draw(self.TEXT, 40, 4, scale=2), 40, 4, 2)
        self.assertEqual(got, self.TEXT)

    def test_cells_and_colours(self):
        path = draw(["ab"], 2, 1, colours={(0, 1): (RED, BLACK)})
        self.addCleanup(os.unlink, path)
        cells = screen.Reader(screen.read_ppm(path), 2, 1).cells()
        self.assertEqual(cells[0][0], ("a", GREY, BLACK))
        self.assertEqual(cells[0][1], ("b", RED, BLACK))

    def test_unknown_glyph_is_an_error_not_a_guess(self):
        path = draw(["ok"], 4, 1)
        self.addCleanup(os.unlink, path)
        img = screen.read_ppm(path)
        rgb = bytearray(img.rgb)
        x, y = 2 * 8 + 3, 7                      # one stray pixel in cell 2
        rgb[(y * img.width + x) * 3:(y * img.width + x) * 3 + 3] = GREY
        img.rgb = bytes(rgb)
        with self.assertRaisesRegex(screen.ScreenReadError, r"row 0 col 2: no character"):
            screen.Reader(img, 4, 1).lines()
        rgb[0:3] = RED                           # a third colour in cell 0
        img.rgb = bytes(rgb)
        with self.assertRaisesRegex(screen.ScreenReadError, r"row 0 col 0: 3 colours"):
            screen.Reader(img, 4, 1).cell(0, 0)

    def test_wrong_geometry_refused(self):
        with self.assertRaises(screen.ScreenReadError):
            self.read(draw(self.TEXT, 40, 4, scale=2), 40, 4, 1)   # blocks of 2x2
        with self.assertRaises(screen.ScreenReadError):
            self.read(draw(self.TEXT, 10, 2), 40, 2)

    def test_geometry_from_log(self):
        self.assertEqual(screen.geometry_from_log(
            "(PB) screen: vga-text cells=80x25 addr=0xb8000\n"), (80, 25, 1))
        self.assertEqual(screen.geometry_from_log(
            "x\n(PB) screen: framebuffer 1920x1080 bpp=32 pitch=7680 rgb=16:8,8:8,0:8 "
            "addr=0x80000000 cells=120x33 scale=2\n"), (120, 33, 2))
        self.assertIsNone(screen.geometry_from_log("(PB) screen: none (no framebuffer)\n"))


# ---- real boots ----

def tagged(text):
    return [m.group(1) for m in map(TAG.match, text.splitlines()) if m]


def done_line(lines):
    """The run's done: line: only the log file's line and "run complete"
    may follow it (docs/log-format.md)."""
    return next((l for l in reversed(lines) if l.startswith("done: ")), None)


def boot_and_read(test, name):
    """Boot row name of tests/boots.cfg, a row with screen_pages; (serial
    lines, serial text, screen lines), the screen lines being a list of
    pages when the row takes more than one."""
    b = boots.run(test, name)
    text = b.text
    geo = screen.geometry_from_log(text)
    test.assertIsNotNone(geo, "no screen: line with cells in the log:\n" + text[-2000:])
    shots = [screen.read_screen(d, *geo) for d in b.files["screens"]]
    return tagged(text), text, shots[0] if len(shots) == 1 else shots


# A summary block on the screen (kernel/screen/run_view.c, harness/render/summary.c).
BLOCK_TITLE = re.compile(r"^((?:copy )?(?:L[123] w/o flush|L[123] w/ flush|MEM)|copy-hot|copy-cold), "
                         r"(\d+) (KiB|MiB) (a call|each way)$")
BLOCK_ROW = re.compile(r"^([* ])(\w+) +([\d.]+) +(?:([\d.]+) +)?([\d.]+) +"
                       r"(quickest|tied|~?\+[\d.]+%)$")
BLOCK_STEP = 60     # a block is 58 columns wide, then a gap of 2


def summary_blocks(rows):
    """{block title: [(mark, variant, ticks/page, ns/page, B/tick, vs)]}."""
    blocks, current = {}, {}
    for row in rows:
        for col in range(0, max(len(row), 1), BLOCK_STEP):
            cell = row[col:col + BLOCK_STEP].rstrip()
            m = BLOCK_TITLE.match(cell)
            if m:
                current[col] = blocks.setdefault(m.group(1), [])
                continue
            m = BLOCK_ROW.match(cell)
            if m and col in current:
                current[col].append(m.groups())
            elif not cell:
                current.pop(col, None)
    return blocks



def joined_messages(rows):
    """Screen rows with wrapped continuations ("  ...") joined back: the
    kernel breaks a long message at a space, which the row does not show."""
    out = []
    for row in rows:
        if row.startswith("  ") and out:
            out[-1] += " " + row[2:]
        else:
            out.append(row)
    return out


class ScreenBoots(unittest.TestCase):
    GROUPS = ("boot", "uefi")

    def check_screen(self, lines, text, shots):
        """The end of a run: the machine's identity, the answer first, then
        the summary, the footer."""
        answer, rows = shots
        cols = screen.geometry_from_log(text)[0]
        first = lambda p: next(l for l in lines if l.startswith(p))
        # The header keeps what says which machine this was, word for word
        # from serial (cut to the screen's width).
        header = [first(p) for p in ("brand: ", "cpu vendor=", "cache ", "tsc khz=")]
        for i, h in enumerate(header):
            self.assertEqual(rows[i], h[:cols].rstrip(), "header row %d" % i)
            self.assertEqual(answer[i], rows[i], "header row %d" % i)
        self.assertRegex(rows[1], r"^cpu vendor=\S+ family=0x[0-9a-f]+ model=0x[0-9a-f]+ stepping=\d+$")
        self.assertRegex(answer[5], r"^answer: ")
        self.assertRegex(answer[7], r"^─ answer ─+$")
        self.assertRegex(rows[4], r"^─ progress ─+$")
        self.assertRegex(rows[5], r"^summary")
        self.assertRegex(rows[7], r"^─ summary ─+$")
        # Every pass's block, every variant that ran in it: no value line or bulk.
        blocks = summary_blocks(rows)
        ran = set(re.search(r"variants clear:(.*)", text).group(1).split())
        self.assertEqual({b for b in blocks}, {"L1 w/o flush"})
        self.assertEqual({r[1] for r in blocks["L1 w/o flush"]}, ran)
        self.assertFalse([r for r in rows if " pre=" in r or r.startswith(("features", "erms="))])
        # The footer: the done: line, the log file's line and how the run
        # ended, last on the screen, as serial said them.
        log = next(l for l in lines if l.startswith("log "))
        for r in (answer, rows):
            self.assertEqual(r[-3:], ["done: 0 failures", log[:cols].rstrip(),
                                      "run complete, halting."])
            self.assertRegex(r[-4], r"^─+$")

    def test_bios_iso_seabios(self):
        lines, text, shots = boot_and_read(self, "screen-iso-bios")
        self.assertIn("screen: vga-text cells=80x25 addr=0xb8000", lines)
        self.assertEqual(len(shots[1]), 25)
        self.check_screen(lines, text, shots)

    def test_bios_kernel_text_assumed(self):
        """QEMU's -kernel loader says nothing of the screen: text is assumed."""
        lines, text, shots = boot_and_read(self, "screen-kernel")
        self.assertIn("screen: vga-text cells=80x25 addr=0xb8000 assumed", lines)
        self.check_screen(lines, text, shots)

    @unittest.skipUnless(os.path.exists(OVMF), "OVMF is not installed: UEFI screen not tested")
    def test_uefi_iso_ovmf_framebuffer(self):
        lines, text, shots = boot_and_read(self, "screen-iso-uefi")
        # GRUB found a video mode and the kernel drew on the framebuffer.
        self.assertNotIn("no suitable video mode found", text)
        self.assertNotIn("no console will be available to OS", text)
        fb = next(l for l in lines if l.startswith("screen: "))
        self.assertRegex(fb, r"^screen: framebuffer \d+x\d+ bpp=(15|16|24|32) pitch=\d+ "
                             r"rgb=\d+:\d+,\d+:\d+,\d+:\d+ addr=0x[0-9a-f]+ cells=\d+x\d+ scale=\d+$")
        self.check_screen(lines, text, shots)

    def test_summary_agrees_with_the_report(self):
        """The quickest median and each margin of a pass, from the serial
        log's value lines; every variant, its ticks per page from the log."""
        lines, text, shots = boot_and_read(self, "screen-summary")
        blocks = summary_blocks(shots[1])
        self.assertEqual(set(blocks), {"L1 w/o flush", "L2 w/o flush"})
        sizes = {m.group(1): int(m.group(2)) for m in
                 (re.match(r"sizes pass=(\w+) fill=\d+ clear=(\d+)", l) for l in lines) if m}
        for label, rows_ in blocks.items():
            with self.subTest(block=label):
                # ticks per page: the median of the value lines over the pages a call clears.
                pid = {"L1 w/o flush": "l1", "L2 w/o flush": "l2"}[label]
                pages = sizes[pid] // 4096
                median = {}
                for mark, variant, tpp, ns, bpt, vs in rows_:
                    vals = sorted(int(m.group(1), 16) for m in
                                  (re.match(r" pre=[0-9a-f]+ %s=([0-9a-f]+) post=" % variant, l)
                                   for l in self.pass_lines(lines, label)) if m)
                    median[variant] = (vals[(len(vals) - 1) // 2] + vals[len(vals) // 2]) / 2
                    self.assertAlmostEqual(float(tpp), median[variant] / pages, delta=0.051)
                # The page describes: the quickest median first, the runner-up's margin
                # over it (the answer page decides; docs/running.md).
                order = sorted(median, key=lambda v: median[v])
                self.assertEqual(rows_[0][:2], ("*", order[0]))
                self.assertEqual(rows_[0][5], "quickest")
                self.assertEqual(median[rows_[1][1]], median[order[1]])
                margin = (median[rows_[1][1]] / median[order[0]] - 1) * 100
                self.assertAlmostEqual(float(rows_[1][5][1:-1]), margin, delta=0.051)

    @staticmethod
    def pass_lines(lines, label):
        i = lines.index(label + ":")
        out = []
        for l in lines[i + 1:]:
            if not l.startswith(" pre="):
                break
            out.append(l)
        return out

    def test_summary_pages_take_turns(self):
        """More blocks than fit: pages, each whole, turning by themselves,
        after the answer's page."""
        # Variants few enough that a pass's block fits a page whole (the
        # clear table outgrew 80x25's rows with the range candidates; a
        # longer block ends "... more: see the serial log").
        lines, text, shots = boot_and_read(self, "screen-pages")
        self.assertRegex(shots[0][5], r"^answer: ")
        seen = {}
        for k, rows in enumerate(shots[1:]):
            self.assertEqual(rows[5], "summary page %d of 3 (a new page every 8 s), "
                                      "then the answer again" % (k + 1))
            for label, rows_ in summary_blocks(rows).items():
                seen[label] = rows_
        self.assertEqual(set(seen), {"L1 w/o flush", "L1 w/ flush", "L2 w/o flush"})
        ran = set(re.search(r"variants clear:(.*)", text).group(1).split())
        for label, rows_ in seen.items():
            self.assertEqual({r[1] for r in rows_}, ran, label)

    def test_exception_shown_in_red_words(self):
        """selftest=ud: the exception line, wrapped to the width, and done: 1 failure."""
        lines, _, rows = boot_and_read(self, "selftest-ud")   # shared with test_boot
        exc = next(l for l in lines if l.startswith("exception: "))
        self.assertIn(exc, joined_messages(rows))
        self.assertEqual(rows[-3], "done: 1 failure")


# The answer's page (kernel/screen/answer_page.c, drawn by harness/render/matrix.c)
# in the VGA font's ASCII. Cells hold single blanks only, so two or more
# part the columns.
ANSWER_WORDS = {"keep": "keep", "switch": "->", "undecided": "undecided", "none": "n/a",
                "trade-off": "trade-off"}


def answer_page(rows):
    """The columns of the screen's answer page, in order: [(pick, {row label:
    cell})], and whether it was cut."""
    top = next(i for i, r in enumerate(rows) if re.match(r"^─ answer ─+$", r))
    body = rows[top + 1:]
    cols, cut, k = [], False, 0
    while k < len(body) and not re.match(r"^─+$", body[k]):
        cut = cut or body[k].startswith("... ")
        if not re.match(r"^pass +\w", body[k]) or k + 1 >= len(body):
            k += 1
            continue
        block = [(name, {}) for name in re.split(r"\s{2,}", body[k + 1].strip())]
        k += 2
        while k < len(body) and re.match(r"^[a-z0-9]+  ", body[k]):
            pid, *cells = re.split(r"\s{2,}", body[k].rstrip())
            for (_, got), cell in zip(block, cells):
                got[pid] = cell
            k += 1
        cols += block
    return cols, cut


def said_by_the_lines(text, cols):
    """Where a page's cell says other than the serial log's answer (or,
    in the bottom row, bottom) lines of its pick and row: [(pick, row,
    cell)]. The check reads the lines with the grammar alone."""
    from pbreport import bottom, parse
    (m,), _ = parse.read_bytes(text.encode(), "serial.log")
    wrong = []
    for pick, cells in cols:
        for row, cell in cells.items():
            if cell == "-":
                continue
            if row == "bottom":
                said = [(b.action, b.routine) for b in m.bottoms if (b.pick or "-") == pick]
            else:
                said = [(a.action, a.routine) for a in m.answers
                        if (a.pick or "-") == pick and a.pass_id == row]
            if not any(cell.startswith(ANSWER_WORDS[act]) and
                       (act != "switch" or cell.lstrip("->").lstrip().startswith(r or ""))
                       for act, r in said):
                wrong.append((pick, row, cell))
    return wrong


class AnswerScreen(unittest.TestCase):
    """The first page at the end of a bare-metal run is the answer, it
    says what the log's answer lines say, and after the summary's pages
    it comes back and stays."""
    GROUPS = ("boot", "uefi", "report")

    def check_answer_screen(self, name):
        lines, text, shots = boot_and_read(self, name)
        page = shots[0]
        self.assertEqual(page[5], "answer: keep or switch, per pass and kernel pick; "
                                  "the summary's pages follow")
        m = re.match(r"^summary(?: page 1 of (\d+))?", shots[1][5])
        self.assertTrue(m, shots[1][5])
        tables = int(m.group(1) or 1)
        self.assertLess(tables + 1, len(shots), "the answer did not come back")
        for later in shots[tables + 1:]:
            self.assertEqual(later, page, "the answer page did not stay")
        runs_on = re.search(r"runs_on=(\w+)", text).group(1)
        self.assertEqual("not a CPU" in page[6], runs_on != "cpu")
        # The page fits the screen's width, and says what the lines say.
        cols = screen.geometry_from_log(text)[0]
        self.assertFalse([r for r in page if len(r) > cols])
        got, cut = answer_page(page)
        self.assertTrue(got, page)
        # Each cell says what its pick's lines say, the bottom row too.
        self.assertEqual(said_by_the_lines(text, got), [], page)
        self.assertTrue(any("bottom" in cells for _, cells in got), page)
        return page

    def test_bios_answer_page(self):
        page = self.check_answer_screen("answer-bios")
        self.assertEqual(len(page), 25)

    @unittest.skipUnless(os.path.exists(OVMF), "OVMF is not installed: UEFI screen not tested")
    def test_uefi_answer_page(self):
        self.check_answer_screen("answer-uefi")


class GrubMenu(unittest.TestCase):
    GROUPS = ("boot", "uefi")

    ENTRIES = ["pagebench: all suites", "pagebench: the 2021 Xen experiment (suite=xen)",
               "pagebench: quick run, L1 and L2 only (reps=3 passes=l1,l1f,l2,l2f)",
               "pagebench: all suites, then reboot", "pagebench: suite=xen, then reboot",
               "pagebench: quick run, then reboot"]

    def choose_quick_run(self, name):
        """The menu shows on serial; its hotkey, 3, starts the quick run
        (once the last entry has shown)."""
        self.assertEqual(boots.row(name).keys_after, self.ENTRIES[-1])
        b = boots.run(self, name)
        status, text = b.status, b.text
        menu = text[:text.find("(PB) ")]
        for entry in self.ENTRIES:
            self.assertIn(entry, menu)
        self.assertRegex(menu, r"executed automatically in \d+s")
        lines = tagged(text)
        self.assertIn("cmdline: reps=3 passes=l1,l1f,l2,l2f", lines)
        self.assertEqual(done_line(lines), "done: 0 failures")
        self.assertEqual(status, 0, "isa-debug-exit's 1, success")
        return lines

    def test_menu_on_serial_bios(self):
        lines = self.choose_quick_run("menu-bios")
        self.assertIn("screen: vga-text cells=80x25 addr=0xb8000", lines)

    @unittest.skipUnless(os.path.exists(OVMF), "OVMF is not installed: UEFI menu not tested")
    def test_menu_on_serial_uefi(self):
        lines = self.choose_quick_run("menu-uefi")
        self.assertTrue(any(l.startswith("screen: framebuffer ") for l in lines), lines)

    def test_default_entry_starts_alone(self):
        """Nobody at the keyboard: after the timeout the first entry runs
        (all suites; seen starting, then stopped)."""
        text = boots.run(self, "menu-default").text
        self.assertIn("cmdline: ", tagged(text))
        self.assertIn("plan suite=all reps=auto passes=l1,l1f,l2,l2f,l3,l3f,mem,hot,cold "
                      "time=1000ms", tagged(text))


class FarMapping(unittest.TestCase):
    def test_selftest_map_beyond_512g(self):
        """selftest=map maps memory no boot mapping covers (a DIMM at 512 GiB,
        beyond the first PML4 entry) and reads a pattern back through it."""
        b = boots.run(self, "far-mapping")
        lines = tagged(b.text)
        self.assertIn("selftest map: ok addr=0x8000000000 len=0x600000", lines)
        self.assertEqual(done_line(lines), "done: 0 failures")
        self.assertEqual(b.status, 0)

    def test_selftest_map_without_memory_fails_cleanly(self):
        """No memory there: the pattern does not come back, and that is a
        reported failure, not a fault."""
        lines = tagged(boots.run(self, "far-mapping-absent").text)
        self.assertTrue(any(l.startswith("selftest map: FAILED addr=0x8000000000") for l in lines), lines)
        self.assertFalse([l for l in lines if l.startswith("exception:")])
        self.assertEqual(done_line(lines), "done: 1 failure")


if __name__ == "__main__":
    unittest.main()
