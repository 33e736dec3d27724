"""Which QEMU accelerator and CPU model a boot gets: the one rule that
scripts/run-qemu and scripts/run-linux-module both follow."""
import os

# KVM with -cpu host: QEMU 7.2 here cannot set ARCH_CAPABILITIES, and the
# guest sees the real caches only with host-cache-info and TOPOEXT. The
# first that QEMU accepts is used.
KVM_CPUS = ["host,+invtsc,host-cache-info=on,+topoext",
            "host,-arch-capabilities,+invtsc,host-cache-info=on,+topoext"]
TCG_CPUS = ["max"]


def kvm_usable():
    return os.path.exists("/dev/kvm") and os.access("/dev/kvm", os.R_OK | os.W_OK)


def cpu_flags(cpuinfo="/proc/cpuinfo"):
    try:
        with open(cpuinfo) as f:
            for line in f:
                if line.startswith("flags"):
                    return set(line.split(":", 1)[1].split())
    except OSError:
        pass
    return set()


def default_accel(cpuinfo="/proc/cpuinfo"):
    """(accel, why TCG, or None). KVM only where it runs the guest on the
    CPU: without vmx or svm, a /dev/kvm (PVM, say) emulates every guest
    instruction, thousands of times slower than the CPU and slower than TCG."""
    if not kvm_usable():
        return "tcg", "/dev/kvm is missing or not usable"
    if not cpu_flags(cpuinfo) & {"vmx", "svm"}:
        return "tcg", ("/dev/kvm is there, but this CPU shows no vmx or svm, so KVM "
                       "would emulate every guest instruction (--accel kvm forces it)")
    return "kvm", None


def cpu_models(accel):
    """The -cpu models to try, in order, under accel."""
    return KVM_CPUS if accel == "kvm" else TCG_CPUS
