"""Export of every sample: CSV, JSON, and Go's benchmark format."""
import csv
import io
import json
import re

from . import facts as F
from . import grammar
from . import strings as S
from .parse import pass_bytes, pass_label, pass_names

CSV_COLUMNS = ["machine", "source", "suite", "pass", "variant", "kind",
               "iter", "pre", "ticks", "post", "n", "min", "median", "max",
               "bytes", "tsc_khz", "ns", "line"]


def rows(machines):
    """One dict per sample (kind "sample") and per copy-hot/copy-cold line
    (kind "aggregate"), in log order within each pass."""
    for m in machines:
        khz = m.tsc_khz
        for p in m.ordered_passes():
            b = pass_bytes(m, p.suite, p.name)
            for s in p.samples:
                yield {"machine": m.name, "source": m.source,
                       "suite": p.suite, "pass": p.name, "variant": s.variant,
                       "kind": "sample", "iter": s.iter, "pre": s.pre,
                       "ticks": s.ticks, "post": s.post, "n": None,
                       "min": None, "median": None, "max": None, "bytes": b,
                       "tsc_khz": khz,
                       "ns": (s.ticks * 1e6 / khz) if khz else None,
                       "line": s.line}
            for a in sorted(p.aggregates.values(), key=lambda a: a.line):
                yield {"machine": m.name, "source": m.source,
                       "suite": p.suite, "pass": p.name, "variant": a.variant,
                       "kind": "aggregate", "iter": None, "pre": None,
                       "ticks": None, "post": None, "n": a.n, "min": a.min,
                       "median": a.median, "max": a.max, "bytes": b,
                       "tsc_khz": khz,
                       "ns": (a.median * 1e6 / khz) if khz else None,
                       "line": a.line}
        yield from S.export_rows(m)


# Each write_* streams its format to out (anything with write(str)) one
# row at a time, so that memory holds the parsed samples and no copy of
# them; to_* return the same text as a string.

# A spreadsheet takes a cell that starts with one of these for a formula
# (OWASP, "CSV Injection"): a machine title "=HYPERLINK(...)" would be a
# live link. Such text cells get a ' in front, which the spreadsheet shows
# as text. Cells of numbers are left alone, so that -1.5 stays a number:
# only text from the log (machine, source, variant ...) can be a formula.
FORMULA_START = ("=", "+", "-", "@", "\t", "\r")


def csv_cell(v):
    if v is None:
        return ""
    if isinstance(v, float):
        return "%.3f" % v
    if isinstance(v, str) and v.startswith(FORMULA_START):
        return "'" + v
    return v


def write_csv(machines, out):
    w = csv.DictWriter(out, fieldnames=CSV_COLUMNS, lineterminator="\n")
    w.writeheader()
    for r in rows(machines):
        w.writerow({k: csv_cell(v) for k, v in r.items()})


def _as_text(write):
    def to_text(machines):
        buf = io.StringIO()
        write(machines, buf)
        return buf.getvalue()
    to_text.__doc__ = "%s, as a string." % write.__name__
    return to_text


def machine_json(m):
    return {"name": m.name, "source": m.source,
            "lines": [m.first_line, m.last_line], "format": m.format,
            "tag": m.tag, "facts": m.facts,
            "facts_text": [[k, v] for k, v in F.facts(m)],
            "failures": [{"line": l, "text": t} for l, t in m.failures],
            "skipped_variants": [{"variant": v, "suite": s, "reason": r}
                                 for v, s, r in m.skipped_variants],
            "renamed_variants": [{"table": t, "old": o, "new": n}
                                 for t, o, n in m.renamed],
            "skipped_passes": [{"pass": p, "reason": r}
                               for p, r in m.skipped_passes],
            "done": m.done, "complete": m.complete,
            "truncated": m.truncated and m.format == "pagebench",
            "passes": [{"suite": p.suite, "pass": p.name,
                        "label": pass_label(p.suite, p.name),
                        "bytes": pass_bytes(m, p.suite, p.name),
                        "variants": p.variants}
                       for p in m.ordered_passes()],
            "strings": S.machine_json(m)}


_JSON = json.JSONEncoder(indent=1)


def _json_list(out, items):
    """Writes the items as the JSON array of a key of the top object, as
    json.dumps(indent=1) lays it out."""
    first = True
    for x in items:
        out.write("[\n  " if first else ",\n  ")
        out.write(_JSON.encode(x).replace("\n", "\n  "))
        first = False
    out.write("[]" if first else "\n ]")


def write_json(machines, out):
    """{"format": ..., "machines": [...], "samples": [...]}, the layout of
    json.dumps(doc, indent=1), written a machine and a sample at a time."""
    out.write('{\n "format": "pagebench-report/1",\n "machines": ')
    _json_list(out, (machine_json(m) for m in machines))
    out.write(',\n "samples": ')
    _json_list(out, ({k: v for k, v in r.items() if v is not None}
                     for r in rows(machines)))
    out.write("\n}\n")


# -- Go benchmark format ---------------------------------------------------
def bench_pass(header):
    """A pass's part of a Go benchmark name, from its header in
    docs/log-format.md: "L1 w/o flush" -> "L1-hot", "L1 w/ flush" ->
    "L1-flush", "L1 hot buffer" -> "L1-hotbuf" (the peers' state), "copy-hot"
    -> "page-hot" (a page copied each way)."""
    for suffix, part in ((" w/o flush", "-hot"), (" w/ flush", "-flush"),
                         (" hot buffer", "-hotbuf")):
        if header.endswith(suffix):
            return header[:-len(suffix)] + part
    if header.startswith("copy-"):
        return "page-" + header[len("copy-"):]
    return header


def bench_passes(pass_table):
    """{pass name (as parse names it) -> its part of benchmark names}."""
    return {name: bench_pass(header) for name, (_, header) in
            zip(pass_names(pass_table), pass_table)}


BENCH_PASS = bench_passes(grammar.PASS_TABLE)


def config(m):
    """[(key, value)] configuration lines for one machine."""
    f = m.facts
    kv = [("machine", m.name), ("source", m.source), ("format", m.format)]
    if "version" in f:
        kv.append(("pagebench-version", f["version"]))
    cpu = f.get("cpu")
    if cpu:
        kv += [("cpu-vendor", cpu["vendor"]),
               ("cpu-family", "0x%x" % cpu["family"]),
               ("cpu-model", "0x%x" % cpu["model"]),
               ("cpu-stepping", str(cpu["stepping"]))]
    if f.get("brand"):
        kv.append(("cpu", f["brand"]))
    if "ucode" in f:
        kv.append(("ucode", f["ucode"]))
    for lvl in ("l1d", "l2", "l3"):
        k = m.cache_k(lvl)
        if k is not None:
            kv.append((lvl, "%dk" % k))
    x = f.get("xen")
    if x:
        for k in ("erms", "fsrm", "fzrm", "fsrs", "fsrcs"):
            kv.append((k, str(x[k])))
    if f.get("features"):
        kv.append(("features", " ".join(k for k, v in f["features"].items()
                                        if v)))
    if "hypervisor" in f:
        kv.append(("hypervisor", f["hypervisor"]))
    if m.tsc_khz:
        kv.append(("tsc-khz", str(m.tsc_khz)))
    if f.get("flush"):
        kv.append(("flush", f["flush"]))
    clean = []
    for k, v in kv:
        v = re.sub(r"\s+", " ", str(v)).strip()
        if v:
            clean.append((k, v))
    return clean


def write_benchfmt(machines, out):
    prev = {}
    for i, m in enumerate(machines):
        cfg = dict(config(m))
        if i:
            out.write("\n")
        for k in prev:
            if k not in cfg:
                out.write("%s:\n" % k)      # an empty value unsets a key
        for k, v in cfg.items():
            out.write("%s: %s\n" % (k, v))
        out.write("\n")
        prev = cfg
        for line in _bench_lines(m):
            out.write(line + "\n")
        for line in S.benchfmt_lines(m):
            out.write(line + "\n")


def _bench_lines(m):
    khz = m.tsc_khz
    for p in m.ordered_passes():
        # Go's benchmark names take no '=' or blank inside a part.
        name = "Benchmark%s/pass=%s" % (p.suite.capitalize(),
                                       BENCH_PASS.get(p.name, p.name)
                                       .replace("=", "").replace(" ", "-"))
        b = pass_bytes(m, p.suite, p.name)
        for s in p.samples:
            line = "%s/variant=%s 1 %d ticks/op" % (name, s.variant, s.ticks)
            if khz:
                ns = s.ticks * 1e6 / khz
                line += " %.1f ns/op" % ns
                if b and ns:
                    line += " %.4g B/s" % (b / ns * 1e9)
            if s.pre is not None and s.post is not None:
                line += " %d pre-ticks/op %d post-ticks/op" % (s.pre, s.post)
            yield line
        for a in sorted(p.aggregates.values(), key=lambda a: a.line):
            line = "%s/variant=%s %d %d ticks/op %d min-ticks/op " \
                   "%d max-ticks/op" % (name, a.variant, a.n, a.median,
                                        a.min, a.max)
            if khz:
                line += " %.1f ns/op" % (a.median * 1e6 / khz)
            yield line


to_csv, to_json, to_benchfmt = (_as_text(w) for w in (
    write_csv, write_json, write_benchfmt))
