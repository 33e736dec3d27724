"""What the variant tables say, read from the .def files themselves, so
that a test's expectation does not come from the C code it checks."""
import os
import re

TESTS = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
REPO = os.path.dirname(TESTS)

PAGE_ROW = re.compile(r'^(CLEAR|COPY)\(\s*(\w+)\s*,\s*(PAGE|RANGE)\s*,\s*(\w+)\s*,'
                      r'\s*FEAT_(\w+)\s*,\s*(GPR|VEC)\s*,(?:\s*([01])\s*,)?\s*"([^"]*)"\s*,'
                      r'\s*"([^"]*)"\)$', re.M)
STRING_ROW = re.compile(r'^STRING_VARIANT\(\s*(memset|memcpy)\s*,\s*(\w+)\s*,\s*(\w+)\s*,'
                        r'\s*FEAT_(\w+)\s*,\s*(GPR|VEC)\s*,\s*"([^"]*)"\s*,\s*"([^"]*)"\)$', re.M)


def _all_read(text, row, macro):
    """A row this module cannot read would silently leave a variant out
    of every expectation: fail instead."""
    lines = re.findall(r"^%s\(.*$" % macro, text, re.M)
    read = [m.group(0) for m in row.finditer(text)]
    if lines != read:
        raise ValueError("tests/lib/tables.py cannot read %r" % sorted(set(lines) - set(read)))


def table_rows(folder=os.path.join(REPO, "variants")):
    """Every row of clear.def, copy.def and strings.def in folder (variants/,
    or module/ for the module's own rows), in table order: dicts of name,
    op, shape, store, needs, regs (GPR or VEC), xen, routine (op_name),
    cite ("" where the row stands for no kernel's routine) and what."""
    out = []
    for op in ("clear", "copy"):
        with open(os.path.join(folder, op + ".def")) as f:
            text = f.read()
            _all_read(text, PAGE_ROW, op.upper())
            for m in PAGE_ROW.finditer(text):
                out.append(dict(name=m.group(2), op=op, shape=m.group(3).lower(),
                                store=m.group(4).lower(), needs=m.group(5).lower(),
                                regs=m.group(6), xen=m.group(7) == "1",
                                routine="%s_%s" % (op, m.group(2)), cite=m.group(8),
                                what=m.group(9)))
    with open(os.path.join(folder, "strings.def")) as f:
        text = f.read()
        _all_read(text, STRING_ROW, "STRING_VARIANT")
        for m in STRING_ROW.finditer(text):
            out.append(dict(name=m.group(2), op=m.group(1), shape="string",
                            store=m.group(3).lower(), needs=m.group(4).lower(),
                            regs=m.group(5), xen=False,
                            routine="%s_%s" % (m.group(1), m.group(2)),
                            cite=m.group(6), what=m.group(7)))
    return out


VARIANT_LINE = ("name", "op", "shape", "store", "needs", "what")


def rows():
    """Every row of variants/, in table order, as the variant line of the
    log gives it: dicts of name, op, shape, store, needs and what."""
    return [{k: r[k] for k in VARIANT_LINE} for r in table_rows()]


def variant_needs():
    """{(op, name): feature} from variants/clear.def and copy.def."""
    return {(r["op"], r["name"]): r["needs"] for r in rows()
            if r["op"] in ("clear", "copy")}


def string_variant_needs():
    """{(op, name): feature} from variants/strings.def (op memset or memcpy)."""
    return {(r["op"], r["name"]): r["needs"] for r in rows()
            if r["op"] in ("memset", "memcpy")}
