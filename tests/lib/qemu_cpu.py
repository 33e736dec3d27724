"""What a QEMU -cpu option gives a KVM guest, asked of QEMU itself (QMP
query-cpu-model-expansion), for tests that predict a KVM guest's CPUID from
this machine's: QEMU passes on only the host features it has names for and
KVM supports, so the host's CPUID alone over-predicts."""
import json
import subprocess

QEMU = "qemu-system-x86_64"

# pagebench's feature names -> QEMU's property names (target/i386/cpu.c,
# feature_word_info). QEMU before 8.0 has no names for CPUID.(7,1):EAX bits
# 10..12 (fzrm fsrs fsrc), so its "host" model cannot pass them on.
QEMU_FEATURE = {
    "erms": "erms",
    "fsrm": "fsrm",
    "fzrm": "fzrm",
    "fsrs": "fsrs",
    "fsrcs": "fsrc",
}


class QueryError(Exception):
    """QEMU did not answer the query."""


def parse_cpu_option(option):
    """'host,+invtsc,-arch-capabilities,host-cache-info=on' as QMP's
    CpuModelInfo: {"name": "host", "props": {...}}."""
    name, *words = option.split(",")
    props = {}
    for w in words:
        if w[:1] in "+-" and "=" not in w:
            props[w[1:]] = w[0] == "+"
        elif "=" in w:
            key, val = w.split("=", 1)
            props[key] = {"on": True, "off": False}.get(val, val)
        else:
            raise ValueError("-cpu %s: cannot read %r" % (option, w))
    return {"name": name, "props": props}


def expand_cpu_model(option, accel="kvm", timeout=120):
    """{property: value} of QEMU's full expansion of -cpu OPTION under ACCEL."""
    commands = [
        {"execute": "qmp_capabilities"},
        {"execute": "query-cpu-model-expansion",
         "arguments": {"type": "full", "model": parse_cpu_option(option)}},
        {"execute": "quit"},
    ]
    cmd = [QEMU, "-machine", "none", "-accel", accel, "-nodefaults",
           "-display", "none", "-qmp", "stdio"]
    try:
        r = subprocess.run(cmd, input="".join(json.dumps(c) + "\n"
                                              for c in commands).encode(),
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                           timeout=timeout)
    except (OSError, subprocess.TimeoutExpired) as e:
        raise QueryError("%s: %s" % (" ".join(cmd), e))
    stderr = r.stderr.decode(errors="replace").strip()
    why = "%s (status %d%s)" % (" ".join(cmd), r.returncode,
                                ", stderr: " + stderr if stderr else "")
    replies = []
    for line in r.stdout.decode(errors="replace").splitlines():
        try:
            msg = json.loads(line)
        except ValueError:
            raise QueryError("%s: not QMP: %r" % (why, line))
        if "event" not in msg and "QMP" not in msg:
            replies.append(msg)
    if len(replies) < 2:
        raise QueryError("%s: %d of %d replies" % (why, len(replies),
                                                   len(commands)))
    expansion = replies[1]
    if "error" in expansion:
        raise QueryError("%s: query-cpu-model-expansion: %s"
                         % (why, expansion["error"].get("desc")))
    return expansion["return"]["model"]["props"]


def exposed_features(option, features, accel="kvm"):
    """{feature: whether -cpu OPTION gives it to the guest} for pagebench
    feature names; a feature QEMU has no name for is not given."""
    props = expand_cpu_model(option, accel)
    return {f: props.get(QEMU_FEATURE[f]) is True for f in features}


def kvm_is_hardware(cpuinfo="/proc/cpuinfo"):
    """vmx or svm: /dev/kvm runs the guest on the CPU, and the guest's CPUID
    is the one QEMU set. Without them (PVM, say) it is software whose CPUID
    need not follow QEMU's (see tests/host/test_cpuid.py)."""
    with open(cpuinfo) as f:
        for line in f:
            if line.startswith("flags"):
                return bool({"vmx", "svm"} & set(line.split(":", 1)[1].split()))
    return False
