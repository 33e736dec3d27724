"""Fleets: one pdsh/clush stream split into machines.

pdsh and clush (without -b) put "HOST: " in front of every line a host
prints; a stream whose tagged lines mostly carry such a prefix is split
into one input per host, named by the host. The one choice per group of
CPUs is the answers' (commit.py), never decided here.
"""
import itertools
import re

from . import parse as P

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
