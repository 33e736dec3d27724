"""The log grammar, read from its one home: docs/log-format.md.

That file's table of line types (header "| Kind | ...") gives each kind
its regular expression, applied to the text after the tag; its table of
passes (header "| Pass id | ...") gives each pass id its header; its table
of old variant names (header "| Table | Old name | ...") gives the names
of logs from before the one naming convention. Nothing here writes a line
shape or a name of its own.
"""
import os
import re

DOC = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__)))), "docs", "log-format.md")

# The tag in front of every line, as a non-capturing expression.
TAG = r"\([A-Za-z0-9_]{1,15}\) "


def _rows(lines, first_header):
    """Cells of the rows of the markdown table whose header row starts with
    first_header, as lists of stripped strings."""
    rows, inside = [], False
    for line in lines:
        line = line.rstrip("\n")
        if line.startswith(first_header):
            inside = True
            continue
        if not inside:
            continue
        if not line.startswith("|"):
            if rows:
                break
            continue
        # Cells are split at " | "; a literal | inside a cell is written \|.
        cells = [c.strip() for c in re.split(r"(?<!\\)\|", line.strip())[1:-1]]
        if set("".join(cells)) <= set("-: "):
            continue
        rows.append([c.replace("\\|", "|") for c in cells])
    return rows


def _code(cell):
    """The text of the first `code` span of a cell."""
    m = re.search(r"`([^`]+)`", cell)
    if not m:
        raise ValueError("docs/log-format.md: no `...` in %r" % cell)
    return m.group(1)


def _load(path=DOC):
    with open(path, encoding="utf-8") as f:
        lines = f.readlines()
    kinds = []
    for cells in _rows(lines, "| Kind |"):
        kind, rx = _code(cells[0]), _code(cells[2])
        re.compile(rx)
        kinds.append((kind, rx))
    passes = [(_code(c[0]), _code(c[1])) for c in _rows(lines, "| Pass id |")]
    if not kinds or not passes:
        raise ValueError("%s: the line-type or pass table is missing" % path)
    return kinds, passes


def _load_old_names(path=DOC):
    """{table: {old name: new name}} of the old variant names."""
    with open(path, encoding="utf-8") as f:
        lines = f.readlines()
    out = {}
    for cells in _rows(lines, "| Table | Old name |"):
        table, old, new = (_code(c) for c in cells[:3])
        names = out.setdefault(table, {})
        if old in names or new in names.values():
            raise ValueError("%s: old variant names: %s %s is named twice"
                             % (path, table, old if old in names else new))
        names[old] = new
    if not out:
        raise ValueError("%s: the old variant names table is missing" % path)
    return out


LINE_TYPES, PASS_TABLE = _load()
# Table ("copy", "memset", ...) -> {old variant name: new name}.
OLD_NAMES = _load_old_names()
KINDS = [k for k, _ in LINE_TYPES]
# Pass id (as in passes= and "sizes" lines) -> header ("L1 w/o flush").
PASS_HEADERS = dict(PASS_TABLE)


def regex(kind):
    """The documented expression of one kind (text after the tag)."""
    for k, rx in LINE_TYPES:
        if k == kind:
            return rx
    raise KeyError(kind)


def compiled(kind):
    return re.compile(regex(kind))


def tagged(kind):
    """The kind's expression with the tag in front, for whole log lines;
    the groups are the kind's own."""
    return re.compile("^" + TAG + regex(kind))


def classify(text):
    """The kind whose expression matches text (after the tag) whole, or None."""
    for kind, rx in _COMPILED:
        if rx.match(text):
            return kind
    return None


_COMPILED = [(k, re.compile(rx)) for k, rx in LINE_TYPES]
