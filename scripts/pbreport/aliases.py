"""Old logs' variant names, read as today's (docs/log-format.md, "Variant
names").

A run without `variant` lines comes from before the one naming
convention: its copy and strings tables used plain names for temporal
stores. Its names go through grammar.OLD_NAMES, in every place the parser
keeps one, so that old and new logs compare. The table itself is data in
docs/log-format.md; this module only applies it.
"""
from . import grammar


def plan(m, old_names=None):
    """(renames, clash) for machine m: renames is [(table, old, new)] for
    the names of m that an old log's table changes, in table order; clash
    is None, or text saying why names cannot be changed (a new name that
    the log also has under an old one). A run with `variant` lines is
    new: nothing to change."""
    old_names = grammar.OLD_NAMES if old_names is None else old_names
    if m.facts.get("variant"):
        return [], None
    present = names_by_table(m)
    renames, clash = [], []
    for table, names in old_names.items():
        have = present.get(table, set())
        changed = [(old, new) for old, new in names.items() if old in have]
        # A new name the run has already, and not as an old name being
        # renamed away, would merge two variants into one.
        taken = have - set(old for old, _ in changed)
        clash += ["%s %s -> %s" % (table, old, new)
                  for old, new in changed if new in taken]
        renames += [(table, old, new) for old, new in changed]
    if clash:
        return [], ("variant names of both conventions and no `variant` "
                    "lines (%s would clash); names kept as the log has them"
                    % ", ".join(clash))
    return renames, None


def names_by_table(m):
    """{table: set of variant names} over everything m keeps by name."""
    out = {}

    def add(table, name):
        out.setdefault(table, set()).add(name)
    for p in m.passes.values():
        for v in p.variants:
            add(p.suite, v)
    if m.strings is not None:
        for b in m.strings.blocks.values():
            for v in b.variants:
                add(b.op, v)
    for table, vs in m.facts.get("variants", {}).items():
        for v in vs:
            add(table, v)
    for v, table, _ in m.skipped_variants:
        add(table, v)
    for table, _, v in m.verify_failed:
        add(table, v)
    for c in m.cycles:
        add(c["suite"], c["variant"])
    return out


def apply(m, renames):
    """Renames m's variants in place: renames as plan() gives them."""
    by_table = {}
    for table, old, new in renames:
        by_table.setdefault(table, {})[old] = new
    if not by_table:
        return

    def name(table, v):
        return by_table.get(table, {}).get(v, v)
    for p in m.passes.values():
        if p.suite in by_table:
            _rename_pass(p, lambda v: name(p.suite, v))
    if m.strings is not None:
        for b in m.strings.blocks.values():
            if b.op in by_table:
                _rename_block(b, lambda v: name(b.op, v))
    f = m.facts
    if "variants" in f:
        f["variants"] = {t: [name(t, v) for v in vs]
                         for t, vs in f["variants"].items()}
    m.skipped_variants = [(name(t, v), t, why)
                          for v, t, why in m.skipped_variants]
    m.verify_failed = set((t, p, name(t, v)) for t, p, v in m.verify_failed)
    for c in m.cycles:
        c["variant"] = name(c["suite"], c["variant"])
    m.renamed = list(renames)


def _rename_pass(p, name):
    p.rename_variants(name)
    for a in p.aggregates.values():
        a.variant = name(a.variant)
    p.aggregates = {name(v): a for v, a in p.aggregates.items()}
    p.iters = {name(v): n for v, n in p.iters.items()}
    p.variants = [name(v) for v in p.variants]
    p.memo.clear()


def _rename_block(b, name):
    for f in b.figures.values():
        f.variant = name(f.variant)
    b.figures = {(name(v), k): f for (v, k), f in b.figures.items()}
    b.variants = [name(v) for v in b.variants]
    b._listed = set((kind, name(x) if kind == "v" else x)
                    for kind, x in b._listed)
    b.memo.clear()


def log_name(m, table, name):
    """The name the log gave a variant of m that is now called name."""
    for t, old, new in m.renamed:
        if t == table and new == name:
            return old
    return name
