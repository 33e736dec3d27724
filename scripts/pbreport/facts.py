"""A machine's header facts as (label, text) pairs, for people to read."""


def kib(k):
    if k is None:
        return "unknown"
    if k == 0:
        return "none"
    if k % 1024 == 0:
        return "%d MiB" % (k // 1024)
    return "%d KiB" % k


def describe_bytes(b):
    if b is None:
        return "unknown"
    if b % (1024 * 1024) == 0:
        return "%d MiB" % (b // (1024 * 1024))
    if b % 1024 == 0:
        return "%d KiB" % (b // 1024)
    return "%d B" % b


ORDER = ("format", "source", "tag", "version", "cpu", "brand", "microcode",
         "string ops", "cache", "features", "hypervisor", "tsc", "hot load", "tsc checks", "memory",
         "cmdline", "plan", "flush", "timer", "variants clear", "variants copy",
         "variant names", "skipped variants", "skipped passes", "runtime", "result")


def facts(m):
    """[(label, text)] in a fixed order; facts the log lacks say so."""
    f = m.facts
    out = [("format", "pagebench" if m.format == "pagebench"
            else "Jan Beulich's 2021 Xen experiment"),
           ("source", "%s lines %d-%d" % (m.source, m.first_line,
                                          m.last_line)),
           ("tag", m.tag or "?")]
    if "version" in f:
        out.append(("version", f["version"]))
    cpu = f.get("cpu")
    if cpu:
        out.append(("cpu", "%s family 0x%x model 0x%x stepping %d" % (
            cpu["vendor"], cpu["family"], cpu["model"], cpu["stepping"])))
    if "brand" in f:
        out.append(("brand", f["brand"]))
    if "ucode" in f:
        out.append(("microcode", f["ucode"]))
    x = f.get("xen")
    if x:
        out.append(("string ops", " ".join("%s=%d" % (k, x[k]) for k in
                                          ("erms", "fsrm", "fzrm", "fsrs",
                                           "fsrcs"))))
    c = f.get("cache")
    if c:
        out.append(("cache", "L1d %s, L2 %s, L3 %s, line %d B (from %s)" % (
            kib(c["l1d"]), kib(c["l2"]), kib(c["l3"]), c["line"],
            c["source"])))
    elif x:
        out.append(("cache", "L1d %s, L2 %s, L3 unknown" % (
            kib(x["l1d"]), kib(x["l2"]))))
    else:
        out.append(("cache", "unknown"))
    feats = f.get("features")
    if feats:
        on = [k for k, v in feats.items() if v]
        off = [k for k, v in feats.items() if not v]
        out.append(("features", " ".join(on) + (
            "  (not: %s)" % " ".join(off) if off else "")))
    if "hypervisor" in f:
        out.append(("hypervisor", f["hypervisor"]))
    t = f.get("tsc")
    if t and t.get("khz"):
        out.append(("tsc", "%d kHz (from %s)" % (t["khz"], t["source"])))
    elif t:
        out.append(("tsc", "unknown (%s): times in ticks only" % t["source"]))
    else:
        out.append(("tsc", "unknown: times in ticks only"))
    h = f.get("hot_load")
    if h and "loads" in h:
        out.append(("hot load", "%s a load (%d in %d ticks): run by %s" % (
            "?" if h["ns"] is None else "%.2f ns" % h["ns"], h["loads"],
            h["ticks"], {"cpu": "a CPU", "emulator": "an instruction emulator",
                         "tcg": "QEMU's TCG"}.get(h["runs_on"], "?"))))
    elif h:
        out.append(("hot load", h["source"]))
    checks = f.get("tsc_checks")
    if checks:
        out.append(("tsc checks", ", ".join(
            "%s %d kHz (%+d ppm)" % (c["source"], c["khz"], c["diff_ppm"])
            for c in checks)))
    if "memory_mb" in f:
        out.append(("memory", "%d MiB usable" % f["memory_mb"]
                    if f["memory_mb"] is not None else "not in dump"))
    c = f.get("cpus")
    if c:
        text = "%d of %d online (apic %s, %s)" % (c["online"], c["of"],
                                                  c["apic"], c["mode"])
        if f.get("numa"):
            text += ", %d NUMA nodes" % len(f["numa"])
        for ids, why in f.get("cpus_left_out", []):
            text += "; apic %s %s" % (ids, why)
        out.append(("cpus", text))
    if "cmdline" in f:
        out.append(("cmdline", f["cmdline"] or "(empty)"))
    if "boot" in f:
        out.append(("boot", f["boot"]))
    p = f.get("plan")
    if p and p["reps"] is not None:
        out.append(("plan", "suite=%s reps=%d passes=%s" % (
            p["suite"], p["reps"], p["passes"])))
    elif p and p.get("time_ms"):
        out.append(("plan", "suite=%s passes=%s, epochs until the run's %d ms "
                    "are spent on the questions still open" % (
                        p["suite"], p["passes"], p["time_ms"])))
    elif p:
        out.append(("plan", "suite=%s passes=%s, epochs until every figure "
                    "is within %g%% or a pass has spent %d ms" % (
                        p["suite"], p["passes"], p["precision"],
                        p["budget_ms"])))
    if "flush" in f:
        out.append(("flush", f["flush"]))
    t = f.get("tsc_step")
    if t:
        out.append(("timer", "TSC step %d ticks, narrowest LFENCE;RDTSC pair "
                    "%d ticks" % (t["step"], t["region"])))
    for suite, vs in f.get("variants", {}).items():
        out.append(("variants " + suite, " ".join(vs) or "(none)"))
    if m.renamed:
        out.append(("variant names", "an old log's (no variant lines), read "
                    "as today's: " + "; ".join(
                        "%s %s -> %s" % r for r in m.renamed)))
    if m.skipped_variants:
        out.append(("skipped variants", "; ".join(
            "%s (%s): %s" % sv for sv in m.skipped_variants)))
    if m.skipped_passes:
        out.append(("skipped passes", "; ".join(
            "%s: %s" % sp for sp in m.skipped_passes)))
    if "runtime" in f:
        out.append(("runtime", "%d ms" % f["runtime"]["ms"]))
    out.append(("result", result(m)))
    if "log" in f:
        out.append(("log file", f["log"]))
    return out


def result(m):
    if m.done is None:
        if m.format == "pagebench":
            return "incomplete: %s" % m.incomplete
        return "complete as far as the format tells (no \"done:\" line in it)"
    s = "done: %d failure%s" % (m.done, "" if m.done == 1 else "s")
    if m.interrupted:
        s = "incomplete: %s; %s" % (m.incomplete, s)
    if m.complete:
        s += ", run complete, %s" % m.complete
    return s
