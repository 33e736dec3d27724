"""The log grammar, read from its one home: scripts/pbreport/log_grammar.py
(each line kind's regular expression, the pass ids and their headers, the
old variant names). docs/log-format.md's tables are written from the same
data (scripts/docs-grammar). Nothing here writes a line shape or a name of
its own.
"""
import re

from . import log_grammar

# The tag in front of every line, as a non-capturing expression.
TAG = r"\([A-Za-z0-9_]{1,15}\) "


def _load():
    kinds = []
    for kind, _, rx, _ in log_grammar.LINE_TYPES:
        re.compile(rx)
        kinds.append((kind, rx))
    passes = [(pid, header) for pid, header, _ in log_grammar.PASSES]
    return kinds, passes


def _load_old_names():
    """{table: {old name: new name}} of the old variant names."""
    out = {}
    for table, old, new in log_grammar.OLD_NAMES:
        names = out.setdefault(table, {})
        if old in names or new in names.values():
            raise ValueError("log_grammar.OLD_NAMES: %s %s is named twice"
                             % (table, old if old in names else new))
        names[old] = new
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
