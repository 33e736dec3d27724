"""What a log says about its CPU, as facts pagebench-decide
reads (decided.py) and claims are scoped by: the cpu line, the features
line, the 2021 Xen header's bits, and the instructions a variant that ran
proves. A bit the log does not carry is absent, not 0: nothing here
guesses, and nothing evaluates a rule (the C engine does)."""

# Feature bits that the Xen header of a 2021 log carries.
XEN_HEADER_BITS = ("erms", "fsrm", "fzrm", "fsrs", "fsrcs")
# A variant that ran proves its instruction: Jan's 2021 code ran CLZERO,
# AVX and AVX-512 only where the CPU has them.
PROVEN_BY = (("clzero", ("clzero", "clzero_sf")), ("avx", ("avx",)),
             ("avx512f", ("avx512",)))


def machine_facts(m):
    """{name: value} of what the log says about the CPU, and where each
    came from ({name: source})."""
    f, src = {}, {}
    cpu = m.facts.get("cpu")
    if cpu:
        for k in ("vendor", "family", "model", "stepping"):
            f[k] = cpu[k]
            src[k] = "cpu line"
    for k, v in (m.facts.get("features") or {}).items():
        f[k] = v
        src[k] = "features line"
    x = m.facts.get("xen")
    if x:
        for k in XEN_HEADER_BITS:
            if k not in f:
                f[k] = x[k]
                src[k] = "Xen header"
    ran = set()
    for p in m.passes.values():
        ran.update(s.variant for s in p.samples)
    for bit, variants in PROVEN_BY:
        if bit not in f and ran.intersection(variants):
            f[bit] = 1
            src[bit] = "a %s variant ran" % bit
    return f, src
