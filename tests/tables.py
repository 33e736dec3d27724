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
            for m in re.finditer(r"^(?:CLEAR|COPY)\(\s*(\w+)\s*,"
                                 r"\s*(?:PAGE|RANGE)\s*,\s*FEAT_(\w+)", f.read(), re.M):
                needs[(op, m.group(1))] = m.group(2).lower()
    return needs


def string_variant_needs():
    """{(op, name): feature} from variants/strings.def (op memset or memcpy)."""
    needs = {}
    with open(os.path.join(REPO, "variants", "strings.def")) as f:
        for m in re.finditer(r"^STRING_VARIANT\(\s*(\w+)\s*,\s*(\w+)\s*,"
                             r"\s*FEAT_(\w+)", f.read(), re.M):
            needs[(m.group(1), m.group(2))] = m.group(3).lower()
    return needs
