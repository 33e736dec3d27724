"""What the variant tables say, read from the .def files themselves, so
that a test's expectation does not come from the C code it checks."""
import os
import re

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

PAGE_ROW = re.compile(r'^(CLEAR|COPY)\(\s*(\w+)\s*,\s*(PAGE|RANGE)\s*,\s*(\w+)\s*,'
                      r'\s*FEAT_(\w+)\s*,(?:\s*[01]\s*,)?\s*"([^"]*)"\)$', re.M)
STRING_ROW = re.compile(r'^STRING_VARIANT\(\s*(memset|memcpy)\s*,\s*(\w+)\s*,\s*(\w+)\s*,'
                        r'\s*FEAT_(\w+)\s*,\s*"([^"]*)"\)$', re.M)


def _all_read(text, row, macro):
    """A row this module cannot read would silently leave a variant out
    of every expectation: fail instead."""
    lines = re.findall(r"^%s\(.*$" % macro, text, re.M)
    read = [m.group(0) for m in row.finditer(text)]
    if lines != read:
        raise ValueError("tests/tables.py cannot read %r" % sorted(set(lines) - set(read)))


def rows():
    """Every row of clear.def, copy.def and strings.def, in table order,
    as the variant line of the log gives it: dicts of name, op, shape,
    store, needs and what."""
    out = []
    for op in ("clear", "copy"):
        with open(os.path.join(REPO, "variants", op + ".def")) as f:
            text = f.read()
            _all_read(text, PAGE_ROW, op.upper())
            for m in PAGE_ROW.finditer(text):
                out.append(dict(name=m.group(2), op=op, shape=m.group(3).lower(),
                                store=m.group(4).lower(), needs=m.group(5).lower(),
                                what=m.group(6)))
    with open(os.path.join(REPO, "variants", "strings.def")) as f:
        text = f.read()
        _all_read(text, STRING_ROW, "STRING_VARIANT")
        for m in STRING_ROW.finditer(text):
            out.append(dict(name=m.group(2), op=m.group(1), shape="string",
                            store=m.group(3).lower(), needs=m.group(4).lower(),
                            what=m.group(5)))
    return out


def variant_needs():
    """{(op, name): feature} from variants/clear.def and copy.def."""
    return {(r["op"], r["name"]): r["needs"] for r in rows()
            if r["op"] in ("clear", "copy")}


def string_variant_needs():
    """{(op, name): feature} from variants/strings.def (op memset or memcpy)."""
    return {(r["op"], r["name"]): r["needs"] for r in rows()
            if r["op"] in ("memset", "memcpy")}
