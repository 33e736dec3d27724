"""What the variant tables say, read from the .def files themselves, so
that a test's expectation does not come from the C code it checks."""
import os
import re

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def variant_needs():
    """{(op, name): feature} from variants/clear.def and copy.def."""
    needs = {}
    for op in ("clear", "copy"):
        with open(os.path.join(REPO, "variants", op + ".def")) as f:
            for m in re.finditer(r"^(?:CLEAR|COPY)\(\s*(\w+)\s*,\s*\w+\s*,"
                                 r"\s*(?:PAGE|RANGE)\s*,\s*FEAT_(\w+)", f.read(), re.M):
                needs[(op, m.group(1))] = m.group(2).lower()
    return needs


def string_variant_needs():
    """{(op, name): feature} from variants/strings.def (op memset or memcpy)."""
    needs = {}
    with open(os.path.join(REPO, "variants", "strings.def")) as f:
        for m in re.finditer(r"^STRING_VARIANT\(\s*(\w+)\s*,\s*(\w+)\s*,"
                             r"\s*\w+\s*,\s*FEAT_(\w+)", f.read(), re.M):
            needs[(m.group(1), m.group(2))] = m.group(3).lower()
    return needs


def variant_rows(folder=os.path.join(REPO, "variants")):
    """Every row of clear.def, copy.def and strings.def in folder (variants/,
    or module/ for the module's own rows): dicts of table (clear, copy,
    memset, memcpy), name, routine, need, regs and xen (clear only)."""
    rows = []
    for table in ("clear", "copy", "strings"):
        with open(os.path.join(folder, table + ".def")) as f:
            text = f.read()
        if table == "strings":
            rx = (r"^STRING_VARIANT\(\s*(\w+)\s*,\s*(\w+)\s*,\s*(\w+)\s*,\s*FEAT_(\w+)\s*,"
                  r"\s*(GPR|VEC)\s*,")
            for m in re.finditer(rx, text, re.M):
                rows.append({"table": m.group(1), "name": m.group(2), "routine": m.group(3),
                             "need": m.group(4).lower(), "regs": m.group(5), "xen": False})
            continue
        rx = (r"^(?:CLEAR|COPY)\(\s*(\w+)\s*,\s*(\w+)\s*,\s*(?:PAGE|RANGE)\s*,\s*FEAT_(\w+)\s*,"
              r"\s*(GPR|VEC)\s*,\s*(?:([01])\s*,)?")
        for m in re.finditer(rx, text, re.M):
            rows.append({"table": table, "name": m.group(1), "routine": m.group(2),
                         "need": m.group(3).lower(), "regs": m.group(4),
                         "xen": m.group(5) == "1"})
    return rows
