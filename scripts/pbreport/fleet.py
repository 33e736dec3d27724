"""Fleets: one pdsh/clush stream split into machines, and the choice that
serves a group of machines.

pdsh and clush (without -b) put "HOST: " in front of every line a host
prints; a stream whose tagged lines mostly carry such a prefix is split
into one input per host, named by the host. Machines are grouped by what
the kernels' rules look at (vendor, family and the feature bits the
rules read), and an emulator's logs apart from a CPU's; per group, function and pass the fleet row names the variant
as good as the winner on every machine, or else the one whose worst loss
against the machines' winners is smallest, and where it loses.
"""
import itertools
import re

from . import parse as P
from . import rules as R

PREFIX_RE = re.compile(rb"^([A-Za-z0-9][A-Za-z0-9._@-]{0,252}): (.*)$")
TAGGED_RE = re.compile(rb"^\([A-Za-z0-9_]{1,15}\) ")


def host_of(line):
    """(host, the host's line) when line is "HOST: (TAG) ...", else None."""
    m = PREFIX_RE.match(line)
    if m and TAGGED_RE.match(m.group(2)):
        return m.group(1), m.group(2)
    return None


def is_stream(lines):
    """Whether lines are a pdsh/clush stream: more tagged lines carry a
    host prefix than not."""
    prefixed = plain = 0
    for ln in lines:
        if host_of(ln):
            prefixed += 1
        elif TAGGED_RE.match(ln):
            plain += 1
    return prefixed > plain


def split_prefixed(data):
    """([(host, bytes)], [(line number, text)] of lines from no host) when
    data is a pdsh/clush stream, else None. A host is a prefix in front of
    at least one tagged line; pdsh's own messages ("pdsh@admin: ...") and
    other text are left over."""
    lines = data.replace(b"\r\n", b"\n").split(b"\n")
    if lines and lines[-1] == b"":
        lines.pop()
    if not is_stream(lines):
        return None
    hosts = set(h for h, _ in filter(None, map(host_of, lines)))
    streams, left = {}, []
    for i, ln in enumerate(lines, 1):
        m = PREFIX_RE.match(ln)
        if m and m.group(1) in hosts:
            streams.setdefault(m.group(1).decode("ascii", "replace"),
                               []).append(m.group(2))
        elif ln.strip():
            left.append((i, ln))
    return ([(h, b"\n".join(ls) + b"\n") for h, ls in streams.items()],
            left)


# How many lines of an input decide whether it is a pdsh/clush stream, and
# how many hosts one stream may have: the input is read as it comes, in
# bounded memory, so a host is known from its first tagged line on (its
# untagged lines before that are left over).
STREAM_PEEK = 4096
MAX_HOSTS = 4096


def read_input(path, **limits):
    """Like parse.read_path, splitting a pdsh/clush stream per host.
    limits: parse's max_line and max_input."""
    def read(fh, source, name):
        lines = P.Lines(fh, **limits)
        it = iter(lines)
        head = list(itertools.islice(it, STREAM_PEEK))
        if not is_stream([raw for raw, _, _, _ in head]):
            r = P.Reader(source, name, **limits)
            for rec in itertools.chain(head, it):
                r.take(*rec)
            r.end(lines)
            return r.machines, r.diags
        return read_stream(itertools.chain(head, it), lines, source, limits)
    return P.read_input(path, read)


def read_stream(records, lines, source, limits):
    """A pdsh/clush stream: each host's lines to a Reader of its own (its
    machines named by the host), the rest reported as left over."""
    readers = {}
    left = P.Reader(source, source, **limits)   # only for its reports
    for raw, size, terminated, sep in records:
        left.lineno += 1
        m = PREFIX_RE.match(raw)
        r = readers.get(m.group(1)) if m else None
        if r is None and m and TAGGED_RE.match(m.group(2)):
            if len(readers) < MAX_HOSTS:
                host = m.group(1).decode("ascii", "replace")
                r = readers[m.group(1)] = P.Reader(
                    "%s[%s]" % (source, host), host, **limits)
            else:
                left.skip(left.lineno, "a host past the first %d of the "
                          "stream" % MAX_HOSTS)
                continue
        if r is not None:
            r.take(m.group(2), size - (len(raw) - len(m.group(2))),
                   terminated, sep)
        elif raw.strip():
            left.skip(left.lineno, "not a host's pagebench line (no HOST: "
                      "prefix of a host that printed one)")
    machines, diags = [], []
    left.end(lines)
    diags += left.diags
    for r in readers.values():
        r.end()
        machines += r.machines
        diags += r.diags
    return machines, diags


def load(paths, **limits):
    """parse.load, reading pdsh/clush streams host by host. limits:
    parse's max_line and max_input."""
    machines, diags = [], []
    for path in paths:
        ms, ds = read_input(path, **limits)
        machines += ms
        diags += ds
    P.dedupe_names(machines)
    return machines, diags


# -- groups -----------------------------------------------------------------

def group_key(facts, names):
    def val(k):
        v = facts.get(k)
        if v is None:
            return "?"
        return "0x%x" % v if k == "family" else str(v)
    return tuple((k, val(k)) for k in names)


def group_names(tabs):
    """vendor, family, then every other fact a rule reads (model, vfm and
    cpuid1_eax are finer than a group)."""
    skip = {"vendor", "family", "model", "stepping", "vfm", "cpuid1_eax"}
    return ["vendor", "family"] + [n for n in tabs.facts_used()
                                   if n not in skip]


def group_text(key):
    return " ".join("%s=%s" % kv for kv in key)


def fleet(verdicts, tabs=None):
    """[row] over machine verdicts (verdict.machine_verdict dicts)."""
    tabs = tabs or R.tables()
    # A fact no log has (fast_string) would only add "?" to every group.
    names = [n for n in group_names(tabs)
             if any(n in v["features"] for v in verdicts)]
    groups = {}
    for v in verdicts:
        key = group_key(v["features"], names)
        # An emulator's figures are no CPU's: they get a group of their
        # own, as do those whose answer lines say so.
        if v.get("runs_on") not in (None, "cpu"):
            key += (("runs_on", v["runs_on"]),)
        elif any(a["why"] == "not-a-cpu" for a in v.get("answers", ())):
            key += (("runs_on", "not-a-cpu"),)
        groups.setdefault(key, []).append(v)
    rows = []
    for key, vs in groups.items():
        # Each (function, pass), in the order first seen: its decisions
        # keyed by machine name, gathered in one walk over the group.
        by_pass = {}
        for v in vs:
            for d in v["decisions"]:
                by_pass.setdefault((d["function"], d["pass"]), {})[v["machine"]] = d
        for (fn, ps), ds in by_pass.items():
            rows.append(fleet_row(key, vs, fn, ps, ds))
    return rows


def fleet_row(key, vs, fn, ps, ds):
    """The row of one group, function and pass; ds maps each machine name
    to its decision there."""
    machines = list(ds)
    row = {"group": dict(key), "function": fn, "pass": ps,
           "machines": machines,
           "group_machines": [v["machine"] for v in vs],
           "missing": [v["machine"] for v in vs if v["machine"] not in ds]}
    common = None
    for d in ds.values():
        common = set(d["best"]) if common is None else common & set(d["best"])
    first = next(iter(ds.values()))
    everywhere = [b for b in first["best"] if b in (common or ())]
    if everywhere:
        row.update({"choice": everywhere[0], "best_everywhere": everywhere,
                    "worst_loss_pct": 0.0, "loses_on": [],
                    "decided_everywhere": all(d["decidable"]
                                              for d in ds.values())})
        return row
    # Min-max loss over the variants measured on every machine.
    loss = {}
    for machine, d in ds.items():
        for b in d["best"]:
            loss.setdefault(b, {})[machine] = 0.0
        for name, r in d["relations"].items():
            if not r["state"] in ("same", "tie", "undecided", "untested",
                                  "faster") and r["delta_pct"] is not None:
                loss.setdefault(name, {})[machine] = r["delta_pct"]
    full = {v: l for v, l in loss.items() if len(l) == len(ds)}
    if not full:
        row.update({"choice": None, "best_everywhere": [],
                    "worst_loss_pct": None, "loses_on": [],
                    "decided_everywhere": False})
        return row
    choice = min(full, key=lambda v: (max(full[v].values()), v))
    row.update({"choice": choice, "best_everywhere": [],
                "worst_loss_pct": max(full[choice].values()),
                "loses_on": [{"machine": mn, "loss_pct": l}
                             for mn, l in full[choice].items() if l > 0],
                "decided_everywhere": all(d["decidable"]
                                          for d in ds.values())})
    return row


def text(rows):
    out = ["fleet: per group of machines (what the rules read) and pass, "
           "the variant as good as the winner on every machine, else the "
           "smallest worst-case loss"]
    last = None
    for r in rows:
        g = group_text(tuple(r["group"].items()))
        if g != last:
            out.append("")
            out.append("group %s: %s" % (g, ", ".join(r["group_machines"])))
            last = g
        if r["choice"] is None:
            s = "no variant measured on every machine"
        elif r["best_everywhere"]:
            n = len(r["machines"])
            s = "%s is as good as the winner %s" % (
                r["choice"], "on its one machine" if n == 1 else
                "on all %d machines" % n)
            if len(r["best_everywhere"]) > 1:
                s += " (also: %s)" % ", ".join(r["best_everywhere"][1:])
            if not r["decided_everywhere"]:
                s += "; not decided on every machine"
        else:
            s = "no variant is as good as the winner everywhere; " \
                "min-max loss: %s, worst %+.1f%%, loses on %s" % (
                    r["choice"], r["worst_loss_pct"], ", ".join(
                        "%s (%+.1f%%)" % (x["machine"], x["loss_pct"])
                        for x in r["loses_on"]))
        if r["missing"]:
            s += "; no figures on %s" % ", ".join(r["missing"])
        out.append("  %s %s: %s" % (r["function"], r["pass"], s))
    return "\n".join(out) + "\n"
