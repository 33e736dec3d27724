#!/usr/bin/env python3
"""Read the text on pagebench's screen back from a QEMU screendump.

The kernel draws every character with the glyphs scripts/psf2c makes, so
each character cell of the picture must be exactly one of them: a cell is
matched bit for bit, never guessed. A cell that matches nothing (or more
than two colours, or a scaled pixel that is not a solid block) is an error
naming the cell.

    tests/lib/screen.py DUMP.ppm --log SERIAL.LOG   # geometry from the screen: line
    tests/lib/screen.py DUMP.ppm --cols 80 --rows 25

Cells: VGA text is 80x25 cells of 9x16 pixels (the ninth column is the
VGA's gap, or a copy of the eighth for line characters); a framebuffer
has cells of 8x16 pixels times the kernel's scale, from the top left.
"""
import argparse
import collections
import importlib.machinery
import importlib.util
import os
import re
import sys

TESTS = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
REPO = os.path.dirname(TESTS)
_loader = importlib.machinery.SourceFileLoader(
    "psf2c", os.path.join(REPO, "scripts", "psf2c"))
psf2c = importlib.util.module_from_spec(importlib.util.spec_from_loader("psf2c", _loader))
_loader.exec_module(psf2c)

GLYPH_W, GLYPH_H = psf2c.WIDTH, psf2c.HEIGHT
VGA_GAP = 1		# the ninth pixel column of a 9-dot VGA text cell

SCREEN_LINE = re.compile(
    r"screen: (?:vga-text cells=(\d+)x(\d+)|framebuffer .* cells=(\d+)x(\d+) scale=(\d+))")


class ScreenReadError(Exception):
    pass


class Image:
    def __init__(self, width, height, rgb):
        self.width, self.height, self.rgb = width, height, rgb

    def pixel(self, x, y):
        o = (y * self.width + x) * 3
        return self.rgb[o:o + 3]


def read_ppm(path):
    """A binary PPM (P6, maxval 255), as QEMU's screendump writes it."""
    with open(path, "rb") as f:
        data = f.read()
    fields, pos = [], 0
    while len(fields) < 4:
        while pos < len(data) and data[pos:pos + 1].isspace():
            pos += 1
        if data[pos:pos + 1] == b"#":
            pos = data.index(b"\n", pos)
            continue
        end = pos
        while end < len(data) and not data[end:end + 1].isspace():
            end += 1
        if end == pos:
            raise ScreenReadError("%s: PPM header cut short" % path)
        fields.append(data[pos:end])
        pos = end
    if fields[0] != b"P6" or fields[3] != b"255":
        raise ScreenReadError("%s: not a P6 PPM with maxval 255" % path)
    width, height = int(fields[1]), int(fields[2])
    rgb = data[pos + 1:]
    if len(rgb) < width * height * 3:
        raise ScreenReadError("%s: pixel data cut short" % path)
    return Image(width, height, rgb)


def glyph_table(font=None):
    """Glyph rows (a tuple of GLYPH_H bytes) -> character, for every
    character the screen draws."""
    table = psf2c.screen_table(font or psf2c.load_font())
    return {tuple(table[psf2c.code_of(ch)]): ch for ch in psf2c.SCREEN_CHARS}


def geometry_from_log(text):
    """(cols, rows, scale) from the kernel's screen: log line, or None."""
    for line in text.splitlines():
        m = SCREEN_LINE.search(line)
        if m and m.group(1):
            return int(m.group(1)), int(m.group(2)), 1
        if m:
            return int(m.group(3)), int(m.group(4)), int(m.group(5))
    return None


class Reader:
    def __init__(self, image, cols, rows, scale=1, glyphs=None):
        self.img, self.cols, self.rows, self.scale = image, cols, rows, scale
        self.glyphs = glyphs or glyph_table()
        gw, gh = GLYPH_W * scale, GLYPH_H * scale
        if image.width == cols * (GLYPH_W + VGA_GAP) * scale:
            self.cell_w = (GLYPH_W + VGA_GAP) * scale
        elif image.width >= cols * gw:
            self.cell_w = gw
        else:
            raise ScreenReadError("a %dx%d picture cannot hold %d columns at scale %d"
                                  % (image.width, image.height, cols, scale))
        self.cell_h = gh
        if image.height < rows * gh:
            raise ScreenReadError("a %dx%d picture cannot hold %d rows at scale %d"
                                  % (image.width, image.height, rows, scale))
        self.background = self._background()

    def _background(self):
        """The screen's colour: the commonest in the cell area."""
        counts = collections.Counter()
        for y in range(0, self.rows * self.cell_h, self.scale):
            for x in range(0, self.cols * self.cell_w, self.scale * 4):
                counts[self.img.pixel(x, y)] += 1
        return counts.most_common(1)[0][0]

    def _dot(self, x0, y0, where):
        """The colour of one font pixel: a solid scale x scale block."""
        c = self.img.pixel(x0, y0)
        for dy in range(self.scale):
            for dx in range(self.scale):
                if self.img.pixel(x0 + dx, y0 + dy) != c:
                    raise ScreenReadError("%s: pixel block at %d,%d is not one colour"
                                          " (wrong scale or origin?)" % (where, x0, y0))
        return c

    def cell(self, row, col):
        """(character, foreground rgb, background rgb) of one cell."""
        where = "row %d col %d" % (row, col)
        x0, y0 = col * self.cell_w, row * self.cell_h
        dots = [[self._dot(x0 + x * self.scale, y0 + y * self.scale, where)
                 for x in range(GLYPH_W)] for y in range(GLYPH_H)]
        colours = {c for line in dots for c in line}
        if len(colours) > 2:
            raise ScreenReadError("%s: %d colours in one cell" % (where, len(colours)))
        if len(colours) == 1:
            # A space, or a solid block: on a coloured background the two
            # look alike, and the kernel draws only on black.
            (c,) = colours
            if c == self.background:
                return " ", c, c
            solid = tuple([(1 << GLYPH_W) - 1] * GLYPH_H)
            if solid not in self.glyphs:
                self._unknown(where, solid)
            return self.glyphs[solid], c, c
        a, b = sorted(colours, key=lambda c: c == self.background)
        # Foreground first as the colour that is not the screen's, then the other way.
        found = []
        for fg, bg in ((a, b), (b, a)):
            bits = tuple(sum(0x80 >> x for x in range(GLYPH_W) if dots[y][x] == fg)
                         for y in range(GLYPH_H))
            if bits in self.glyphs:
                found.append((self.glyphs[bits], fg, bg))
        if len(found) != 1:
            if not found:
                bits = tuple(sum(0x80 >> x for x in range(GLYPH_W) if dots[y][x] == a)
                             for y in range(GLYPH_H))
                self._unknown(where, bits)
            raise ScreenReadError("%s: matches %r either way round" % (where, found))
        self._check_gap(row, col, where, found[0][2], dots)
        return found[0]

    def _check_gap(self, row, col, where, bg, dots):
        """The ninth column of VGA text: blank, or the eighth repeated."""
        if self.cell_w == GLYPH_W * self.scale:
            return
        x = col * self.cell_w + GLYPH_W * self.scale
        for y in range(GLYPH_H):
            c = self._dot(x, row * self.cell_h + y * self.scale, where)
            if c != bg and c != dots[y][GLYPH_W - 1]:
                raise ScreenReadError("%s: the ninth column is neither blank nor a copy"
                                      % where)

    def _unknown(self, where, bits):
        raise ScreenReadError("%s: no character of the font has this glyph: %s"
                              % (where, " ".join("%02x" % b for b in bits)))

    def cells(self):
        return [[self.cell(r, c) for c in range(self.cols)] for r in range(self.rows)]

    def lines(self):
        """The text of every row, trailing blanks dropped."""
        return ["".join(ch for ch, _, _ in row).rstrip() for row in self.cells()]


def read_screen(path, cols, rows, scale=1):
    """The lines of text in screendump path."""
    return Reader(read_ppm(path), cols, rows, scale).lines()


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("dump", help="QEMU screendump (PPM)")
    ap.add_argument("--log", help="serial log with the kernel's screen: line")
    ap.add_argument("--cols", type=int)
    ap.add_argument("--rows", type=int)
    ap.add_argument("--scale", type=int, default=1)
    args = ap.parse_args(argv)
    if args.log:
        geo = geometry_from_log(open(args.log, errors="replace").read())
        if not geo:
            print("screen.py: %s has no screen: line with cells" % args.log, file=sys.stderr)
            return 2
        cols, rows, scale = geo
    elif args.cols and args.rows:
        cols, rows, scale = args.cols, args.rows, args.scale
    else:
        ap.error("give --log, or --cols and --rows")
    try:
        for line in read_screen(args.dump, cols, rows, scale):
            print(line)
    except (ScreenReadError, psf2c.FontError) as e:
        print("screen.py: %s" % e, file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
