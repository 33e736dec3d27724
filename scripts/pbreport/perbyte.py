"""diff across machines whose passes clear or copy different byte counts:
figures per 4 KiB page instead of per pass (docs/report.md, "diff")."""
from . import analysis as A
from .parse import pass_bytes, pass_label

PAGE = 4096


class PerPage(A.Unit):
    """A time unit (ticks or ns) per 4 KiB page of the pass's bytes."""

    per_page = True

    def __init__(self, base):
        super().__init__(base.name)
        self.base = base

    @property
    def label(self):
        return "%s per 4 KiB page" % self.base.label

    @staticmethod
    def scale(c, m, p):
        return scaled(c, m, p)


def scaled(c, m, p):
    """A cell of pass p scaled from per pass to per 4 KiB page, or None
    when the pass's bytes are unknown."""
    b = pass_bytes(m, p.suite, p.name)
    if c is None or not b:
        return None
    return c.scaled(PAGE / b)


def differences(machines):
    """[(pass label, [(machine, bytes)])] of the passes whose bytes differ
    between machines."""
    out = []
    for key in A.pass_keys(machines):
        got = [(m.name, pass_bytes(m, *key)) for m in machines
               if key in m.passes]
        if len(got) > 1 and len(set(b for _, b in got)) > 1:
            out.append((pass_label(*key), got))
    return out


def choose(machines, unit, per_call, per_page):
    """(unit, header note) for diff: per 4 KiB page where the sizes differ
    (or on request), per pass otherwise (or on request)."""
    if unit == A.RATIO:
        return unit, None
    diffs = differences(machines)
    if per_call or (not diffs and not per_page):
        note = None
        if diffs:
            note = ("per pass on request (--per-call), although the "
                    "machines' sizes differ: " + sizes_text(diffs))
        return unit, note
    note = "per 4 KiB page: %s" % (
        "on request (--per-page)" if not diffs else
        "the machines' sizes differ, so per-pass times are not comparable "
        "(" + sizes_text(diffs) + "); --per-call shows them per pass")
    return PerPage(unit), note


def sizes_text(diffs, most=3):
    parts = ["%s: %s" % (label, ", ".join(
        "%s %s" % (name, "?" if b is None else "%d B" % b)
        for name, b in got)) for label, got in diffs[:most]]
    if len(diffs) > most:
        parts.append("%d more" % (len(diffs) - most))
    return "; ".join(parts)
