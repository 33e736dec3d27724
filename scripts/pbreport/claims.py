"""claims: the threads' and commit messages' claims (data/claims.txt),
tested per machine as holds, refuted, undecided or no-data, with the
figures as evidence (docs/report.md, "claims"). A claim is a quoted
proposition about two sets of variants, not a kernel's decision: each case
is the engine's ratio of the two, epoch by epoch, and its 95% interval
(versus.py), as diff describes two cells, held against the claim's
threshold; no interval is computed here, no rule of rules/ read and
nothing projected. The answer lines are the decisions."""
import json
import os
import re

from . import analysis as A
from . import cpufacts
from . import runinfo
from . import strings as S
from . import versus
from .parse import pass_label

CLAIMS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "data",
                      "claims.txt")
KEYS = ("id", "who", "date", "where", "quote", "quote-status",
        "proposition", "when", "quantifier", "test")
EXPECTS = ("a<b", "a>b", "a<=b")


class ClaimsError(Exception):
    pass


class Test:
    def __init__(self, text, where):
        fields = dict(f.split("=", 1) for f in text.split() if "=" in f)
        try:
            self.a = fields["a"].split(",")
            self.b = None if fields["b"] == "rest" else fields["b"].split(",")
            self.where = fields["where"].split(",")
            self.expect = fields["expect"]
        except KeyError as e:
            raise ClaimsError("%s: test without %s" % (where, e))
        if self.expect not in EXPECTS:
            raise ClaimsError("%s: expect=%s (want one of %s)" % (
                where, self.expect, ", ".join(EXPECTS)))
        for s in self.where:
            selector(s, where)          # fails early on a bad selector


class Claim:
    def __init__(self, fields, where):
        for k in ("id", "who", "quote", "quote-status", "proposition",
                  "quantifier"):
            if k not in fields:
                raise ClaimsError("%s: no %s" % (where, k))
        self.id = fields["id"][0]
        self.fields = {k: v[0] for k, v in fields.items() if k != "test"}
        self.quantifier = self.fields["quantifier"]
        if self.quantifier not in ("all", "any"):
            raise ClaimsError("%s: quantifier %s" % (where, self.quantifier))
        self.when = scope(self.fields.get("when", "*"), where)
        self.tests = [Test(t, where) for t in fields.get("test", [])]
        if not self.tests:
            raise ClaimsError("%s: no test" % where)


SCOPE_RE = re.compile(r"^([a-z_][a-z0-9_]*)(?:(>=|<=|=)(\S+))?$")


class Scope:
    """One word of a claim's when: (a feature bit, or a fact compared
    with a number or a name): which CPUs the claim speaks of."""

    def __init__(self, text, where):
        m = SCOPE_RE.match(text)
        if not m:
            raise ClaimsError("%s: bad when: %r" % (where, text))
        self.text, self.name, self.op, v = text, m.group(1), m.group(2), \
            m.group(3)
        self.value = None if v is None else int(v, 0) if re.match(
            r"^(0x[0-9a-fA-F]+|\d+)$", v) else v

    def holds(self, facts):
        """True or False, or None where the log does not say."""
        got = facts.get(self.name)
        if got is None:
            return None
        if self.op is None:
            return bool(got)
        if self.op == "=":
            return got == self.value
        if not isinstance(got, int) or not isinstance(self.value, int):
            return False
        return got >= self.value if self.op == ">=" else got <= self.value


def scope(text, where):
    t = text.strip()
    return [] if t == "*" else [Scope(w, where) for w in t.split()]


class Table:
    def __init__(self, claims):
        self.claims = claims

    def ids(self):
        return [c.id for c in self.claims]


def load_claims(path=CLAIMS):
    try:
        with open(path, encoding="utf-8") as fh:
            lines = fh.read().splitlines()
    except OSError as e:
        raise ClaimsError("cannot read %s: %s" % (path, e.strerror or e))
    claims, cur, start = [], {}, None
    for i, line in enumerate(lines + [""], 1):
        if line.startswith("#"):
            continue
        if not line.strip():
            if cur:
                claims.append(Claim(cur, "%s:%d" % (path, start)))
            cur, start = {}, None
            continue
        m = re.match(r"^([a-z-]+): ?(.*)$", line)
        if not m or m.group(1) not in KEYS:
            raise ClaimsError("%s:%d: not a claim field: %r" % (path, i, line))
        if start is None:
            start = i
        cur.setdefault(m.group(1), []).append(m.group(2))
    ids = [c.id for c in claims]
    if len(set(ids)) != len(ids):
        raise ClaimsError("%s: an id twice" % path)
    return Table(claims)


# -- selectors: where a test looks ------------------------------------------

PASS_GROUPS = {
    "hot": lambda name: "w/o flush" in name or name == "hot",
    "cold": lambda name: "w/ flush" in name or name in ("MEM", "cold"),
    "l3+": lambda name: name.startswith("L3") or name == "MEM",
    "all": lambda name: True,
}


def selector(text, where="?"):
    """("pass", suite, group) | ("strings", op, lo, hi, mismatch) |
    ("zero", op, pattern)."""
    parts = text.split(":")
    if parts[0] in ("clear", "copy", "scrub") and len(parts) == 2 and \
            parts[1] in PASS_GROUPS:
        return ("pass", parts[0], parts[1])
    if parts[0] in ("memset", "memcpy") and len(parts) == 2:
        m = re.match(r"^(\d+)-(\d+)(/mismatch)?$", parts[1])
        if m:
            return ("strings", parts[0], int(m.group(1)), int(m.group(2)),
                    bool(m.group(3)))
    if parts[0] == "zero" and len(parts) == 3 and \
            parts[1] in ("memset", "memcpy") and parts[2] in S.PATTERNS:
        return ("zero", parts[1], parts[2])
    raise ClaimsError("%s: bad selector %r" % (where, text))


def cases(m, sel):
    """[(label, {today's name: Cell}, tie)] that a selector names."""
    kind = sel[0]
    out = []
    if kind == "pass":
        _, suite, group = sel
        for p in m.ordered_passes():
            if p.suite != suite or not PASS_GROUPS[group](p.name):
                continue
            cells = {}
            for v in p.variants:        # today's names (parse renamed them)
                c = A.raw_cell(m, p, v)
                if c is not None and not c.failed:
                    cells[v] = c
            out.append((pass_label(p.suite, p.name), cells, 0.0))
    elif kind == "strings":
        _, op, lo, hi, mismatch = sel
        keep = (lambda b: b.src is not None and b.src != b.dst) \
            if mismatch else None
        for cand in S.class_cells(m, op, keep):
            lo_c, hi_c = cand.span
            if lo <= lo_c and hi_c <= hi:
                out.append(("%s %s%s" % (op, cand.label,
                                         " dst!=src" if mismatch else ""),
                            cand.cells, cand.tie))
    else:
        _, op, pattern = sel
        for b in S.zero_blocks(m):
            if b.op != op:
                continue
            cells = {}
            for v in b.variants:
                c = S.raw_cell(m, b, v, pattern)
                if c is not None and not c.failed:
                    cells[v] = c
            out.append(("%s zero pattern=%s" % (op, pattern), cells,
                        S.DEFAULT_TIE))
    return out


# -- evaluation -------------------------------------------------------------

def best_of(cells, names):
    have = [(v, cells[v]) for v in names if v in cells]
    if not have:
        return None
    return min(have, key=lambda vc: vc[1].median)


def relation(v, tie):
    """a against b by the engine's ratio of a's time over b's (v, a
    versus.Versus) against the case's threshold 1 - tie to 1 + tie:
    ("a<b" | "a>b" | "tie" | "a<=b" | "a>=b" | "undecided", why). a<b: the
    interval lies below 1 - tie; a>b: above 1 + tie; tie: within both;
    a<=b, a>=b: on one side of one threshold only; undecided: past both,
    or no interval."""
    if not v.has_interval:
        return "undecided", v.why
    lo, hi = 1 - tie, 1 + tie
    if v.hi < lo:
        rel, where = "a<b", "below %g" % lo
    elif v.lo > hi:
        rel, where = "a>b", "above %g" % hi
    elif v.lo >= lo and v.hi <= hi:
        rel, where = "tie", "within %g to %g" % (lo, hi)
    elif v.hi <= hi:
        rel, where = "a<=b", "not above %g, reaching below %g" % (hi, lo)
    elif v.lo >= lo:
        rel, where = "a>=b", "not below %g, reaching above %g" % (lo, hi)
    else:
        rel, where = "undecided", ("it holds 1" if not tie else
                                   "it reaches below %g and above %g" % (lo, hi))
    return rel, "a/b %.4f [%.4f, %.4f] over %d epochs: %s" % (
        v.median, v.lo, v.hi, v.epochs, where)


SATISFIES = {"a<b": {"a<b"}, "a>b": {"a>b"}, "a<=b": {"a<b", "tie", "a<=b"}}
CONTRADICTS = {"a<b": {"a>b", "tie", "a>=b"}, "a>b": {"a<b", "tie", "a<=b"},
               "a<=b": {"a>b"}}


def fig(x):
    if x is None:
        return "-"
    return "%.0f" % x if abs(x) >= 100 else "%.3g" % x


def gather(c, m, batch):
    """A claim's cases on machine m, each comparison added to batch: a
    result (no-data) where the claim does not apply or finds no figures,
    else [(evidence, versus.Versus, tie)] for result_of() once batch has run."""
    facts, _ = cpufacts.machine_facts(m)
    got = [w.holds(facts) for w in c.when]
    needs = [w.name for w, g in zip(c.when, got) if g is None]
    ok = False if False in got else None if needs else True
    if ok is False:
        return {"machine": m.name, "verdict": "no-data",
                "why": "the claim is about CPUs with %s; this log says %s" % (
                    " ".join(w.text for w in c.when), ", ".join(
                        "%s=%s" % (n, _fact_text(facts, n))
                        for n in dict.fromkeys(w.name for w in c.when))),
                "evidence": []}
    if ok is None:
        return {"machine": m.name, "verdict": "no-data",
                "why": "the log does not say %s, which the claim needs" %
                ", ".join(sorted(set(needs))), "evidence": []}
    out = []
    for t in c.tests:
        for s in t.where:
            for label, cells, tie in cases(m, selector(s)):
                a = best_of(cells, t.a)
                bnames = t.b if t.b is not None else \
                    [v for v in cells if v not in t.a]
                b = best_of(cells, bnames)
                if a is None or b is None:
                    continue
                out.append(({"case": label, "a": a[0], "b": b[0],
                             "a_median": a[1].median, "b_median": b[1].median,
                             "expect": t.expect},
                            batch.versus(b[1], [a[1]])[0], tie))
    if not out:
        return {"machine": m.name, "verdict": "no-data",
                "why": "the log has no figures for the variants and passes "
                       "the claim names", "evidence": []}
    return out


def result_of(c, m, cases_):
    """The result of gather()'s cases, their comparisons made."""
    evidence, states = [], []
    for e, v, tie in cases_:
        rel, why = relation(v, tie)
        if rel in SATISFIES[e["expect"]]:
            st = "agrees"
        elif rel in CONTRADICTS[e["expect"]]:
            st = "contradicts"
        else:
            st = "open"
        states.append(st)
        e.update({"delta_pct": None if v.median is None else round(100 * v.delta, 2),
                  "ratio": v.median, "lo": v.lo, "hi": v.hi, "epochs": v.epochs,
                  "a_figure": v.figures and v.figures[1],
                  "b_figure": v.figures and v.figures[0],
                  "relation": rel, "why": why, "state": st})
        evidence.append(e)
    if c.quantifier == "all":
        if "contradicts" in states:
            v = "refuted"
        elif all(s == "agrees" for s in states):
            v = "holds"
        else:
            v = "undecided"
    else:
        if "agrees" in states:
            v = "holds"
        elif all(s == "contradicts" for s in states):
            v = "refuted"
        else:
            v = "undecided"
    why = ""
    if v == "undecided":
        opened = [e for e in evidence if e["state"] == "open"]
        why = "%d of %d cases not separated (%s)" % (
            len(opened), len(evidence), opened[0]["why"])
    elif v == "refuted":
        bad = [e for e in evidence if e["state"] == "contradicts"]
        why = "%d of %d cases contradict it" % (len(bad), len(evidence))
    else:
        good = [e for e in evidence if e["state"] == "agrees"]
        why = "%d of %d cases agree" % (len(good), len(evidence))
    return {"machine": m.name, "verdict": v, "why": why,
            "evidence": evidence}


def _fact_text(facts, name):
    v = facts.get(name)
    if v is None:
        return "?"
    return "0x%x" % v if name == "family" else str(v)


def evaluate(table, machines, ids=None):
    """Each claim on each machine, every comparison made by one run of
    the engine."""
    out, batch, pending = [], versus.Batch(), []
    for c in table.claims:
        if ids and c.id not in ids:
            continue
        row = {"id": c.id}
        row.update({k: c.fields.get(k) for k in
                    ("who", "date", "where", "quote", "quote-status",
                     "proposition", "when", "quantifier")})
        row["tests"] = [{"a": t.a, "b": t.b or "rest", "where": t.where,
                         "expect": t.expect} for t in c.tests]
        row["results"] = []
        for m in machines:
            pending.append((c, m, row, gather(c, m, batch)))
        out.append(row)
    batch.run()
    for c, m, row, got in pending:
        r = got if isinstance(got, dict) else result_of(c, m, got)
        r["caveat"] = runinfo.caveat(m)
        row["results"].append(r)
    return out


def evidence_text(e):
    s = "%s: %s %s vs %s %s (%+.1f%%)" % (
        e["case"], e["a"], fig(e["a_median"]), e["b"], fig(e["b_median"]),
        e["delta_pct"] if e["delta_pct"] is not None else 0.0)
    return s + " %s, %s" % (e["relation"], e["why"])


def text(res, max_evidence=4):
    out = []
    for c in res:
        out.append("== %s: %s, %s" % (c["id"], c["who"], c["date"]))
        out.append("   where: %s" % c["where"])
        out.append("   quote: %s [%s]" % (c["quote"], c["quote-status"]))
        out.append("   claim: %s" % c["proposition"])
        for r in c["results"]:
            out.append("   %s: %s%s%s" % (r["machine"], r["verdict"],
                                          " (%s)" % r["why"] if r["why"]
                                          else "",
                                          "; note: " + r["caveat"]
                                          if r.get("caveat") else ""))
            ev = r["evidence"]
            order = sorted(ev, key=lambda e: {"contradicts": 0, "open": 1,
                                              "agrees": 2}[e["state"]])
            for e in order[:max_evidence]:
                out.append("      " + evidence_text(e))
            if len(ev) > max_evidence:
                out.append("      ... %d more cases (--json lists all)" % (
                    len(ev) - max_evidence))
        out.append("")
    return "\n".join(out)


def to_json(res):
    return json.dumps({"format": "pagebench-report-claims/1",
                       "claims": res}, indent=1) + "\n"
