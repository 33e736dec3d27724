"""How a run was made, from its header lines, for people to read: the CPU,
the host that ran pagebench, what ran it (runs_on), the plan, and the
command that makes it again."""
import os
import re

HOST_RE = re.compile(r"release=(\S+) cpu=(\d+) online=(\d+)")
RUNS_ON_TEXT = {"tcg": "QEMU's TCG translator", "emulator":
                "an instruction emulator"}


def cpu_text(m):
    """"GenuineIntel family 0x6 model 0xcf stepping 2, Intel(R) Xeon(R)
    Processor"; what the log lacks, said."""
    c = m.facts.get("cpu")
    s = ("%s family 0x%x model 0x%x stepping %d" % (
        c["vendor"], c["family"], c["model"], c["stepping"]) if c else
        "vendor, family and model unknown (no cpu line)")
    brand = m.facts.get("brand")
    return s + (", " + brand if brand and brand != "(none)" else "")


def host(m):
    """(program, text): which pagebench ran and on what."""
    f = m.facts
    hv = (f.get("hypervisor") or "").strip()
    under = "" if hv in ("", "none") else " under %s" % hv
    for key, prog in (("linux", "pagebench-linux"), ("module", "pagebench.ko")):
        rel = f.get(key, {}).get("release")
        g = HOST_RE.search(rel) if rel and key == "linux" else None
        if key == "linux" and g:
            return prog, "%s on Linux %s (cpu %s of %s)%s" % (
                prog, g.group(1), g.group(2), g.group(3), under)
        if key == "module" and rel:
            return prog, "%s in Linux %s%s" % (prog, rel, under)
    if m.format != "pagebench":
        return "xen-2021", "Jan Beulich's 2021 Xen code"
    boot = f.get("boot")
    how = " (%s)" % boot.split(" ")[0] if boot else ""
    return "kernel", "the pagebench kernel%s%s" % (how, under or
                                                  " on bare metal")


# This project names the log of a run that measured an instruction
# emulator so (tests/fixtures/report/qemu-kvm-emulator-*.log): the logs
# from before the hot load line say it nowhere else (their cpu line is
# the host's CPU, their hypervisor KVM's).
EMULATOR_NAME_RE = re.compile(r"(^|[-_.])emulator([-_.]|$)", re.I)


def runs_on(m):
    """What ran the log: its hot load line's "cpu", "emulator" or "tcg";
    "tcg" from the hypervisor line of a log without one; "emulator" where
    the log's or its file's name says so; else None (unknown)."""
    h = m.facts.get("hot_load") or {}
    if h.get("runs_on"):
        return h["runs_on"]
    if (m.facts.get("hypervisor") or "").strip().startswith("TCG"):
        return "tcg"
    names = (m.name, os.path.basename(m.source or ""))
    if any(EMULATOR_NAME_RE.search(n or "") for n in names):
        return "emulator"
    return None


def caveat(m):
    """Why the figures may not be a CPU's, where the log shows it."""
    hv = (m.facts.get("hypervisor") or "").strip()
    if hv.startswith("TCG"):
        return ("hypervisor %s: the figures measure QEMU's TCG translator, "
                "not a CPU" % hv)
    h = m.facts.get("hot_load") or {}
    if h.get("runs_on") == "emulator":
        return ("hot load %.2f ns, where a CPU's takes a few: the figures "
                "measure an instruction emulator, not a CPU" % h["ns"])
    if runs_on(m) == "emulator":
        return ("the log's name says it measured an instruction emulator "
                "(it has no hot load line): not a CPU")
    return None


def runs_on_text(m):
    r = runs_on(m)
    if r is None:
        return "runs_on unknown (no hot load line)"
    if r in RUNS_ON_TEXT:
        how = "" if (m.facts.get("hot_load") or {}).get("runs_on") or \
            r == "tcg" else " (the log's name says so; no hot load line)"
        return "runs_on=%s: %s, not a CPU%s" % (r, RUNS_ON_TEXT[r], how)
    return "runs_on=%s" % r


def plan_text(m, passes=True):
    p = m.facts.get("plan")
    if not p:
        return "plan unknown (no plan line)"
    s = "suite=%s reps=%s" % (p["suite"], "auto" if p["reps"] is None
                              else p["reps"])
    if passes:
        s += " passes=" + p["passes"]
    if p.get("time_ms"):
        s += " time=%gs" % (p["time_ms"] / 1000)
    elif p.get("precision") is not None:
        s += " precision=%g%% budget=%dms" % (p["precision"], p["budget_ms"])
    return s


def options(m):
    """The options the run was given, from its cmdline line (the kernel's
    starts with its own path, which is no option)."""
    text = (m.facts.get("cmdline") or "").split()
    if text and "/" in text[0] and "=" not in text[0]:
        text = text[1:]
    return text


def command(m):
    """The command that reproduces the run, or None where the log cannot
    say (Jan's 2021 logs)."""
    prog, _ = host(m)
    opts = options(m)
    if prog == "pagebench-linux":
        # Where the log went is not how it was measured, and a rerun with
        # the same log= is refused: that file exists.
        return " ".join(["build/bin/pagebench-linux"] +
                        [o for o in opts if not o.startswith("log=")])
    quoted = " ".join(opts)
    if prog == "pagebench.ko":
        return "scripts/run-linux-module" + (
            ' --append "%s"' % quoted if opts else "")
    if prog == "kernel":
        hv = (m.facts.get("hypervisor") or "").strip()
        if hv and hv != "none":
            accel = " --accel tcg" if hv.startswith("TCG") else \
                " --accel kvm" if hv.startswith("KVM") else ""
            return "scripts/run-qemu --kernel" + accel + (
                ' --append "%s"' % quoted if opts else "")
        return "boot build/pagebench.elf" + (
            " with the command line: " + quoted if opts else "")
    return None
